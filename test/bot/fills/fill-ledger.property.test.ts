/**
 * Idempotence and order independence: any permutation and duplication of the same fill set,
 * fed through the ledger into inventory the way the daemon does (inventory only sees fills the
 * ledger added), yields the same ledger and the same inventory.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FillLedger, type Fill, type FillSource } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory, binaryMarks, type Marks } from "../../../src/bot/fills/inventory.js";

const WALLETS = ["0x" + "ab".repeat(20), "0x" + "cd".repeat(20)];
const MARKETS = ["M1", "M2"];

const fillArb = fc.record({
  tradeId: fc.integer({ min: 1, max: 40 }).map((n) => `t${n}`),
  wallet: fc.constantFrom(...WALLETS),
  orderId: fc.integer({ min: 1, max: 8 }).map((n) => `o${n}`),
  marketId: fc.constantFrom(...MARKETS),
  outcome: fc.constantFrom(0, 1),
  side: fc.constantFrom("BUY" as const, "SELL" as const),
  price: fc.integer({ min: 1, max: 999 }).map((t) => BigInt(t) * 1_000n),
  qty: fc.bigInt({ min: 1n, max: 50_000_000n }),
  fee: fc.bigInt({ min: 0n, max: 20_000n }),
  role: fc.constantFrom("maker" as const, "taker" as const, "unknown" as const),
  ts: fc.integer({ min: 0, max: 50 }),
  source: fc.constant<FillSource>("stream"),
});

/** A set of fills with distinct keys (wallet, tradeId, orderId). */
const fillSetArb = fc.uniqueArray(fillArb, { selector: (f) => `${f.wallet}|${f.tradeId}|${f.orderId}`, minLength: 1, maxLength: 40 });

/** Same set, shuffled, with some fills repeated. */
function deliveryArb(fills: Fill[]) {
  return fc
    .tuple(fc.array(fc.nat({ max: fills.length - 1 }), { maxLength: fills.length * 2 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: fills.length * 3, maxLength: fills.length * 3 }))
    .map(([dups, keys]) => {
      const seq = [...fills, ...dups.map((i) => fills[i]!)];
      return seq.map((f, i) => ({ f, k: keys[i] ?? 0 })).sort((a, b) => a.k - b.k).map((x) => ({ ...x.f }));
    });
}

const marks: Marks = (market, outcome) => binaryMarks(market, market === "M1" ? 420_000n : 610_000n)(market, outcome);

function feed(deliveries: Fill[]): { ledger: FillLedger; inv: Inventory } {
  const ledger = new FillLedger();
  const inv = new Inventory();
  for (const f of deliveries) {
    const r = ledger.add(f);
    if (r.status === "added") inv.applyFill(r.fill);
    else if (r.status === "conflict" && r.previous !== undefined) inv.replaceFill(r.previous, r.fill);
  }
  return { ledger, inv };
}

function snapshot({ ledger, inv }: { ledger: FillLedger; inv: Inventory }) {
  return {
    fills: ledger.fills(),
    positions: inv.positions(),
    cash: WALLETS.map((w) => inv.cashDelta(w)),
    pnl: WALLETS.map((w) => inv.pnl(w, marks)),
  };
}

describe("fill ledger + inventory: permutation and duplication", () => {
  it("the same fill set in any order, with repeats, gives the same ledger and inventory", () => {
    fc.assert(
      fc.property(
        fillSetArb.chain((fills) => fc.tuple(fc.constant(fills), deliveryArb(fills), deliveryArb(fills))),
        ([fills, a, b]) => {
          const sa = snapshot(feed(a));
          const sb = snapshot(feed(b));
          expect(sa).toEqual(sb);
          expect(sa.fills.length).toBe(fills.length);
          // Quantity is the signed sum of the fills, per wallet / market / outcome.
          for (const p of sa.positions) {
            const want = fills
              .filter((f) => f.wallet === p.wallet && f.marketId === p.marketId && f.outcome === p.outcome)
              .reduce((acc, f) => acc + (f.side === "BUY" ? f.qty : -f.qty), 0n);
            expect(p.qty).toBe(want);
          }
        },
      ),
      { numRuns: 200, seed: 20261009 },
    );
  });

  it("a fill seen on the stream (role unknown) and again from the trade pull converges to the pulled record", () => {
    fc.assert(
      fc.property(
        fillSetArb.chain((fills) => fc.tuple(fc.constant(fills), fc.array(fc.boolean(), { minLength: fills.length, maxLength: fills.length }), fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })))),
        ([fills, streamFirst, rnd]) => {
          const pulled = fills.map((f) => ({ ...f, source: "trades_pull" as const, role: f.role === "unknown" ? ("maker" as const) : f.role }));
          const streamed = fills.map((f) => ({ ...f, role: "unknown" as const, ts: f.ts + 1 }));
          const one = fills.flatMap((_, i) => (streamFirst[i] ? [streamed[i]!, pulled[i]!] : [pulled[i]!, streamed[i]!]));
          const it = rnd[Symbol.iterator]();
          const other = [...streamed, ...pulled].map((f) => ({ f, k: it.next().value as number })).sort((x, y) => x.k - y.k).map((x) => x.f);
          const s1 = feed(one);
          const s2 = feed(other);
          expect(s1.ledger.fills()).toEqual(s2.ledger.fills());
          expect(s1.ledger.fills().every((f) => f.source === "trades_pull" && f.role !== "unknown")).toBe(true);
          expect(s1.ledger.diffAgainst(WALLETS[0]!, pulled.filter((f) => f.wallet === WALLETS[0])).equal).toBe(true);
          // Inventory may have ordered by the first-seen time: quantities, cash and net PnL still agree.
          for (const w of WALLETS) {
            expect(s1.inv.cashDelta(w)).toBe(s2.inv.cashDelta(w));
            expect(s1.inv.pnl(w, marks).net).toBe(s2.inv.pnl(w, marks).net);
            expect(s1.inv.positions(w).map((p) => p.qty)).toEqual(s2.inv.positions(w).map((p) => p.qty));
          }
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});
