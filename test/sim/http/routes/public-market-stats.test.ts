/**
 * Market statistics from the engine's trade log (src/sim/http/routes/public-market-stats.ts):
 * OHLC candles per interval bucket in the outcome's own token (a binary trade moves both
 * tokens), wallets ranked by traded notional over both legs, and per outcome by shares of that
 * token, ties broken by wallet; nothing for a market the engine does not have.
 */
import { describe, expect, it } from "vitest";
import { candles, traders, tradersByOutcome } from "../../../../src/sim/http/routes/public-market-stats.js";
import type { Market } from "../../../../src/sim/platform/catalogue.js";
import { ALICE, BOB, CAROL, DAVE, fixture, u } from "../../engine/helpers.js";

const MIN = 60_000;

/**
 * t1 at T: BOB sells 10 YES into ALICE's bid at 0.40 (a YES transfer).
 * t2 at T+30s: CAROL buys 4 YES from BOB's ask at 0.50.
 * t3 at T+70s: ALICE buys 5 YES at 0.70 from DAVE's NO bid at 0.30 (a mint).
 */
async function threeTrades() {
  const f = fixture();
  f.engine.split(BOB, "M", u("20"));
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("10") });
  f.place(BOB, { outcome: 0, side: "SELL", price: u("0.4"), quantity: u("10"), timeInForce: "IOC" });
  await f.clock.advance(30_000);
  f.place(BOB, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("4") });
  f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("4"), timeInForce: "IOC" });
  await f.clock.advance(40_000);
  f.place(DAVE, { outcome: 1, side: "BUY", price: u("0.3"), quantity: u("5") });
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.7"), quantity: u("5"), timeInForce: "IOC" });
  expect(f.engine.ledger.trades()).toHaveLength(3);
  return f;
}

const market = (labels: string[]) => ({ symbol: "M", outcomeLabels: labels }) as unknown as Market;

describe("candles", () => {
  it("YES: open, high, low, close and shares per minute that saw a trade, oldest first", async () => {
    const f = await threeTrades();
    expect(candles(f.engine, "M", 0, MIN)).toEqual([
      { timestamp: "2026-01-01T00:00:00.000Z", open: "0.4", high: "0.5", low: "0.4", close: "0.5", volume: "14" },
      { timestamp: "2026-01-01T00:01:00.000Z", open: "0.7", high: "0.7", low: "0.7", close: "0.7", volume: "5" },
    ]);
  });

  it("NO of a binary market: the complement of YES transfers, the maker's price of a mint", async () => {
    const f = await threeTrades();
    expect(candles(f.engine, "M", 1, MIN)).toEqual([
      { timestamp: "2026-01-01T00:00:00.000Z", open: "0.6", high: "0.6", low: "0.5", close: "0.5", volume: "14" },
      { timestamp: "2026-01-01T00:01:00.000Z", open: "0.3", high: "0.3", low: "0.3", close: "0.3", volume: "5" },
    ]);
  });

  it("one candle for the lot on a wider interval", async () => {
    const f = await threeTrades();
    expect(candles(f.engine, "M", 0, 3_600_000)).toEqual([{ timestamp: "2026-01-01T00:00:00.000Z", open: "0.4", high: "0.7", low: "0.4", close: "0.7", volume: "19" }]);
  });

  it("multi-outcome: only trades of that outcome's token count", () => {
    const f = fixture({ outcomes: 3 });
    f.engine.split(BOB, "M", u("5"));
    f.place(ALICE, { outcome: 1, side: "BUY", price: u("0.25"), quantity: u("2") });
    f.place(BOB, { outcome: 1, side: "SELL", price: u("0.25"), quantity: u("2") });
    expect(candles(f.engine, "M", 1, MIN)).toEqual([{ timestamp: "2026-01-01T00:00:00.000Z", open: "0.25", high: "0.25", low: "0.25", close: "0.25", volume: "2" }]);
    expect(candles(f.engine, "M", 2, MIN)).toEqual([]);
  });

  it("a market the engine does not have has none", () => {
    expect(candles(fixture().engine, "NOPE", 0, MIN)).toEqual([]);
  });
});

describe("traders", () => {
  it("ranks wallets by the settlement token both legs moved, with their trade counts", async () => {
    const f = await threeTrades();
    // ALICE 4 (t1 maker) + 3.5 (t3 taker); BOB 4 + 2; CAROL 2; DAVE 1.5.
    expect(traders(f.engine, "M", 10)).toEqual([
      { walletAddress: ALICE, volume: "7.5", trades: 2 },
      { walletAddress: BOB, volume: "6", trades: 2 },
      { walletAddress: CAROL, volume: "2", trades: 1 },
      { walletAddress: DAVE, volume: "1.5", trades: 1 },
    ]);
    expect(traders(f.engine, "M", 2).map((t) => t.walletAddress)).toEqual([ALICE, BOB]);
  });

  it("breaks a tie by wallet", () => {
    const f = fixture();
    f.engine.split(BOB, "M", u("10"));
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("2") });
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("2") });
    expect(traders(f.engine, "M", 10)).toEqual([
      { walletAddress: ALICE, volume: "1", trades: 1 },
      { walletAddress: BOB, volume: "1", trades: 1 },
    ]);
  });

  it("a market the engine does not have has none", () => {
    expect(traders(fixture().engine, "NOPE", 10)).toEqual([]);
  });
});

describe("tradersByOutcome", () => {
  it("ranks each outcome's wallets by shares of that token they traded", async () => {
    const f = await threeTrades();
    expect(tradersByOutcome(f.engine, market(["Yes", "No"]), 10)).toEqual([
      {
        outcome: 0,
        label: "Yes",
        traders: [
          { walletAddress: ALICE, volume: "15", trades: 2 },
          { walletAddress: BOB, volume: "14", trades: 2 },
          { walletAddress: CAROL, volume: "4", trades: 1 },
        ],
      },
      { outcome: 1, label: "No", traders: [{ walletAddress: DAVE, volume: "5", trades: 1 }] },
    ]);
    expect(tradersByOutcome(f.engine, market(["Yes", "No"]), 1)[0]!.traders.map((t) => t.walletAddress)).toEqual([ALICE]);
  });

  it("lists every outcome, with no traders, for a market the engine does not have", () => {
    expect(tradersByOutcome(fixture().engine, { symbol: "NOPE", outcomeLabels: ["A", "B", "C"] } as unknown as Market, 10)).toEqual([
      { outcome: 0, label: "A", traders: [] },
      { outcome: 1, label: "B", traders: [] },
      { outcome: 2, label: "C", traders: [] },
    ]);
  });
});
