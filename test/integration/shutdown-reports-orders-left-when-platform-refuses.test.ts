/**
 * The key is revoked while the daemon quotes, then it is told to stop. The platform refuses every
 * request (401 api_key_revoked): the cancel-all, the open-orders walk, the cancels. Orders still
 * rest on the platform, so the stop is NOT clean: the exit code is non-zero, every resting order is
 * named with "key refused", and the failed final walk is reported. (It used to print "clean" and
 * "left open 0": the tracker's own knowledge of the live orders was never used.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";
import { describeReport } from "../../src/cli/run.js";
import { API_KEY, daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const KEY_ID = API_KEY.split("_")[2]!;

describe("shutdown after the platform revoked the key", () => {
  const wallets = [walletAddress(0), walletAddress(1)];
  let h: SimHarness;
  let d: DaemonHarness;
  let report: ShutdownReport;
  let resting: Map<string, string[]>;

  beforeAll(async () => {
    h = startSim({
      wallets: 2,
      markets: [
        { symbol: "REV-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 2 },
        { symbol: "REV-B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 2 },
      ],
    });
    d = makeDaemon(h, daemonConfig({ wallets: 2, slugs: ["REV-A", "REV-B"], strategy: { levels: 2 }, shutdownSec: 10 }));
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 25_000);
    h.sim.platform.revokeKey(KEY_ID);
    await run(h.clock, 1_000);
    report = await settle(h.clock, d.daemon.stop("SIGINT"), 60_000);
    // The platform's own book (a revoked key cannot read it any more).
    resting = new Map(wallets.map((w) => [w, h.sim.engine.openOrders(w).map((o) => o.id)]));
  });

  afterAll(() => h.sim.stop());

  it("really left orders resting", () => {
    for (const w of wallets) expect(resting.get(w)!.length).toBeGreaterThan(0);
  });

  it("exits non-zero", () => {
    expect(report.exitCode).not.toBe(0);
  });

  it("names every order still resting, with the key refusal as the reason", () => {
    for (const [i, w] of wallets.entries()) {
      const wr = report.wallets.find((x) => x.wallet === w)!;
      expect(wr.name).toBe(`w${i}`);
      const named = new Map(wr.unconfirmed.filter((u) => u.orderId !== undefined).map((u) => [u.orderId!, u]));
      for (const id of resting.get(w)!) {
        expect(named.has(id), id).toBe(true);
        expect(named.get(id)!.reason).toBe("key_refused");
        expect(named.get(id)!.detail).toContain("api_key_revoked");
      }
      expect(wr.leftover.sort()).toEqual([...named.keys()].sort());
    }
  });

  it("reports the failed final open-orders walk", () => {
    for (const wr of report.wallets) {
      expect(wr.finalWalk.ok).toBe(false);
      if (!wr.finalWalk.ok) expect(wr.finalWalk.error).toContain("api_key_revoked");
    }
  });

  it("prints NOT CLEAN with each order, never the key", () => {
    const text = describeReport(report);
    expect(text).toContain("NOT CLEAN");
    expect(text).not.toMatch(/: clean/);
    for (const ids of resting.values()) for (const id of ids) expect(text).toContain(id);
    expect(text).not.toContain(API_KEY.split("_")[3]!);
  });
});
