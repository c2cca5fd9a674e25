import { describe, expect, it } from "vitest";
import { errorEnvelopeSchema, marketSummary, marketTradesPage, orderbook, priceHistory } from "../../../../src/wire/index.js";
import { ALICE, BOB, harness, type Harness } from "./harness.js";

async function row(h: Harness, symbol: string) {
  const slug = h.sim.platform.catalogue.marketBySymbol(symbol)!.slug;
  return marketSummary.parse((await h.get(`/api/markets/${slug}`)).body);
}

describe("GET /api/markets/:symbol/orderbook", () => {
  it("serves the YES book best first, aggregated per price", async () => {
    const h = harness();
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.40", "10");
    h.place(BOB, "ARS-CHE-ARS", 0, "BUY", "0.40", "5");
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.38", "7");
    const r = await h.get("/api/markets/ARS-CHE-ARS/orderbook");
    expect(r.status).toBe(200);
    const b = orderbook.parse(r.body);
    const m = h.sim.platform.catalogue.marketBySymbol("ARS-CHE-ARS")!;
    expect(b.marketId).toBe("ARS-CHE-ARS");
    expect(b.outcome).toBe(0);
    expect(b.tokenId).toBe(m.yesTokenId);
    expect(b.bids).toEqual([
      { price: "0.4", quantity: "15" },
      { price: "0.38", quantity: "7" },
    ]);
    expect(b.asks).toEqual([]);
    expect(b.updatedAt).toBe(new Date(h.clock.now()).toISOString());
  });

  it("the binary NO view is the complement of the YES book", async () => {
    const h = harness();
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.40", "10"); // YES bid 0.40 -> NO ask 0.60
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.35", "4"); // YES bid 0.35 -> NO ask 0.65
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.50", "6"); // NO bid 0.50 rests as YES ask 0.50
    const yes = orderbook.parse((await h.get("/api/markets/ARS-CHE-ARS/orderbook?outcome=0")).body);
    const no = orderbook.parse((await h.get("/api/markets/ARS-CHE-ARS/orderbook?outcome=1")).body);
    expect(yes.bids).toEqual([
      { price: "0.4", quantity: "10" },
      { price: "0.35", quantity: "4" },
    ]);
    expect(yes.asks).toEqual([{ price: "0.5", quantity: "6" }]);
    expect(no.tokenId).toBe(h.sim.platform.catalogue.marketBySymbol("ARS-CHE-ARS")!.noTokenId);
    expect(no.bids).toEqual([{ price: "0.5", quantity: "6" }]);
    expect(no.asks).toEqual([
      { price: "0.6", quantity: "10" },
      { price: "0.65", quantity: "4" },
    ]);
  });

  it("multi-outcome markets have one book per outcome; depth limits the levels", async () => {
    const h = harness();
    h.place(ALICE, "EPL-WINNER", 2, "BUY", "0.20", "5");
    h.place(ALICE, "EPL-WINNER", 2, "BUY", "0.19", "5");
    h.place(ALICE, "EPL-WINNER", 2, "BUY", "0.18", "5");
    const o2 = orderbook.parse((await h.get("/api/markets/EPL-WINNER/orderbook?outcome=2&depth=2")).body);
    expect(o2.bids.map((l) => l.price)).toEqual(["0.2", "0.19"]);
    const o0 = orderbook.parse((await h.get("/api/markets/EPL-WINNER/orderbook?outcome=0")).body);
    expect(o0.bids).toEqual([]);
    expect(o0.asks).toEqual([]);
  });

  it("rejects a bad outcome with invalid_outcome and an unknown symbol with market_not_found", async () => {
    const h = harness();
    for (const q of ["outcome=2", "outcome=-1", "outcome=x"]) {
      const r = await h.get(`/api/markets/ARS-CHE-ARS/orderbook?${q}`);
      expect(r.status, q).toBe(400);
      expect(errorEnvelopeSchema.parse(r.body).error.code).toBe("invalid_outcome");
    }
    expect((await h.get("/api/markets/EPL-WINNER/orderbook?outcome=3")).status).toBe(200);
    const r = await h.get("/api/markets/NOPE/orderbook");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("market_not_found");
    expect((await h.get("/api/markets/ARS-CHE-ARS/orderbook?depth=0")).body.error.code).toBe("invalid_request");
  });
});

describe("outcomePrices and chances on market rows (spec 2.6)", () => {
  it("before any order: prices null, chances 1/outcomeCount", async () => {
    const h = harness();
    const bin = await row(h, "ARS-CHE-ARS");
    expect(bin.outcomePrices).toEqual([null, null]);
    expect(bin.chances).toEqual(["0.5", "0.5"]);
    const multi = await row(h, "EPL-WINNER");
    expect(multi.outcomePrices).toEqual([null, null, null, null]);
    expect(multi.chances).toEqual(["0.25", "0.25", "0.25", "0.25"]);
  });

  it("a two-sided book with spread <= 0.10 gives the midpoint; prices are the best asks (NO from the complement)", async () => {
    const h = harness();
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.40", "10");
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.50", "10"); // YES ask 0.50: spread exactly 0.10
    const m = await row(h, "ARS-CHE-ARS");
    expect(m.outcomePrices).toEqual(["0.5", "0.6"]);
    expect(m.chances).toEqual(["0.45", "0.55"]);
  });

  it("a spread above 0.10 falls back to the last trade, else 1/outcomeCount", async () => {
    const h = harness();
    // No trade yet on ARS-CHE-CHE: bid 0.40 / ask 0.501 is too wide for a midpoint.
    h.place(ALICE, "ARS-CHE-CHE", 0, "BUY", "0.40", "10");
    h.place(BOB, "ARS-CHE-CHE", 1, "BUY", "0.499", "10");
    const wide = await row(h, "ARS-CHE-CHE");
    expect(wide.outcomePrices).toEqual(["0.501", "0.6"]);
    expect(wide.chances).toEqual(["0.5", "0.5"]);
    // ARS-CHE-ARS: a trade at YES 0.55 (NO 0.45), then the same wide book.
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.45", "2");
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.55", "2");
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.40", "10");
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.499", "10");
    const m = await row(h, "ARS-CHE-ARS");
    expect(m.chances).toEqual(["0.55", "0.45"]);
    expect(m.outcomePrices).toEqual(["0.501", "0.6"]);
  });

  it("outcomePrices fall back to the last trade when the book has no offer", async () => {
    const h = harness();
    h.place(BOB, "EPL-WINNER", 1, "BUY", "0.30", "5");
    h.sim.engine.split(ALICE, "EPL-WINNER", 10_000_000n);
    h.place(ALICE, "EPL-WINNER", 1, "SELL", "0.30", "5"); // trade at 0.30, book empty again
    const m = await row(h, "EPL-WINNER");
    expect(m.outcomePrices).toEqual([null, "0.3", null, null]);
    expect(m.chances).toEqual(["0.25", "0.3", "0.25", "0.25"]);
    expect(m.volumes).toEqual({ total: "1.5", last24h: "1.5" });
  });
});

describe("GET /api/markets/:symbol/trades", () => {
  function trade(h: Harness, price: string, qty = "1"): void {
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", (1 - Number(price)).toFixed(3), qty);
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", price, qty);
  }

  it("lists trades newest first with the taker's side and price, EIP-55 wallets", async () => {
    const h = harness();
    trade(h, "0.40");
    await h.clock.advance(1000);
    trade(h, "0.42");
    const r = await h.get("/api/markets/ARS-CHE-ARS/trades");
    expect(r.status).toBe(200);
    const page = marketTradesPage.parse(r.body);
    expect(page.trades.map((t) => t.price)).toEqual(["0.42", "0.4"]);
    expect(page.nextCursor).toBeNull();
    const t = page.trades[0]!;
    expect(t).toMatchObject({ marketId: "ARS-CHE-ARS", outcome: 0, side: "BUY", quantity: "1", feeRateBps: 100 });
    expect(t.createdAt).toBe(new Date(h.clock.now()).toISOString());
    expect(t.takerWallet).toBe("0x1111111111111111111111111111111111111111");
    expect(t.fee).toBe("0.002436"); // ceil(100 * 0.42 * 0.58 * 1 / 10000)
  });

  it("walks pages with nextCursor without skipping trades of the same millisecond", async () => {
    const h = harness();
    for (let i = 0; i < 7; i++) trade(h, "0.40", String(i + 1)); // all at the same instant
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const url = `/api/markets/ARS-CHE-ARS/trades?limit=3${cursor ? `&before=${cursor}` : ""}`;
      const page = marketTradesPage.parse((await h.get(url)).body);
      seen.push(...page.trades.map((t) => t.quantity));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(["7", "6", "5", "4", "3", "2", "1"]);
  });

  it("before/after accept ISO-8601 and epoch milliseconds as time bounds", async () => {
    const h = harness();
    const t0 = h.clock.now();
    trade(h, "0.40");
    await h.clock.advance(1000);
    trade(h, "0.41");
    await h.clock.advance(1000);
    trade(h, "0.42");
    const iso = (ms: number) => new Date(ms).toISOString();
    const prices = async (q: string) => marketTradesPage.parse((await h.get(`/api/markets/ARS-CHE-ARS/trades?${q}`)).body).trades.map((t) => t.price);
    expect(await prices(`after=${iso(t0)}`)).toEqual(["0.42", "0.41"]);
    expect(await prices(`before=${iso(t0 + 2000)}`)).toEqual(["0.41", "0.4"]);
    expect(await prices(`after=${t0}&before=${t0 + 2000}`)).toEqual(["0.41"]);
  });

  it("limit defaults to 50, is clamped to 200, and below 1 is invalid_limit", async () => {
    const h = harness();
    for (let i = 0; i < 205; i++) trade(h, "0.40");
    const count = async (q: string) => marketTradesPage.parse((await h.get(`/api/markets/ARS-CHE-ARS/trades${q}`)).body).trades.length;
    expect(await count("")).toBe(50);
    expect(await count("?limit=500")).toBe(200);
    expect(await count("?limit=201")).toBe(200);
    for (const bad of ["0", "x"]) {
      const r = await h.get(`/api/markets/ARS-CHE-ARS/trades?limit=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_limit");
    }
    const bad = await h.get("/api/markets/ARS-CHE-ARS/trades?before=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe("before");
  });
});

describe("GET /api/markets/:symbol/price-history", () => {
  it("serves trade prices per outcome, oldest first; the NO series is the complement", async () => {
    const h = harness();
    const start = h.clock.now();
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.60", "1");
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.40", "1"); // mint at YES 0.40 / NO 0.60
    await h.clock.advance(30_000);
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.45", "1"); // rests as YES bid
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.55", "1"); // NO taker at 0.55 = YES 0.45
    await h.clock.advance(60_000);
    h.place(BOB, "ARS-CHE-ARS", 1, "BUY", "0.50", "1");
    h.place(ALICE, "ARS-CHE-ARS", 0, "BUY", "0.50", "1");
    const yes = priceHistory.parse((await h.get("/api/markets/ARS-CHE-ARS/price-history")).body);
    expect(yes.marketId).toBe("ARS-CHE-ARS");
    expect(yes.points).toEqual([
      { timestamp: new Date(start).toISOString(), price: "0.4" },
      { timestamp: new Date(start + 30_000).toISOString(), price: "0.45" },
      { timestamp: new Date(start + 90_000).toISOString(), price: "0.5" },
    ]);
    const no = priceHistory.parse((await h.get("/api/markets/ARS-CHE-ARS/price-history?outcome=1")).body);
    expect(no.points.map((p) => p.price)).toEqual(["0.6", "0.55", "0.5"]);
    const bucketed = priceHistory.parse((await h.get("/api/markets/ARS-CHE-ARS/price-history?interval=1m")).body);
    const minute = Math.floor(start / 60_000) * 60_000;
    expect(minute).toBe(start); // T0 is on a minute boundary
    expect(bucketed.points).toEqual([
      { timestamp: new Date(minute).toISOString(), price: "0.45" },
      { timestamp: new Date(minute + 60_000).toISOString(), price: "0.5" },
    ]);
    const ranged = priceHistory.parse((await h.get(`/api/markets/ARS-CHE-ARS/price-history?from=${start + 1}&to=${new Date(start + 60_000).toISOString()}`)).body);
    expect(ranged.points.map((p) => p.price)).toEqual(["0.45"]);
  });

  it("an unknown interval is invalid_interval with the allowed values", async () => {
    const h = harness();
    const r = await h.get("/api/markets/ARS-CHE-ARS/price-history?interval=7m");
    expect(r.status).toBe(400);
    const env = errorEnvelopeSchema.parse(r.body);
    expect(env.error.code).toBe("invalid_interval");
    expect(env.error.details?.allowed).toEqual(["1m", "5m", "15m", "1h", "4h", "1d"]);
  });
});
