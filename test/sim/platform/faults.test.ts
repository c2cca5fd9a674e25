import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { FaultPlan, routeMatcher, type Fault, type FaultRuleInput } from "../../../src/sim/platform/faults.js";
import { parseTimeSpec } from "../../../src/sim/platform/time.js";
import { T0 } from "./fixtures.js";

const PLACE = "POST /api/orders/place";
const plan = (rules: FaultRuleInput[], seed = 7) => new FaultPlan({ rng: new Rng(seed), startMs: T0, rules });
const t = (s: string) => parseTimeSpec(s)!;

function pattern(p: FaultPlan, n: number, route = PLACE): string {
  let out = "";
  for (let i = 0; i < n; i++) out += p.decide(route, T0) ? "x" : ".";
  return out;
}

describe("route patterns", () => {
  it("match method and path with * globs", () => {
    expect(routeMatcher("POST /api/orders/*")("POST /api/orders/place")).toBe(true);
    expect(routeMatcher("POST /api/orders/*")("GET /api/orders/open")).toBe(false);
    expect(routeMatcher("/api/orders/*")("GET /api/orders/open")).toBe(true);
    expect(routeMatcher("*")("WS /ws/user")).toBe(true);
    expect(routeMatcher("post  /api/orders/place")("POST /api/orders/place")).toBe(true);
    expect(routeMatcher("POST /api/orders/place")("POST /api/orders/place-batch")).toBe(false);
  });
});

describe("probabilistic rules", () => {
  it("are deterministic per seed and differ across seeds", () => {
    const rule: FaultRuleInput = { route: PLACE, kind: "trading_temporarily_unavailable", probability: 0.3 };
    const a = pattern(plan([rule], 1), 200);
    expect(pattern(plan([rule], 1), 200)).toBe(a);
    expect(pattern(plan([rule], 2), 200)).not.toBe(a);
    const hits = a.split("").filter((c) => c === "x").length;
    expect(hits).toBeGreaterThan(30);
    expect(hits).toBeLessThan(90);
  });

  it("a rule's draws do not depend on the other rules", () => {
    const r: FaultRuleInput = { id: "main", route: PLACE, kind: "idempotency_race", probability: 0.5 };
    const alone = plan([r]);
    const withOther = plan([{ id: "other", route: "GET /api/markets", kind: "latency", latencyMs: 5, probability: 0.5 }, r]);
    for (let i = 0; i < 50; i++) {
      withOther.decide("GET /api/markets", T0);
      expect(withOther.decide(PLACE, T0)?.kind).toBe(alone.decide(PLACE, T0)?.kind);
    }
  });

  it("probability 0 never fires, 1 always fires", () => {
    expect(pattern(plan([{ route: PLACE, kind: "idempotency_race", probability: 0 }]), 20)).toBe(".".repeat(20));
    expect(pattern(plan([{ route: PLACE, kind: "idempotency_race" }]), 20)).toBe("x".repeat(20));
  });
});

describe("schedules", () => {
  it("window from/to relative to the scenario start", () => {
    const p = plan([{ route: PLACE, kind: "shard_owner_unavailable", window: { from: t("+1m"), to: t("+2m") } }]);
    expect(p.decide(PLACE, T0 + 59_999)).toBeUndefined();
    expect(p.decide(PLACE, T0 + 60_000)?.kind).toBe("shard_owner_unavailable");
    expect(p.decide(PLACE, T0 + 119_999)).toBeDefined();
    expect(p.decide(PLACE, T0 + 120_000)).toBeUndefined();
  });

  it("next N calls, then spent", () => {
    const p = plan([{ route: PLACE, kind: "shard_owner_unavailable", nextCalls: 3 }]);
    expect(pattern(p, 5)).toBe("xxx..");
    expect(p.list()[0]).toMatchObject({ remaining: 0, fired: 3 });
    expect(pattern(p, 5, "POST /api/orders/cancel")).toBe(".....");
  });

  it("runtime rules count relative times from now; remove and clear", () => {
    const p = plan([]);
    const id = p.add({ route: PLACE, kind: "idempotency_race", window: { from: t("+10s") } }, T0 + 60_000);
    expect(p.decide(PLACE, T0 + 65_000)).toBeUndefined();
    expect(p.decide(PLACE, T0 + 70_000)?.kind).toBe("idempotency_race");
    expect(p.remove(id)).toBe(true);
    expect(p.decide(PLACE, T0 + 70_000)).toBeUndefined();
    p.add({ route: "*", kind: "ws_disconnect" }, T0);
    p.clear();
    expect(p.list()).toEqual([]);
    expect(() => p.add({ route: PLACE, kind: "latency", probability: 2 }, T0)).toThrow(/probability/);
  });
});

describe("fault payloads", () => {
  const one = (input: Omit<FaultRuleInput, "route">): Fault => plan([{ route: PLACE, ...input }]).decide(PLACE, T0)!;

  it("HTTP kinds carry the spec's status, code and retry hints", () => {
    expect(one({ kind: "shard_owner_unavailable" })).toMatchObject({ http: { status: 503, code: "shard_owner_unavailable", retryAfterSec: 2 } });
    expect(one({ kind: "trading_temporarily_unavailable" })).toMatchObject({ http: { status: 503, retryable: true } });
    expect(one({ kind: "cancel_pending", completeAfterMs: 1500 })).toMatchObject({ completeAfterMs: 1500, http: { status: 202, code: "cancel_pending", retryAfterSec: 5 } });
    expect(one({ kind: "exchange_unavailable", execute: true })).toMatchObject({ execute: true, http: { status: 503, code: "exchange_unavailable" } });
    expect(one({ kind: "exchange_unavailable" })).toMatchObject({ execute: false });
    expect(one({ kind: "idempotency_race" })).toMatchObject({ http: { status: 500, code: "idempotency_race" } });
    expect(one({ kind: "rate_limited_burst", retryAfterSec: 3 })).toMatchObject({ http: { status: 429, code: "rate_limited", retryAfterSec: 3 } });
    expect(one({ kind: "ws_duplicate_frames", copies: 3 })).toMatchObject({ copies: 3 });
    expect(one({ kind: "ws_reorder_frames" })).toMatchObject({ window: 2 });
  });

  it("journal_intent_not_durable is decided per batch entry only", () => {
    const p = plan([{ route: "POST /api/orders/place-batch", kind: "journal_intent_not_durable", nextCalls: 1 }]);
    expect(p.decide("POST /api/orders/place-batch", T0)).toBeUndefined();
    expect(p.decideEntry("POST /api/orders/place-batch", T0)).toMatchObject({
      kind: "journal_intent_not_durable",
      entry: { code: "journal_intent_not_durable", details: { retryable: true } },
    });
    expect(p.decideEntry("POST /api/orders/place-batch", T0)).toBeUndefined();
  });

  it("latency adds up and rides along with the first failing rule", () => {
    const p = plan([
      { route: "*", kind: "latency", latencyMs: 30 },
      { route: PLACE, kind: "idempotency_race", nextCalls: 1 },
      { route: PLACE, kind: "shard_owner_unavailable", nextCalls: 1 },
      { route: PLACE, kind: "latency", latencyMs: 20 },
    ]);
    expect(p.decide(PLACE, T0)).toMatchObject({ kind: "idempotency_race", latencyMs: 50 });
    // The second failing rule was not consulted on the first call, so it still has its fire.
    expect(p.decide(PLACE, T0)).toMatchObject({ kind: "shard_owner_unavailable", latencyMs: 50 });
    expect(p.decide(PLACE, T0)).toMatchObject({ kind: "latency", latencyMs: 50 });
    expect(p.decide("GET /api/markets", T0)).toMatchObject({ kind: "latency", latencyMs: 30 });
  });
});
