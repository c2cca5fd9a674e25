/**
 * The hand-off with per-wallet Leases (shard.lease), daemons on a virtual clock against the
 * in-process simulator and a fake Kubernetes API server over HTTP:
 *
 * - the gap the order-based rule leaves (an old owner alive but with no order open or recent:
 *   every quote pulled by the kill switch) is closed: the new owner holds the wallet while the old
 *   one holds its lease, the old one resumes without two replicas ever quoting a wallet, and the
 *   wallet moves once the old one stopped and released its leases (without leases, the same steps
 *   let the new owner quote at once: the control);
 * - a replica that cannot renew stops quoting the wallet (its orders cancelled) and stays up;
 * - the API server down at start-up: the wallets are held (nothing quoted) until it answers.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { shardOf, type LeaseSettings } from "../../src/config/shard-section.js";
import type { Config } from "../../src/config/index.js";
import { HttpLeaseApi, leaseName } from "../../src/bot/guards/k8s-lease-client.js";
import { daemonConfig, makeDaemon, startSim, walletAddress, type DaemonHarness, type SimHarness } from "../integration/harness.js";
import { FakeK8s, TrackedLeaseApi, capture, type Line } from "./fake-k8s.js";
import { shardPods } from "./pods.js";

const WALLETS = 6;
const MARKETS = ["LHA", "LHB", "LHC", "LHD", "LHE", "LHF"];
const LEASE: LeaseSettings = { namespace: "mm", durationSec: 15, renewSec: 5, skewMarginSec: 2 };


function replica(index: number, count: number, lease: LeaseSettings | undefined): Config {
  const base = daemonConfig({ wallets: WALLETS, instance: "lh", slugs: MARKETS, strategy: { levels: 1 }, quoting: { refreshMs: 1000 } });
  return { ...base, shard: lease === undefined ? { index, count } : { index, count, lease } };
}

const { pod, owners } = shardPods({ subnet: "10.0.1", instance: "lh", wallets: WALLETS });

const all = Array.from({ length: WALLETS }, (_, i) => walletAddress(i));
const moving = all.filter((w) => shardOf(w, 2) === 1);
const staying = all.filter((w) => shardOf(w, 2) === 0);

describe("shard hand-off with per-wallet Leases", () => {
  const harnesses: SimHarness[] = [];
  const servers: FakeK8s[] = [];
  afterEach(() => {
    for (const h of harnesses.splice(0)) h.sim.stop();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  async function setup(): Promise<{ h: SimHarness; k8s: FakeK8s; api: TrackedLeaseApi; step: (ms: number) => Promise<void>; until: <T>(p: Promise<T>) => Promise<T>; doubles: string[] }> {
    const h = startSim({ wallets: WALLETS, markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 5 })) });
    harnesses.push(h);
    const k8s = new FakeK8s(() => h.clock.now());
    servers.push(k8s);
    await k8s.listen();
    const api = new TrackedLeaseApi(new HttpLeaseApi({ baseUrl: k8s.url, namespace: "mm", token: () => k8s.token, timeoutMs: 2_000 }));
    const doubles: string[] = [];
    const tick = async (): Promise<void> => {
      await h.clock.advance(250);
      await api.idle();
      for (const [w, ids] of owners(h)) if (ids.size > 1) doubles.push(`${new Date(h.clock.now()).toISOString()} ${w}: ${[...ids].join(", ")}`);
    };
    const step = async (ms: number): Promise<void> => {
      for (let t = 0; t < ms; t += 250) await tick();
    };
    const until = async <T,>(p: Promise<T>): Promise<T> => {
      let done = false;
      const out = p.finally(() => (done = true));
      for (let t = 0; t < 120_000 && !done; t += 250) await tick();
      return out;
    };
    return { h, k8s, api, step, until, doubles };
  }

  function start(h: SimHarness, index: number, count: number, api: TrackedLeaseApi | undefined): DaemonHarness & { lines: Line[] } {
    const { log, lines } = capture("info");
    const d = makeDaemon(h, replica(index, count, api === undefined ? undefined : LEASE), { ...pod(h, index), logger: log, ...(api === undefined ? {} : { leaseApi: api }) });
    return { ...d, lines };
  }

  it("an old owner alive with no order open (kill switch): the new owner holds the wallet while the old one holds the lease", async () => {
    const { h, k8s, api, step, until, doubles } = await setup();
    expect(moving.length).toBeGreaterThan(0);
    expect(staying.length).toBeGreaterThan(0);

    const old = start(h, 0, 1, api);
    await until(old.daemon.start());
    await step(10_000);
    for (const w of all) {
      expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
      expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("lh-s0");
    }

    // The gap: every quote pulled, and longer ago than the late-recording window.
    await until(old.daemon.kill("test: halted"));
    await step(40_000);
    for (const w of all) expect(owners(h).get(w)!.size).toBe(0);

    const added = start(h, 1, 2, api);
    await until(added.daemon.start());
    await step(30_000);
    expect(added.observer.of("order_placed")).toHaveLength(0);
    const held = added.lines.filter((l) => l.msg === "shard hand-off: the wallet's lease is held by another replica; not quoting it until it is released or expires");
    expect(held.map((l) => l.wallet).sort()).toEqual([...moving].sort());
    expect(held[0]).toMatchObject({ level: "warn", leaseHolder: "lh-s0", instance: "lh-s1" });

    // The old owner comes back: it still owns every wallet, and nobody else quotes them.
    old.daemon.resume();
    await step(20_000);
    for (const w of all) expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
    expect(added.observer.of("order_placed")).toHaveLength(0);

    // Replaced: it stops (orders ended, leases released), and comes back as shard 0 of 2.
    const report = await until(old.daemon.stop("rolling update"));
    expect(report.exitCode).toBe(0);
    for (const w of all) expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity === "lh-s1" || k8s.lease(leaseName("lh", w))!.spec.holderIdentity === "").toBe(true);
    const renewed = start(h, 0, 2, api);
    await until(renewed.daemon.start());
    await step(45_000);
    for (const w of moving) {
      expect([...owners(h).get(w)!]).toEqual(["lh-s1"]);
      expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("lh-s1");
    }
    for (const w of staying) {
      expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
      expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("lh-s0");
    }
    expect(doubles).toEqual([]);

    await until(Promise.all([added.daemon.stop("end"), renewed.daemon.stop("end")]));
    for (const ids of owners(h).values()) expect(ids.size).toBe(0);
    for (const w of all) expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("");
  }, 180_000);

  it("control, without leases: the same steps let the new owner quote while the old one is only halted", async () => {
    const { h, step, until } = await setup();
    const old = start(h, 0, 1, undefined);
    await until(old.daemon.start());
    await step(10_000);
    await until(old.daemon.kill("test: halted"));
    await step(40_000);
    const added = start(h, 1, 2, undefined);
    await until(added.daemon.start());
    await step(30_000);
    expect(added.observer.of("order_placed").length).toBeGreaterThan(0);
    await until(Promise.all([old.daemon.stop("end"), added.daemon.stop("end")]));
  }, 120_000);

  it("renewals failing: the replica stops quoting the wallets (orders cancelled) before the leases expire, and stays up", async () => {
    const { h, k8s, api, step, until } = await setup();
    const d = start(h, 0, 1, api);
    await until(d.daemon.start());
    await step(10_000);
    for (const w of all) expect(owners(h).get(w)!.size).toBe(1);
    k8s.mode = "unavailable";
    const downAt = h.clock.now();
    await step(14_000);
    for (const w of all) expect(owners(h).get(w)!.size).toBe(0);
    const lost = d.lines.filter((l) => l.msg.startsWith("shard lease: lost the wallet's lease"));
    expect(lost.map((l) => l.wallet).sort()).toEqual([...all].sort());
    // Given up by the last renewal + 13 s, before anyone may take a lease (+ 17 s).
    expect(h.clock.now() - downAt).toBeLessThan(15_000);
    const placed = d.observer.of("order_placed").length;
    k8s.mode = "up";
    await step(30_000);
    expect(d.observer.of("order_placed")).toHaveLength(placed);
    expect(d.daemon.isRunning).toBe(true);
    const report = await until(d.daemon.stop("end"));
    expect(report.wallets).toHaveLength(WALLETS);
    // Lost leases are not released by the loser (they expire).
    for (const w of all) expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("lh-s0");
  }, 120_000);

  it("the API server down at start-up: every wallet is held, then started once it answers", async () => {
    const { h, k8s, api, step, until } = await setup();
    k8s.mode = "drop";
    const d = start(h, 0, 1, api);
    const started = await until(d.daemon.start());
    expect(started.wallets.every((w) => !w.ready)).toBe(true);
    await step(10_000);
    expect(d.observer.of("order_placed")).toHaveLength(0);
    expect(d.lines.some((l) => l.msg === "shard hand-off: lease request failed; the wallet stays held" && l.level === "warn")).toBe(true);
    k8s.mode = "up";
    await step(10_000);
    for (const w of all) expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
    await until(d.daemon.stop("end"));
  }, 120_000);
});
