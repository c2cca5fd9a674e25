/**
 * Portfolio and withdrawal resources: the withdrawal record (spec 2.9) and the `/api/me/*`
 * shapes chosen in docs/spec-gaps.md (balances, positions, vault info).
 */
import { z } from "zod";
import { withdrawalStatus } from "./enums.js";
import {
  address,
  amountString,
  decimalString,
  hexString,
  isoDateTime,
  nextCursor,
  nonNegativeInt,
  uint256String,
  uuid,
} from "./primitives.js";

/** Spec 2.9. `txHash` appears once SUBMITTED, `reason` on REJECTED/FAILED/CANCELLED rows. */
export const withdrawal = z.looseObject({
  id: uuid,
  userWallet: address,
  amount: amountString,
  destination: address,
  status: withdrawalStatus,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  txHash: hexString.nullish(),
  reason: z.string().nullish(),
});
export type Withdrawal = z.infer<typeof withdrawal>;

/** `GET /api/me/withdrawals` (shape not shown). Chosen: `{withdrawals, nextCursor}`. */
export const withdrawalsPage = z.looseObject({ withdrawals: z.array(withdrawal), nextCursor });
export type WithdrawalsPage = z.infer<typeof withdrawalsPage>;

export const collateralBalance = z.looseObject({
  total: amountString,
  locked: amountString,
  available: amountString,
});
export type CollateralBalance = z.infer<typeof collateralBalance>;

/** `GET /api/me/balances`. */
export const balances = z.looseObject({
  walletAddress: address,
  vaultAddress: address,
  collateral: collateralBalance,
});
export type Balances = z.infer<typeof balances>;

/** One outcome-token holding; `locked` is the part reserved by resting SELL orders. */
export const position = z.looseObject({
  marketId: z.string(),
  tokenId: uint256String,
  outcome: nonNegativeInt,
  quantity: amountString,
  locked: amountString,
  avgPrice: decimalString.nullable(),
});
export type Position = z.infer<typeof position>;

/** `GET /api/me/positions`. */
export const positionsPage = z.looseObject({
  walletAddress: address,
  positions: z.array(position),
  nextCursor,
});
export type PositionsPage = z.infer<typeof positionsPage>;

/** `GET /api/me/vault`. */
export const vaultInfo = z.looseObject({
  walletAddress: address,
  vaultAddress: address,
  deployed: z.boolean(),
});
export type VaultInfo = z.infer<typeof vaultInfo>;
