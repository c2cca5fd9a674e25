/**
 * Auto-merge (issue 14 part 2), the daemon against the simulator on a VirtualClock. The wallet
 * holds YES+NO pairs in two markets. While it quotes them (orders open) nothing is merged; once its
 * quotes are pulled (kill switch) each pair is merged. The simulator confirms PAIR's merge after
 * its confirmation delay: the pair becomes cash in the simulator's ledger and in the daemon's
 * inventory, which moved only when the platform confirmed. FAIL's first merge is made to fail: the
 * daemon unlocks it, reports it, and merges again later.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMicros, parseMicros } from "../../src/core/money.js";
import { grantShares } from "../../src/sim/desk/genesis.js";
import { vaultOpsDesk } from "../../src/sim/desk/vault-ops.js";
import { createLogger } from "../../src/log/index.js";
import { LogLines } from "../ops/harness.js";
import { daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

describe("auto-merge against the simulator", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const w = walletAddress(0);
  const metric = async (name: string): Promise<string[]> =>
    (await d.daemon.ops.metrics.registry.metrics()).split("\n").filter((l) => l.startsWith(`${name}{`));
  const simQty = (m: string, o: number): string => formatMicros(h.sim.engine.positions(w, m).find((p) => p.outcome === o)?.quantity ?? 0n);
  const simLocked = (m: string, o: number): string => formatMicros(h.sim.engine.positions(w, m).find((p) => p.outcome === o)?.locked ?? 0n);
  const invQty = (m: string, o: number): string => formatMicros(d.daemon.inventory.positions(w, m).find((p) => p.outcome === o)?.qty ?? 0n);
  let cashBefore = 0n;
  const seen: Record<string, unknown> = {};
  const logs = new LogLines();

  beforeAll(async () => {
    const quiet = { opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 0 };
    h = startSim({ wallets: 1, markets: [{ symbol: "PAIR", ...quiet }, { symbol: "FAIL", ...quiet }] });
    grantShares(h.sim.engine, w, "PAIR", 0, parseMicros("30"), parseMicros("0.5"));
    grantShares(h.sim.engine, w, "PAIR", 1, parseMicros("20.5"), parseMicros("0.4"));
    grantShares(h.sim.engine, w, "FAIL", 0, parseMicros("12"), parseMicros("0.5"));
    grantShares(h.sim.engine, w, "FAIL", 1, parseMicros("12"), parseMicros("0.5"));
    const desk = vaultOpsDesk(h.sim);
    desk.config.confirmMs = 12_000;
    const config = {
      ...daemonConfig({ wallets: 1, slugs: ["PAIR", "FAIL"], strategy: { levels: 1, size: "1" } }),
      autoMerge: { enabled: true, threshold: parseMicros("10"), minSize: parseMicros("5"), checkIntervalSec: 5 },
    };
    // Merging needs vault:write (not in the day-one scopes of the harness's key).
    const apiKey = h.sim.platform.issueKey("mm", ["orders:read", "orders:write", "portfolio:read", "vault:write"]).plaintext;
    d = makeDaemon(h, config, { apiKey, logger: createLogger({ level: "info", clock: h.clock }, logs) });
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 20_000);
    seen.opsWhileQuoting = desk.all(h.clock.now()).length;
    seen.liveWhileQuoting = d.daemon.runners[0]!.tracker.liveOrders("PAIR").length;
    cashBefore = h.sim.engine.balance(w).total;
    // FAIL sorts first: the next operation the simulator records (FAIL's merge) fails.
    desk.config.failNext = 1;
    await settle(h.clock, d.daemon.kill("test: pull the quotes"));
    await run(h.clock, 6_000);
    seen.pending = d.daemon.runners[0]!.merges!.pendingMerges().map((p) => [p.marketId, formatMicros(p.amount)]);
    seen.lockedInView = formatMicros(d.daemon.runners[0]!.merges!.locks.locked(w, "PAIR"));
    seen.simLockedYes = simLocked("PAIR", 0);
    seen.invYesPending = invQty("PAIR", 0);
    await run(h.clock, 60_000);
  }, 120_000);

  afterAll(async () => {
    await settle(h.clock, d.daemon.stop());
    h.sim.stop();
  });

  it("never merges while the wallet has orders in the market", () => {
    expect(seen.liveWhileQuoting).toBeGreaterThan(0);
    expect(seen.opsWhileQuoting).toBe(0);
  });

  it("a pending merge locks its shares in the daemon's view and on the platform; the inventory waits for the confirmation", () => {
    expect(seen.pending).toEqual([
      ["FAIL", "12"],
      ["PAIR", "20"],
    ]);
    expect(seen.lockedInView).toBe("20");
    expect(seen.simLockedYes).toBe("20");
    expect(seen.invYesPending).toBe("30");
  });

  it("the confirmed merge turned the YES+NO pair into cash in the simulator's ledger and in the daemon's inventory", () => {
    expect([simQty("PAIR", 0), simQty("PAIR", 1)]).toEqual(["10", "0.5"]);
    expect([invQty("PAIR", 0), invQty("PAIR", 1)]).toEqual(["10", "0.5"]);
    // PAIR 20 now, FAIL 12 on its second attempt.
    expect(h.sim.engine.balance(w).total - cashBefore).toBe(parseMicros("32"));
    expect(d.daemon.inventory.expectedCash(w)).toBe(h.sim.engine.balance(w).total);
    expect(d.daemon.runners[0]!.merges!.locks.locked(w, "PAIR")).toBe(0n);
  });

  it("the merge whose confirmation failed was unlocked and reported, then merged again", () => {
    const ops = vaultOpsDesk(h.sim).all(h.clock.now());
    expect(ops.map((o) => [o.marketId, o.status])).toEqual([
      ["FAIL", "unlocked"],
      ["PAIR", "confirmed"],
      ["FAIL", "confirmed"],
    ]);
    expect([simQty("FAIL", 0), simQty("FAIL", 1), simLocked("FAIL", 0)]).toEqual(["0", "0", "0"]);
    expect([invQty("FAIL", 0), invQty("FAIL", 1)]).toEqual(["0", "0"]);
  });

  it("metrics: merges started, confirmed and failed; shares merged", async () => {
    expect((await metric("mm_vault_merges_total")).sort()).toEqual([
      'mm_vault_merges_total{wallet="w0",result="confirmed"} 2',
      'mm_vault_merges_total{wallet="w0",result="failed"} 1',
      'mm_vault_merges_total{wallet="w0",result="started"} 3',
    ]);
    expect(await metric("mm_vault_merged_shares_total")).toEqual(['mm_vault_merged_shares_total{wallet="w0"} 32']);
  });

  it("no inventory drift against the platform", () => {
    expect(d.observer.of("drift").filter((e) => e.kind === "positions")).toEqual([]);
  });
});
