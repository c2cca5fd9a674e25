/**
 * The user stream is dropped again and again (the simulator's ws_disconnect fault loses the frame
 * that triggered it and everything until the reconnect) while orders fill in parts. After the
 * REST reconciliation the daemon's fill ledger equals the simulator's trades for our wallets, one
 * for one, and its inventory equals the platform's positions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "../../src/core/money.js";
import type { Position } from "../../src/wire/index.js";
import { parseTimeSpec } from "../../src/sim/platform/index.js";
import { daemonConfig, makeDaemon, platformGet, run, settle, simFills, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

describe("stream drops during partial fills", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const wallets = [walletAddress(0), walletAddress(1)];

  beforeAll(async () => {
    h = startSim({
      wallets: 2,
      markets: [
        { symbol: "FILLS-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60, takerMean: "6", vol: 0.001 },
        { symbol: "FILLS-B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60, takerMean: "6", vol: 0.001 },
      ],
    });
    d = makeDaemon(h, daemonConfig({ wallets: 2, slugs: ["FILLS-A", "FILLS-B"], strategy: { size: "30", levels: 1, halfSpreadTicks: 1 }, quoting: { priceToleranceTicks: 2 } }), {
      tuning: { fillSyncMs: 60_000, driftCheckMs: 600_000, statusRefreshMs: 5_000, streamHeartbeat: { pingIntervalMs: 5_000, deadAfterMs: 15_000 } },
    });
    await settle(h.clock, d.daemon.start());
    // From now on one frame in eight kills the connection (and is lost).
    h.addFault({ route: "WS /ws/user", kind: "ws_disconnect", probability: 0.125, window: { from: parseTimeSpec("+1s")!, to: parseTimeSpec("+60s")! } });
    await run(h.clock, 75_000);
    for (const r of d.daemon.runners) await settle(h.clock, r.sync("final"));
  });

  afterAll(async () => {
    await settle(h.clock, d.daemon.stop());
    h.sim.stop();
  });

  it("really lost the stream several times, and some fills reached us only through the trade pull", () => {
    const drops = d.observer.of("stream_state").filter((e) => e.state === "disconnected");
    expect(drops.length).toBeGreaterThanOrEqual(3);
    const recovered = d.observer.of("fill").filter((e) => e.fill.source === "trades_pull");
    expect(recovered.length).toBeGreaterThan(0);
  });

  it("saw partial fills (orders filled in several trades, some left resting)", () => {
    const perOrder = new Map<string, bigint>();
    for (const w of wallets) for (const f of simFills(h.sim, w)) perOrder.set(f.orderId, (perOrder.get(f.orderId) ?? 0n) + f.qty);
    expect([...perOrder.values()].some((q) => q < parseMicros("30"))).toBe(true);
  });

  it("ends with a fill ledger equal to the simulator's trades, one for one", () => {
    for (const w of wallets) {
      const theirs = simFills(h.sim, w);
      expect(theirs.length).toBeGreaterThan(5);
      const diff = d.daemon.ledger.diffAgainst(w, theirs);
      expect({ missing: diff.missing.length, extra: diff.extra.length, mismatched: diff.mismatched.length }).toEqual({ missing: 0, extra: 0, mismatched: 0 });
      expect(d.daemon.ledger.fills(w).length).toBe(theirs.length);
    }
  });

  it("ends with inventory equal to the platform's positions", async () => {
    for (const w of wallets) {
      const page = await platformGet<{ positions: Position[] }>(h, w, "/api/me/positions");
      const report = d.daemon.inventory.checkAgainst(w, page.positions.map((p) => ({ ...p, marketId: d.daemon.registry.symbolOf(p.marketId) ?? p.marketId })));
      expect(report.positions).toEqual([]);
    }
  });
});
