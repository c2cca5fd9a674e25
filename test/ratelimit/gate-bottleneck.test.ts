/**
 * Live mode: under a RealClock the gate orders admissions through Bottleneck. These tests run in real time
 * (about 2 s each) with small budgets; what they assert does not depend on timing: admissions never exceed
 * the budget of any aligned window, the platform's fixed windows accept every one, and priorities hold.
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

describe("RateGate live mode (Bottleneck, RealClock)", () => {
  it("picks Bottleneck under a RealClock and keeps every aligned window within budget", async () => {
    const clock = new RealClock();
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 300 }); // place 10/s
    gates.push(gate);
    expect(gate.schedulerKind).toBe("bottleneck");
    const platform = new FixedWindowLimiter(clock);
    await startOfSecond(clock);
    const refused: string[] = [];
    const times: number[] = [];
    const run = async (wallet: string): Promise<void> => {
      await gate.acquire({ method: "POST", path: "/api/orders/place", wallet });
      const now = clock.now();
      times.push(now);
      const d = platform.check(bucketsFor("POST", "/api/orders/place"), { ip: "1.1.1.1", wallet }, now, {
        rateLimitPerMin: 300,
      });
      if (!d.allowed) refused.push(d.bucket.id);
    };
    await Promise.all([...Array.from({ length: 15 }, () => run(W1)), ...Array.from({ length: 5 }, () => run(W2))]);
    expect(refused).toEqual([]);
    const perSecond = new Map<number, number>();
    for (const t of times) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
    // W1: 10 in the first second, 5 in the next; W2: 5 in the first
    expect([...perSecond.values()]).toEqual([15, 5]);
    const s = gate.stats().find((x) => x.bucket === "orders-place" && x.subject === W1)!;
    expect(s).toMatchObject({ admitted: 15, waited: 5, queueDepth: 0 });
  });

  it("lets queued cancels through before queued places (after the one holding the turn)", async () => {
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
    const gate = new RateGate({ clock, safetyMargin: 0, table: new RateTable([shared]) });
    gates.push(gate);
    await startOfSecond(clock);
    const order: string[] = [];
    const go = (path: string, tag: string) =>
      gate.acquire({ method: "POST", path, wallet: W1 }).then(() => order.push(tag));
    const first = [1, 2, 3].map((i) => go("/api/orders/place", `p${i}`));
    await Promise.all(first); // the window's three slots
    const rest = [go("/api/orders/place", "p4"), go("/api/orders/place", "p5"), go("/api/orders/cancel", "c1"), go("/api/orders/cancel", "c2")];
    await Promise.all(rest);
    expect(order).toEqual(["p1", "p2", "p3", "p4", "c1", "c2", "p5"]);
  });

  it("rejects live waiters on close", async () => {
    const clock = new RealClock();
    const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 30 });
    await gate.acquire({ method: "POST", path: "/api/orders/place", wallet: W1 });
    const waiting = gate.acquire({ method: "POST", path: "/api/orders/place", wallet: W1 });
    gate.close();
    await expect(waiting).rejects.toThrow();
  });
});
