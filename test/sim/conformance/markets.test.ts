/**
 * Spec 4.3 (markets list, detail, order book, trades) and 2.6 (every MarketSummary field, the
 * outcomePrices / chances rules), with the synthetic flow off so books hold only our orders.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boot, expectEnvelope, type Conformance, type Json } from "./harness.js";

/** Spec 2.6 table, in order. */
const FIELDS = [
  "id", "eventId", "symbol", "slug", "title", "groupItemTitle", "conditionId", "questionId", "yesTokenId", "noTokenId",
  "status", "currentReviewRound", "outcomeCount", "outcomeLabels", "feeTakerBps", "tradingWindow", "kickoff",
  "resolutionWindowHours", "lifecycle", "payoutNumerators", "officialDataSource", "sourceMatchId", "resolutionCriteria",
  "negRiskEligible", "isNewMarketType", "createdAt", "updatedAt", "outcomePrices", "chances", "vertical", "marketType", "crypto",
];
/** "Other keys named on market rows". */
const OTHER = ["tradable", "resolution", "volumes", "prediction", "additionalSources", "eventSlug", "tags", "homeCountry", "awayCountry", "sport", "tradingMode", "notTradableReason"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DEC = /^\d+(\.\d+)?$/;

let c: Conformance;
beforeAll(async () => {
  c = await boot();
});
afterAll(async () => {
  await c.close();
});

function checkRow(m: Json): void {
  for (const k of [...FIELDS, ...OTHER]) expect(m, `${m.symbol}.${k}`).toHaveProperty(k);
  expect(m.id).toMatch(UUID);
  expect(m.eventId).toMatch(UUID);
  expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  expect(Object.keys(m.tradingWindow).sort()).toEqual(["closesAt", "opensAt", "preMarketStartsAt"]);
  expect(Object.keys(m.lifecycle).sort()).toEqual(["closedAt", "pausedAt", "resolvedAt", "voidedAt"]);
  for (const v of [...Object.values(m.tradingWindow), ...Object.values(m.lifecycle)]) if (v !== null) expect(v).toMatch(ISO);
  expect(m.createdAt).toMatch(ISO);
  expect(m.updatedAt).toMatch(ISO);
  expect(Number.isInteger(m.currentReviewRound)).toBe(true);
  expect(m.outcomeCount).toBe(m.outcomeLabels.length);
  expect(m.feeTakerBps === null || Number.isInteger(m.feeTakerBps)).toBe(true);
  if (m.conditionId !== null) expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/i);
  if (m.questionId !== null) expect(m.questionId).toMatch(/^0x[0-9a-f]{64}$/i);
  if (m.yesTokenId !== null) expect(m.yesTokenId).toMatch(/^\d+$/);
  if (m.outcomeCount > 2) expect(m.noTokenId).toBeNull();
  expect(m.outcomePrices).toHaveLength(m.outcomeCount);
  for (const p of m.outcomePrices) if (p !== null) expect(p).toMatch(DEC);
  expect(m.chances).toHaveLength(m.outcomeCount);
  for (const p of m.chances) expect(p).toMatch(DEC);
  expect(m.crypto).toBeNull();
  expect(typeof m.negRiskEligible).toBe("boolean");
  expect(typeof m.isNewMarketType).toBe("boolean");
  // resolvedAt xor voidedAt; payoutNumerators only once resolved
  expect(m.lifecycle.resolvedAt !== null && m.lifecycle.voidedAt !== null).toBe(false);
  if (m.lifecycle.resolvedAt === null) expect(m.payoutNumerators).toBeNull();
}

describe("4.3 GET /api/markets", () => {
  it("full rows with every 2.6 field; slugs unique; default = the open set; hasMore", async () => {
    const r = await c.send("/api/markets");
    expect(r.status).toBe(200);
    expect(r.body.hasMore).toBe(false);
    const rows: Json[] = r.body.markets;
    expect(rows.map((m): string => String(m.symbol)).sort()).toEqual(["ARS-CHE-ARS", "ARS-CHE-CHE", "ARS-CHE-DRAW", "ARS-CHE-GOAL5", "BAR-RMA-BAR", "EPL-WINNER"]);
    for (const m of rows) {
      checkRow(m);
      expect(["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"]).toContain(m.status);
    }
    expect(new Set(rows.map((m): string => String(m.slug))).size).toBe(rows.length);
  });

  it("limit 1..500 (default 50) and offset page with hasMore", async () => {
    const a = await c.send("/api/markets?limit=2");
    expect(a.body.markets).toHaveLength(2);
    expect(a.body.hasMore).toBe(true);
    const b = await c.send("/api/markets?limit=2&offset=4");
    expect(b.body.markets).toHaveLength(2);
    expect(b.body.hasMore).toBe(false);
    expect((await c.send("/api/markets?limit=500")).status).toBe(200);
    for (const bad of ["0", "501", "x", "-1"]) expect((await c.send(`/api/markets?limit=${bad}`)).status, bad).toBe(400);
    expect((await c.send("/api/markets?offset=-3")).status).toBe(400);
  });

  it("status= filters (unknown value: 400), closed=true lists post-trading statuses", async () => {
    const pre = await c.send("/api/markets?status=PRE_MARKET");
    expect(pre.body.markets.map((m: Json): string => String(m.symbol))).toEqual(["BAR-RMA-BAR"]);
    const bad = await c.send("/api/markets?status=NOPE");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toMatch(/\S/);
    expect((await c.send("/api/markets?closed=true")).body.markets).toEqual([]);
  });

  it("GET /api/markets/{slug}: the detail row; unknown slug 404 market_not_found", async () => {
    const list = (await c.send("/api/markets")).body.markets as Json[];
    for (const m of list) {
      const d = await c.send(`/api/markets/${m.slug}`);
      expect(d.status).toBe(200);
      checkRow(d.body);
      expect(d.body.id).toBe(m.id);
      expect(d.body).not.toHaveProperty("probabilityChange");
    }
    expectEnvelope(await c.send("/api/markets/no-such-slug"), 404, "market_not_found");
  });

  it("feeTakerBps null inherits the platform default (fee-config)", async () => {
    const epl = await c.market("EPL-WINNER");
    expect(epl.feeTakerBps).toBeNull();
    expect(epl.yesTokenId).toBeNull();
    expect(epl.noTokenId).toBeNull();
    const fee = (await c.send("/api/platform/fee-config")).body;
    expect(fee.defaultFeeTakerBps).toBe(100);
  });
});

describe("4.3 market sub-resources", () => {
  it("order book / trades / price-history by symbol; unknown symbol 404 market_not_found", async () => {
    for (const sub of ["orderbook", "trades", "price-history"]) {
      expect((await c.send(`/api/markets/ARS-CHE-ARS/${sub}`)).status, sub).toBe(200);
      expectEnvelope(await c.send(`/api/markets/NOPE/${sub}`), 404, "market_not_found");
    }
  });

  it("trades limit: default 50, max 200 (larger clamped)", async () => {
    expect((await c.send("/api/markets/ARS-CHE-ARS/trades?limit=1000")).status).toBe(200);
  });
});

describe("2.6 outcomePrices and chances", () => {
  it("before any book or trade: outcomePrices null, chances 1/outcomeCount", async () => {
    const draw = await c.market("ARS-CHE-DRAW");
    expect(draw.outcomePrices).toEqual([null, null]);
    expect(draw.chances).toEqual(["0.5", "0.5"]);
    const epl = await c.market("EPL-WINNER");
    expect(epl.outcomePrices).toEqual([null, null, null, null]);
    expect(epl.chances).toEqual(["0.25", "0.25", "0.25", "0.25"]);
  });

  it("two-sided book within 0.10: midpoint chances, best-ask prices; wider: last trade, else 1/n", async () => {
    const place = async (w: number, outcome: number, side: "BUY" | "SELL", price: string, quantity = "10"): Promise<Json> => {
      const { body } = await c.order(w, { symbol: "ARS-CHE-DRAW", outcome, side, price, quantity });
      const r = await c.send("/api/orders/place", { headers: c.auth(w), body });
      expect(r.status, r.text).toBe(201);
      return r.body;
    };
    // YES bid 0.40 (wallet 0), NO bid 0.55 = YES ask 0.45 (wallet 1)
    expect((await place(0, 0, "BUY", "0.4")).status).toBe("OPEN");
    expect((await place(1, 1, "BUY", "0.55")).status).toBe("OPEN");
    let m = await c.market("ARS-CHE-DRAW");
    expect(m.outcomePrices).toEqual(["0.45", "0.6"]);
    expect(m.chances).toEqual(["0.425", "0.575"]);
    // a trade at 0.45: wallet 2 buys YES against the NO bid
    const taken = await place(2, 0, "BUY", "0.45", "10");
    expect(taken.status).toBe("FILLED");
    m = await c.market("ARS-CHE-DRAW");
    // the YES ask is gone: YES price is the last trade; book one-sided so chances = last trade
    expect(m.outcomePrices).toEqual(["0.45", "0.6"]);
    expect(m.chances).toEqual(["0.45", "0.55"]);
    expect(m.volumes).not.toBeNull();
  });

  it("public trade rows carry EIP-55 maker/taker wallets", async () => {
    const t = (await c.send("/api/markets/ARS-CHE-DRAW/trades")).body.trades as Json[];
    expect(t.length).toBeGreaterThan(0);
    for (const row of t) {
      for (const w of [row.makerWallet, row.takerWallet]) {
        expect(w).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(w).not.toBe(w.toLowerCase());
      }
    }
  });
});
