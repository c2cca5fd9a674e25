/**
 * A settled market leaves the daemon's inventory (inventory.ts, "Retirement"), end to end: the daemon
 * quotes two markets on a VirtualClock, one resolves and pays; once its payout is confirmed, the
 * registry forgets it and the fill compaction's cut passes the settlement, its positions are
 * forgotten. The daemon here does NOT keep compacted records (a real daemon: the harness's
 * makeDaemon keeps them, which turns retirement off). The wallet's figures stay exact: equal to a
 * fresh inventory fed every trade the simulator made, and to the platform's positions and balances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Daemon } from "../../src/bot/engine/daemon.js";
import { Inventory, RETIRED_MARKET } from "../../src/bot/fills/inventory.js";
import type { Position } from "../../src/wire/index.js";
import type { Balances } from "../../src/wire/portfolio.js";
import { RecordingObserver } from "../../src/bot/observer.js";
import { daemonConfig, makeDaemon, platformGet, run, settle, simFills, startSim, walletAddress, type SimHarness } from "./harness.js";

describe("a settled market retired from the daemon's inventory", () => {
  let h: SimHarness;
  let daemon: Daemon;
  const observer = new RecordingObserver();
  const w = walletAddress(0);
  let resolvedAt = 0;
  let positionsBeforeRetire = 0;

  beforeAll(async () => {
    const market = { opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60, takerMean: "6", vol: 0.001 };
    h = startSim({ wallets: 1, markets: [{ symbol: "DAY", ...market }, { symbol: "NEXT", ...market }] });
    const config = { ...daemonConfig({ wallets: 1, slugs: ["DAY", "NEXT"], strategy: { size: "30", levels: 1, halfSpreadTicks: 1 } }), settlement: { enabled: true, payoutTimeoutSec: 120, pollIntervalSec: 10 } };
    daemon = makeDaemon(h, config, { observer, tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000, fillRetentionMs: 30_000 } }, { keepCompacted: false }).daemon;
    await settle(h.clock, daemon.start());
    await run(h.clock, 90_000);
    positionsBeforeRetire = daemon.inventory.positions(w, "DAY").length;
    expect(h.sim.resolveMarket("DAY", [1, 0]).ok).toBe(true);
    resolvedAt = h.clock.now();
    await run(h.clock, 150_000);
    for (const r of daemon.runners) await settle(h.clock, r.sync("final"));
  }, 180_000);

  afterAll(async () => {
    await settle(h.clock, daemon.stop());
    h.sim.stop();
  }, 60_000);

  it("traded the market, then forgot its positions once paid and covered", () => {
    expect(simFills(h.sim, w).filter((f) => f.marketId === "DAY").length).toBeGreaterThan(0);
    expect(positionsBeforeRetire).toBeGreaterThan(0);
    expect(daemon.settlement.views().find((v) => v.marketId === "DAY")).toMatchObject({ state: "confirmed" });
    expect(daemon.registry.get("DAY")).toBeUndefined();
    expect(daemon.inventory.positions(undefined, "DAY")).toEqual([]);
    expect(daemon.inventory.counters.retiredMarkets).toBe(1);
    expect(daemon.inventory.positions(w, RETIRED_MARKET)).toHaveLength(1);
    expect(daemon.inventory.marketState.settlements).toBe(0);
    expect(daemon.inventory.counters.afterRetirement).toBe(0);
  });

  it("keeps the wallet's PnL, fees and cash exactly those of every trade the simulator made", () => {
    const control = new Inventory();
    for (const f of simFills(h.sim, w)) control.applyFill(f);
    control.resolve("DAY", [1n, 0n], resolvedAt);
    const marks = () => undefined;
    expect(daemon.inventory.pnl(w, marks)).toEqual(control.pnl(w, marks));
    expect(daemon.inventory.cashDelta(w)).toBe(control.cashDelta(w));
    const open = (inv: Inventory) => inv.positions(w, "NEXT").map((p) => ({ outcome: p.outcome, qty: p.qty, costBasis: p.costBasis }));
    expect(open(daemon.inventory)).toEqual(open(control));
  });

  it("equals the platform's positions and balances, and no drift was reported", async () => {
    const page = await platformGet<{ positions: Position[] }>(h, w, "/api/me/positions");
    const balances = await platformGet<Balances>(h, w, "/api/me/balances");
    const report = daemon.inventory.checkAgainst(w, page.positions.map((p) => ({ ...p, marketId: daemon.registry.symbolOf(p.marketId) ?? p.marketId })), balances);
    expect(report).toEqual({ positions: [], clean: true });
    expect(observer.of("drift")).toEqual([]);
    expect(observer.of("halt")).toEqual([]);
  });
});
