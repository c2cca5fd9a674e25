/** Rate limits of spec section 8: the table, subjects, the platform's fixed windows, the client's gate. */
export * from "./table.js";
export * from "./keys.js";
export * from "./windows.js";
export * from "./fixed-window.js";
export * from "./gate.js";
export * from "./overrides.js";
export type { LedgerEntry } from "./window-ledger.js";
