/**
 * Split, merge and convert (spec 4.8; every shape "not shown": ours, docs/spec-gaps.md, "Split,
 * merge and convert"). One body for the three co-signature routes, one operation record for their
 * answers, `GET /api/me/splits-merges`, the unlockable list and the unlock answer.
 */
import { z } from "zod";
import { address, amountString, hexString, isoDateTime, positiveAmountString, uint256String } from "./primitives.js";

export const vaultOpKind = z.enum(["split", "merge", "convert"]);
export type VaultOpKindWire = z.infer<typeof vaultOpKind>;

/** pending: locked off-chain, chain tx not confirmed yet; confirmed: effect applied; failed: tx never confirmed (lock still held, unlockable); unlocked: lock released. */
export const vaultOpStatus = z.enum(["pending", "confirmed", "failed", "unlocked"]);
export type VaultOpStatus = z.infer<typeof vaultOpStatus>;

/**
 * `POST /api/vault/{split,merge,convert}-signature` body: the owner's EIP-712
 * `VaultOperation{vault, kind, marketId, amount, nonce, deadline}` signature (src/signing/vault-ops.ts).
 * `amount`: collateral to split, complete sets to merge, NO shares to convert (decimal, 6 places).
 */
export const vaultOpBody = z.strictObject({
  vault: address,
  marketId: z.string().min(1).max(200),
  amount: positiveAmountString,
  nonce: uint256String,
  deadline: uint256String,
  signature: hexString,
});
export type VaultOpBody = z.infer<typeof vaultOpBody>;

/** A share lock or a share movement of an operation. */
export const vaultOpShares = z.looseObject({
  marketId: z.string(),
  outcome: z.number().int().min(0),
  tokenId: z.string(),
  quantity: amountString,
});
export type VaultOpShares = z.infer<typeof vaultOpShares>;

export const vaultOperation = z.looseObject({
  opId: z.string().min(1),
  kind: vaultOpKind,
  walletAddress: address,
  vaultAddress: address,
  marketId: z.string(),
  /** Neg-risk event of the market (convert); null for a market outside one. */
  eventId: z.string().nullable(),
  amount: amountString,
  status: vaultOpStatus,
  nonce: uint256String,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  /** When a pending operation's chain transaction is expected to confirm; null once it ended. */
  confirmsAt: isoDateTime.nullable(),
  txHash: hexString.nullable(),
  reason: z.string().nullable(),
  /** What the off-chain lock holds while pending or failed (zero / empty once released or applied). */
  lockedCollateral: amountString,
  lockedShares: z.array(vaultOpShares),
});
export type VaultOperation = z.infer<typeof vaultOperation>;
