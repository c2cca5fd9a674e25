import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { MatchingEngine, type TimeInForce } from "../../../src/sim/engine/index.js";
import { checkInvariants } from "../../../src/sim/engine/invariants.js";
import { ALICE, BOB, CAROL, DAVE, u } from "./helpers.js";

const WALLETS = [ALICE, BOB, CAROL, DAVE];
const QTYS = [1n, 7n, 999_999n, 1_000_000n, 1_000_001n, 2_500_000n, 3_333_333n, 10_000_000n];
const MARKETS = [
  { id: "B", outcomes: 2, ticks: [492, 508] as const },
  { id: "T", outcomes: 3, ticks: [110, 118] as const },
];

type Op =
  | {
    k: "place"; w: number; m: number; outcome: number; sell: boolean; tick: number; q: number; tif: number; market: boolean;
    post: boolean; exp: number;
  }
  | { k: "cancel"; pick: number; asOther: boolean }
  | { k: "cancelAll"; w: number }
  | { k: "time"; secs: number }
  | { k: "split"; w: number; m: number; q: number }
  | { k: "merge"; w: number; m: number; q: number }
  | { k: "settle"; m: number; winner: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({
    k: fc.constant("place" as const), w: fc.nat(3), m: fc.nat(1), outcome: fc.nat(19), sell: fc.boolean(),
    tick: fc.nat(120), q: fc.nat(QTYS.length - 1), tif: fc.nat(9), market: fc.nat(9).map((n) => n === 0),
    post: fc.nat(7).map((n) => n === 0), exp: fc.integer({ min: -5, max: 60 }),
  }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant("cancel" as const), pick: fc.nat(1000), asOther: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("cancelAll" as const), w: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("time" as const), secs: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("split" as const), w: fc.nat(3), m: fc.nat(1), q: fc.nat(QTYS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("merge" as const), w: fc.nat(3), m: fc.nat(1), q: fc.nat(QTYS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("settle" as const), m: fc.nat(1), winner: fc.integer({ min: -1, max: 2 }) }) },
);

/** A clock moved synchronously by the test (the engine only reads now()). */
class StepClock extends VirtualClock {
  t = Date.UTC(2026, 0, 1);
  override now(): number {
    return this.t;
  }
}

/** Runs `ops` on a fresh engine; returns the engine and the first invariant violation, if any. */
function runOps(ops: Op[]): { engine: MatchingEngine; problem: string | undefined; step: number } {
  const clock = new StepClock();
  const engine = new MatchingEngine({ clock });
  for (const m of MARKETS) engine.addMarket({ id: m.id, outcomeCount: m.outcomes, feeRateBps: m.id === "B" ? 150 : 1000 });
  for (const w of WALLETS) {
    engine.deposit(w, u("50"));
    engine.split(w, "B", u("5"));
    engine.split(w, "T", u("5"));
  }
  const placed: string[] = [];
  let settled = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    switch (op.k) {
      case "place": {
        const m = MARKETS[op.m]!;
        const [lo, hi] = m.ticks;
        const tick = lo + (op.tick % (hi - lo + 1));
        // Mostly GTC; GTD, IOC and FOK one in ten each. Outcome 19 is one past the last (invalid_outcome).
        const tif: TimeInForce = (["GTC", "GTC", "GTC", "GTC", "GTC", "GTC", "GTC", "GTD", "IOC", "FOK"] as const)[op.tif]!;
        const outcome = op.outcome === 19 ? m.outcomes : op.outcome % m.outcomes;
        const r = engine.place({
          wallet: WALLETS[op.w]!, marketId: m.id, outcome, side: op.sell ? "SELL" : "BUY",
          price: BigInt(tick) * 1000n, quantity: QTYS[op.q]!, type: op.market ? "market" : "limit",
          timeInForce: op.market && (tif === "GTC" || tif === "GTD") && op.tick % 4 !== 0 ? "IOC" : tif, postOnly: op.post, expiration: Math.floor(clock.now() / 1000) + op.exp,
        });
        if (r.status !== "REJECTED") placed.push(r.orderId);
        if (tif === "FOK" && r.filledQty !== 0n && r.status !== "FILLED") return { engine, problem: `FOK partly filled: ${r.orderId}`, step: i };
        if (r.filledQty + r.remainingQty !== QTYS[op.q]! && r.status !== "REJECTED") return { engine, problem: `bad result ${JSON.stringify(r, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`, step: i };
        break;
      }
      case "cancel": {
        if (placed.length === 0) break;
        const id = placed[op.pick % placed.length]!;
        const live = engine.getOrder(id);
        const res = engine.cancel(id, op.asOther && live ? WALLETS.find((w) => w.toLowerCase() !== live.wallet) : undefined);
        if (live === undefined && res.ok) return { engine, problem: `cancelled a dead order ${id}`, step: i };
        break;
      }
      case "cancelAll":
        engine.cancelAll(WALLETS[op.w]!);
        break;
      case "time":
        clock.t += op.secs * 1000;
        if (op.secs % 2 === 0) engine.expireDue(); // otherwise the next placement expires them
        break;
      case "split":
      case "merge":
        try {
          engine[op.k](WALLETS[op.w]!, MARKETS[op.m]!.id, QTYS[op.q]!);
        } catch {
          // refused for lack of funds or shares (checked to change nothing by the invariants)
        }
        break;
      case "settle": {
        if (settled > 0 || i < ops.length / 2) break;
        const m = MARKETS[op.m]!;
        if (op.winner < 0) engine.voidMarket(m.id);
        else engine.resolve(m.id, Array.from({ length: m.outcomes }, (_, j) => (j === op.winner % m.outcomes ? 1 : 0)));
        settled++;
        break;
      }
    }
    const problems = checkInvariants(engine);
    if (problems.length > 0) return { engine, problem: problems.join("\n"), step: i };
  }
  return { engine, problem: undefined, step: ops.length };
}

describe("random operation sequences", () => {
  it("keep the books and the ledger consistent after every step", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 70 }), (ops) => {
        const { engine, problem, step } = runOps(ops);
        expect(problem, `after step ${step}: ${JSON.stringify(ops[step])}`).toBeUndefined();
        // Ending every order returns every lock.
        for (const w of WALLETS) engine.cancelAll(w);
        for (const w of WALLETS) {
          expect(engine.balance(w).locked).toBe(0n);
          for (const p of engine.positions(w)) expect(p.locked).toBe(0n);
        }
        expect(checkInvariants(engine)).toEqual([]);
      }),
      { numRuns: 150, seed: 20260101 },
    );
  });

  it("produce trades in most sequences (the generator exercises matching, mints and merges)", () => {
    const kinds = new Set<string>();
    let withTrades = 0;
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 30, maxLength: 60 }), (ops) => {
        const { engine } = runOps(ops);
        const trades = engine.ledger.trades();
        if (trades.length > 0) withTrades++;
        for (const t of trades) kinds.add(`${t.marketId}:${t.kind}`);
      }),
      { numRuns: 40, seed: 7 },
    );
    expect(withTrades).toBeGreaterThan(20);
    expect([...kinds].sort()).toEqual(["B:merge", "B:mint", "B:transfer", "T:transfer"]);
  });

  it("are deterministic: the same operations give the same trades, balances and books", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 10, maxLength: 50 }), (ops) => {
        const a = runOps(ops).engine;
        const b = runOps(ops).engine;
        expect(b.ledger.trades()).toEqual(a.ledger.trades());
        expect(b.ledger.balanceEvents()).toEqual(a.ledger.balanceEvents());
        for (const w of WALLETS) expect(b.balance(w)).toEqual(a.balance(w));
        for (const m of MARKETS) expect(b.book(m.id, 0)).toEqual(a.book(m.id, 0));
      }),
      { numRuns: 30, seed: 3 },
    );
  });
});
