/**
 * Market trades and price history from the engine's trade log (src/sim/http/routes/public-trades.ts):
 * the `before` / `after` bounds (epoch ms, ISO-8601 or the opaque keyset cursor), pages newest
 * first that never skip trades stamped in the same millisecond, the price a trade implies for
 * each outcome (the complement on a binary market), and price points per trade or per interval
 * bucket, within [from, to], the newest 1000 kept.
 */
import { describe, expect, it } from "vitest";
import type { TradeRecord } from "../../../../src/sim/engine/index.js";
import {
  encodeTradeCursor,
  MAX_PRICE_POINTS,
  parseTradeBound,
  PRICE_INTERVALS,
  pricePoints,
  tradePriceFor,
  tradesPage,
} from "../../../../src/sim/http/routes/public-trades.js";
import { ALICE, BOB, fixture, u } from "../../engine/helpers.js";

const T = Date.UTC(2026, 0, 1); // the engine fixture's clock, minute-aligned

/** One YES trade at `price`: BOB sells 1 into ALICE's bid. */
function tradeAt(f: ReturnType<typeof fixture>, price: string): void {
  f.place(ALICE, { outcome: 0, side: "BUY", price: u(price), quantity: u("1") });
  f.place(BOB, { outcome: 0, side: "SELL", price: u(price), quantity: u("1"), timeInForce: "IOC" });
}

/** Trades t1 and t2 at T (same millisecond), t3 at T+1s, t4 at T+2s; log rows 0..3. */
async function fourTrades() {
  const f = fixture();
  f.engine.split(BOB, "M", u("100"));
  tradeAt(f, "0.41");
  tradeAt(f, "0.42");
  await f.clock.advance(1_000);
  tradeAt(f, "0.43");
  await f.clock.advance(1_000);
  tradeAt(f, "0.44");
  return f;
}

const ids = (p: { trades: { id: string }[] }) => p.trades.map((t) => t.id);

describe("trade bounds", () => {
  it("reads epoch milliseconds and ISO-8601 as times", () => {
    expect(parseTradeBound("1767225600000")).toEqual({ kind: "time", ms: T });
    expect(parseTradeBound("2026-01-01")).toEqual({ kind: "time", ms: T });
    expect(parseTradeBound("2026-01-01T00:00:01Z")).toEqual({ kind: "time", ms: T + 1_000 });
  });

  it("reads a cursor back as the (time, row) key it was made from", () => {
    const c = encodeTradeCursor({ ms: T, row: 12 });
    expect(c).toBe(Buffer.from(`${T}:12`).toString("base64url"));
    expect(parseTradeBound(c)).toEqual({ kind: "key", key: { ms: T, row: 12 } });
  });

  it("refuses anything else", () => {
    for (const bad of ["99999999999999999999", "2026-02-30", "yesterday!", Buffer.from("12:x").toString("base64url"), Buffer.from("act:3").toString("base64url")]) {
      expect(parseTradeBound(bad), bad).toBeUndefined();
    }
  });
});

describe("tradesPage", () => {
  it("lists a market's trades newest first, with no cursor when everything fits", async () => {
    const f = await fourTrades();
    const page = tradesPage(f.engine, "M", { limit: 10 });
    expect(ids(page)).toEqual(["t4", "t3", "t2", "t1"]);
    expect(page.nextCursor).toBeNull();
    expect(page.trades[0]).toMatchObject({ marketId: "M", outcome: 0, side: "SELL", price: "0.44", quantity: "1", createdAt: "2026-01-01T00:00:02.000Z" });
  });

  it("walks older pages with the cursor, one trade at a time through the same millisecond", async () => {
    const f = await fourTrades();
    const seen: string[] = [];
    let before: ReturnType<typeof parseTradeBound>;
    for (let n = 0; n < 10; n++) {
      const page = tradesPage(f.engine, "M", { limit: 1, ...(before ? { before } : {}) });
      seen.push(...ids(page));
      if (page.nextCursor === null) break;
      before = parseTradeBound(page.nextCursor);
    }
    expect(seen).toEqual(["t4", "t3", "t2", "t1"]);
  });

  it("the cursor names the last trade of the page", async () => {
    const f = await fourTrades();
    expect(tradesPage(f.engine, "M", { limit: 2 }).nextCursor).toBe(encodeTradeCursor({ ms: T + 1_000, row: 2 }));
    expect(tradesPage(f.engine, "M", { limit: 3 }).nextCursor).toBe(encodeTradeCursor({ ms: T, row: 1 }));
  });

  it("time bounds are strict: `before` keeps earlier trades, `after` later ones", async () => {
    const f = await fourTrades();
    expect(ids(tradesPage(f.engine, "M", { limit: 10, before: { kind: "time", ms: T + 1_000 } }))).toEqual(["t2", "t1"]);
    expect(ids(tradesPage(f.engine, "M", { limit: 10, after: { kind: "time", ms: T } }))).toEqual(["t4", "t3"]);
    expect(ids(tradesPage(f.engine, "M", { limit: 10, after: { kind: "time", ms: T }, before: { kind: "time", ms: T + 2_000 } }))).toEqual(["t3"]);
  });

  it("a key bound separates trades of the same millisecond by log row", async () => {
    const f = await fourTrades();
    expect(ids(tradesPage(f.engine, "M", { limit: 10, after: { kind: "key", key: { ms: T, row: 0 } } }))).toEqual(["t4", "t3", "t2"]);
    expect(ids(tradesPage(f.engine, "M", { limit: 10, before: { kind: "key", key: { ms: T, row: 1 } } }))).toEqual(["t1"]);
  });

  it("a market the engine does not have has no trades", async () => {
    const f = await fourTrades();
    expect(tradesPage(f.engine, "NOPE", { limit: 10 })).toEqual({ trades: [], nextCursor: null });
  });
});

describe("tradePriceFor", () => {
  const t = (o: Partial<TradeRecord>) => ({ outcome: 0, makerOutcome: 0, price: u("0.4"), makerPrice: u("0.4"), ...o }) as TradeRecord;

  it("the taker's price for the taker's outcome, the maker's for the maker's", () => {
    // A mint: BUY YES at 0.4 meets BUY NO at 0.6.
    const mint = t({ outcome: 0, price: u("0.4"), makerOutcome: 1, makerPrice: u("0.6") });
    expect(tradePriceFor(mint, 0, true)).toBe(u("0.4"));
    expect(tradePriceFor(mint, 1, true)).toBe(u("0.6"));
  });

  it("binary: the other outcome of a transfer trades at the complement", () => {
    const noTransfer = t({ outcome: 1, price: u("0.35"), makerOutcome: 1, makerPrice: u("0.35") });
    expect(tradePriceFor(noTransfer, 0, true)).toBe(u("0.65"));
  });

  it("multi-outcome: a trade says nothing about other outcomes", () => {
    expect(tradePriceFor(t({ outcome: 1, makerOutcome: 1 }), 2, false)).toBeUndefined();
    expect(tradePriceFor(t({ outcome: 1, makerOutcome: 1 }), 1, false)).toBe(u("0.4"));
  });
});

describe("pricePoints", () => {
  /** YES trades at 0.40 (T), 0.45 (T+30s), 0.50 (T+90s). */
  async function threeTrades() {
    const f = fixture();
    f.engine.split(BOB, "M", u("100"));
    tradeAt(f, "0.4");
    await f.clock.advance(30_000);
    tradeAt(f, "0.45");
    await f.clock.advance(60_000);
    tradeAt(f, "0.5");
    return f;
  }

  it("one point per trade, oldest first, in the outcome's own token", async () => {
    const f = await threeTrades();
    expect(pricePoints(f.engine, "M", 0, {})).toEqual([
      { timestamp: "2026-01-01T00:00:00.000Z", price: "0.4" },
      { timestamp: "2026-01-01T00:00:30.000Z", price: "0.45" },
      { timestamp: "2026-01-01T00:01:30.000Z", price: "0.5" },
    ]);
    expect(pricePoints(f.engine, "M", 1, {}).map((p) => p.price)).toEqual(["0.6", "0.55", "0.5"]);
  });

  it("with an interval, the last price of each bucket stamped at the bucket's start", async () => {
    const f = await threeTrades();
    expect(PRICE_INTERVALS["1m"]).toBe(60_000);
    expect(pricePoints(f.engine, "M", 0, { intervalMs: PRICE_INTERVALS["1m"]! })).toEqual([
      { timestamp: "2026-01-01T00:00:00.000Z", price: "0.45" },
      { timestamp: "2026-01-01T00:01:00.000Z", price: "0.5" },
    ]);
    expect(pricePoints(f.engine, "M", 0, { intervalMs: PRICE_INTERVALS["1h"]! })).toEqual([{ timestamp: "2026-01-01T00:00:00.000Z", price: "0.5" }]);
  });

  it("keeps trades within [from, to], both ends included", async () => {
    const f = await threeTrades();
    expect(pricePoints(f.engine, "M", 0, { fromMs: T + 30_000, toMs: T + 90_000 }).map((p) => p.price)).toEqual(["0.45", "0.5"]);
    expect(pricePoints(f.engine, "M", 0, { fromMs: T + 1, toMs: T + 89_999 }).map((p) => p.price)).toEqual(["0.45"]);
  });

  it("keeps the newest 1000 points", () => {
    const f = fixture({ deposit: "100000" });
    f.engine.split(BOB, "M", u("2000"));
    for (let i = 0; i < MAX_PRICE_POINTS + 1; i++) tradeAt(f, i === 0 ? "0.1" : "0.2");
    const points = pricePoints(f.engine, "M", 0, {});
    expect(points).toHaveLength(1000);
    expect(points.every((p) => p.price === "0.2")).toBe(true);
  });

  it("a market the engine does not have has no points", () => {
    expect(pricePoints(fixture().engine, "NOPE", 0, {})).toEqual([]);
  });
});
