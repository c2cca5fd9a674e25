/**
 * Order salts. A salt only has to make two otherwise identical orders hash differently, so 64
 * random bits are plenty. Production draws them from the OS CSPRNG (salts must not be guessable
 * or repeat across restarts); tests and the backtester inject a seeded Rng so runs replay exactly.
 */
import { getRandomValues } from "node:crypto";
import type { Rng } from "../core/rng.js";

export type SaltSource = () => bigint;

const scratch = new Uint32Array(2);

export const cryptoSaltSource: SaltSource = () => {
  getRandomValues(scratch);
  return (BigInt(scratch[0]!) << 32n) | BigInt(scratch[1]!);
};

/** Deterministic salts from a seeded generator. */
export function rngSaltSource(rng: Rng): SaltSource {
  return () => (BigInt(rng.nextU32()) << 32n) | BigInt(rng.nextU32());
}
