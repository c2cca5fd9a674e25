import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { slotKey, type DesiredQuote, type LiveOrder, type LiveOrderState } from "../../../src/bot/quote/quotes.js";
import { reconcile, withinTolerance, type ReconcileOptions } from "../../../src/bot/quote/reconciler.js";

const NOW = 1_000_000;

const arbDesired = fc.record({
  outcome: fc.integer({ min: 0, max: 1 }),
  side: fc.constantFrom("BUY" as const, "SELL" as const),
  price: fc.integer({ min: 490, max: 510 }).map((t) => BigInt(t) * 1000n),
  size: fc.integer({ min: 8, max: 12 }).map((s) => BigInt(s) * 1_000_000n),
  postOnly: fc.boolean(),
  level: fc.integer({ min: 0, max: 3 }),
}) as fc.Arbitrary<DesiredQuote>;

function arbLive(states: LiveOrderState[]): fc.Arbitrary<LiveOrder[]> {
  return fc
    .array(
      fc.record({
        outcome: fc.integer({ min: 0, max: 1 }),
        side: fc.constantFrom("BUY" as const, "SELL" as const),
        price: fc.integer({ min: 488, max: 512 }).map((t) => BigInt(t) * 1000n),
        size: fc.integer({ min: 8, max: 12 }).map((s) => BigInt(s) * 1_000_000n),
        filled: fc.integer({ min: 0, max: 3 }).map((s) => BigInt(s) * 1_000_000n),
        postOnly: fc.boolean(),
        age: fc.integer({ min: 0, max: 120_000 }),
        state: fc.constantFrom(...states),
      }),
      { maxLength: 12 },
    )
    .map((rows) =>
      rows.map((r, i): LiveOrder => ({
        clientOrderId: `c${String(i).padStart(2, "0")}`,
        orderId: `o${i}`,
        outcome: r.outcome,
        side: r.side,
        price: r.price,
        size: r.size,
        remaining: r.size - r.filled,
        postOnly: r.postOnly,
        createdAtMs: NOW - r.age,
        state: r.state,
      })),
    );
}

const arbTolerance = fc.record({
  priceToleranceTicks: fc.integer({ min: 0, max: 3 }),
  sizeTolerance: fc.constantFrom(0, 0.05, 0.2, 0.5),
  maxOrderAgeMs: fc.constantFrom(30_000, 60_000, 200_000),
});

/** Is there a perfect matching of orders to quotes using only pairs within tolerance? (Kuhn's algorithm) */
function perfectlyMatched(orders: LiveOrder[], desired: DesiredQuote[], o: ReconcileOptions): boolean {
  if (orders.length !== desired.length) return false;
  const owner = new Array<number>(orders.length).fill(-1);
  const tryAssign = (d: number, seen: boolean[]): boolean => {
    for (let j = 0; j < orders.length; j++) {
      if (seen[j] || !withinTolerance(desired[d]!, orders[j]!, o)) continue;
      seen[j] = true;
      if (owner[j] === -1 || tryAssign(owner[j]!, seen)) {
        owner[j] = d;
        return true;
      }
    }
    return false;
  };
  return desired.every((_, d) => tryAssign(d, new Array<boolean>(orders.length).fill(false)));
}

describe("reconcile properties", () => {
  it("with an unlimited budget, applying the plan leaves exactly one order per desired quote, within tolerance", () => {
    // Without cancelling orders: with them, a slot's replacement may wait for the cancel (next property).
    fc.assert(
      fc.property(fc.array(arbDesired, { maxLength: 8 }), arbLive(["open", "partial"]), arbTolerance, (desired, live, tol) => {
        const o: ReconcileOptions = { ...tol, nowMs: NOW, budget: { cancels: Infinity, places: Infinity } };
        const plan = reconcile(desired, live, o);
        expect(plan.deferred.cancels).toEqual([]);
        expect(plan.deferred.places).toEqual([]);
        const cancelled = new Set(plan.cancels.map((x) => x.clientOrderId));
        const resting = live.filter((l) => l.state !== "cancelling" && !cancelled.has(l.clientOrderId));
        expect(resting.map((l) => l.clientOrderId).sort()).toEqual(plan.keep.map((l) => l.clientOrderId).sort());
        const placed = plan.places.map(
          (q, i): LiveOrder => ({ ...q, clientOrderId: `new${i}`, remaining: q.size, createdAtMs: NOW, state: "pending" }),
        );
        expect(perfectlyMatched([...resting, ...placed], desired, o)).toBe(true);
      }),
      { seed: 424242, numRuns: 500 },
    );
  });

  it("with an unlimited budget and cancelling orders: only replacements in slots still holding cancelling size wait; the rest matches exactly", () => {
    fc.assert(
      fc.property(fc.array(arbDesired, { maxLength: 8 }), arbLive(["open", "partial", "cancelling"]), arbTolerance, (desired, live, tol) => {
        const o: ReconcileOptions = { ...tol, nowMs: NOW, budget: { cancels: Infinity, places: Infinity } };
        const plan = reconcile(desired, live, o);
        expect(plan.deferred.cancels).toEqual([]);
        const cancellingSlots = new Set(live.filter((l) => l.state === "cancelling" && l.remaining > 0n).map(slotKey));
        for (const d of plan.deferred.places) {
          expect(d.reason).toBe("cancelling");
          expect(cancellingSlots.has(slotKey(d.quote))).toBe(true);
        }
        const waiting = new Set(plan.deferred.places.map((d) => d.quote));
        const cancelled = new Set(plan.cancels.map((x) => x.clientOrderId));
        const resting = live.filter((l) => l.state !== "cancelling" && !cancelled.has(l.clientOrderId));
        expect(resting.map((l) => l.clientOrderId).sort()).toEqual(plan.keep.map((l) => l.clientOrderId).sort());
        const placed = plan.places.map(
          (q, i): LiveOrder => ({ ...q, clientOrderId: `new${i}`, remaining: q.size, createdAtMs: NOW, state: "pending" }),
        );
        expect(perfectlyMatched([...resting, ...placed], desired.filter((d) => !waiting.has(d)), o)).toBe(true);
      }),
      { seed: 515151, numRuns: 500 },
    );
  });

  it("under any budget, a slot holding cancelling size never gets places that take it past its desired size", () => {
    fc.assert(
      fc.property(
        fc.array(arbDesired, { maxLength: 8 }),
        arbLive(["open", "partial", "cancelling", "pending"]),
        arbTolerance,
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        (desired, live, tol, cancels, places) => {
          const plan = reconcile(desired, live, { ...tol, nowMs: NOW, budget: { cancels, places } });
          const sum = (xs: bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);
          const stays = [...plan.keep, ...plan.deferred.pending, ...plan.deferred.cancels];
          for (const key of new Set(plan.places.map(slotKey))) {
            const cancelling = sum(live.filter((l) => l.state === "cancelling" && slotKey(l) === key).map((l) => l.remaining));
            if (cancelling === 0n) continue;
            const outstanding = cancelling + sum(stays.filter((l) => slotKey(l) === key).map((l) => l.remaining)) + sum(plan.places.filter((q) => slotKey(q) === key).map((q) => q.size));
            expect(outstanding <= sum(desired.filter((d) => slotKey(d) === key).map((d) => d.size))).toBe(true);
          }
        },
      ),
      { seed: 90210, numRuns: 500 },
    );
  });

  it("under any budget: stays within it, never cancels in-flight orders, never overfills a slot, is order-independent", () => {
    fc.assert(
      fc.property(
        fc.array(arbDesired, { maxLength: 8 }),
        arbLive(["open", "partial", "cancelling", "pending"]),
        arbTolerance,
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        (desired, live, tol, cancels, places) => {
          const o: ReconcileOptions = { ...tol, nowMs: NOW, budget: { cancels, places } };
          const plan = reconcile(desired, live, o);
          expect(plan.cancels.length).toBeLessThanOrEqual(cancels);
          expect(plan.places.length).toBeLessThanOrEqual(places);
          expect(plan.cancels.every((c) => c.state === "open" || c.state === "partial")).toBe(true);
          // Every desired quote is accounted for exactly once: kept, placed or deferred.
          expect(plan.keep.length + plan.places.length + plan.deferred.places.length).toBe(desired.length);
          const cancelled = new Set(plan.cancels.map((x) => x.clientOrderId));
          const after = new Map<string, number>();
          for (const l of live) if (l.state !== "cancelling" && !cancelled.has(l.clientOrderId)) after.set(slotKey(l), (after.get(slotKey(l)) ?? 0) + 1);
          const wanted = new Map<string, number>();
          for (const d of desired) wanted.set(slotKey(d), (wanted.get(slotKey(d)) ?? 0) + 1);
          const placedPer = new Map<string, number>();
          for (const q of plan.places) placedPer.set(slotKey(q), (placedPer.get(slotKey(q)) ?? 0) + 1);
          for (const [key, n] of placedPer) expect((after.get(key) ?? 0) + n).toBeLessThanOrEqual(wanted.get(key) ?? 0);
          expect(reconcile(desired, [...live].reverse(), o)).toEqual(plan);
        },
      ),
      { seed: 777, numRuns: 500 },
    );
  });
});
