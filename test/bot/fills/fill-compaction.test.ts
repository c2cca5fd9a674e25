/**
 * Compaction of the fill ledger and the inventory (fill-ledger.ts "Compaction", fill-compaction.ts):
 * old fills leave memory, a replay of one is still a duplicate, totals, positions and cash stay what
 * an uncompacted ledger and inventory say.
 */
import { describe, expect, it } from "vitest";
import { compactWallet, compactionCut } from "../../../src/bot/fills/fill-compaction.js";
import { FillLedger, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory, binaryMarks } from "../../../src/bot/fills/inventory.js";
import { parseMicros } from "../../../src/core/money.js";

const m = parseMicros;
const W = "0x" + "ab".repeat(20);
const W2 = "0x" + "cd".repeat(20);
const HOUR = 3_600_000;
const tuning = { fillRetentionMs: HOUR, tradePullMarginMs: 5_000 };

function fill(over: Partial<Fill> = {}): Fill {
  return { tradeId: "t1", wallet: W, orderId: "o1", marketId: "MKT", outcome: 0, side: "BUY", price: m("0.4"), qty: m("10"), fee: 0n, role: "maker", ts: 1_000, source: "trades_pull", ...over };
}

/** A complete pull of `rows` (the cursor and coverage move to the newest). */
function pull(l: FillLedger, rows: Fill[], inv?: Inventory): void {
  l.beginPull(W);
  for (const f of rows) {
    const r = l.add(f);
    inv?.applyLedgerResult(r);
  }
  l.endPull(W);
}

describe("fill ledger compaction", () => {
  it("folds fills before the cut into the checkpoint; a replay of one is a duplicate, a newer fill is added", () => {
    const l = new FillLedger();
    pull(l, [fill({ tradeId: "t1", ts: 1_000 }), fill({ tradeId: "t2", ts: 2_000, side: "SELL", qty: m("4"), fee: m("0.01") }), fill({ tradeId: "t3", ts: 3_000 })]);
    const r = l.compact(W, 2_500);
    expect(r).toEqual({ wallet: W, compacted: 2, watermark: { ts: 2_000, tradeId: "t2" } });
    expect(l.size).toBe(1);
    expect(l.total).toBe(3);
    expect(l.fills(W).map((f) => f.tradeId)).toEqual(["t3"]);
    // Replays of compacted fills, from any source, change nothing.
    expect(l.add(fill({ tradeId: "t1", ts: 1_000 }))).toMatchObject({ status: "duplicate", compacted: true });
    expect(l.add(fill({ tradeId: "t2", ts: 2_000, side: "SELL", qty: m("4"), fee: m("0.01"), source: "order_read" }))).toMatchObject({ status: "duplicate", compacted: true });
    expect(l.counters.compactedDuplicates).toBe(2);
    // Same millisecond as the watermark, lower trade id in natural order ("t1x" < "t2"): at or below it.
    expect(l.add(fill({ tradeId: "t1x", ts: 2_000 })).status).toBe("duplicate");
    // Above the watermark: a genuine new fill.
    expect(l.add(fill({ tradeId: "t10", ts: 2_000 })).status).toBe("added");
    expect(l.add(fill({ tradeId: "t4", ts: 4_000 })).status).toBe("added");
    // Another wallet's watermark is its own.
    expect(l.add(fill({ wallet: W2, tradeId: "t1", ts: 1_000 })).status).toBe("added");
    expect(l.total).toBe(6);
  });

  it("keeps per market and outcome totals of every fill, compacted or not", () => {
    const rows = [
      fill({ tradeId: "t1", ts: 1_000, role: "maker" }),
      fill({ tradeId: "t2", ts: 2_000, side: "SELL", qty: m("4"), price: m("0.45"), fee: m("0.01"), role: "taker" }),
      fill({ tradeId: "t3", ts: 3_000, outcome: 1, role: "unknown" }),
      fill({ tradeId: "t4", ts: 4_000, marketId: "OTHER" }),
    ];
    const plain = new FillLedger();
    const compacted = new FillLedger();
    pull(plain, rows);
    pull(compacted, rows);
    compacted.compact(W, 3_500);
    expect(compacted.size).toBe(1);
    expect(compacted.totals()).toEqual(plain.totals());
    expect(compacted.totals(W).find((r) => r.marketId === "MKT" && r.outcome === 0)?.totals).toEqual({
      fills: 2, maker: 1, taker: 1, unknownRole: 0, bought: m("10"), sold: m("4"),
      buyNotional2: m("0.4") * m("10"), sellNotional2: m("0.45") * m("4"), fees: m("0.01"),
    });
  });

  it("diffAgainst counts a compacted platform fill as held, and still finds missing and extra fills above the watermark", () => {
    const l = new FillLedger();
    const rows = [fill({ tradeId: "t1", ts: 1_000 }), fill({ tradeId: "t2", ts: 2_000 }), fill({ tradeId: "t3", ts: 3_000 })];
    pull(l, rows);
    l.compact(W, 2_500);
    expect(l.diffAgainst(W, rows).equal).toBe(true);
    const d = l.diffAgainst(W, [...rows, fill({ tradeId: "t9", ts: 9_000 })]);
    expect(d.missing.map((f) => f.tradeId)).toEqual(["t9"]);
    expect(l.diffAgainst(W, rows.slice(0, 2)).extra.map((f) => f.tradeId)).toEqual(["t3"]);
  });

  it("keepCompacted: records stay listable and comparable while duplicates are decided by the watermark", () => {
    const l = new FillLedger({ keepCompacted: true });
    const rows = [fill({ tradeId: "t1", ts: 1_000 }), fill({ tradeId: "t2", ts: 2_000 }), fill({ tradeId: "t3", ts: 3_000 })];
    pull(l, rows);
    l.compact(W, 2_500);
    expect(l.size).toBe(1);
    expect(l.fills(W).map((f) => f.tradeId)).toEqual(["t1", "t2", "t3"]);
    expect(l.fillsForOrder(W, "o1")).toHaveLength(3);
    expect(l.add(fill({ tradeId: "t1", ts: 1_000 }))).toMatchObject({ status: "duplicate", compacted: true, fill: { tradeId: "t1" } });
    // A kept record is still compared field by field.
    const d = l.diffAgainst(W, [fill({ tradeId: "t1", ts: 1_000, qty: m("11") }), ...rows.slice(1)]);
    expect(d.mismatched.map((x) => x.ours.tradeId)).toEqual(["t1"]);
  });

  it("never moves the watermark back", () => {
    const l = new FillLedger();
    pull(l, [fill({ tradeId: "t1", ts: 1_000 }), fill({ tradeId: "t2", ts: 2_000 })]);
    l.compact(W, 2_500);
    expect(l.compact(W, 1_500)).toEqual({ wallet: W, compacted: 0, watermark: { ts: 2_000, tradeId: "t2" } });
  });
});

describe("compaction cut", () => {
  it("is below both the last complete pull's cursor minus the margin and now minus the retention", () => {
    const l = new FillLedger();
    expect(compactionCut(l, W, 10 * HOUR, tuning)).toBeUndefined(); // no complete pull yet
    l.add(fill({ ts: 9 * HOUR - 1 }));
    expect(compactionCut(l, W, 10 * HOUR, tuning)).toBeUndefined(); // a cursor, but no bracketed (complete) pull
    pull(l, [fill({ tradeId: "t2", ts: 9.5 * HOUR })]);
    expect(compactionCut(l, W, 10 * HOUR, tuning)).toBe(9 * HOUR); // now - retention
    expect(compactionCut(l, W, 20 * HOUR, tuning)).toBe(9.5 * HOUR - 5_000); // cursor - margin (pulls stalled)
    expect(compactionCut(l, W, 20 * HOUR, { ...tuning, fillRetentionMs: 0 })).toBeUndefined();
    // compactWallet: the ledger, then the inventory to the same watermark.
    const inv = new Inventory();
    for (const f of l.fills()) inv.applyFill(f);
    expect(compactWallet(l, inv, W, 10 * HOUR, tuning)).toEqual({ wallet: W, compacted: 1, watermark: { ts: 9 * HOUR - 1, tradeId: "t1" } });
    expect(inv.held).toEqual({ fills: 1, orders: 1 });
    expect(compactWallet(l, inv, W, 20 * HOUR, { ...tuning, fillRetentionMs: 0 })).toBeUndefined();
  });

  it("a failed pull does not give coverage", () => {
    const l = new FillLedger();
    l.beginPull(W);
    l.add(fill({ ts: 5 * HOUR }));
    // No endPull: the walk failed.
    expect(l.pullCoverage(W)).toBeUndefined();
    expect(l.lastTradeCursor(W)).toBeUndefined();
    l.beginPull(W);
    l.endPull(W);
    expect(l.pullCoverage(W)).toBeUndefined();
  });
});

describe("inventory compaction", () => {
  const marks = binaryMarks("MKT", m("0.5"));
  const rows = [
    fill({ tradeId: "t1", orderId: "o1", ts: 1_000, price: m("0.4"), qty: m("10") }),
    fill({ tradeId: "t2", orderId: "o2", ts: 2_000, side: "SELL", price: m("0.55"), qty: m("3.333333"), fee: m("0.02") }),
    fill({ tradeId: "t3", orderId: "o3", ts: 3_000, side: "SELL", price: m("0.35"), qty: m("12"), fee: m("0.01") }),
    fill({ tradeId: "t4", orderId: "o3", ts: 4_000, side: "SELL", price: m("0.351"), qty: m("1.000001") }),
    fill({ tradeId: "t5", orderId: "o4", ts: 5_000, price: m("0.6"), qty: m("2") }),
  ];

  function both(upTo: number) {
    const plain = { l: new FillLedger(), inv: new Inventory() };
    const comp = { l: new FillLedger(), inv: new Inventory() };
    pull(plain.l, rows.slice(0, upTo), plain.inv);
    pull(comp.l, rows.slice(0, upTo), comp.inv);
    return { plain, comp };
  }

  function expectSame(a: Inventory, b: Inventory): void {
    expect(b.positions()).toEqual(a.positions());
    expect(b.cashDelta(W)).toBe(a.cashDelta(W));
    expect(b.pnl(W, marks)).toEqual(a.pnl(W, marks));
  }

  it("positions, cash and PnL equal the uncompacted inventory's, before and after later fills (one crossing zero)", () => {
    const { plain, comp } = both(3);
    expect(comp.l.compact(W, 3_500).compacted).toBe(3);
    expect(comp.inv.compact(W, comp.l.watermark(W)!, (id) => id === "o3")).toBe(3);
    expect(comp.inv.held).toEqual({ fills: 0, orders: 1 }); // o3 may still fill: its notional is kept
    expectSame(plain.inv, comp.inv);
    // o3 fills again (exact cash rounding needs its notional), then a new order.
    for (const f of rows.slice(3)) {
      plain.inv.applyLedgerResult(plain.l.add(f));
      comp.inv.applyLedgerResult(comp.l.add(f));
    }
    expectSame(plain.inv, comp.inv);
    // A replay of a compacted fill changes nothing.
    expect(comp.inv.applyLedgerResult(comp.l.add(rows[0]!))).toBe(false);
    expect(comp.inv.applyFill(rows[1]!)).toBe(false);
    expectSame(plain.inv, comp.inv);
  });

  it("a settlement after the compacted fills still applies after the fills kept", () => {
    const { plain, comp } = both(5);
    comp.l.compact(W, 2_500);
    comp.inv.compact(W, comp.l.watermark(W)!);
    expect(comp.inv.held.fills).toBe(3);
    for (const x of [plain, comp]) x.inv.resolve("MKT", [1n, 0n], 4_500);
    expectSame(plain.inv, comp.inv);
    expect(comp.inv.summary(W, "MKT", 0)).toMatchObject({ settled: true, fillsAfterSettlement: 1 });
  });

  it("a settlement known before compaction, falling between compacted fills, is folded into the base", () => {
    const { plain, comp } = both(5);
    for (const x of [plain, comp]) x.inv.resolve("MKT", [0n, 1n], 1_500);
    comp.l.compact(W, 3_500);
    comp.inv.compact(W, comp.l.watermark(W)!);
    expectSame(plain.inv, comp.inv);
    expect(comp.inv.summary(W, "MKT", 0).fillsAfterSettlement).toBe(4);
  });

  it("forgets the notional of orders that can fill no more", () => {
    const { comp } = both(5);
    comp.l.compact(W, 3_500);
    comp.inv.compact(W, comp.l.watermark(W)!);
    // o1, o2 ended (not kept); o3 has a fill above the watermark; o4 too.
    expect(comp.inv.held).toEqual({ fills: 2, orders: 2 });
  });
});
