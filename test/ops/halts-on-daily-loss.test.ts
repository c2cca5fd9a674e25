/**
 * daily_loss (wallet scope, and global for the total): the market drops hard after the wallet
 * bought; realised + unrealised PnL of the day falls past risk.dailyLossLimit and the wallet is
 * halted - quotes cancelled, nothing placed. It never clears by itself; an operator resume
 * acknowledges the loss so far and quoting comes back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMicros } from "../../src/core/money.js";
import { cleared, raised, raisedAt, run, sample, startOps, until, walletAddress, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: daily loss", () => {
  it("halts the losing wallet until an operator resume", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"], strategy: { levels: 2 }, risk: { dailyLossLimit: "3" } },
    ));
    await run(o.h.clock, 8_000);
    const w0 = walletAddress(0);
    expect((await o.openOn(0, "A")).length).toBeGreaterThan(0);

    // Market A collapses: the liquidity sweeps our bids on its way down and our shares are marked low.
    o.h.sim.flow.setFairValue("A", [parseMicros("0.08"), parseMicros("0.92")]);
    await until(o.h, "daily loss halt", () => raised(o, "daily_loss", "w0"), 60_000);
    const tRaise = raisedAt(o, "daily_loss", "w0")!;
    await run(o.h.clock, 20_000);

    expect(await o.openOn(0)).toEqual([]);
    expect(o.wire.places({ from: tRaise, wallet: w0 })).toEqual([]);
    expect(cleared(o, "daily_loss", "w0")).toBe(false);
    const text = await o.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "wallet", target: "w0", reason: "daily_loss" })).toBe(1);
    expect(sample(text, "mm_daily_pnl", { wallet: "w0" })).toBeLessThanOrEqual(-3);
    expect(sample(text, "mm_daily_loss_limit")).toBe(3);
    const log = o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "daily_loss");
    expect(log).toMatchObject({ haltScope: "wallet", target: "w0" });
    expect(String(log!["detail"])).toMatch(/^daily loss \d+\.\d+ reached limit 3\.00$/);

    const tResume = o.wire.mark();
    const changes = o.daemon.resume();
    expect(changes.some((c) => c.type === "cleared" && c.halt.reason === "daily_loss")).toBe(true);
    await until(o.h, "w0 quoting again", async () => (await o.openOn(0)).length > 0, 15_000);
    expect(o.wire.places({ from: tResume, wallet: w0 }).length).toBeGreaterThan(0);
  });
});
