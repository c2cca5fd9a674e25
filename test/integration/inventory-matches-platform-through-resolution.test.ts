/**
 * Inventory and cash follow the platform exactly: after trading (maker and taker fills, fees) and
 * the market's resolution, the daemon's positions and expected collateral equal
 * /api/me/positions and /api/me/balances, and its periodic drift checks found nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Balances, Position } from "../../src/wire/index.js";
import { daemonConfig, makeDaemon, platformGet, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

describe("inventory through a resolution", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const w = walletAddress(0);

  beforeAll(async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "RES", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60, takerMean: "6" }, { symbol: "STAY", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60 }] });
    d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: ["RES", "STAY"], strategy: { levels: 2, size: "10" } }), {
      tuning: { driftCheckMs: 7_000, fillSyncMs: 10_000, statusRefreshMs: 2_000 },
    });
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 30_000);
    const r = h.sim.resolveMarket("RES", [1, 0]);
    if (!r.ok) throw new Error(`resolve refused: ${r.code}`);
    await run(h.clock, 10_000);
    await settle(h.clock, d.daemon.runners[0]!.sync("final"));
  });

  afterAll(async () => {
    await settle(h.clock, d.daemon.stop());
    h.sim.stop();
  });

  it("traded on the resolved market before it resolved", () => {
    expect(d.daemon.ledger.fills(w).filter((f) => f.marketId === "RES").length).toBeGreaterThan(0);
  });

  it("ends with positions and collateral equal to the platform's", async () => {
    const positions = (await platformGet<{ positions: Position[] }>(h, w, "/api/me/positions")).positions;
    const balances = await platformGet<Balances>(h, w, "/api/me/balances");
    const report = d.daemon.inventory.checkAgainst(w, positions.map((p) => ({ ...p, marketId: d.daemon.registry.symbolOf(p.marketId) ?? p.marketId })), balances);
    expect(report.positions).toEqual([]);
    expect(report.cash).toBeUndefined();
    const res = d.daemon.inventory.positions(w, "RES");
    expect(res.every((p) => p.qty === 0n && p.settled)).toBe(true);
  });

  it("its periodic drift checks stayed clean", () => {
    expect(d.observer.of("drift").filter((e) => e.kind === "positions" || e.kind === "cash")).toEqual([]);
  });
});
