import { describe, expect, it } from "vitest";
import { VirtualClock, flushMicrotasks } from "../../src/core/clock.js";
import { RateGate, type Admission, type AcquireRequest } from "../../src/ratelimit/gate.js";
import { RATE_TABLE, RateTable } from "../../src/ratelimit/table.js";

const W1 = "0x1111111111111111111111111111111111111111";
const W2 = "0x2222222222222222222222222222222222222222";
const T0 = Date.UTC(2026, 0, 1);
const place = (wallet = W1): AcquireRequest => ({ method: "POST", path: "/api/orders/place", wallet });
const cancel = (wallet = W1): AcquireRequest => ({ method: "POST", path: "/api/orders/cancel", wallet });

/** Start acquisitions and record, in completion order, the virtual time each was admitted. */
function track(gate: RateGate, clock: VirtualClock, reqs: AcquireRequest[], log: { tag: string; at: number }[], tag = "") {
  return reqs.map((r, i) =>
    gate.acquire(r).then((a: Admission) => {
      log.push({ tag: tag || `${r.path.split("/").pop()}#${i}`, at: clock.now() });
      return a;
    }),
  );
}

function perWindow(times: number[], windowMs: number): Map<number, number> {
  const m = new Map<number, number>();
  for (const t of times) {
    const k = Math.floor(t / windowMs);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

describe("RateGate on a VirtualClock", () => {
  it("admits a burst of 100 places 20 per aligned 1 s window, never 21", async () => {
    const clock = new VirtualClock(T0 + 300); // start mid-window
    const gate = new RateGate({ clock, safetyMargin: 0 });
    expect(gate.schedulerKind).toBe("queue");
    const log: { tag: string; at: number }[] = [];
    const all = track(gate, clock, Array.from({ length: 100 }, () => place()), log);
    await flushMicrotasks();
    expect(log.length).toBe(20);
    await clock.advance(699); // still in the first window
    expect(log.length).toBe(20);
    await clock.advance(1); // T0 + 1000: boundary
    expect(log.length).toBe(40);
    await clock.runAll();
    await Promise.all(all);
    const counts = perWindow(
      log.map((l) => l.at),
      1000,
    );
    expect([...counts.values()]).toEqual([20, 20, 20, 20, 20]);
    // admissions after the first happen exactly at window boundaries
    expect(new Set(log.slice(20).map((l) => l.at % 1000))).toEqual(new Set([0]));
  });

  it("keeps a safety margin: floor(20 * 0.9) = 18 per window", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0.1 });
    const log: { tag: string; at: number }[] = [];
    const all = track(gate, clock, Array.from({ length: 100 }, () => place()), log);
    await clock.runAll();
    await Promise.all(all);
    const counts = [...perWindow(log.map((l) => l.at), 1000).values()];
    expect(counts.slice(0, 5)).toEqual([18, 18, 18, 18, 18]);
    expect(counts.reduce((a, b) => a + b)).toBe(100);
    expect(Math.max(...counts)).toBe(18);
  });

  it("scales with the tier: 30/min gives one place per second", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0.5, rateLimitPerMin: 30 });
    const log: { tag: string; at: number }[] = [];
    const all = track(gate, clock, Array.from({ length: 3 }, () => place()), log);
    await clock.runAll();
    await Promise.all(all);
    expect(log.map((l) => l.at - T0)).toEqual([0, 1000, 2000]);
  });

  it("admits queued cancels before queued places when a shared bucket reopens", async () => {
    // cancels and places share only the ip bucket `POST /api/orders/*`; a 429 there blocks both
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    gate.observe({
      method: "POST",
      path: "/api/orders/place",
      wallet: W1,
      status: 429,
      headers: { "x-ratelimit-limit": "6000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "3", "retry-after": "3" },
    });
    const log: { tag: string; at: number }[] = [];
    const reads = track(gate, clock, [{ method: "GET", path: "/api/orders/open", wallet: W1 }], log, "read");
    const places = track(gate, clock, [place(), place(W2), place()], log, "place");
    const cancels = track(gate, clock, [cancel(), cancel(W2)], log, "cancel");
    await flushMicrotasks();
    expect(log.map((l) => l.tag)).toEqual(["read"]); // other bucket: not blocked
    expect(gate.queueDepth()).toBe(5);
    await clock.advance(2999);
    expect(log.length).toBe(1);
    await clock.advance(1);
    await Promise.all([...reads, ...places, ...cancels]);
    expect(log.map((l) => l.tag)).toEqual(["read", "cancel", "cancel", "place", "place", "place"]);
    expect(log.slice(1).every((l) => l.at === T0 + 3000)).toBe(true);
  });

  it("gives cancels the room first when one bucket serves both classes (custom table)", async () => {
    const shared = {
      id: "shared",
      method: "POST" as const,
      paths: ["/api/orders/*"],
      scope: "wallet" as const,
      limit: 2,
      windowSec: 1,
      class: "place" as const,
      stated: true,
    };
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0, table: new RateTable([shared]) });
    const log: { tag: string; at: number }[] = [];
    const p = track(gate, clock, Array.from({ length: 4 }, () => place()), log, "place");
    const c = track(gate, clock, Array.from({ length: 3 }, () => cancel()), log, "cancel");
    const r = track(gate, clock, [{ method: "POST", path: "/api/orders/other", wallet: W1, priority: "read" }], log, "read");
    await clock.runAll();
    await Promise.all([...p, ...c, ...r]);
    expect(log.map((l) => `${l.tag}@${(l.at - T0) / 1000}`)).toEqual([
      "place@0",
      "place@0",
      "cancel@1",
      "cancel@1",
      "cancel@2",
      "place@2",
      "place@3",
      "read@3",
    ]);
  });

  it("keeps wallet buckets apart and shares the ip bucket", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    const log: { tag: string; at: number }[] = [];
    const a = track(gate, clock, Array.from({ length: 25 }, () => place(W1)), log, "w1");
    const b = track(gate, clock, Array.from({ length: 25 }, () => place(W2)), log, "w2");
    await flushMicrotasks();
    expect(log.filter((l) => l.tag === "w1").length).toBe(20);
    expect(log.filter((l) => l.tag === "w2").length).toBe(20);
    const stats = gate.stats();
    const ip = stats.find((s) => s.bucket === "orders-post-ip")!;
    expect(ip).toMatchObject({ subject: "self", used: 40, limit: 6000 });
    expect(stats.find((s) => s.bucket === "orders-place" && s.subject === W1)).toMatchObject({ used: 20, queueDepth: 5 });
    expect(stats.find((s) => s.bucket === "orders-place" && s.subject === W2)).toMatchObject({ used: 20, queueDepth: 5 });
    await clock.runAll();
    await Promise.all([...a, ...b]);
  });

  it("paces the shared ip bucket across wallets", async () => {
    // 2 per second per wallet, but the ip bucket of `POST /api/vault/*` is 100 per minute for everyone
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    const log: { tag: string; at: number }[] = [];
    const reqs: AcquireRequest[] = [];
    for (let w = 0; w < 40; w++) {
      const wallet = `0x${(w + 1).toString(16).padStart(40, "0")}`;
      for (let k = 0; k < 3; k++) reqs.push({ method: "POST", path: "/api/vault/merge-signature", wallet });
    }
    const all = track(gate, clock, reqs, log, "v");
    await flushMicrotasks();
    expect(log.length).toBe(100);
    await clock.advance(59_999);
    expect(log.length).toBe(100);
    await clock.advance(1);
    await Promise.all(all);
    expect(log.length).toBe(120);
  });

  it("blocks a bucket until Retry-After after a 429 and counts it", async () => {
    const clock = new VirtualClock(T0 + 100);
    const onRejected: string[] = [];
    const gate = new RateGate({ clock, safetyMargin: 0, on429: (b) => onRejected.push(b) });
    gate.observe({
      method: "POST",
      path: "/api/orders/place",
      wallet: W1,
      status: 429,
      headers: { "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "5", "Retry-After": "5" },
    });
    expect(onRejected).toEqual(["orders-place"]);
    const log: { tag: string; at: number }[] = [];
    const mine = track(gate, clock, [place(W1)], log, "w1");
    const other = track(gate, clock, [place(W2)], log, "w2");
    await flushMicrotasks();
    expect(log.map((l) => l.tag)).toEqual(["w2"]); // only that wallet's bucket is blocked
    expect(gate.pressure(W1, "place")).toBe(1);
    expect(gate.remainingFor("POST", "/api/orders/place", W1)).toBe(0);
    await clock.advance(4999);
    expect(log.length).toBe(1);
    await clock.advance(1);
    await Promise.all([...mine, ...other]);
    expect(log[1]).toEqual({ tag: "w1", at: T0 + 5100 });
    const s = gate.stats().find((x) => x.bucket === "orders-place" && x.subject === W1)!;
    expect(s).toMatchObject({ rejected429: 1, admitted: 1, waited: 1, waitMsSum: 5000, waitMsMax: 5000, queueDepth: 0 });
  });

  it("blocks every bucket of the request on a 429 it cannot attribute", () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    gate.observe({ method: "POST", path: "/api/orders/place", wallet: W1, status: 429, headers: { "Retry-After": "2" } });
    const s = gate.stats();
    expect(s.find((x) => x.bucket === "orders-place")).toMatchObject({ blockedForMs: 2000, rejected429: 1 });
    expect(s.find((x) => x.bucket === "orders-post-ip")).toMatchObject({ blockedForMs: 2000, rejected429: 0 });
  });

  it("resynchronises from X-RateLimit-Remaining (another client used the bucket)", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    const a = await gate.acquire({ method: "GET", path: "/api/orders/open", wallet: W1 });
    gate.observe({
      method: "GET",
      path: "/api/orders/open",
      wallet: W1,
      status: 200,
      headers: new Headers({ "X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "10", "X-RateLimit-Reset": "60" }),
      sentAtMs: a.admittedAtMs,
    });
    expect(gate.remainingFor("GET", "/api/orders/history", W1)).toBe(10);
    expect(gate.pressure(W1, "read")).toBeCloseTo(290 / 300);
    // a response from the previous window does not count against this one
    await clock.advance(60_000);
    gate.observe({
      method: "GET",
      path: "/api/orders/open",
      wallet: W1,
      status: 200,
      headers: { "X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1" },
      sentAtMs: a.admittedAtMs,
    });
    expect(gate.remainingFor("GET", "/api/orders/open", W1)).toBe(300);
  });

  it("learns the platform's limit when a single bucket applies", () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    gate.observe({
      method: "GET",
      path: "/api/orders/open",
      wallet: W1,
      status: 200,
      headers: { "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "99", "X-RateLimit-Reset": "60" },
    });
    expect(gate.stats().find((s) => s.bucket === "orders-read")).toMatchObject({ limit: 100, budget: 100, used: 1 });
  });

  it("realigns its windows from X-RateLimit-Reset when the platform's are shifted", () => {
    const clock = new VirtualClock(T0 + 10_000);
    const gate = new RateGate({ clock, safetyMargin: 0 });
    // our minute window ends at T0+60 s (50 s away); the platform says 20 s
    gate.observe({
      method: "GET",
      path: "/api/markets",
      status: 200,
      headers: { "X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "599", "X-RateLimit-Reset": "20" },
    });
    const s = gate.stats().find((x) => x.bucket === "markets-read")!;
    expect(s.resetInMs).toBe(20_000);
    expect(s.used).toBe(1);
  });

  it("follows a platform clock offset", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 30 });
    gate.setServerClockOffset(400); // platform is 400 ms ahead: its next second starts at our T0 + 600
    const log: { tag: string; at: number }[] = [];
    const all = track(gate, clock, [place(), place()], log, "p");
    await clock.runAll();
    await Promise.all(all);
    expect(log.map((l) => l.at - T0)).toEqual([0, 600]);
  });

  it("passes requests without a bucket at once and does not pace unstated rows when asked not to", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0, paceUnstated: false });
    const a = await gate.acquire({ method: "GET", path: "/api/tags" });
    expect(a).toMatchObject({ buckets: [], waitedMs: 0, class: "read" });
    for (let i = 0; i < 2000; i++) await gate.acquire({ method: "GET", path: "/api/events?page=1" });
    expect(clock.now()).toBe(T0);
    const paced = new RateGate({ clock, safetyMargin: 0 });
    let n = 0;
    const ps = Array.from({ length: 1201 }, () => paced.acquire({ method: "GET", path: "/api/events" }).then(() => n++));
    await flushMicrotasks();
    expect(n).toBe(1200);
    await clock.runAll();
    await Promise.all(ps);
  });

  it("rejects an aborted waiter and frees its place in the queue", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 30 });
    await gate.acquire(place());
    const ctl = new AbortController();
    const waiting = gate.acquire({ ...place(), signal: ctl.signal });
    expect(gate.queueDepth()).toBe(1);
    ctl.abort(new Error("shutdown"));
    await expect(waiting).rejects.toThrow("shutdown");
    expect(gate.queueDepth()).toBe(0);
    // the aborted waiter did not take the next window's slot
    const next = gate.acquire(place()).then(() => clock.now());
    await clock.advance(1000);
    expect(await next).toBe(T0 + 1000);
  });

  it("rejects waiters on close", async () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 30 });
    await gate.acquire(place());
    const waiting = gate.acquire(place());
    gate.close();
    await expect(waiting).rejects.toThrow(/closed/);
    expect(clock.pending()).toBe(0);
  });

  it("reports wait statistics through onWait and stats()", async () => {
    const clock = new VirtualClock(T0);
    const waits: [string, number][] = [];
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 60, onWait: (b, ms) => waits.push([b, ms]) });
    const ps = [gate.acquire(place()), gate.acquire(place()), gate.acquire(place())]; // 2/s
    await clock.runAll();
    await Promise.all(ps);
    expect(waits.filter(([b]) => b === "orders-place").map(([, ms]) => ms)).toEqual([0, 0, 1000]);
    expect(gate.stats().find((s) => s.bucket === "orders-place")).toMatchObject({
      admitted: 3,
      waited: 1,
      waitMsSum: 1000,
      queueDepth: 0,
    });
  });

  it("validates the safety margin", () => {
    expect(() => new RateGate({ clock: new VirtualClock(T0), safetyMargin: 1 })).toThrow(RangeError);
    expect(RATE_TABLE.length).toBeGreaterThan(20);
  });
});
