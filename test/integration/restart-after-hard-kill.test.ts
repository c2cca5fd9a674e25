/**
 * A daemon is killed hard (no cancels, no goodbye) with orders resting; another system's daemon
 * (a different instance id) also left orders on one of the wallets. A new daemon with the same
 * instance id starts: it adopts every order of its instance (any session), cancels the foreign
 * ones (policy "cancel"), tracks everything that rests, and shuts down leaving nothing open.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { parseClientOrderId } from "../../src/bot/orders/ids.js";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, simFills, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";

describe("restart after a hard kill", () => {
  let h: SimHarness;
  let first: DaemonHarness;
  let second: DaemonHarness;
  const wallets = [walletAddress(0), walletAddress(1)];
  let leftByFirst: string[] = [];
  let foreignLeft: string[] = [];
  const untrackedAfterStart: string[] = [];
  let secondStartMs = 0;
  let report: ShutdownReport;

  beforeAll(async () => {
    h = startSim({
      wallets: 2,
      markets: [
        { symbol: "RST-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 20 },
        { symbol: "RST-B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 20 },
      ],
    });
    const config = daemonConfig({ wallets: 2, slugs: ["RST-A", "RST-B"], strategy: { levels: 2 } });
    first = makeDaemon(h, config, { rng: new Rng(1) });
    await settle(h.clock, first.daemon.start());
    await run(h.clock, 20_000);
    first.daemon.abandon();
    // Another system's bot on wallet 0 (it leaves foreign orders alone), killed too.
    const other = makeDaemon(h, daemonConfig({ wallets: 1, instance: "zz", slugs: ["RST-B"], strategy: { levels: 1, halfSpreadTicks: 8 } }), {
      rng: new Rng(77),
      tuning: { foreignOrders: "leave" },
    });
    await settle(h.clock, other.daemon.start());
    await run(h.clock, 3_000);
    other.daemon.abandon();
    await run(h.clock, 5_000);
    const open = (await platformOpenOrders(h, wallets[0]!)).concat(await platformOpenOrders(h, wallets[1]!));
    leftByFirst = open.filter((o) => o.clientOrderId?.startsWith("it-")).map((o) => o.id);
    foreignLeft = open.filter((o) => o.clientOrderId?.startsWith("zz-")).map((o) => o.id);

    secondStartMs = h.clock.now();
    second = makeDaemon(h, config, { rng: new Rng(2) });
    await settle(h.clock, second.daemon.start());
    for (const [i, w] of wallets.entries()) {
      for (const o of await platformOpenOrders(h, w)) if (second.daemon.runners[i]!.tracker.getByOrderId(o.id) === undefined) untrackedAfterStart.push(o.id);
    }
    await run(h.clock, 15_000);
    for (const r of second.daemon.runners) await settle(h.clock, r.sync("final"));
    report = await settle(h.clock, second.daemon.stop());
  });

  afterAll(() => h.sim.stop());

  it("the kill really left orders of both instances resting", () => {
    expect(leftByFirst.length).toBeGreaterThanOrEqual(4);
    expect(foreignLeft.length).toBeGreaterThan(0);
  });

  it("adopts every order of its instance left open by the killed session", () => {
    const trackers = second.daemon.runners.map((r) => r.tracker);
    for (const id of leftByFirst) {
      const t = trackers.map((tr) => tr.getByOrderId(id)).find((x) => x !== undefined);
      expect(t, `order ${id}`).toBeDefined();
    }
    // Adopted ids come from the earlier session; new ones from this one.
    const sessions = new Set(trackers.flatMap((tr) => tr.all()).map((o) => parseClientOrderId(o.clientOrderId)?.session));
    expect(sessions.size).toBeGreaterThanOrEqual(2);
  });

  it("tracks everything resting right after start-up, foreign orders having been cancelled", () => {
    expect(untrackedAfterStart).toEqual([]);
  });

  it("keeps its fill ledger equal to the platform's trades of the session", () => {
    for (const w of wallets) {
      const diff = second.daemon.ledger.diffAgainst(w, simFills(h.sim, w).filter((f) => f.ts >= secondStartMs), { sinceTs: secondStartMs });
      expect({ missing: diff.missing.length, extra: diff.extra.length, mismatched: diff.mismatched.length }).toEqual({ missing: 0, extra: 0, mismatched: 0 });
    }
  });

  it("shuts down with nothing left open", async () => {
    expect(report.exitCode).toBe(0);
    for (const w of wallets) expect(await platformOpenOrders(h, w)).toEqual([]);
  });
});
