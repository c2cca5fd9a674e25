import { describe, expect, it } from "vitest";
import { FillLedger, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory, anchorPositionsOf, binaryMarks, type InventoryFill } from "../../../src/bot/fills/inventory.js";
import { parseMicros } from "../../../src/core/money.js";
import type { Balances, Position } from "../../../src/wire/portfolio.js";

const m = parseMicros;
const W = "0x" + "ab".repeat(20);
const W2 = "0x" + "cd".repeat(20);
let seq = 0;

function f(side: "BUY" | "SELL", qty: string, price: string, over: Partial<Fill> = {}): InventoryFill {
  seq++;
  return {
    tradeId: `t${seq}`,
    wallet: W,
    orderId: `o${seq}`,
    marketId: "MKT",
    outcome: 0,
    side,
    price: m(price),
    qty: m(qty),
    fee: 0n,
    ts: seq * 10,
    ...over,
  };
}

const pos = (p: Partial<Position> & { quantity: string }): Position => ({ marketId: "MKT", tokenId: "1", outcome: 0, locked: "0", avgPrice: null, ...p });
const bal = (total: string): Balances => ({ walletAddress: W, vaultAddress: W2, collateral: { total, locked: "0", available: total } });

describe("Inventory: average cost and PnL, exact in micros", () => {
  it("buys average in, a sell realises against the average, fees stay apart", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.40", { fee: m("0.06") }));
    inv.applyFill(f("BUY", "10", "0.50"));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("20"), avgCost: m("0.45"), costBasis: m("9"), realisedPnl: 0n });
    inv.applyFill(f("SELL", "5", "0.60", { fee: m("0.03") }));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("15"), avgCost: m("0.45"), costBasis: m("6.75"), realisedPnl: m("0.75"), fees: m("0.09") });
    const pnl = inv.pnl(W, binaryMarks("MKT", m("0.55")));
    expect(pnl).toEqual({ realised: m("0.75"), unrealised: m("1.5"), fees: m("0.09"), net: m("2.16"), unmarked: [] });
    // Cash: -4 - 0.06 - 5 + 3 - 0.03; with the mark value it is the net PnL.
    expect(inv.cashDelta(W)).toBe(m("-6.09"));
    expect(inv.cashDelta(W) + (m("0.55") * m("15")) / 1_000_000n).toBe(pnl.net);
  });

  it("NO is marked at 1 - YES mid; positions without a mark are listed, not guessed", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "4", "0.30", { outcome: 1 }));
    inv.applyFill(f("BUY", "1", "0.50", { marketId: "OTHER" }));
    const pnl = inv.pnl(W, binaryMarks("MKT", m("0.6")));
    // NO at 0.4: 4 x (0.4 - 0.3)
    expect(pnl.unrealised).toBe(m("0.4"));
    expect(pnl.unmarked).toEqual([{ marketId: "OTHER", outcome: 0 }]);
    expect(inv.pnl(W, binaryMarks("MKT", m("0.6")), "MKT").unmarked).toEqual([]);
  });

  it("a sell through zero closes the long and opens a short at the fill price", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.4"));
    inv.applyFill(f("SELL", "15", "0.5"));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("-5"), avgCost: m("0.5"), costBasis: m("-2.5"), realisedPnl: m("1") });
    inv.applyFill(f("BUY", "5", "0.3"));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: 0n, avgCost: null, costBasis: 0n, realisedPnl: m("2") });
  });

  it("a round trip realises exactly even when the average is not a whole micro", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "1", "0.101"));
    inv.applyFill(f("BUY", "2", "0.102"));
    inv.applyFill(f("SELL", "1", "0.2"));
    inv.applyFill(f("SELL", "2", "0.2"));
    // 0.6 - (0.101 + 0.204)
    expect(inv.summary(W, "MKT", 0).realisedPnl).toBe(m("0.295"));
  });

  it("cash follows the platform's per-order rounding: BUY ceil, SELL floor of the cumulative notional", () => {
    const inv = new Inventory();
    // One order, two fills of 1 micro-share at 0.333: 0.666 micro of notional -> 1 micro paid, not 2.
    inv.applyFill(f("BUY", "0.000001", "0.333", { orderId: "A" }));
    inv.applyFill(f("BUY", "0.000001", "0.333", { orderId: "A" }));
    expect(inv.cashDelta(W)).toBe(-1n);
    inv.applyFill(f("BUY", "0.000001", "0.333", { orderId: "B" }));
    expect(inv.cashDelta(W)).toBe(-2n);
    // A SELL of 3 micro-shares at 0.333 receives floor(0.999) = 0.
    inv.applyFill(f("SELL", "0.000003", "0.333", { orderId: "C" }));
    expect(inv.cashDelta(W)).toBe(-2n);
  });

  it("maker fills pay no fee unless the fill carries one", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.5"));
    inv.applyFill(f("BUY", "10", "0.5", { fee: m("0.01") }));
    expect(inv.summary(W, "MKT", 0).fees).toBe(m("0.01"));
  });

  it("keeps wallets, markets and outcomes apart and gives the strategy's PositionView", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "3", "0.5"));
    inv.applyFill(f("BUY", "2", "0.4", { outcome: 1 }));
    inv.applyFill(f("BUY", "7", "0.5", { wallet: W2 }));
    inv.applyFill(f("BUY", "1", "0.5", { marketId: "ZZ" }));
    expect(inv.positionViews(W, "MKT")).toEqual([
      { outcome: 0, qty: m("3"), avgCost: m("0.5") },
      { outcome: 1, qty: m("2"), avgCost: m("0.4") },
    ]);
    expect(inv.positions(W2).map((p) => p.qty)).toEqual([m("7")]);
    expect(inv.positions(W).map((p) => p.marketId)).toEqual(["MKT", "MKT", "ZZ"]);
  });

  it("is idempotent per fill key and can take a fill back", () => {
    const inv = new Inventory();
    const a = f("BUY", "10", "0.4");
    expect(inv.applyFill(a)).toBe(true);
    expect(inv.applyFill({ ...a })).toBe(false);
    expect(inv.counters.duplicates).toBe(1);
    inv.replaceFill(a, { ...a, price: m("0.5"), fee: m("0.02") });
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("10"), avgCost: m("0.5"), fees: m("0.02") });
    expect(inv.cashDelta(W)).toBe(m("-5.02"));
    expect(inv.removeFill(a)).toBe(true);
    expect(inv.summary(W, "MKT", 0).qty).toBe(0n);
    expect(inv.cashDelta(W)).toBe(0n);
  });

  it("an out-of-order fill refolds the position into canonical (time) order", () => {
    const a = f("BUY", "10", "0.4", { ts: 10 });
    const b = f("SELL", "5", "0.6", { ts: 20 });
    const c = f("BUY", "10", "0.7", { ts: 30 });
    const inOrder = new Inventory();
    for (const x of [a, b, c]) inOrder.applyFill(x);
    const shuffled = new Inventory();
    for (const x of [c, a, b]) shuffled.applyFill(x);
    expect(shuffled.positions()).toEqual(inOrder.positions());
    expect(inOrder.summary(W, "MKT", 0).realisedPnl).toBe(m("1"));
  });
});

describe("Inventory: resolution and void", () => {
  it("pays the payout numerators, realises payout - cost and flattens", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.4"));
    inv.applyFill(f("BUY", "4", "0.5", { outcome: 1 }));
    inv.resolve("MKT", ["1", "0"], 1_000);
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: 0n, payout: m("10"), realisedPnl: m("6"), settled: true });
    expect(inv.summary(W, "MKT", 1)).toMatchObject({ qty: 0n, payout: 0n, realisedPnl: m("-2"), settled: true });
    expect(inv.cashDelta(W)).toBe(m("-6") + m("10"));
    expect(inv.pnl(W, () => undefined)).toMatchObject({ realised: m("4"), unrealised: 0n, unmarked: [] });
  });

  it("void pays 1/outcomeCount per share, rounded down", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.4"));
    inv.applyFill(f("BUY", "0.000002", "0.5", { marketId: "TRI", outcome: 2 }));
    inv.voidMarket("MKT", 2, 1_000);
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ payout: m("5"), realisedPnl: m("1") });
    inv.voidMarket("TRI", 3, 1_000);
    expect(inv.summary(W, "TRI", 2).payout).toBe(0n);
  });

  it("a fill stamped before the settlement but arriving after it is folded in before the payout", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.4", { ts: 100 }));
    inv.resolve("MKT", [1n, 0n], 1_000);
    inv.applyFill(f("BUY", "5", "0.6", { ts: 900 }));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: 0n, payout: m("15"), realisedPnl: m("8"), fillsAfterSettlement: 0 });
    inv.applyFill(f("BUY", "1", "0.6", { ts: 2_000 }));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("1"), fillsAfterSettlement: 1 });
  });

  it("refuses numerators that sum to zero", () => {
    expect(() => new Inventory().resolve("MKT", [0, 0], 1)).toThrow(/sum/);
  });
});

describe("Inventory: drift against the platform", () => {
  it("records every position difference, both ways, and counts them", () => {
    const inv = new Inventory();
    inv.applyFill(f("BUY", "10", "0.4"));
    inv.applyFill(f("BUY", "4", "0.5", { outcome: 1 }));
    expect(inv.checkAgainst(W, [pos({ quantity: "10" }), pos({ outcome: 1, quantity: "4" })]).clean).toBe(true);
    const r = inv.checkAgainst(W, [pos({ quantity: "10" }), pos({ outcome: 1, quantity: "3" }), pos({ marketId: "NEW", quantity: "2" })]);
    expect(r.clean).toBe(false);
    expect(r.positions).toEqual([
      { wallet: W, marketId: "MKT", outcome: 1, ours: m("4"), theirs: m("3"), diff: m("-1") },
      { wallet: W, marketId: "NEW", outcome: 0, ours: 0n, theirs: m("2"), diff: m("2") },
    ]);
    expect(inv.counters).toMatchObject({ driftChecks: 2, driftRecords: 2 });
  });

  it("checks cash once anchored: anchor + delta against the balance total", () => {
    const inv = new Inventory();
    inv.anchor(W, 0, [], m("100"));
    inv.applyFill(f("BUY", "10", "0.4", { fee: m("0.05") }));
    expect(inv.expectedCash(W)).toBe(m("95.95"));
    expect(inv.checkAgainst(W, [pos({ quantity: "10" })], bal("95.95")).clean).toBe(true);
    const r = inv.checkAgainst(W, [pos({ quantity: "10" })], bal("95.9"));
    expect(r.cash).toEqual({ wallet: W, ours: m("95.95"), theirs: m("95.9"), diff: m("-0.05") });
    expect(new Inventory().checkAgainst(W, [], bal("1")).cash).toBeUndefined();
  });

  it("an anchor seeds positions from /api/me/positions and ignores fills it already contains", () => {
    const inv = new Inventory();
    inv.anchor(W, 5_000, anchorPositionsOf([pos({ quantity: "8", avgPrice: "0.25" })]), m("50"));
    expect(inv.applyFill(f("BUY", "1", "0.5", { ts: 5_000 }))).toBe(false);
    expect(inv.counters.preAnchor).toBe(1);
    inv.applyFill(f("SELL", "4", "0.5", { ts: 5_001 }));
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("4"), avgCost: m("0.25"), realisedPnl: m("1") });
    expect(inv.expectedCash(W)).toBe(m("52"));
    expect(inv.checkAgainst(W, [pos({ quantity: "4" })], bal("52")).clean).toBe(true);
  });
});

describe("Inventory: a fill whose time a better source corrects is judged again against the anchor", () => {
  const ANCHOR = 10_000;
  /** One trade at `tradeTs` of 4 @ 0.5, as the stream stamps it (frame time) and as the trades pull gives it. */
  function sources(tradeTs: number, frameTs: number): { stream: Fill; pull: Fill } {
    const base = { tradeId: "tx", wallet: W, orderId: "ox", marketId: "MKT", outcome: 0, side: "BUY" as const, price: m("0.5"), qty: m("4"), fee: 0n, role: "maker" as const };
    return { stream: { ...base, ts: frameTs, source: "stream" }, pull: { ...base, ts: tradeTs, source: "trades_pull" } };
  }
  function anchored(): { inv: Inventory; ledger: FillLedger } {
    const inv = new Inventory();
    // The positions read at ANCHOR already holds the 4 shares of the trade (plus 6 older ones).
    inv.anchor(W, ANCHOR, anchorPositionsOf([pos({ quantity: "10", avgPrice: "0.5" })]), m("100"));
    return { inv, ledger: new FillLedger() };
  }

  it("start-up anchor, then the stream fill stamped after it, then the trades pull with the real (earlier) time: counted once", () => {
    const { inv, ledger } = anchored();
    const { stream, pull } = sources(ANCHOR - 20, ANCHOR + 30);
    expect(inv.applyLedgerResult(ledger.add(stream))).toBe(true);
    expect(inv.summary(W, "MKT", 0).qty).toBe(m("14")); // counted twice for now: the stream cannot know
    const merged = ledger.add(pull);
    expect(merged.status).toBe("merged");
    expect(inv.applyLedgerResult(merged)).toBe(false);
    expect(inv.summary(W, "MKT", 0).qty).toBe(m("10"));
    expect(inv.cashDelta(W)).toBe(0n);
    expect(inv.counters).toMatchObject({ fills: 0, corrected: 1, preAnchor: 1 });
    // Any later source of the same trade changes nothing.
    expect(inv.applyLedgerResult(ledger.add(stream))).toBe(false);
    expect(inv.applyLedgerResult(ledger.add({ ...pull, source: "order_read" }))).toBe(false);
    expect(inv.summary(W, "MKT", 0).qty).toBe(m("10"));
  });

  it("the same trades in the other order (pull first) are counted once too", () => {
    const { inv, ledger } = anchored();
    const { stream, pull } = sources(ANCHOR - 20, ANCHOR + 30);
    expect(inv.applyLedgerResult(ledger.add(pull))).toBe(false);
    expect(inv.applyLedgerResult(ledger.add(stream))).toBe(false);
    expect(inv.summary(W, "MKT", 0).qty).toBe(m("10"));
  });

  it("a trade after the anchor stays counted once, at its corrected time", () => {
    const { inv, ledger } = anchored();
    const { stream, pull } = sources(ANCHOR + 20, ANCHOR + 50);
    inv.applyLedgerResult(ledger.add(stream));
    inv.applyLedgerResult(ledger.add(pull));
    expect(inv.summary(W, "MKT", 0).qty).toBe(m("14"));
    expect(inv.counters).toMatchObject({ fills: 1, corrected: 1, preAnchor: 0 });
    expect(inv.cashDelta(W)).toBe(m("-2"));
  });

  it("a re-applied fill with the same record is a duplicate; with other economics it replaces the old one", () => {
    const inv = new Inventory();
    const a = f("BUY", "4", "0.5");
    expect(inv.applyFill(a)).toBe(true);
    expect(inv.applyFill({ ...a })).toBe(false);
    expect(inv.counters.duplicates).toBe(1);
    expect(inv.applyFill({ ...a, qty: m("3") })).toBe(true);
    expect(inv.summary(W, "MKT", 0)).toMatchObject({ qty: m("3"), costBasis: m("1.5") });
    // Moved to another outcome: the old record is found and taken out.
    expect(inv.applyFill({ ...a, qty: m("3"), outcome: 1 })).toBe(true);
    expect(inv.summary(W, "MKT", 0).qty).toBe(0n);
    expect(inv.summary(W, "MKT", 1).qty).toBe(m("3"));
  });
});
