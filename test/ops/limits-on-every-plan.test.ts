/**
 * The risk limits sit on every plan of the running daemon: with a strategy asking for more than
 * the config allows, every order that reaches the platform respects the order size cap, the
 * price band and the open-order cap per market, and the cuts are counted by reason in
 * mm_risk_quotes_dropped_total.
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatMicros, parseMicros } from "../../src/core/money.js";
import { run, sample, startOps, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("risk limits in the daemon", () => {
  it("caps order size, keeps prices in the band and open orders under the cap on every market", async () => {
    const o = (ops = await startOps(
      { wallets: 1, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 }, { symbol: "B", opensAt: "-10m", closesAt: "+1d", fairValue: "0.3" }] },
      {
        wallets: 1,
        slugs: ["A", "B"],
        // Three rungs a side, 10 shares each, 0.005 apart from 0.02 off the mid.
        strategy: { levels: 3, size: "10", halfSpreadTicks: 20, levelSpacingTicks: 5 },
        risk: { maxOrderSize: "4", maxOpenOrdersPerMarket: 4, priceBand: { min: "0.40", max: "0.60" } },
      },
    ));
    await run(o.h.clock, 30_000);
    const placed = o.observer.of("order_placed");
    expect(placed.length).toBeGreaterThan(4);
    for (const p of placed) {
      expect(p.size, `${p.marketId} ${formatMicros(p.size)}`).toBeLessThanOrEqual(parseMicros("4"));
      expect(p.price).toBeGreaterThanOrEqual(parseMicros("0.40"));
      expect(p.price).toBeLessThanOrEqual(parseMicros("0.60"));
    }
    // Market B trades around 0.30: its YES bids fall outside the band, only what fits is placed.
    expect(placed.filter((p) => p.marketId === "A").length).toBeGreaterThan(0);
    for (const m of ["A", "B"]) expect((await o.openOn(0, m)).length).toBeLessThanOrEqual(4);
    const text = await o.scrape();
    expect(sample(text, "mm_risk_quotes_dropped_total", { wallet: "w0", market: "A", reason: "order_size" })).toBeGreaterThan(0);
    expect(sample(text, "mm_risk_quotes_dropped_total", { wallet: "w0", market: "A", reason: "open_orders" })).toBeGreaterThan(0);
    expect(sample(text, "mm_risk_quotes_dropped_total", { wallet: "w0", market: "B", reason: "price_band" })).toBeGreaterThan(0);
  });
});
