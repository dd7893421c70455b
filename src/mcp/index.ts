/** MCP integration: config files, tolerant listing, live sessions, LangChain tools over the MCP client, capture. */
export * from "./config.js";
export * from "./list-tools.js";
export * from "./connection.js";
export * from "./tools.js";
export * from "./session.js";
export * from "./capture.js";
export * from "./pins.js";
export { PostgresPins, type PinPostgresStore } from "./pins-postgres.js";
