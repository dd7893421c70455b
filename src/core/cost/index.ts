export * from "./profiles.js";
export * from "./prefix-cache.js";
export * from "./wire.js";
