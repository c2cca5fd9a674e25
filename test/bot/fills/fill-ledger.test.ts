import { describe, expect, it } from "vitest";
import { FillLedger, compareFills, fillFromMyTrade, fillFromOrderTrade, fillFromUserFill, readOrderTrade, readOrderTrades, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { parseMicros } from "../../../src/core/money.js";
import { userFillFrame, type UserFillFrame } from "../../../src/wire/frames.js";
import type { MyTrade, Trade } from "../../../src/wire/orders.js";

const m = parseMicros;
const W = "0x" + "ab".repeat(20);
const W2 = "0x" + "cd".repeat(20);

function fill(over: Partial<Fill> = {}): Fill {
  return {
    tradeId: "t1",
    wallet: W,
    orderId: "o1",
    marketId: "MKT",
    outcome: 0,
    side: "BUY",
    price: m("0.4"),
    qty: m("10"),
    fee: 0n,
    role: "maker",
    ts: 1_000,
    source: "stream",
    ...over,
  };
}

function frame(over: Record<string, unknown> = {}): UserFillFrame {
  return userFillFrame.parse({
    type: "user_fill",
    channel: "user_orders",
    serverTs: 1_000,
    walletAddress: W.toUpperCase().replace("0X", "0x"),
    orderId: "o1",
    clientOrderId: "c1",
    marketId: "MKT",
    tradeId: "t1",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    price: "0.4",
    quantity: "10",
    fee: "0.06",
    orderStatus: "PARTIAL",
    filledQty: "10",
    remainingQty: "5",
    ...over,
  });
}

function myTrade(over: Partial<MyTrade> = {}): MyTrade {
  return {
    id: "t1",
    marketId: "MKT",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    price: "0.4",
    quantity: "10",
    fee: "0.06",
    feeRateBps: 100,
    makerOrderId: "ox",
    takerOrderId: "o1",
    makerWallet: W2,
    takerWallet: W,
    createdAt: "2026-01-01T00:00:01.000Z",
    role: "taker",
    orderId: "o1",
    ...over,
  };
}

describe("sources -> Fill", () => {
  it("user_fill: a missing or null role is unknown, never taker", () => {
    const raw = frame();
    const { role: _r, ...withoutRole } = raw;
    const noRole = userFillFrame.parse(withoutRole);
    expect(fillFromUserFill(noRole).role).toBe("unknown");
    expect(fillFromUserFill(frame({ role: null })).role).toBe("unknown");
    const f = fillFromUserFill(frame({ role: "taker" }));
    expect(f).toEqual({
      tradeId: "t1",
      wallet: W,
      orderId: "o1",
      clientOrderId: "c1",
      marketId: "MKT",
      outcome: 0,
      side: "BUY",
      price: m("0.4"),
      qty: m("10"),
      fee: m("0.06"),
      role: "taker",
      ts: 1_000,
      source: "stream",
    });
  });

  it("/api/me/trades rows keep the caller's role, order and fee; time is the trade's", () => {
    const f = fillFromMyTrade(W, myTrade({ role: "maker", fee: "0" }));
    expect(f).toMatchObject({ role: "maker", orderId: "o1", fee: 0n, ts: Date.UTC(2026, 0, 1, 0, 0, 1), source: "trades_pull" });
  });

  it("taker-centric rows seen from our order: as taker as is; as maker our side, complement price, no fee", () => {
    const t: Trade = { ...myTrade(), makerOrderId: "om", takerOrderId: "ot" };
    expect(fillFromOrderTrade(W, t, { orderId: "ot", outcome: 0, side: "BUY" }, "placement")).toMatchObject({
      role: "taker",
      side: "BUY",
      price: m("0.4"),
      fee: m("0.06"),
      source: "placement",
    });
    // Maker on the same outcome: the taker bought YES at 0.4 from our YES sell.
    expect(fillFromOrderTrade(W, t, { orderId: "om", outcome: 0, side: "SELL" }, "order_read")).toMatchObject({
      role: "maker",
      side: "SELL",
      outcome: 0,
      price: m("0.4"),
      fee: 0n,
    });
    // Maker on the complement: our NO bid at 0.6 met the YES buy at 0.4 (a mint).
    expect(fillFromOrderTrade(W, t, { orderId: "om", clientOrderId: "c9", outcome: 1, side: "BUY" }, "order_read")).toMatchObject({
      role: "maker",
      side: "BUY",
      outcome: 1,
      price: m("0.6"),
      clientOrderId: "c9",
    });
    expect(fillFromOrderTrade(W, t, { orderId: "nope", outcome: 0, side: "BUY" }, "order_read")).toBeUndefined();
  });

  it("placement rows are read best effort: what a fill needs must read, the rest is the order's; unreadable rows are counted", () => {
    const t: Trade = { ...myTrade(), makerOrderId: "om", takerOrderId: "ot" };
    const { feeRateBps: _a, makerWallet: _b, takerWallet: _c, tokenId: _d, marketId: _e, outcome: _f, side: _g, ...thin } = t;
    const order = { orderId: "ot", clientOrderId: "c1", outcome: 0, side: "BUY" as const, marketId: "MKT" };
    // A taker row missing fields we never needed (or that the order knows) still gives the fill.
    expect(readOrderTrade(W, { ...thin, extra: 1 }, order, "placement")).toEqual(fillFromOrderTrade(W, t, order, "placement"));
    const rows: unknown[] = [
      t, // ours as taker
      { ...t, id: "t2", makerOrderId: "ox", takerOrderId: "oy" }, // another order's
      { ...t, id: "t3", createdAt: "whenever" }, // no usable time
      { ...t, id: "t4", fee: undefined }, // a taker row without its fee
      { ...t, id: "t5", price: "1.5" }, // price off the scale
      { ...t, id: "t6", quantity: undefined },
      "t7",
    ];
    const out = readOrderTrades(W, rows, order, "placement");
    expect(out.fills.map((x) => x.tradeId)).toEqual([t.id]);
    expect(out).toMatchObject({ notOurs: 1, unreadable: 5 });
    // Unreadable is never thrown and never a fill.
    expect(fillFromOrderTrade(W, { ...t, createdAt: "whenever" }, order, "order_read")).toBeUndefined();
    // As maker, the taker's outcome decides the price: without it the row cannot be read.
    expect(readOrderTrade(W, { ...t, outcome: undefined }, { orderId: "om", outcome: 1, side: "BUY" }, "order_read")).toBe("unreadable");
  });
});

describe("FillLedger", () => {
  it("is idempotent by trade id: the same fill twice counts once", () => {
    const l = new FillLedger();
    expect(l.add(fill()).status).toBe("added");
    expect(l.add(fill()).status).toBe("duplicate");
    expect(l.add(fill({ wallet: W.toUpperCase().replace("0X", "0x") })).status).toBe("duplicate");
    expect(l.size).toBe(1);
    expect(l.filledQty(W, "o1")).toBe(m("10"));
    expect(l.counters).toEqual({ added: 1, duplicates: 2, merged: 0, conflicts: 0, compactedDuplicates: 0 });
  });

  it("keeps both sides of a self-trade (same trade id, two of our orders or wallets)", () => {
    const l = new FillLedger();
    l.add(fill());
    expect(l.add(fill({ orderId: "o2", side: "SELL" })).status).toBe("added");
    expect(l.add(fill({ wallet: W2 })).status).toBe("added");
    expect(l.size).toBe(3);
    expect(l.fills(W).length).toBe(2);
  });

  it("a later source fills in an unknown role and the clientOrderId, in either arrival order", () => {
    const a = new FillLedger();
    a.add(fill({ role: "unknown" }));
    expect(a.add(fill({ role: "maker", clientOrderId: "c1", source: "trades_pull" })).status).toBe("merged");
    const b = new FillLedger();
    b.add(fill({ role: "maker", clientOrderId: "c1", source: "trades_pull" }));
    expect(b.add(fill({ role: "unknown" })).status).toBe("duplicate");
    expect(a.fills()).toEqual(b.fills());
    expect(a.get(W, "t1", "o1")).toMatchObject({ role: "maker", clientOrderId: "c1" });
  });

  it("on conflicting economics the platform's trade list wins and the previous record is returned", () => {
    const l = new FillLedger();
    l.add(fill({ fee: m("0.01") }));
    const r = l.add(fill({ fee: m("0.02"), source: "trades_pull" }));
    expect(r.status).toBe("conflict");
    expect(r.fields).toEqual(["fee"]);
    expect(r.previous?.fee).toBe(m("0.01"));
    expect(l.get(W, "t1", "o1")?.fee).toBe(m("0.02"));
    // A lower-ranked source cannot overwrite it back.
    expect(l.add(fill({ fee: m("0.01") })).fill.fee).toBe(m("0.02"));
    expect(l.counters.conflicts).toBe(2);
  });

  it("advances the pull cursor only from /api/me/trades rows, duplicates included", () => {
    const l = new FillLedger();
    l.add(fill({ tradeId: "s1", ts: 5_000 }));
    expect(l.lastTradeCursor(W)).toBeUndefined();
    expect(l.pullReached(W, 0)).toBe(false);
    l.add(fill({ tradeId: "s1", ts: 4_990, source: "trades_pull" }));
    l.add(fill({ tradeId: "p0", ts: 3_000, source: "trades_pull" }));
    expect(l.lastTradeCursor(W)).toEqual({ ts: 4_990, tradeId: "s1" });
    expect(l.lastTradeCursor(W2)).toBeUndefined();
    expect(l.pullReached(W, 4_990)).toBe(false);
    expect(l.pullReached(W, 4_989)).toBe(true);
    expect(l.pullReached(W, 4_989, 1_000)).toBe(false);
  });

  it("diffAgainst finds missing, extra and mismatched fills, and is empty when equal", () => {
    const l = new FillLedger();
    l.add(fill({ tradeId: "a", role: "unknown" }));
    l.add(fill({ tradeId: "b" }));
    l.add(fill({ tradeId: "c", qty: m("3") }));
    l.add(fill({ tradeId: "old", ts: 10 }));
    l.add(fill({ tradeId: "w2", wallet: W2 }));
    const platform = [
      fill({ tradeId: "a", role: "taker", source: "trades_pull" }),
      fill({ tradeId: "c", qty: m("4"), source: "trades_pull" }),
      fill({ tradeId: "d", source: "trades_pull" }),
    ];
    const d = l.diffAgainst(W, platform, { sinceTs: 500 });
    expect(d.equal).toBe(false);
    expect(d.missing.map((f) => f.tradeId)).toEqual(["d"]);
    expect(d.extra.map((f) => f.tradeId)).toEqual(["b"]);
    expect(d.mismatched.map((x) => [x.theirs.tradeId, x.fields])).toEqual([["c", ["qty"]]]);
    for (const f of platform) l.add(f);
    const again = l.diffAgainst(W, [...platform, fill({ tradeId: "b", source: "trades_pull" })], { sinceTs: 500 });
    expect(again).toEqual({ missing: [], extra: [], mismatched: [], equal: true });
  });

  it("lists an order's fills in canonical order", () => {
    const l = new FillLedger();
    l.add(fill({ tradeId: "z", ts: 2 }));
    l.add(fill({ tradeId: "b", ts: 1 }));
    l.add(fill({ tradeId: "a", ts: 1 }));
    expect(l.fillsForOrder(W, "o1").map((f) => f.tradeId)).toEqual(["a", "b", "z"]);
    expect(l.fillsForOrder(W, "nope")).toEqual([]);
  });
});

describe("compareFills", () => {
  it("orders same-millisecond fills by trade id with digit runs as numbers (execution order of counters)", () => {
    const f = (tradeId: string, orderId = "o1", ts = 1_000) => ({ ts, tradeId, orderId });
    const sorted = [f("t100"), f("t99"), f("t9"), f("t1000"), f("t99", "o10"), f("t99", "o9")].sort(compareFills);
    expect(sorted.map((x) => `${x.tradeId}/${x.orderId}`)).toEqual(["t9/o1", "t99/o1", "t99/o9", "t99/o10", "t100/o1", "t1000/o1"]);
    expect(compareFills(f("t5", "o1", 2_000), f("t100", "o1", 1_000))).toBe(1);
    // A total order: distinct ids never compare equal, even when they differ only in zero padding.
    expect(compareFills(f("t01"), f("t1"))).not.toBe(0);
    expect(Math.sign(compareFills(f("t01"), f("t1")))).toBe(-Math.sign(compareFills(f("t1"), f("t01"))));
  });
});
