/**
 * One owner per instance id. A daemon runs and quotes; a second daemon with the same instance.id
 * and the same wallets starts against the same platform. Before this fence the second adopted the
 * first one's orders (same clientOrderId prefix) and quoted over them. Now:
 *
 *   - the second sees orders of its prefix from another session, watches before adopting them,
 *     sees the first place new ones and refuses to start: start() rejects naming the instance id
 *     and the order seen, it sent no write (nothing cancelled), adopted nothing, and the first
 *     quotes on untouched, alone;
 *   - with the watch off (startupWatchSec 0) the second starts; the first sees the newcomer's
 *     orders and is fenced: a global instance_conflict halt, its quotes pulled, none of the
 *     newcomer's orders cancelled, and the wallets end with one daemon's quotes only;
 *   - a restart after a hard kill still starts and adopts the killed session's orders.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { parseClientOrderId } from "../../src/bot/orders/ids.js";
import { InstanceConflictError } from "../../src/bot/guards/instance-fence.js";
import type { Daemon } from "../../src/bot/engine/daemon.js";
import { daemonConfig, makeDaemon, platformOpenOrders, RecordingTransport, run, settle, startSim, walletAddress, type SimHarness } from "./harness.js";

const WRITES = new Set(["/api/orders/place", "/api/orders/place-batch", "/api/orders/cancel", "/api/orders/cancel-batch", "/api/orders/cancel-all"]);

function sim(): SimHarness {
  return startSim({
    wallets: 2,
    markets: [
      { symbol: "FNC-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 },
      { symbol: "FNC-B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 },
    ],
  });
}

const wallets = [walletAddress(0), walletAddress(1)];

async function openOf(h: SimHarness): Promise<{ id: string; clientOrderId: string | null }[]> {
  return (await platformOpenOrders(h, wallets[0]!)).concat(await platformOpenOrders(h, wallets[1]!));
}

function sessionOf(clientOrderId: string | null): string | undefined {
  return clientOrderId === null ? undefined : parseClientOrderId(clientOrderId)?.session;
}

/** Halts of the fence (other halts, e.g. capacity under a loaded test machine, are not this test's business). */
function conflictHalts(d: Daemon): string[] {
  return d.coreRisk.halts().filter((x) => x.includes("instance_conflict"));
}

function tracked(d: Daemon): number {
  return d.runners.reduce((n, r) => n + r.tracker.all().length, 0);
}

/** Order ids a recorded transport asked the platform to cancel (cancel, cancel-batch). */
function cancelledIds(t: RecordingTransport): string[] {
  const out: string[] = [];
  for (const r of t.log) {
    if (r.method !== "POST" || r.body === undefined) continue;
    if (r.path === "/api/orders/cancel") out.push((JSON.parse(r.body) as { orderId: string }).orderId);
    if (r.path === "/api/orders/cancel-batch") out.push(...(JSON.parse(r.body) as { orderIds: string[] }).orderIds);
  }
  return out;
}

describe("a second daemon with the same instance.id", () => {
  let h: SimHarness | undefined;
  afterEach(() => h?.sim.stop());

  // Two daemons on one simulator take a while in real time on a shared machine.
  const SLOW = { timeout: 120_000 };

  it("refuses to start while the first one quotes, touching none of its orders", SLOW, async () => {
    h = sim();
    const config = daemonConfig({ wallets: 2, slugs: ["FNC-A", "FNC-B"], strategy: { levels: 2 } });
    const first = makeDaemon(h, config, { rng: new Rng(1) });
    await settle(h.clock, first.daemon.start());
    await run(h.clock, 20_000);
    const firstSession = first.daemon.session;
    const before = await openOf(h);
    expect(before.length).toBeGreaterThanOrEqual(4);
    expect(before.every((o) => sessionOf(o.clientOrderId) === firstSession)).toBe(true);

    const t2 = new RecordingTransport(h.transport, h.clock);
    const second = makeDaemon(h, config, { rng: new Rng(2), transport: t2 });
    let refused: unknown;
    await settle(
      h.clock,
      second.daemon.start().catch((e: unknown) => (refused = e)),
    );

    expect(refused).toBeInstanceOf(InstanceConflictError);
    const message = (refused as Error).message;
    expect(message).toContain('instance.id "it"');
    expect(message).toContain(`it-`);
    expect(message).toMatch(/refusing to start/);
    expect(second.daemon.isRunning).toBe(false);
    expect(conflictHalts(second.daemon)).toEqual(["all instance_conflict"]);
    // Nothing adopted, nothing sent: not a placement, not a cancel.
    expect(tracked(second.daemon)).toBe(0);
    expect(t2.log.filter((r) => r.method === "POST" && WRITES.has(r.path))).toEqual([]);
    expect(t2.log.length).toBeGreaterThan(0);

    // The first quotes on, alone and unhalted; no wallet holds the second's orders.
    await run(h.clock, 15_000);
    expect(conflictHalts(first.daemon)).toEqual([]);
    const after = await openOf(h);
    expect(after.length).toBeGreaterThanOrEqual(4);
    expect(after.every((o) => sessionOf(o.clientOrderId) === firstSession)).toBe(true);
    // Orders resting before the second came and still resting were cancelled by nobody but the first.
    expect(cancelledIds(t2)).toEqual([]);

    const report = await settle(h.clock, first.daemon.stop());
    expect(report.exitCode).toBe(0);
    expect(await openOf(h)).toEqual([]);
  });

  it("with the watch off it starts, and the first one is fenced without cancelling the newcomer's orders", SLOW, async () => {
    h = sim();
    const config = daemonConfig({ wallets: 2, slugs: ["FNC-A", "FNC-B"], strategy: { levels: 2 } });
    const t1 = new RecordingTransport(h.transport, h.clock);
    const first = makeDaemon(h, config, { rng: new Rng(1), transport: t1 });
    await settle(h.clock, first.daemon.start());
    await run(h.clock, 20_000);

    const watchOff = { ...config, instance: { ...config.instance, startupWatchSec: 0 } };
    const second = makeDaemon(h, watchOff, { rng: new Rng(2) });
    await settle(h.clock, second.daemon.start());
    await run(h.clock, 30_000);

    // The first halted on the newcomer's orders; its log names the other session.
    expect(conflictHalts(first.daemon)).toEqual(["all instance_conflict"]);
    expect(first.daemon.fence.conflict).toContain(second.daemon.session);
    // It never cancelled an order of the newcomer's session.
    const secondIds = new Set(
      wallets.flatMap((w) => h!.sim.desk.records.historyPage(w, {}, undefined, 1_000_000).orders.filter((o) => sessionOf(o.clientOrderId) === second.daemon.session).map((o) => o.id)),
    );
    expect(secondIds.size).toBeGreaterThan(0);
    expect(cancelledIds(t1).filter((id) => secondIds.has(id))).toEqual([]);
    expect(t1.log.filter((r) => r.path === "/api/orders/cancel-all")).toEqual([]);
    // No wallet ends with both quoting: every resting order is the newcomer's.
    const open = await openOf(h);
    expect(open.length).toBeGreaterThan(0);
    expect(open.filter((o) => sessionOf(o.clientOrderId) !== second.daemon.session)).toEqual([]);

    // Stopping the fenced daemon cancels only its own orders (no cancel-all over the newcomer's).
    const stopped = await settle(h.clock, first.daemon.stop());
    expect(stopped.exitCode).toBe(0);
    expect(t1.log.filter((r) => r.path === "/api/orders/cancel-all")).toEqual([]);
    expect(cancelledIds(t1).filter((id) => secondIds.has(id))).toEqual([]);
    const stillOpen = await openOf(h);
    expect(stillOpen.length).toBeGreaterThan(0);
    expect(stillOpen.every((o) => sessionOf(o.clientOrderId) === second.daemon.session)).toBe(true);
    await settle(h.clock, second.daemon.stop());
  });

  it("a restart after a hard kill still starts and adopts the killed session's orders", SLOW, async () => {
    h = sim();
    const config = daemonConfig({ wallets: 2, slugs: ["FNC-A", "FNC-B"], strategy: { levels: 2 } });
    const first = makeDaemon(h, config, { rng: new Rng(1) });
    await settle(h.clock, first.daemon.start());
    await run(h.clock, 20_000);
    first.daemon.abandon();
    await run(h.clock, 2_000);
    const left = await openOf(h);
    expect(left.length).toBeGreaterThanOrEqual(4);

    const second = makeDaemon(h, config, { rng: new Rng(2) });
    const started = await settle(h.clock, second.daemon.start());
    expect(started.wallets.every((w) => w.ready)).toBe(true);
    expect(conflictHalts(second.daemon)).toEqual([]);
    // Every order the killed session left resting (and still resting) is tracked by the new one.
    for (const o of await openOf(h)) {
      if (sessionOf(o.clientOrderId) !== first.daemon.session) continue;
      expect(second.daemon.runners.some((r) => r.tracker.getByOrderId(o.id) !== undefined), `order ${o.id}`).toBe(true);
    }
    await run(h.clock, 15_000);
    expect(conflictHalts(second.daemon)).toEqual([]);
    const report = await settle(h.clock, second.daemon.stop());
    expect(report.exitCode).toBe(0);
    expect(await openOf(h)).toEqual([]);
  });
});
