/** EIP-712 order signing: domain and hashing, order building, wallet signers, verification, diagnosis. */
export * from "./types.js";
export * from "./errors.js";
export * from "./eip712.js";
export { keccakBackend, keccakReady } from "./keccak.js";
export * from "./salt.js";
export * from "./order-builder.js";
export * from "./signer.js";
export * from "../config/key-file.js";
export * from "./verify.js";
export * from "./diagnose.js";
export * from "./withdrawal.js";
export * from "./vault-ops.js";
