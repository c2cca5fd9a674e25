/**
 * The rest of the wallet surface of spec 4.8 (withdrawals, vault deployment and the emergency are
 * in withdrawals.ts, vault-deploy.ts and emergency.ts; split, merge, convert, the splits-merges
 * list, the unlockable list and the unlock in vault-ops.ts), answered with the spec's codes,
 * scopes and paging rules so a client or probe sees platform behaviour (shapes not shown: ours):
 *
 *   GET  /api/me/portfolio            {walletAddress, vaultAddress, collateral, positions}
 *   GET  /api/me/fee-tier             {walletAddress, tier, takerFeeMultiplier}
 *   GET  /api/me/auto-redeem          {walletAddress, enabled: false}
 *   GET  /api/me/deposit-limits       {walletAddress, daily: null, weekly: null, monthly: null}
 *   GET  /api/me/balance-events       {walletAddress, events: [], nextCursor: null}    limit <= 500
 *
 * Lists validate `limit` (positive integer, larger values clamped), `before` (an ISO-8601
 * date-time or epoch ms, as every list: cursor.ts legacyBeforeMs) and `cursor` (none is ever issued, so any cursor is refused); other parameters are ignored.
 */
import { checkQuery, requestErrorEnvelope, type QueryInput } from "../../wire/requests.js";
import { z } from "zod";
import type { MatchingEngine } from "../engine/index.js";
import type { SimPlatform } from "../platform/platform.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import { legacyBeforeMs } from "./cursor.js";
import { amount } from "./format.js";

const listQuery = z.looseObject({
  cursor: z.string().min(1).optional(),
  limit: z.string().regex(/^\d{1,9}$/, { error: "expected a positive integer" }).transform(Number).pipe(z.number().min(1, { error: "expected a limit >= 1" })).optional(),
  before: z.string().min(1).optional(),
});


/** Validate a list query; undefined when it is fine. */
function badList(query: QueryInput): DeskAnswer | undefined {
  const q = checkQuery(listQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  if (q.value.cursor !== undefined) return errorAnswer(400, "invalid_request", "cursor is not a cursor of this endpoint", { fields: ["cursor"], field: "cursor" });
  if (q.value.before !== undefined && legacyBeforeMs(q.value.before) === undefined) {
    return errorAnswer(400, "invalid_request", "before must be an ISO-8601 date-time or epoch milliseconds", { fields: ["before"], field: "before" });
  }
  return undefined;
}

const ok = (body: unknown): DeskAnswer => ({ status: 200, body });

export function portfolio(platform: SimPlatform, engine: MatchingEngine, wallet: string, nowMs: number): DeskAnswer {
  const b = engine.balance(wallet);
  return ok({
    walletAddress: wallet,
    vaultAddress: platform.wallets.vaultInfo(wallet, nowMs).vaultAddress.toLowerCase(),
    collateral: { total: amount(b.total), locked: amount(b.locked), available: amount(b.available) },
    positions: engine.positions(wallet).map((p) => ({ marketId: p.marketId, tokenId: p.tokenId, outcome: p.outcome, quantity: amount(p.quantity), locked: amount(p.locked), avgPrice: amount(p.avgPrice) })),
  });
}

export function feeTier(wallet: string): DeskAnswer {
  return ok({ walletAddress: wallet, tier: "standard", takerFeeMultiplier: "1" });
}

export function autoRedeem(wallet: string): DeskAnswer {
  return ok({ walletAddress: wallet, enabled: false });
}

export function depositLimits(wallet: string): DeskAnswer {
  return ok({ walletAddress: wallet, daily: null, weekly: null, monthly: null });
}

/** An always-empty cursor list under `key` (balance-events). */
export function emptyList(wallet: string, key: string, query: QueryInput, paged = true): DeskAnswer {
  const bad = badList(query);
  if (bad) return bad;
  return ok(paged ? { walletAddress: wallet, [key]: [], nextCursor: null } : { walletAddress: wallet, [key]: [] });
}
