/** The simulator's order desk: placement checks, order records, cancels, reads and user frames. */
export * from "./answers.js";
export * from "./cursor.js";
export * from "./format.js";
export * from "./records.js";
export * from "./checks.js";
export * from "./frames.js";
export * from "./expiry.js";
export * from "./desk.js";
export * from "./cancels.js";
export * from "./reads.js";
export * from "./portfolio.js";
export * from "./genesis.js";
