/**
 * Portfolio reads of the effective wallet (spec 4.8; shapes in docs/spec-gaps.md), from the
 * engine's ledger and trade log:
 *
 * - `/api/me/vault` `{walletAddress, vaultAddress, deployed}`;
 * - `/api/me/balances` `{walletAddress, vaultAddress, collateral: {total, locked, available}}`;
 * - `/api/me/positions` `{walletAddress, positions, nextCursor}`: the full list when `limit` is
 *   omitted, else pages of at most 50 (larger values clamped) in market then outcome order;
 * - `/api/me/trades` `{trades, nextCursor}`: NEWEST FIRST (the daemon walks down to the last trade
 *   it saw), default 50, max 200 (clamped), keyset cursor over the trade log, legacy `before`
 *   (ISO-8601 or epoch ms: strictly older); rows in the caller's token with `role` and `orderId`;
 * - `/api/me/fees` `{walletAddress, feesPaid, fees: [{tradeId, orderId, marketId, outcome, fee,
 *   feeRateBps, createdAt}], nextCursor}`: the wallet's taker fees per fill, newest first,
 *   default 100, max 500 (clamped), same cursor as trades.
 *
 * Unknown query parameters are ignored here (spec 4: "ignored on most endpoints").
 */
import { base64url, fromBase64url, legacyBeforeMs } from "./cursor.js";
import { z } from "zod";
import type { TradeRecord } from "../engine/index.js";
import type { MatchingEngine } from "../engine/index.js";
import type { SimPlatform } from "../platform/platform.js";
import { checkQuery, requestErrorEnvelope, type QueryInput } from "../../wire/requests.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import { amount, partyTradeJson, roleOf } from "./format.js";
import { isoOf } from "../platform/time.js";

const limitParam = z.string().regex(/^\d{1,9}$/, { error: "expected a positive integer" }).transform(Number).pipe(z.number().min(1, { error: "expected a limit >= 1" }));

const pageQuery = z.looseObject({ cursor: z.string().min(1).optional(), limit: limitParam.optional(), before: z.string().min(1).optional() });

export const POSITIONS_MAX_LIMIT = 50;
export const TRADES_DEFAULT_LIMIT = 50;
export const TRADES_MAX_LIMIT = 200;
export const FEES_DEFAULT_LIMIT = 100;
export const FEES_MAX_LIMIT = 500;

function badParam(field: string, message: string): DeskAnswer {
  return errorAnswer(400, "invalid_request", message, { fields: [field], field });
}

export function vaultInfo(platform: SimPlatform, wallet: string, nowMs: number): DeskAnswer {
  const v = platform.wallets.vaultInfo(wallet, nowMs);
  return { status: 200, body: { walletAddress: v.walletAddress, vaultAddress: v.vaultAddress.toLowerCase(), deployed: v.deployed } };
}

export function balances(platform: SimPlatform, engine: MatchingEngine, wallet: string, nowMs: number): DeskAnswer {
  const b = engine.balance(wallet);
  return {
    status: 200,
    body: {
      walletAddress: wallet,
      vaultAddress: platform.wallets.vaultInfo(wallet, nowMs).vaultAddress.toLowerCase(),
      collateral: { total: amount(b.total), locked: amount(b.locked), available: amount(b.available) },
    },
  };
}

export function positions(engine: MatchingEngine, wallet: string, query: QueryInput): DeskAnswer {
  const q = checkQuery(pageQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  let after: [number, number] | undefined;
  if (q.value.cursor !== undefined) {
    const m = /^pos:(\d{1,9}):(\d{1,9})$/.exec(fromBase64url(q.value.cursor) ?? "");
    if (m === null) return badParam("cursor", "cursor is not a cursor of this endpoint");
    after = [Number(m[1]), Number(m[2])];
  }
  const rows = engine.positions(wallet).map((p) => ({ p, mi: engine.market(p.marketId).index }));
  const rest = after === undefined ? rows : rows.filter(({ p, mi }) => mi > after[0] || (mi === after[0] && p.outcome > after[1]));
  const limit = q.value.limit === undefined ? rest.length : Math.min(q.value.limit, POSITIONS_MAX_LIMIT);
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  return {
    status: 200,
    body: {
      walletAddress: wallet,
      positions: page.map(({ p }) => ({
        marketId: p.marketId,
        tokenId: p.tokenId,
        outcome: p.outcome,
        quantity: amount(p.quantity),
        locked: amount(p.locked),
        avgPrice: amount(p.avgPrice),
      })),
      nextCursor: rest.length > limit && last !== undefined ? base64url(`pos:${last.mi}:${last.p.outcome}`) : null,
    },
  };
}

interface TradeWindow {
  rows: number[];
  next: string | null;
}

/** Newest-first window of a wallet's trade-log rows, optionally filtered. */
function tradeWindow(
  engine: MatchingEngine,
  wallet: string,
  query: QueryInput,
  defaults: { limit: number; max: number },
  keep: (t: TradeRecord) => boolean,
): TradeWindow | DeskAnswer {
  const q = checkQuery(pageQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  let belowRow = Number.POSITIVE_INFINITY;
  let beforeMs = Number.POSITIVE_INFINITY;
  if (q.value.cursor !== undefined) {
    const m = /^(\d{1,16}):(\d{1,12})$/.exec(fromBase64url(q.value.cursor) ?? "");
    if (m === null) return badParam("cursor", "cursor is not a cursor of this endpoint");
    belowRow = Number(m[2]);
  }
  if (q.value.before !== undefined) {
    const ms = legacyBeforeMs(q.value.before);
    if (ms === undefined) return badParam("before", "before must be an ISO-8601 date-time or epoch milliseconds");
    beforeMs = ms;
  }
  const limit = Math.min(q.value.limit ?? defaults.limit, defaults.max);
  const log = engine.ledger.tradeLog;
  const account = engine.ledger.find(wallet);
  const all = account === undefined ? [] : log.rowsOfAccount(account);
  const rows: number[] = [];
  let more = false;
  // Rows are ascending: start just below the cursor row.
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (all[mid]! < belowRow) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    const row = all[i]!;
    const t = log.get(row);
    if (t.createdAtMs >= beforeMs || !keep(t)) continue;
    if (rows.length === limit) {
      more = true;
      break;
    }
    rows.push(row);
  }
  const last = rows[rows.length - 1];
  return { rows, next: more && last !== undefined ? base64url(`${log.get(last).createdAtMs}:${last}`) : null };
}

export function trades(engine: MatchingEngine, wallet: string, query: QueryInput): DeskAnswer {
  const w = tradeWindow(engine, wallet, query, { limit: TRADES_DEFAULT_LIMIT, max: TRADES_MAX_LIMIT }, () => true);
  if ("status" in w) return w;
  const log = engine.ledger.tradeLog;
  return {
    status: 200,
    body: {
      trades: w.rows.map((row) => {
        const t = log.get(row);
        return partyTradeJson(t, roleOf(t, wallet));
      }),
      nextCursor: w.next,
    },
  };
}

export function fees(engine: MatchingEngine, wallet: string, query: QueryInput): DeskAnswer {
  const taker = (t: TradeRecord): boolean => t.takerWallet.toLowerCase() === wallet && t.fee > 0n;
  const w = tradeWindow(engine, wallet, query, { limit: FEES_DEFAULT_LIMIT, max: FEES_MAX_LIMIT }, taker);
  if ("status" in w) return w;
  const log = engine.ledger.tradeLog;
  return {
    status: 200,
    body: {
      walletAddress: wallet,
      feesPaid: amount(engine.balance(wallet).feesPaid),
      fees: w.rows.map((row) => {
        const t = log.get(row);
        return { tradeId: t.id, orderId: t.takerOrderId, marketId: t.marketId, outcome: t.outcome, fee: amount(t.fee), feeRateBps: t.feeRateBps, createdAt: isoOf(t.createdAtMs) };
      }),
      nextCursor: w.next,
    },
  };
}
