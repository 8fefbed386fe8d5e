export * from "./errors.js";
export * from "./common.js";
export * from "./config.js";
export * from "./roadmap.js";
export * from "./console.js";
export * from "./feature-requests.js";
export * from "./intake.js";
