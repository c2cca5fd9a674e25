/**
 * The two wallet reads that show settlement (spec 4.8, shapes not shown: docs/spec-gaps.md):
 *
 *   GET /api/me/balance-events  {walletAddress, events: [{id, kind, amount, balance, marketId,
 *                               tradeId, createdAt}], nextCursor}   newest first, default 100, max 500
 *   GET /api/me/auto-redeem     {walletAddress, enabled: true, pending: [{marketId, status, settledAt}]}
 *
 * Balance events are the ledger's log (deposit, withdraw, trade, fee, payout, split, merge): `amount`
 * is the signed change of the wallet's settlement-token total, `balance` the total after it,
 * `marketId` the market symbol (null for deposits and withdrawals). A resolution or void pays each
 * held position with one `payout` event. Auto-redeem is always on: the platform pays settled
 * markets by itself; `pending` lists the settled markets (RESOLVED / VOIDED) in which the wallet
 * still holds shares that have not been paid (a late payout: `Simulator.setPayoutDelay`).
 */
import { z } from "zod";
import { checkQuery, requestErrorEnvelope, type QueryInput } from "../../wire/requests.js";
import type { MatchingEngine } from "../engine/index.js";
import type { SimPlatform } from "../platform/platform.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import { base64url, fromBase64url, legacyBeforeMs } from "./cursor.js";
import { amount } from "./format.js";
import { isoOf } from "../platform/time.js";

export const BALANCE_EVENTS_DEFAULT_LIMIT = 100;
export const BALANCE_EVENTS_MAX_LIMIT = 500;

const limitParam = z.string().regex(/^\d{1,9}$/, { error: "expected a positive integer" }).transform(Number).pipe(z.number().min(1, { error: "expected a limit >= 1" }));
const pageQuery = z.looseObject({ cursor: z.string().min(1).optional(), limit: limitParam.optional(), before: z.string().min(1).optional() });

function badParam(field: string, message: string): DeskAnswer {
  return errorAnswer(400, "invalid_request", message, { fields: [field], field });
}

export function balanceEvents(engine: MatchingEngine, wallet: string, query: QueryInput): DeskAnswer {
  const q = checkQuery(pageQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  let belowSeq = Number.POSITIVE_INFINITY;
  let beforeMs = Number.POSITIVE_INFINITY;
  if (q.value.cursor !== undefined) {
    const m = /^be:(\d{1,12})$/.exec(fromBase64url(q.value.cursor) ?? "");
    if (m === null) return badParam("cursor", "cursor is not a cursor of this endpoint");
    belowSeq = Number(m[1]);
  }
  if (q.value.before !== undefined) {
    const ms = legacyBeforeMs(q.value.before);
    if (ms === undefined) return badParam("before", "before must be an ISO-8601 date-time or epoch milliseconds");
    beforeMs = ms;
  }
  const limit = Math.min(q.value.limit ?? BALANCE_EVENTS_DEFAULT_LIMIT, BALANCE_EVENTS_MAX_LIMIT);
  const log = engine.ledger.balanceLog;
  const account = engine.ledger.find(wallet);
  const rows = account === undefined ? [] : log.rowsOfAccount(account);
  const events: Record<string, unknown>[] = [];
  let lastSeq: number | undefined;
  let more = false;
  for (let i = rows.length - 1; i >= 0; i--) {
    const e = log.get(rows[i]!);
    if (e.seq >= belowSeq || e.atMs >= beforeMs) continue;
    if (events.length === limit) {
      more = true;
      break;
    }
    events.push({
      id: `be${e.seq}`,
      kind: e.kind,
      amount: amount(e.amount),
      balance: amount(e.balance),
      marketId: e.marketId ?? null,
      tradeId: e.tradeId ?? null,
      createdAt: isoOf(e.atMs),
    });
    lastSeq = e.seq;
  }
  return { status: 200, body: { walletAddress: wallet, events, nextCursor: more && lastSeq !== undefined ? base64url(`be:${lastSeq}`) : null } };
}

export function autoRedeemState(platform: SimPlatform, engine: MatchingEngine, wallet: string): DeskAnswer {
  const pending: { marketId: string; status: string; settledAt: string | null }[] = [];
  for (const symbol of engine.unpaidMarkets()) {
    if (!engine.positions(wallet, symbol).some((p) => p.quantity > 0n)) continue;
    const m = platform.catalogue.marketBySymbol(symbol, true);
    const st = m === undefined ? undefined : platform.catalogue.lifecycle(m.id);
    const at = st?.resolvedAtMs ?? st?.voidedAtMs ?? null;
    pending.push({ marketId: symbol, status: st?.status ?? "RESOLVED", settledAt: at === null ? null : isoOf(at) });
  }
  return { status: 200, body: { walletAddress: wallet, enabled: true, pending } };
}
