/**
 * The wallet surface beyond orders (spec 4.7, 4.8): withdrawal bodies and answers, the portfolio
 * reads whose shapes are not shown, vault co-signature / deploy / emergency answers. Every shape
 * here is a choice recorded in docs/spec-gaps.md ("Withdrawals, vault flows and the rest of the
 * wallet surface"); responses are loose (extra keys pass), request bodies strict.
 */
import { z } from "zod";
import type { withdrawalStatus } from "./enums.js";
import { withdrawal } from "./portfolio.js";
import { vaultOperation } from "./vault-ops.js";
import { address, amountString, hexString, isoDateTime, nextCursor, positiveAmountString, uint256String } from "./primitives.js";

/** Largest `limit` of `GET /api/me/withdrawals` (spec 4.7: default 100, max 200). */
export const WITHDRAWALS_MAX_LIMIT = 200;
export const BALANCE_EVENTS_MAX_LIMIT = 500;
export const SPLITS_MERGES_MAX_LIMIT = 200;

/**
 * `POST /api/withdrawals/request` (body not shown). The vault owner signs the EIP-712
 * `Withdrawal{vault, destination, amount, nonce, deadline}` (src/signing/withdrawal.ts); the
 * platform co-signs later (CO_SIGNED): the dual signature of 4.7. `amount` is human decimal
 * (2.9), signed as micro-units; `nonce` deduplicates per wallet; `deadline` is unix seconds.
 */
export const withdrawalRequestBody = z.strictObject({
  vault: address,
  destination: address,
  amount: positiveAmountString,
  nonce: uint256String,
  deadline: uint256String,
  signature: hexString,
});
export type WithdrawalRequestBody = z.infer<typeof withdrawalRequestBody>;

/** 200 answer of a request (and of a repeat with the same nonce): the record. */
export const withdrawalAnswer = withdrawal;

/** `GET /api/me/withdrawals`: `{walletAddress, withdrawals, nextCursor}`, newest first. */
export const withdrawalsListPage = z.looseObject({
  walletAddress: address.optional(),
  withdrawals: z.array(withdrawal),
  nextCursor,
});
export type WithdrawalsListPage = z.infer<typeof withdrawalsListPage>;

/** `GET /api/me/withdrawals/fee[?amount=]`: the fee the platform keeps, in the settlement token. */
export const withdrawalFee = z.looseObject({
  walletAddress: address.optional(),
  fee: amountString,
  amount: amountString.nullish(),
  netAmount: amountString.nullish(),
});
export type WithdrawalFee = z.infer<typeof withdrawalFee>;

/** `GET /api/me/withdrawals/deposit-sources`: addresses that funded the vault, and the pinned one. */
export const depositSources = z.looseObject({
  walletAddress: address.optional(),
  sources: z.array(z.union([address, z.looseObject({ address })])),
  pinned: address.nullable(),
});
export type DepositSources = z.infer<typeof depositSources>;

/** `GET /api/me/portfolio`. */
export const portfolioSummary = z.looseObject({
  walletAddress: address,
  vaultAddress: address,
  collateral: z.looseObject({ total: amountString, locked: amountString, available: amountString }),
  positions: z.array(z.record(z.string(), z.unknown())),
});
export type PortfolioSummary = z.infer<typeof portfolioSummary>;

export const autoRedeem = z.looseObject({ walletAddress: address.optional(), enabled: z.boolean() });
export type AutoRedeem = z.infer<typeof autoRedeem>;

/** `GET /api/me/balance-events`: rows not shown (loose records), cursor paged. */
export const balanceEventsPage = z.looseObject({
  walletAddress: address.optional(),
  events: z.array(z.record(z.string(), z.unknown())),
  nextCursor,
});
export type BalanceEventsPage = z.infer<typeof balanceEventsPage>;

/** `GET /api/me/splits-merges`: operations (rows not shown: ours, src/wire/vault-ops.ts), newest first, cursor paged. */
export const splitsMergesPage = z.looseObject({
  walletAddress: address.optional(),
  operations: z.array(vaultOperation),
  nextCursor,
});
export type SplitsMergesPage = z.infer<typeof splitsMergesPage>;

/** `GET /api/me/splits-merges/unlockable`: one page (`nextCursor` may be absent). */
export const unlockablePage = z.looseObject({
  walletAddress: address.optional(),
  operations: z.array(vaultOperation),
  nextCursor: nextCursor.optional(),
});
export type UnlockablePage = z.infer<typeof unlockablePage>;

/**
 * `POST /api/me/vault/deploy/sign`: what the owner signs to deploy the vault. `typedData` is an
 * EIP-712 payload (`domain`, `types`, `primaryType`, `message`) the client signs verbatim.
 */
export const vaultDeploySign = z.looseObject({
  walletAddress: address,
  vaultAddress: address,
  typedData: z.looseObject({
    domain: z.record(z.string(), z.unknown()),
    types: z.record(z.string(), z.array(z.looseObject({ name: z.string(), type: z.string() }))),
    primaryType: z.string(),
    message: z.record(z.string(), z.unknown()),
  }),
  digest: hexString,
  deadline: uint256String,
  nonce: uint256String,
});
export type VaultDeploySign = z.infer<typeof vaultDeploySign>;

/** `POST /api/me/vault/deploy/submit` body: the signature over the sign step's digest. */
export const vaultDeploySubmitBody = z.strictObject({
  nonce: uint256String,
  deadline: uint256String,
  signature: hexString,
});
export type VaultDeploySubmitBody = z.infer<typeof vaultDeploySubmitBody>;

export const VAULT_DEPLOY_STATUSES = ["DEPLOYING", "DEPLOYED"] as const;

export const vaultDeployment = z.looseObject({
  walletAddress: address,
  vaultAddress: address,
  status: z.enum(VAULT_DEPLOY_STATUSES),
  txHash: hexString.nullable(),
  deployedAt: isoDateTime.nullable(),
});
export type VaultDeployment = z.infer<typeof vaultDeployment>;

/** `POST /api/me/vault/emergency` answer: open orders cancelled, withdrawals frozen. */
export const vaultEmergency = z.looseObject({
  walletAddress: address,
  vaultAddress: address,
  status: z.string(),
  requestedAt: isoDateTime,
  cancelledOrders: z.array(z.string()),
  cancelledWithdrawals: z.array(z.string()),
});
export type VaultEmergency = z.infer<typeof vaultEmergency>;

/** The statuses a withdrawal can still be cancelled in (spec 3.2). */
export const CANCELLABLE_WITHDRAWAL_STATUSES = ["PENDING", "MLRO_REVIEW", "CO_SIGNED"] as const satisfies readonly z.infer<typeof withdrawalStatus>[];
