/**
 * Partner feeds (spec 4.9): partner-level reads over every wallet registered to the partner.
 * They reject undefined query parameters with 400 invalid_request (spec 4 common rules). Shapes
 * are not shown; ours:
 *
 *   GET /api/v1/partner/trades?cursor&limit        (orders:read; limit default 50, 1..300)
 *     {partnerId, trades: [trade row as the wallet sees it + walletAddress], nextCursor}
 *     newest first; one row per (trade, partner wallet leg); keyset cursor.
 *   GET /api/v1/partner/mm-kpis?limit               (orders:read; limit default 500, 1..1000)
 *     {partnerId, asOf, wallets: [{walletAddress, trades, volume, makerVolume, takerVolume,
 *      feesPaid, openOrders}]}
 *   GET /api/v1/partner/reconciliation/snapshot     (portfolio:read; no parameters)
 *     {partnerId, snapshotAt, wallets: [{walletAddress, vaultAddress, collateral, positions,
 *      openOrders}]}
 */
import { base64url, fromBase64url } from "./cursor.js";
import { z } from "zod";
import { checkQuery, requestErrorEnvelope, type QueryInput } from "../../wire/requests.js";
import type { MatchingEngine, TradeRecord } from "../engine/index.js";
import type { SimPlatform } from "../platform/platform.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import { amount, partyTradeJson } from "./format.js";
import { isoOf } from "../platform/time.js";
import type { OrderRecords } from "./records.js";

export const PARTNER_TRADES_DEFAULT_LIMIT = 50;
export const PARTNER_TRADES_MAX_LIMIT = 300;
export const MM_KPIS_DEFAULT_LIMIT = 500;
export const MM_KPIS_MAX_LIMIT = 1000;

const limitOf = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { error: `expected an integer in 1..${max}` })
    .transform(Number)
    .pipe(z.number().min(1, { error: `expected 1..${max}` }).max(max, { error: `expected 1..${max}` }));

const tradesQuery = z.strictObject({ cursor: z.string().min(1).optional(), limit: limitOf(PARTNER_TRADES_MAX_LIMIT).optional() });
const kpisQuery = z.strictObject({ limit: limitOf(MM_KPIS_MAX_LIMIT).optional() });
const snapshotQuery = z.strictObject({});

function wallets(platform: SimPlatform, partnerId: string): string[] {
  return platform.wallets.listByPartner(partnerId).map((w) => w.address).sort();
}

/** Key of a row: (trade log row, leg), taker leg 0, maker leg 1; newest first = descending. */
interface Leg {
  row: number;
  leg: 0 | 1;
  wallet: string;
  trade: TradeRecord;
}

export function partnerTrades(engine: MatchingEngine, platform: SimPlatform, partnerId: string, query: QueryInput): DeskAnswer {
  const q = checkQuery(tradesQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  let below: [number, number] = [Number.POSITIVE_INFINITY, 0];
  if (q.value.cursor !== undefined) {
    const m = /^pt:(\d{1,12}):([01])$/.exec(fromBase64url(q.value.cursor) ?? "");
    if (m === null) return errorAnswer(400, "invalid_request", "cursor is not a cursor of this endpoint", { fields: ["cursor"], field: "cursor" });
    below = [Number(m[1]), Number(m[2])];
  }
  const limit = q.value.limit ?? PARTNER_TRADES_DEFAULT_LIMIT;
  const mine = new Set(wallets(platform, partnerId));
  const log = engine.ledger.tradeLog;
  const legs: Leg[] = [];
  for (const w of mine) {
    const account = engine.ledger.find(w);
    if (account === undefined) continue;
    for (const row of log.rowsOfAccount(account)) {
      const t = log.get(row);
      if (t.takerWallet.toLowerCase() === w) legs.push({ row, leg: 0, wallet: w, trade: t });
      if (t.makerWallet.toLowerCase() === w) legs.push({ row, leg: 1, wallet: w, trade: t });
    }
  }
  const isBelow = (l: Leg): boolean => l.row < below[0] || (l.row === below[0] && l.leg < below[1]);
  const sorted = legs.filter(isBelow).sort((a, b) => b.row - a.row || b.leg - a.leg);
  const page = sorted.slice(0, limit);
  const last = page[page.length - 1];
  return {
    status: 200,
    body: {
      partnerId,
      trades: page.map((l) => ({ ...partyTradeJson(l.trade, l.leg === 0 ? "taker" : "maker"), walletAddress: l.wallet })),
      nextCursor: sorted.length > limit && last !== undefined ? base64url(`pt:${last.row}:${last.leg}`) : null,
    },
  };
}

export function mmKpis(engine: MatchingEngine, platform: SimPlatform, records: OrderRecords, partnerId: string, nowMs: number, query: QueryInput): DeskAnswer {
  const q = checkQuery(kpisQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  const limit = q.value.limit ?? MM_KPIS_DEFAULT_LIMIT;
  const log = engine.ledger.tradeLog;
  const rows = wallets(platform, partnerId)
    .slice(0, limit)
    .map((w) => {
      let trades = 0;
      let maker = 0n;
      let taker = 0n;
      const account = engine.ledger.find(w);
      for (const row of account === undefined ? [] : log.rowsOfAccount(account)) {
        const t = log.get(row);
        if (t.takerWallet.toLowerCase() === w) {
          trades++;
          taker += t.takerCash;
        }
        if (t.makerWallet.toLowerCase() === w) {
          trades++;
          maker += t.makerCash;
        }
      }
      return {
        walletAddress: w,
        trades,
        volume: amount(maker + taker),
        makerVolume: amount(maker),
        takerVolume: amount(taker),
        feesPaid: amount(engine.balance(w).feesPaid),
        openOrders: records.liveOf(w).length,
      };
    });
  return { status: 200, body: { partnerId, asOf: isoOf(nowMs), wallets: rows } };
}

export function reconciliationSnapshot(engine: MatchingEngine, platform: SimPlatform, records: OrderRecords, partnerId: string, nowMs: number, query: QueryInput): DeskAnswer {
  const q = checkQuery(snapshotQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  const rows = wallets(platform, partnerId).map((w) => {
    const b = engine.balance(w);
    return {
      walletAddress: w,
      vaultAddress: platform.wallets.vaultInfo(w, nowMs).vaultAddress.toLowerCase(),
      collateral: { total: amount(b.total), locked: amount(b.locked), available: amount(b.available) },
      positions: engine.positions(w).map((p) => ({ marketId: p.marketId, tokenId: p.tokenId, outcome: p.outcome, quantity: amount(p.quantity), locked: amount(p.locked) })),
      openOrders: records.liveOf(w).length,
    };
  });
  return { status: 200, body: { partnerId, snapshotAt: isoOf(nowMs), wallets: rows } };
}
