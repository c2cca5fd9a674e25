/** The wire contract shared by the typed client and the platform simulator. */
export * from "./primitives.js";
export * from "./enums.js";
export * from "./markets.js";
export * from "./events.js";
export * from "./discovery.js";
export * from "./orders.js";
export * from "./order-record.js";
export * from "./portfolio.js";
export * from "./platform.js";
export * from "./requests.js";
export * from "./errors.js";
export * from "./frames.js";
export * from "./codes.js";
export * from "./vouched.js";
export * from "./accounts.js";
export * from "./public-reads.js";
export * from "./vault-ops.js";
export { quickCheckOf, safeParseQuick, type Quick } from "./quick.js";
