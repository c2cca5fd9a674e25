/**
 * Bounded memory, end to end: a daemon that compacts its fills every sync (retention 30 s instead
 * of an hour) while the user stream keeps dropping (fills then reach it through the trade pull and
 * order fill reads, and are re-read within the pull margin) ends with a fill ledger equal to the
 * simulator's trades one for one and an inventory equal to the platform's positions and balances.
 * The harness keeps the compacted records listable (keepCompacted), but duplicates are decided by
 * the watermark as in a long-running daemon.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Position } from "../../src/wire/index.js";
import type { Balances } from "../../src/wire/portfolio.js";
import { parseTimeSpec } from "../../src/sim/platform/index.js";
import { daemonConfig, makeDaemon, platformGet, run, settle, simFills, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

describe("fills compacted while running", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const wallets = [walletAddress(0), walletAddress(1)];

  beforeAll(async () => {
    h = startSim({
      wallets: 2,
      markets: [
        { symbol: "COMPACT-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60, takerMean: "6", vol: 0.001 },
        { symbol: "COMPACT-B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60, takerMean: "6", vol: 0.001 },
      ],
    });
    d = makeDaemon(h, daemonConfig({ wallets: 2, slugs: ["COMPACT-A", "COMPACT-B"], strategy: { size: "30", levels: 1, halfSpreadTicks: 1 }, quoting: { priceToleranceTicks: 2 } }), {
      tuning: { fillSyncMs: 10_000, driftCheckMs: 600_000, statusRefreshMs: 5_000, fillRetentionMs: 30_000, streamHeartbeat: { pingIntervalMs: 5_000, deadAfterMs: 15_000 } },
    });
    await settle(h.clock, d.daemon.start());
    h.addFault({ route: "WS /ws/user", kind: "ws_disconnect", probability: 0.1, window: { from: parseTimeSpec("+1s")!, to: parseTimeSpec("+120s")! } });
    await run(h.clock, 150_000);
    for (const r of d.daemon.runners) await settle(h.clock, r.sync("final"));
  }, 180_000);

  afterAll(async () => {
    await settle(h.clock, d.daemon.stop());
    h.sim.stop();
  }, 60_000);

  it("compacted most fills: the ledger and the inventory hold only the recent ones", () => {
    const l = d.daemon.ledger;
    expect(l.total).toBeGreaterThan(20);
    expect(l.compactedCount()).toBeGreaterThan(l.total / 2);
    expect(l.size).toBe(l.total - l.compactedCount());
    expect(d.daemon.inventory.counters.compacted).toBeGreaterThan(0);
    expect(d.daemon.inventory.held.fills).toBeLessThanOrEqual(l.size);
    for (const w of wallets) expect(l.watermark(w)).toBeDefined();
  });

  it("ends with a fill ledger equal to the simulator's trades, one for one", () => {
    for (const w of wallets) {
      const theirs = simFills(h.sim, w);
      const diff = d.daemon.ledger.diffAgainst(w, theirs);
      expect({ missing: diff.missing.length, extra: diff.extra.length, mismatched: diff.mismatched.length }).toEqual({ missing: 0, extra: 0, mismatched: 0 });
      expect(d.daemon.ledger.fills(w).length).toBe(theirs.length);
      const counted = d.daemon.ledger.totals(w).reduce((n, r) => n + r.totals.fills, 0);
      expect(counted).toBe(theirs.length);
    }
  });

  it("a late re-read of every compacted fill (as an order fills read would bring it) changes nothing", () => {
    const l = d.daemon.ledger;
    const before = { total: l.total, positions: d.daemon.inventory.positions(), applied: d.daemon.inventory.counters.fills };
    let replayed = 0;
    for (const r of d.daemon.runners) {
      const wm = l.watermark(r.wallet)!;
      for (const f of simFills(h.sim, r.wallet)) {
        if (f.ts > wm.ts) continue;
        r.applyFill({ ...f, source: "order_read" });
        replayed += 1;
      }
    }
    expect(replayed).toBeGreaterThan(10);
    expect(l.counters.compactedDuplicates).toBeGreaterThanOrEqual(replayed);
    expect(l.total).toBe(before.total);
    expect(d.daemon.inventory.counters.fills).toBe(before.applied);
    expect(d.daemon.inventory.positions()).toEqual(before.positions);
  });

  it("ends with inventory equal to the platform's positions and balances", async () => {
    for (const w of wallets) {
      const page = await platformGet<{ positions: Position[] }>(h, w, "/api/me/positions");
      const balances = await platformGet<Balances>(h, w, "/api/me/balances");
      const report = d.daemon.inventory.checkAgainst(w, page.positions.map((p) => ({ ...p, marketId: d.daemon.registry.symbolOf(p.marketId) ?? p.marketId })), balances);
      expect(report.positions).toEqual([]);
      expect(report.cash).toBeUndefined();
    }
  });
});
