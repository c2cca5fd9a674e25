/**
 * Per-wallet Kubernetes Leases (shard.lease): the Lease client against a fake API server over
 * HTTP (acquire, conflict, takeover after expiry, renew, release, a renewal that fails until
 * the wallet is given up, the API server down or answering garbage), with a virtual clock for
 * the renewal timers (the fake's Date header follows the same clock).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { HttpLeaseApi, inClusterTarget, leaseName, microTime, parseMicroTime } from "../../../src/bot/guards/k8s-lease-client.js";
import { WalletLeases, type WalletLeaseOptions } from "../../../src/bot/guards/wallet-lease.js";
import { FakeK8s, TrackedLeaseApi, capture, type Line } from "../../shard/fake-k8s.js";

const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const WALLET = "0xabcdef0123456789abcdef0123456789abcdef01";
const TIMING = { durationSec: 15, renewSec: 5, skewMarginSec: 2 };


describe("shard.lease: per-wallet Leases against a fake Kubernetes API server", () => {
  const clock = new VirtualClock(T0);
  const k8s = new FakeK8s(() => clock.now());
  let api: TrackedLeaseApi;

  beforeAll(async () => {
    await k8s.listen();
  });
  afterAll(() => k8s.close());
  beforeEach(() => {
    k8s.leases.clear();
    k8s.mode = "up";
    api = new TrackedLeaseApi(new HttpLeaseApi({ baseUrl: k8s.url, namespace: "mm", token: () => k8s.token, timeoutMs: 2_000 }));
  });

  function replica(identity: string, over: Partial<WalletLeaseOptions> = {}): { leases: WalletLeases; lost: string[]; lines: Line[] } {
    const lost: string[] = [];
    const { log, lines } = capture("debug");
    const leases = new WalletLeases({ api, identity, prefix: "mm-prod", ...TIMING, clock, log, onLost: (w, why) => void lost.push(`${w}: ${why}`), ...over });
    return { leases, lost, lines };
  }

  /** Advance virtual time in 250 ms steps, letting each step's lease requests finish. */
  async function run(ms: number): Promise<void> {
    for (let t = 0; t < ms; t += 250) {
      await clock.advance(250);
      await api.idle();
    }
  }

  it("names each wallet's lease <base id>-<address>, lower case, a DNS-1123 label", () => {
    const name = leaseName("mm-prod", WALLET.toUpperCase().replace("0X", "0x"));
    expect(name).toBe(`mm-prod-${WALLET}`);
    expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(name.length).toBeLessThanOrEqual(63);
    expect(leaseName("A_B.c", "X")).toBe("a-b-c-x");
    expect(leaseName("x".repeat(40), WALLET).length).toBeLessThanOrEqual(63);
  });

  it("writes MicroTime with six fractional digits and reads any", () => {
    expect(microTime(T0 + 123)).toBe("2026-03-01T12:00:00.123000Z");
    expect(parseMicroTime("2026-03-01T12:00:00.123456Z")).toBe(T0 + 123);
    expect(parseMicroTime("2026-03-01T12:00:00Z")).toBe(T0);
    expect(parseMicroTime("2026-03-01T13:00:00.5+01:00")).toBe(T0 + 500);
    expect(parseMicroTime("yesterday")).toBeUndefined();
  });

  it("acquires an absent lease by creating it, with this replica as holder", async () => {
    const a = replica("mm-prod-s0");
    await expect(a.leases.acquire(WALLET)).resolves.toEqual({ acquired: true });
    const l = k8s.lease(`mm-prod-${WALLET}`)!;
    expect(l.spec).toMatchObject({ holderIdentity: "mm-prod-s0", leaseDurationSeconds: 15, leaseTransitions: 0, renewTime: microTime(T0) });
    expect(a.leases.holds(WALLET)).toBe(true);
    a.leases.stop();
  });

  it("does not take a lease another replica holds and renews (conflict), and says who holds it", async () => {
    const a = replica("mm-prod-s0");
    const b = replica("mm-prod-s1");
    await a.leases.acquire(WALLET);
    await run(30_000);
    const r = await b.leases.acquire(WALLET);
    expect(r).toMatchObject({ acquired: false, holder: "mm-prod-s0" });
    expect(b.leases.holds(WALLET)).toBe(false);
    expect(a.lost).toEqual([]);
    a.leases.stop();
  });

  it("two replicas creating one lease at once: exactly one gets it (409 AlreadyExists for the other)", async () => {
    const a = replica("mm-prod-s0");
    const b = replica("mm-prod-s1");
    const [ra, rb] = await Promise.all([a.leases.acquire(WALLET), b.leases.acquire(WALLET)]);
    expect([ra.acquired, rb.acquired].filter(Boolean)).toHaveLength(1);
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec.holderIdentity).toBe(ra.acquired ? "mm-prod-s0" : "mm-prod-s1");
    a.leases.stop();
    b.leases.stop();
  });

  it("a PUT with a stale resourceVersion is refused (409 Conflict): the taker does not get it", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    a.leases.stop();
    await run(20_000);
    const read = await api.get(`mm-prod-${WALLET}`);
    // Someone else renews between our read and our write.
    const l = k8s.lease(`mm-prod-${WALLET}`)!;
    k8s.leases.set(`mm/mm-prod-${WALLET}`, { ...l, metadata: { ...l.metadata, resourceVersion: "999" } });
    await expect(api.update(read.lease!, { holder: "mm-prod-s1", durationSec: 15, acquireTimeMs: clock.now(), renewTimeMs: clock.now(), transitions: 1 })).resolves.toBe("conflict");
  });

  it("takes over an expired lease only after renewTime + duration + skew margin by the API server's clock (its Date header)", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    a.leases.stop(); // a process that died: no renewal, no release
    const b = replica("mm-prod-s1");
    await run(15_000); // duration passed, the skew margin not
    await expect(b.leases.acquire(WALLET)).resolves.toMatchObject({ acquired: false, holder: "mm-prod-s0" });
    // The API server's Date has whole seconds (rounded down): up to a second more.
    await run(3_250);
    await expect(b.leases.acquire(WALLET)).resolves.toEqual({ acquired: true, takenFrom: "mm-prod-s0" });
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec).toMatchObject({ holderIdentity: "mm-prod-s1", leaseTransitions: 1 });
    b.leases.stop();
  });

  it("renews while held: renewTime follows the clock every renewSec and no other replica can take it", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    const b = replica("mm-prod-s1");
    const renewTimes: (string | undefined)[] = [];
    for (let i = 0; i < 12; i++) {
      await run(5_000);
      renewTimes.push(k8s.lease(`mm-prod-${WALLET}`)!.spec.renewTime);
      expect((await b.leases.acquire(WALLET)).acquired).toBe(false);
    }
    expect(new Set(renewTimes).size).toBe(12);
    expect(parseMicroTime(renewTimes.at(-1)!)).toBeGreaterThanOrEqual(clock.now() - 5_000);
    expect(a.lost).toEqual([]);
    a.leases.stop();
  });

  it("a replica that restarts under the same identity takes its own lease back at once", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    a.leases.stop();
    const again = replica("mm-prod-s0");
    await expect(again.leases.acquire(WALLET)).resolves.toEqual({ acquired: true });
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec.leaseTransitions).toBe(0);
    again.leases.stop();
  });

  it("release gives the lease back (holder empty): another replica takes it at once", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    await run(6_000);
    await expect(a.leases.release(WALLET)).resolves.toBe(true);
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1 });
    const b = replica("mm-prod-s1");
    await expect(b.leases.acquire(WALLET)).resolves.toMatchObject({ acquired: true });
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec.holderIdentity).toBe("mm-prod-s1");
    // The released replica no longer renews.
    await run(20_000);
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec.holderIdentity).toBe("mm-prod-s1");
    expect(a.lost).toEqual([]);
    b.leases.stop();
  });

  for (const mode of ["unavailable", "drop"] as const) {
    it(`renewals failing (${mode}): the wallet is given up at duration - skew after the last renewal, before anyone may take it`, async () => {
      const a = replica("mm-prod-s0");
      await a.leases.acquire(WALLET);
      await run(5_000); // one renewal
      const renewedAt = parseMicroTime(k8s.lease(`mm-prod-${WALLET}`)!.spec.renewTime!)!;
      k8s.mode = mode;
      await run(12_500);
      expect(a.lost).toEqual([]);
      const failed = a.lines.filter((l) => l.msg === "shard lease: renewal failed; trying again");
      expect(failed.length).toBeGreaterThan(0);
      if (mode === "drop") expect(String(failed[0]!.err)).toMatch(/^PUT http:\/\/127\.0\.0\.1:\d+\/apis\/coordination\.k8s\.io\/v1\/namespaces\/mm\/leases\/mm-prod-0x[0-9a-f]+: fetch failed: ./);
      await run(750);
      expect(clock.now()).toBeGreaterThanOrEqual(renewedAt + 13_000);
      expect(a.lost).toHaveLength(1);
      expect(a.lost[0]).toContain("not renewed since");
      expect(a.leases.holds(WALLET)).toBe(false);
      const lostAt = clock.now();
      // The API back: nobody could have taken it before renewTime + 15 s + 2 s, after the loss.
      k8s.mode = "up";
      const b = replica("mm-prod-s1");
      expect(lostAt).toBeLessThan(renewedAt + 17_000);
      await expect(b.leases.acquire(WALLET)).resolves.toMatchObject({ acquired: false });
      await run(renewedAt + 18_250 - clock.now()); // + 1 s: the Date header's whole seconds
      await expect(b.leases.acquire(WALLET)).resolves.toMatchObject({ acquired: true, takenFrom: "mm-prod-s0" });
      // The loser does not write again.
      await run(10_000);
      expect(k8s.lease(`mm-prod-${WALLET}`)!.spec.holderIdentity).toBe("mm-prod-s1");
      expect(a.lost).toHaveLength(1);
      b.leases.stop();
    });
  }

  it("a renewal answered 409 because another replica took the lease: lost at once", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    const l = k8s.lease(`mm-prod-${WALLET}`)!;
    k8s.leases.set(`mm/mm-prod-${WALLET}`, { ...l, metadata: { ...l.metadata, resourceVersion: "5000" }, spec: { ...l.spec, holderIdentity: "mm-prod-s7" } });
    await run(5_000);
    expect(a.lost).toEqual([`${WALLET}: taken by mm-prod-s7`]);
  });

  it("each wallet's state as /status and the metrics show it: waiting (with the holder), held, lost (taken), held again, released", async () => {
    const a = replica("mm-prod-s0");
    const b = replica("mm-prod-s1");
    await a.leases.acquire(WALLET);
    expect(a.leases.view(WALLET)).toEqual({ wallet: WALLET, name: `mm-prod-${WALLET}`, state: "held", holder: "mm-prod-s0", renewedAtMs: clock.now(), sinceMs: clock.now(), losses: 0, error: undefined });
    const firstAt = clock.now();
    await run(5_000);
    // Renewed (renewSec 5): the last write moved on.
    expect(a.leases.view(WALLET)!.renewedAtMs).toBe(firstAt + 5_000);
    await b.leases.acquire(WALLET);
    expect(b.leases.views()).toEqual([expect.objectContaining({ state: "waiting", holder: "mm-prod-s0", renewedAtMs: undefined, losses: 0 })]);

    // Taken by another replica (its renewal answered 409): lost, naming the taker.
    const l = k8s.lease(`mm-prod-${WALLET}`)!;
    k8s.leases.set(`mm/mm-prod-${WALLET}`, { ...l, metadata: { ...l.metadata, resourceVersion: "7000" }, spec: { ...l.spec, holderIdentity: "mm-prod-s7", renewTime: microTime(clock.now()) } });
    const takenAt = clock.now();
    await run(5_000);
    expect(a.lost).toHaveLength(1);
    expect(a.leases.view(WALLET)).toMatchObject({ state: "lost", holder: "mm-prod-s7", losses: 1 });
    const lostSince = a.leases.view(WALLET)!.sinceMs;
    // Asked again while s7's lease runs: refused, still lost.
    await expect(a.leases.acquire(WALLET)).resolves.toMatchObject({ acquired: false, holder: "mm-prod-s7" });
    expect(a.leases.view(WALLET)).toMatchObject({ state: "lost", holder: "mm-prod-s7", sinceMs: lostSince });
    // The API server down: the error is kept until an answer.
    k8s.mode = "unavailable";
    await expect(a.leases.acquire(WALLET)).rejects.toThrow(/HTTP 503/);
    expect(a.leases.view(WALLET)!.error).toMatch(/HTTP 503/);
    k8s.mode = "up";
    // s7 stopped renewing: expired after renewTime + 15 s + 2 s (+ 1 s: the Date header's whole seconds).
    await run(takenAt + 18_250 - clock.now());
    await expect(a.leases.acquire(WALLET)).resolves.toMatchObject({ acquired: true, takenFrom: "mm-prod-s7" });
    expect(a.leases.view(WALLET)).toMatchObject({ state: "held", holder: "mm-prod-s0", renewedAtMs: clock.now(), sinceMs: clock.now(), losses: 1, error: undefined });
    expect(a.leases.lost()).toEqual([]);

    await a.leases.release(WALLET);
    expect(a.leases.view(WALLET)).toMatchObject({ state: "released", holder: undefined, losses: 1, error: undefined });
    a.leases.stop();
    b.leases.stop();
  });

  it("a lease lost for want of renewals and not taken meanwhile: the same replica takes it back at once when the API server answers again", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    k8s.mode = "unavailable";
    await run(14_000);
    expect(a.lost).toHaveLength(1);
    expect(a.leases.view(WALLET)).toMatchObject({ state: "lost", holder: undefined, losses: 1 });
    k8s.mode = "up";
    // Still ours on the API server (holderIdentity unchanged, so no other replica took it): taken back
    // by a PUT with the resourceVersion read, which a taker's write would have changed.
    await expect(a.leases.acquire(WALLET)).resolves.toEqual({ acquired: true });
    expect(a.leases.view(WALLET)).toMatchObject({ state: "held", holder: "mm-prod-s0", losses: 1 });
    expect(k8s.lease(`mm-prod-${WALLET}`)!.spec).toMatchObject({ holderIdentity: "mm-prod-s0", renewTime: microTime(clock.now()), leaseTransitions: 0 });
    a.leases.stop();
  });

  it("a renewal whose answer was lost (409, the lease still ours): renewed again, not lost", async () => {
    const a = replica("mm-prod-s0");
    await a.leases.acquire(WALLET);
    const l = k8s.lease(`mm-prod-${WALLET}`)!;
    k8s.leases.set(`mm/mm-prod-${WALLET}`, { ...l, metadata: { ...l.metadata, resourceVersion: "6000" } });
    await run(30_000);
    expect(a.lost).toEqual([]);
    expect(parseMicroTime(k8s.lease(`mm-prod-${WALLET}`)!.spec.renewTime!)).toBeGreaterThan(clock.now() - 6_000);
    a.leases.stop();
  });

  it("the API server down at start-up: acquire throws a clear error (the hand-off holds the wallet)", async () => {
    k8s.mode = "unavailable";
    const a = replica("mm-prod-s0");
    await expect(a.leases.acquire(WALLET)).rejects.toThrow(/GET lease mm-prod-0xabcdef.*HTTP 503: ServiceUnavailable/);
    expect(a.leases.holds(WALLET)).toBe(false);
  });

  it("a wrong token: the error says what RBAC the service account needs", async () => {
    const bad = new HttpLeaseApi({ baseUrl: k8s.url, namespace: "mm", token: () => "wrong", timeoutMs: 2_000 });
    await expect(bad.get("x")).rejects.toThrow(/HTTP 401: Unauthorized.*get, create and update on leases/);
  });

  it("an answer that is not a Lease is refused by its schema", async () => {
    k8s.mode = "garbage";
    await expect(api.get("x")).rejects.toThrow(/GET lease x: the answer is not a Lease/);
  });

  it("in-cluster: the API server from KUBERNETES_SERVICE_HOST/PORT, token, CA and namespace from the service account", () => {
    const files: Record<string, string> = { "/sa/token": "tok\n", "/sa/ca.crt": "PEM", "/sa/namespace": "pm-market-maker\n" };
    const readFile = (p: string): string => {
      const v = files[p];
      if (v === undefined) throw new Error(`ENOENT: ${p}`);
      return v;
    };
    const t = inClusterTarget({ env: { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" }, readFile, dir: "/sa" });
    expect(typeof t).toBe("object");
    if (typeof t === "string") return;
    expect(t.baseUrl).toBe("https://10.96.0.1:443");
    expect(t.token()).toBe("tok");
    expect(t.namespace).toBe("pm-market-maker");
    expect(inClusterTarget({ env: { KUBERNETES_SERVICE_HOST: "fd00::1", KUBERNETES_SERVICE_PORT: "6443" }, readFile, dir: "/sa" })).toMatchObject({ baseUrl: "https://[fd00::1]:6443" });
    expect(inClusterTarget({ env: {}, readFile, dir: "/sa" })).toMatch(/KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/);
    expect(inClusterTarget({ env: { KUBERNETES_SERVICE_HOST: "h", KUBERNETES_SERVICE_PORT: "443" }, readFile, dir: "/nope" })).toMatch(/cannot read \/nope\/ca\.crt/);
  });
});
