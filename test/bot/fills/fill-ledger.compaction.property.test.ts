/**
 * Compaction keeps the ledger's guarantees (fill-ledger.ts "Compaction"). A fill is first seen at
 * most D after its trade (stream frame stamped a little later, role unknown; trades pull stamped
 * at the trade time); replays of old fills (order fill reads, re-pulls) come at any later time. A
 * ledger + inventory compacted every so often with a cut R > D behind "now" must:
 *   - answer every delivery as the uncompacted pair does (a replay across compaction stays a
 *     duplicate: nothing is applied twice, nothing new is refused);
 *   - end with the same totals, positions, cash and PnL; with keepCompacted, the same fill list;
 *   - hold a bounded number of records over a long run.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FillLedger, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory, binaryMarks, type Marks } from "../../../src/bot/fills/inventory.js";
import { Rng } from "../../../src/core/rng.js";

const WALLETS = ["0x" + "ab".repeat(20), "0x" + "cd".repeat(20)];
const MARKETS = ["M1", "M2"];
const D = 500; // latest first sighting after the trade
const R = 1_000; // compaction cut behind now (> D)
const marks: Marks = (market, outcome) => binaryMarks(market, market === "M1" ? 420_000n : 610_000n)(market, outcome);

interface Delivery {
  at: number;
  fill: Fill;
}

const tradeArb = fc.record({
  gap: fc.integer({ min: 0, max: 120 }),
  wallet: fc.constantFrom(...WALLETS),
  orderId: fc.integer({ min: 1, max: 12 }).map((n) => `o${n}`),
  marketId: fc.constantFrom(...MARKETS),
  outcome: fc.constantFrom(0, 1),
  side: fc.constantFrom("BUY" as const, "SELL" as const),
  price: fc.integer({ min: 1, max: 999 }).map((t) => BigInt(t) * 1_000n),
  qty: fc.bigInt({ min: 1n, max: 50_000_000n }),
  fee: fc.bigInt({ min: 0n, max: 20_000n }),
  role: fc.constantFrom("maker" as const, "taker" as const),
  streamDelay: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
  pullDelay: fc.integer({ min: 0, max: D }),
  replays: fc.array(fc.integer({ min: 0, max: 8_000 }), { maxLength: 3 }),
});

/** Trades in time order (trade ids follow it), and every delivery of each, sorted by arrival. */
const scenarioArb = fc.array(tradeArb, { minLength: 1, maxLength: 60 }).map((trades) => {
  let ts = 0;
  const deliveries: Delivery[] = [];
  trades.forEach((t, i) => {
    ts += t.gap;
    const pulled: Fill = {
      tradeId: `t${i + 1}`, wallet: t.wallet, orderId: t.orderId, marketId: t.marketId, outcome: t.outcome, side: t.side,
      price: t.price, qty: t.qty, fee: t.fee, role: t.role, ts, source: "trades_pull",
    };
    if (t.streamDelay !== undefined) deliveries.push({ at: ts + t.streamDelay, fill: { ...pulled, role: "unknown", ts: ts + t.streamDelay, source: "stream" } });
    deliveries.push({ at: ts + t.pullDelay, fill: pulled });
    for (const r of t.replays) deliveries.push({ at: ts + t.pullDelay + r, fill: { ...pulled, source: r % 2 === 0 ? "trades_pull" : "order_read" } });
  });
  // Stable: a trade's stream frame stays before its pull row at the same instant.
  return deliveries.map((d, i) => ({ d, i })).sort((a, b) => a.d.at - b.d.at || a.i - b.i).map((x) => x.d);
});

function pair(keep = false) {
  return { ledger: new FillLedger({ keepCompacted: keep }), inv: new Inventory() };
}

function compactAll(p: ReturnType<typeof pair>, cut: number): void {
  for (const w of WALLETS) {
    const r = p.ledger.compact(w, cut);
    if (r.watermark !== undefined) p.inv.compact(w, r.watermark);
  }
}

describe("fill ledger compaction: replays, totals and memory", () => {
  it("answers every delivery as an uncompacted ledger does, and ends with the same totals and inventory", () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 50, max: 700 }), (deliveries, every) => {
        const plain = pair();
        const comp = pair();
        const kept = pair(true);
        let nextCompaction = every;
        for (const d of deliveries) {
          while (d.at >= nextCompaction) {
            compactAll(comp, nextCompaction - R);
            compactAll(kept, nextCompaction - R);
            nextCompaction += every;
          }
          const a = plain.ledger.add(d.fill);
          const b = comp.ledger.add(d.fill);
          const c = kept.ledger.add(d.fill);
          expect(b.status).toBe(a.status);
          expect(c.status).toBe(a.status);
          expect(comp.inv.applyLedgerResult(b)).toBe(plain.inv.applyLedgerResult(a));
          kept.inv.applyLedgerResult(c);
        }
        expect(comp.ledger.total).toBe(plain.ledger.size);
        expect(comp.ledger.totals()).toEqual(plain.ledger.totals());
        expect(kept.ledger.fills()).toEqual(plain.ledger.fills());
        for (const x of [comp, kept]) {
          expect(x.inv.positions()).toEqual(plain.inv.positions());
          for (const w of WALLETS) {
            expect(x.inv.cashDelta(w)).toBe(plain.inv.cashDelta(w));
            expect(x.inv.pnl(w, marks)).toEqual(plain.inv.pnl(w, marks));
          }
        }
        expect(comp.ledger.counters.added).toBe(plain.ledger.counters.added);
        expect(comp.inv.counters.fills).toBe(plain.inv.counters.fills);
      }),
      { numRuns: 150, seed: 20261126 },
    );
  });

  it("holds a bounded number of records over a long run (100,000 fills)", () => {
    const rng = new Rng(77);
    const p = pair();
    const plain = new FillLedger();
    let ts = 0;
    let maxHeld = 0;
    let maxInv = 0;
    let maxOrders = 0;
    const N = 100_000;
    let saved: Fill | undefined;
    for (let i = 1; i <= N; i++) {
      ts += rng.int(20); // about 100 fills per 1,000 ms: about 100 per compaction window
      const f: Fill = {
        tradeId: `t${i}`, wallet: WALLETS[rng.int(2)]!, orderId: `o${Math.floor(i / 3)}`, marketId: MARKETS[rng.int(2)]!, outcome: rng.int(2),
        side: rng.bool() ? "BUY" : "SELL", price: BigInt(1 + rng.int(999)) * 1_000n, qty: BigInt(1 + rng.int(5_000_000)), fee: 0n, role: "maker", ts, source: "trades_pull",
      };
      p.inv.applyLedgerResult(p.ledger.add(f));
      if (i <= 20_000) plain.add(f);
      // A replay of a fill 900 fills old (long compacted) now and then: still a duplicate.
      if (i % 1_000 === 100) saved = f;
      if (i % 1_000 === 0 && saved !== undefined) {
        const r = p.ledger.add({ ...saved, source: "order_read" });
        expect(r).toMatchObject({ status: "duplicate", compacted: true });
        expect(p.inv.applyLedgerResult(r)).toBe(false);
      }
      if (i % 100 === 0) compactAll(p, ts - R);
      maxHeld = Math.max(maxHeld, p.ledger.size);
      maxInv = Math.max(maxInv, p.inv.held.fills);
      maxOrders = Math.max(maxOrders, p.inv.held.orders);
    }
    expect(p.ledger.total).toBe(N);
    // Records held stay near fills-per-window (about 100 per R, plus one compaction period), whatever N.
    expect(maxHeld).toBeLessThan(400);
    expect(maxInv).toBeLessThan(400);
    expect(maxOrders).toBeLessThan(400);
    expect(plain.size).toBe(20_000); // the uncompacted ledger grows with every fill
    expect(p.ledger.totals().reduce((n, r) => n + r.totals.fills, 0)).toBe(N);
  });
});
