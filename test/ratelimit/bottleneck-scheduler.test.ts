/**
 * Live mode: under a RealClock the gate orders admissions through Bottleneck. These tests run in real time
 * (about 2 s each) with small budgets. Wall-clock jitter on a loaded machine can move an admission across a
 * window boundary, so they assert only what holds whatever the scheduling: every aligned window within
 * budget (judged at the gate's own admission instants), the platform's fixed windows accept every
 * admission, every request admitted, and priorities among requests that wait for the same window.
 * Exact admission orders are asserted by the virtual-clock scheduler tests (gate.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { RealClock } from "../../src/core/clock.js";
import { FixedWindowLimiter } from "../../src/ratelimit/fixed-window.js";
import { RateGate } from "../../src/ratelimit/gate.js";
import { RateTable, bucketsFor, type BucketRule } from "../../src/ratelimit/table.js";

const W1 = "0x1111111111111111111111111111111111111111";
const W2 = "0x2222222222222222222222222222222222222222";
const gates: RateGate[] = [];
afterEach(() => gates.splice(0).forEach((g) => g.close()));

/** Real-time sleep to just after the next whole second, so a test starts with a full window ahead. */
async function startOfSecond(clock: RealClock): Promise<void> {
  await clock.sleep(1000 - (clock.now() % 1000) + 20);
}

const sec = (ms: number): number => Math.floor(ms / 1000);

function perWindow(times: readonly number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const t of times) m.set(sec(t), (m.get(sec(t)) ?? 0) + 1);
  return m;
}

interface Admitted {
  tag: string;
  wallet: string;
  createdAt: number;
  admittedAt: number;
}

describe("RateGate live mode (Bottleneck, RealClock)", () => {
  it("picks Bottleneck under a RealClock and keeps every aligned window within budget", async () => {
    const clock = new RealClock();
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 300 }); // place 10/s
    gates.push(gate);
    expect(gate.schedulerKind).toBe("bottleneck");
    await startOfSecond(clock);
    const done: Admitted[] = [];
    const run = async (wallet: string, tag: string): Promise<void> => {
      const a = await gate.acquire({ method: "POST", path: "/api/orders/place", wallet });
      done.push({ tag, wallet, createdAt: a.admittedAtMs - a.waitedMs, admittedAt: a.admittedAtMs });
    };
    await Promise.all([
      ...Array.from({ length: 15 }, (_, i) => run(W1, `w1-${i}`)),
      ...Array.from({ length: 5 }, (_, i) => run(W2, `w2-${i}`)),
    ]);
    expect(done).toHaveLength(20);
    const w1 = done.filter((d) => d.wallet === W1);
    const w2 = done.filter((d) => d.wallet === W2);
    expect(w1).toHaveLength(15);
    expect(w2).toHaveLength(5);

    // No wallet ever gets more than its 10 places in one aligned second.
    for (const group of [w1, w2]) {
      for (const n of perWindow(group.map((d) => d.admittedAt)).values()) expect(n).toBeLessThanOrEqual(10);
    }
    // The platform's fixed windows accept every admission at the instant the gate admitted it.
    const platform = new FixedWindowLimiter(clock);
    const refused: string[] = [];
    for (const d of [...done].sort((a, b) => a.admittedAt - b.admittedAt)) {
      const r = platform.check(bucketsFor("POST", "/api/orders/place"), { ip: "1.1.1.1", wallet: d.wallet }, d.admittedAt, {
        rateLimitPerMin: 300,
      });
      if (!r.allowed) refused.push(`${d.tag}: ${r.bucket.id}`);
    }
    expect(refused).toEqual([]);

    // W1 had to wait: of its 15, at most 10 per window it was created in could go at once.
    const createdWindows = new Set(w1.map((d) => sec(d.createdAt))).size;
    const w1Late = w1.filter((d) => sec(d.admittedAt) > sec(d.createdAt));
    expect(w1Late.length).toBeGreaterThanOrEqual(15 - 10 * createdWindows);
    // W2 is not held behind W1's queue: its own bucket had room, so none of its places waits for W1's.
    if (w1Late.length > 0) {
      const w1FirstLate = Math.min(...w1Late.map((d) => d.admittedAt));
      for (const d of w2) expect(d.admittedAt).toBeLessThanOrEqual(w1FirstLate);
    }
    const s = gate.stats().find((x) => x.bucket === "orders-place" && x.subject === W1)!;
    expect(s).toMatchObject({ admitted: 15, queueDepth: 0 });
    expect(s.waited).toBeGreaterThanOrEqual(w1Late.length);
  });

  it("lets queued cancels through before queued places that wait for the same window", async () => {
    const shared: BucketRule = {
      id: "shared",
      method: "POST",
      paths: ["/api/orders/*"],
      scope: "wallet",
      limit: 3,
      windowSec: 1,
      class: "place",
      stated: true,
    };
    const clock = new RealClock();
    // The property needs the rest to be queued while the first three still fill their window. If a stall
    // pushed the setup across a window boundary, that run proves nothing about priorities: set up again.
    for (let attempt = 1; ; attempt++) {
      const gate = new RateGate({ clock, safetyMargin: 0, table: new RateTable([shared]) });
      gates.push(gate);
      await startOfSecond(clock);
      const order: string[] = [];
      const at = new Map<string, number>();
      const go = (path: string, tag: string) =>
        gate.acquire({ method: "POST", path, wallet: W1 }).then((a) => {
          order.push(tag);
          at.set(tag, a.admittedAtMs);
        });
      await Promise.all([1, 2, 3].map((i) => go("/api/orders/place", `p${i}`))); // the window's three slots
      const rest = [go("/api/orders/place", "p4"), go("/api/orders/place", "p5"), go("/api/orders/cancel", "c1"), go("/api/orders/cancel", "c2")];
      const queuedAt = clock.now();
      await Promise.all(rest);

      expect(order).toHaveLength(7);
      for (const n of perWindow([...at.values()]).values()) expect(n).toBeLessThanOrEqual(3);
      const filled = ["p1", "p2", "p3"].every((t) => sec(at.get(t)!) === sec(queuedAt));
      if (!filled && attempt < 5) continue;
      expect(filled).toBe(true);

      const pos = (t: string): number => order.indexOf(t);
      // Every one of the rest waited for a later window than the one the first three filled.
      for (const t of ["p4", "p5", "c1", "c2"]) expect(sec(at.get(t)!)).toBeGreaterThan(sec(queuedAt));
      // Cancels overtake the place queued before them (p5); FIFO within a class.
      expect(pos("c1")).toBeLessThan(pos("p5"));
      expect(pos("c2")).toBeLessThan(pos("p5"));
      expect(pos("c1")).toBeLessThan(pos("c2"));
      expect(pos("p4")).toBeLessThan(pos("p5"));
      expect(at.get("c2")!).toBeLessThanOrEqual(at.get("p5")!);
      return;
    }
  }, 30_000);

  it("rejects live waiters on close", async () => {
    const clock = new RealClock();
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 30 });
    await gate.acquire({ method: "POST", path: "/api/orders/place", wallet: W1 });
    const waiting = gate.acquire({ method: "POST", path: "/api/orders/place", wallet: W1 });
    gate.close();
    await expect(waiting).rejects.toThrow();
  });
});
