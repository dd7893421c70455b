export * from "./plan.js";
