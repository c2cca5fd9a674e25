/**
 * The hand-off with per-wallet Leases (shard.lease), daemons on a virtual clock against the
 * in-process simulator and a fake Kubernetes API server over HTTP:
 *
 * - the gap the order-based rule leaves (an old owner alive but with no order open or recent:
 *   every quote pulled by the kill switch) is closed: the new owner holds the wallet while the old
 *   one holds its lease, the old one resumes without two replicas ever quoting a wallet, and the
 *   wallet moves once the old one stopped and released its leases (without leases, the same steps
 *   let the new owner quote at once: the control);
 * - a replica that cannot renew stops quoting the wallet (its orders cancelled) and stays up; when
 *   the API server answers again it takes the leases back (backoff 1 s doubling to 8 s) and each
 *   wallet starts again through its start-up path, with every placement checked as it happens
 *   against the lease (this replica's view and the API server's object) and no orphan or duplicate
 *   order after;
 * - a lost lease another replica took meanwhile stays with it: the old replica takes back only the
 *   rest, and never quotes that wallet;
 * - the API server down at start-up: the wallets are held (nothing quoted) until it answers.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { shardOf, type LeaseSettings } from "../../src/config/shard-section.js";
import type { Config } from "../../src/config/index.js";
import { HttpLeaseApi, leaseName, parseMicroTime, type LeaseApi, type LeaseRead, type LeaseRecord, type LeaseWrite } from "../../src/bot/guards/k8s-lease-client.js";
import { createDaemon, type Daemon } from "../../src/bot/engine/daemon.js";
import { RecordingObserver, type EngineObserver } from "../../src/bot/observer.js";
import { Rng } from "../../src/core/rng.js";
import { API_KEY, daemonConfig, makeDaemon, startSim, walletAddress, type DaemonHarness, type SimHarness } from "../integration/harness.js";
import { FakeK8s, TrackedLeaseApi, capture, type Line } from "./fake-k8s.js";
import { shardPods } from "./pods.js";

const WALLETS = 6;
const MARKETS = ["LHA", "LHB", "LHC", "LHD", "LHE", "LHF"];
const LEASE: LeaseSettings = { namespace: "mm", durationSec: 15, renewSec: 5, skewMarginSec: 2 };

/** One replica's way to the API server, which the test can cut (connection refused) while the others still reach it. */
class CutLeaseApi implements LeaseApi {
  down = false;
  readonly describe: string;
  constructor(private readonly inner: LeaseApi) {
    this.describe = inner.describe;
  }
  private refused(): Promise<never> {
    return Promise.reject(new Error("connect ECONNREFUSED (cut by the test)"));
  }
  get(name: string): Promise<LeaseRead> {
    return this.down ? this.refused() : this.inner.get(name);
  }
  create(name: string, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    return this.down ? this.refused() : this.inner.create(name, spec);
  }
  update(current: LeaseRecord, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    return this.down ? this.refused() : this.inner.update(current, spec);
  }
}


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

  /** After the clean stops: no order of ours rests on the platform and every Lease is released. */
  function expectAllEnded(h: SimHarness, k8s: FakeK8s): void {
    for (const ids of owners(h).values()) expect(ids.size).toBe(0);
    for (const w of all) expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("");
  }

  /** Each wallet's orders on the platform are all `id`'s, and `id` holds its Lease. */
  function expectHeld(h: SimHarness, k8s: FakeK8s, wallets: readonly string[], id: string): void {
    for (const w of wallets) {
      expect([...owners(h).get(w)!]).toEqual([id]);
      expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe(id);
    }
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
    expectHeld(h, k8s, moving, "lh-s1");
    expectHeld(h, k8s, staying, "lh-s0");
    expect(doubles).toEqual([]);

    await until(Promise.all([added.daemon.stop("end"), renewed.daemon.stop("end")]));
    expectAllEnded(h, k8s);
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

  /**
   * A replica whose every order_placed is checked the moment it arrives: the wallet's lease must be
   * held by this replica (its own view) and, on the API server, name it and be unexpired.
   */
  function watched(h: SimHarness, k8s: FakeK8s, index: number, count: number, api: LeaseApi): DaemonHarness & { lines: Line[]; violations: string[] } {
    const { log, lines } = capture("info", h.clock);
    const id = `lh-s${index}`;
    const violations: string[] = [];
    const observer = new RecordingObserver();
    const ref: { daemon?: Daemon } = {};
    const check: EngineObserver = {
      onEvent: (e) => {
        if (e.type !== "order_placed") return;
        const mine = ref.daemon?.statusDocument().wallets.find((w) => w.address === e.wallet)?.lease;
        const stored = k8s.lease(leaseName("lh", e.wallet))?.spec;
        const renewed = stored?.renewTime === undefined ? undefined : parseMicroTime(stored.renewTime);
        const live = stored?.holderIdentity === id && renewed !== undefined && renewed + LEASE.durationSec * 1000 > h.clock.now();
        if (mine?.state !== "held" || !live) violations.push(`${new Date(h.clock.now()).toISOString()} ${e.wallet} ${e.clientOrderId}: own view ${mine?.state ?? "none"}, server holder ${stored?.holderIdentity ?? "none"} renewed ${stored?.renewTime ?? "never"}`);
      },
    };
    const daemon = createDaemon(replica(index, count, LEASE), {
      clock: h.clock,
      rng: new Rng(123),
      apiKey: API_KEY,
      ...pod(h, index),
      logger: log,
      observer: [observer, check],
      leaseApi: api,
      tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
    });
    ref.daemon = daemon;
    return { daemon, observer, lines, violations };
  }

  /** The wallet's orders agree between the simulator and the daemon (no orphan), and at most one per (market, outcome, side) (no duplicate). */
  function consistent(h: SimHarness, d: Daemon, wallets: readonly string[]): void {
    const doc = d.statusDocument();
    for (const w of wallets) {
      const sim = h.sim.desk.records.liveOf(w).map((o) => o.clientOrderId ?? "");
      const ours = doc.wallets.find((x) => x.address === w)!.orders.map((o) => o.clientOrderId);
      expect(sim.length, w).toBeGreaterThan(0);
      expect([...sim].sort(), w).toEqual([...ours].sort());
      const keys = h.sim.desk.records.liveOf(w).map((o) => `${o.marketId}/${o.outcome}/${o.side}`);
      expect(new Set(keys).size, w).toBe(keys.length);
    }
  }

  function metricLines(d: Daemon, name: string): Promise<string> {
    return d.ops.metrics.registry.getSingleMetricAsString(name);
  }

  it("an API-server outage longer than duration - skew: the wallets stop (orders cancelled), then are taken back and quote again once it answers", async () => {
    const { h, k8s, api, step, until } = await setup();
    const d = watched(h, k8s, 0, 1, api);
    await until(d.daemon.start());
    await step(10_000);
    for (const w of all) expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
    for (const wallet of d.daemon.statusDocument().wallets) expect(wallet.lease).toMatchObject({ name: leaseName("lh", wallet.address), state: "held", holder: "lh-s0", losses: 0, error: null });

    k8s.mode = "unavailable";
    const downAt = h.clock.now();
    await step(14_000);
    for (const w of all) expect(owners(h).get(w)!.size).toBe(0);
    const lost = d.lines.filter((l) => l.msg.startsWith("shard lease: lost the wallet's lease"));
    expect(lost.map((l) => l.wallet).sort()).toEqual([...all].sort());
    // Given up by the last renewal + 13 s, before anyone may take a lease (+ 17 s).
    expect(h.clock.now() - downAt).toBeLessThan(15_000);
    for (const wallet of d.daemon.statusDocument().wallets) {
      expect(wallet.state).toBe("stopped");
      expect(wallet.lease).toMatchObject({ state: "lost", holder: null, losses: 1 });
      expect(wallet.lease!.renewAgeSec).toBeGreaterThanOrEqual(13);
      expect(wallet.lease!.error).toContain("503");
    }
    expect(await metricLines(d.daemon, "mm_shard_lease_state")).toContain('mm_shard_lease_state{wallet="w0",state="lost"} 1');
    expect(await metricLines(d.daemon, "mm_shard_lease_losses_total")).toContain('mm_shard_lease_losses_total{wallet="w0"} 1');

    // Down well past the leases' expiry: asked for again with a backoff, nothing quoted.
    const placed = d.observer.of("order_placed").length;
    const requestsBefore = k8s.requests.length;
    await step(40_000);
    expect(d.observer.of("order_placed")).toHaveLength(placed);
    for (const w of all) expect(owners(h).get(w)!.size).toBe(0);
    const asked = k8s.requests.slice(requestsBefore).filter((r) => r.startsWith(`GET `) && r.endsWith(`/${leaseName("lh", all[0]!)}`)).length;
    // 1, 2, 4, 8, 8, 8, 8 s apart: about 7 tries in 40 s (a 1 s poll would be 40).
    expect(asked).toBeGreaterThanOrEqual(4);
    expect(asked).toBeLessThanOrEqual(9);
    expect(d.lines.some((l) => l.msg === "shard hand-off: the lost lease is not ours again yet; the wallet stays stopped" && l.level === "warn")).toBe(true);

    k8s.mode = "up";
    const upAt = h.clock.now();
    await step(20_000);
    for (const w of all) {
      expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
      expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("lh-s0");
    }
    const back = d.lines.filter((l) => l.msg === "shard hand-off: the lost lease is ours again and no other replica's order is open or recent; starting the wallet again");
    expect(back.map((l) => l.wallet).sort()).toEqual([...all].sort());
    // Within the longest backoff (8 s) and a start-up of the wallet.
    expect(Math.max(...back.map((l) => Date.parse(l.time as string))) - upAt).toBeLessThanOrEqual(8_500);
    expect(d.observer.of("order_placed").length).toBeGreaterThan(placed);
    // Each wallet came back through its start-up: the open-order reconciliation before its first cycle.
    expect(d.observer.of("synced").filter((e) => e.reason === "startup")).toHaveLength(2 * WALLETS);
    for (const wallet of d.daemon.statusDocument().wallets) {
      expect(wallet.state).toBe("ready");
      expect(wallet.lease).toMatchObject({ state: "held", holder: "lh-s0", losses: 1, error: null });
      expect(wallet.lease!.renewAgeSec).toBeLessThan(LEASE.renewSec + 1);
    }
    expect(await metricLines(d.daemon, "mm_shard_lease_state")).toContain('mm_shard_lease_state{wallet="w0",state="held"} 1');
    consistent(h, d.daemon, all);
    // The books were kept across the stop (no second anchor): no drift found by the reconciliations since.
    expect(d.daemon.statusDocument().halts).toEqual([]);
    expect(d.violations).toEqual([]);

    expect(d.daemon.isRunning).toBe(true);
    const report = await until(d.daemon.stop("end"));
    expect(report.wallets).toHaveLength(WALLETS);
    expect(report.exitCode).toBe(0);
    // Taken back, then released at the clean stop.
    expectAllEnded(h, k8s);
  }, 180_000);

  it("a lost lease another replica took meanwhile: this replica stays off that wallet while the other holds it, and takes back the rest", async () => {
    const { h, k8s, api, step, until, doubles } = await setup();
    // Only the old replica loses the API server.
    const cut = new CutLeaseApi(api);
    const old = watched(h, k8s, 0, 1, cut);
    await until(old.daemon.start());
    await step(10_000);
    const added = watched(h, k8s, 1, 2, api);
    await until(added.daemon.start());
    await step(10_000);
    for (const w of all) expect([...owners(h).get(w)!]).toEqual(["lh-s0"]);
    expect(added.observer.of("order_placed")).toHaveLength(0);

    cut.down = true;
    await step(45_000);
    // The old one gave every wallet up; the new one took its own once expired and the old orders had ended.
    for (const w of moving) {
      expect([...owners(h).get(w)!]).toEqual(["lh-s1"]);
      expect(k8s.lease(leaseName("lh", w))!.spec.holderIdentity).toBe("lh-s1");
    }
    for (const w of staying) expect(owners(h).get(w)!.size).toBe(0);
    const oldPlacedOnMoving = (): number => old.observer.of("order_placed").filter((e) => moving.includes(e.wallet)).length;
    const before = oldPlacedOnMoving();

    cut.down = false;
    await step(40_000);
    expectHeld(h, k8s, moving, "lh-s1");
    expectHeld(h, k8s, staying, "lh-s0");
    expect(oldPlacedOnMoving()).toBe(before);
    const doc = old.daemon.statusDocument();
    for (const w of moving) {
      const wallet = doc.wallets.find((x) => x.address === w)!;
      expect(wallet.state).toBe("stopped");
      expect(wallet.lease).toMatchObject({ state: "lost", holder: "lh-s1", losses: 1, error: null });
    }
    for (const w of staying) expect(doc.wallets.find((x) => x.address === w)!.lease).toMatchObject({ state: "held", holder: "lh-s0", losses: 1 });
    consistent(h, old.daemon, staying);
    consistent(h, added.daemon, moving);
    expect(old.violations).toEqual([]);
    expect(added.violations).toEqual([]);
    expect(doubles).toEqual([]);

    await until(Promise.all([old.daemon.stop("end"), added.daemon.stop("end")]));
    // The old replica never wrote the moving wallets' leases again: the new one released them.
    expectAllEnded(h, k8s);
  }, 180_000);

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
