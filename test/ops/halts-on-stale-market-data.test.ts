/**
 * stale_market_data (market scope): one market's order book stops answering; after
 * risk.staleDataSec the market is halted - its quotes are cancelled and nothing is placed there -
 * while the other market keeps quoting. A fresh book clears the halt and quoting comes back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleared, clearedAt, raisedAt, jsonError, raised, run, sample, startOps, until, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: stale market data", () => {
  it("pulls the stale market's quotes, places nothing there, keeps the others, and clears on a fresh book", async () => {
    const o = (ops = await startOps(
      { wallets: 1, markets: [{ symbol: "OK", opensAt: "-10m", closesAt: "+1d" }, { symbol: "STALE", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 1, slugs: ["OK", "STALE"], risk: { staleDataSec: 5 } },
    ));
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0, "STALE")).length).toBeGreaterThan(0);
    expect((await o.openOn(0, "OK")).length).toBeGreaterThan(0);
    expect(o.daemon.status().halts).toEqual([]);

    // The market's book now fails (404, which the breaker counts as an answer: only this market is affected).
    o.wire.intercept = (req) => (req.path.startsWith("/api/markets/STALE/orderbook") ? jsonError(404, "market_not_found", "gone") : undefined);
    await until(o.h, "stale halt", () => raised(o, "stale_market_data", "STALE"), 30_000);
    const tRaise = raisedAt(o, "stale_market_data", "STALE")!;
    await run(o.h.clock, 6_000);

    expect(await o.openOn(0, "STALE")).toEqual([]);
    expect((await o.openOn(0, "OK")).length).toBeGreaterThan(0);
    expect(o.daemon.status().halts).toEqual(["STALE stale_market_data"]);
    const text = await o.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "market", target: "STALE", reason: "stale_market_data" })).toBe(1);
    expect(sample(text, "mm_risk_halts_total", { scope: "market", reason: "stale_market_data" })).toBe(1);
    expect(sample(text, "mm_ready")).toBe(1);
    const log = o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "stale_market_data");
    expect(log).toMatchObject({ haltScope: "market", target: "STALE", level: "warn" });
    expect(String(log!["clearsBy"])).toContain("book update");

    // Book answers again: the halt clears and the market is quoted again.
    o.wire.intercept = undefined;
    await until(o.h, "stale halt cleared", () => cleared(o, "stale_market_data", "STALE"), 30_000);
    const tClear = clearedAt(o, "stale_market_data", "STALE")!;
    expect(o.wire.places({ from: tRaise, to: tClear, market: "STALE" })).toEqual([]);
    expect(o.wire.places({ from: tRaise, to: tClear, market: "OK" }).length + (await o.openOn(0, "OK")).length).toBeGreaterThan(0);
    await until(o.h, "STALE quoted again", async () => (await o.openOn(0, "STALE")).length > 0, 10_000);
    expect(o.wire.places({ from: tClear, market: "STALE" }).length).toBeGreaterThan(0);
    const after = await o.scrape();
    expect(sample(after, "mm_risk_halt_active", { scope: "market", target: "STALE", reason: "stale_market_data" })).toBeUndefined();
    expect(sample(after, "mm_risk_halts_active", { reason: "stale_market_data" })).toBe(0);
    expect(o.logs.withMsg("risk halt cleared").some((l) => l["reason"] === "stale_market_data" && l["by"] === "rule")).toBe(true);
  });
});
