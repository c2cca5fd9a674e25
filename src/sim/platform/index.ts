/** The simulator's platform layer: partners, keys, auth, wallets, lifecycle, catalogue, scenario, faults. */
export * from "./errors.js";
export * from "./time.js";
export * from "./derive.js";
export * from "./partners.js";
export * from "./keys.js";
export * from "./auth.js";
export * from "./wallets.js";
export * from "./lifecycle.js";
export * from "./catalogue.js";
export * from "./market-json.js";
export * from "./faults.js";
export * from "./scenario.js";
export * from "./platform.js";
