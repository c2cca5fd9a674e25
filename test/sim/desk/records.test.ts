/**
 * The desk's order records (src/sim/desk/records.ts): the lookups by id, by (wallet, clientOrderId)
 * and by (wallet, orderHash in any case), live orders following the engine's updates, and the two
 * pages the order reads serve: open orders and history, newest first, strictly below a cursor (a
 * key or a legacy time), filtered, with a next key only when more rows follow. Orders are built by
 * hand: the records do not look inside the engine.
 */
import { describe, expect, it } from "vitest";
import type { Cursor } from "../../../src/sim/desk/cursor.js";
import { OrderRecords, TERMINAL, keyOf, orderJson, type DeskOrder } from "../../../src/sim/desk/records.js";
import type { OrderInfo } from "../../../src/sim/engine/index.js";

const A = "0x" + "aa".repeat(20);
const B = "0x" + "bb".repeat(20);
const T0 = Date.UTC(2026, 5, 1, 12);

let n = 0;
function order(over: Partial<DeskOrder> = {}): DeskOrder {
  n += 1;
  return {
    id: `o${n}`,
    wallet: A,
    clientOrderId: null,
    orderHash: `0x${n.toString(16).padStart(64, "0")}`,
    marketId: "MKT",
    tokenId: "11",
    outcome: 0,
    side: "BUY",
    type: "limit",
    timeInForce: "GTC",
    postOnly: true,
    price: 400_000n,
    quantity: 10_000_000n,
    expiration: "0",
    createdAtMs: T0 + n,
    filledQty: 0n,
    remainingQty: 10_000_000n,
    status: "OPEN",
    updatedAtMs: T0 + n,
    feesPaid: 0n,
    endReason: undefined,
    trades: [],
    placement: undefined,
    cancel: undefined,
    ...over,
  };
}

/** The engine's snapshot of an order (its statuses never include PENDING). */
function info(o: DeskOrder, over: Partial<OrderInfo> & Pick<OrderInfo, "status">): OrderInfo {
  return {
    id: o.id, wallet: o.wallet, marketId: o.marketId, outcome: o.outcome, tokenId: o.tokenId, side: o.side, type: o.type, timeInForce: o.timeInForce,
    postOnly: o.postOnly, price: o.price, expiration: 0, quantity: o.quantity, filledQty: o.filledQty, remainingQty: o.remainingQty,
    feesPaid: 0n, createdAtMs: o.createdAtMs, updatedAtMs: o.updatedAtMs, endReason: undefined, ...over,
  };
}

const ids = (os: readonly DeskOrder[]) => os.map((o) => o.id);
const at = (o: DeskOrder): Cursor => ({ kind: "key", key: keyOf(o) });

describe("lookups", () => {
  it("by id, by the wallet's clientOrderId, by the wallet's orderHash in any case; never across wallets", () => {
    const r = new OrderRecords();
    const a = order({ clientOrderId: "c-1", orderHash: "0x" + "ab".repeat(32) });
    const b = order({ wallet: B, clientOrderId: "c-1" });
    r.add(a);
    r.add(b);
    expect(r.size).toBe(2);
    expect(r.get(a.id)).toBe(a);
    expect(r.byClientOrderId(A, "c-1")).toBe(a);
    expect(r.byClientOrderId(B, "c-1")).toBe(b);
    expect(r.byOrderHash(A, "0x" + "AB".repeat(32))).toBe(a);
    expect(r.byOrderHash(B, a.orderHash)).toBeUndefined();
    expect(r.byClientOrderId(A, "nope")).toBeUndefined();
  });

  it("refuses an id recorded twice", () => {
    const r = new OrderRecords();
    const a = order();
    r.add(a);
    expect(() => r.add({ ...a })).toThrow(/already recorded/);
  });
});

describe("live orders", () => {
  it("an order added terminal is never live; an update to a terminal status, or a reject, ends it", () => {
    const r = new OrderRecords();
    const open = order();
    const partial = order({ status: "PARTIAL" });
    const rejected = order({ status: "REJECTED", remainingQty: 0n });
    const other = order();
    for (const o of [open, partial, rejected, other]) r.add(o);
    expect(ids(r.liveOf(A))).toEqual([open.id, partial.id, other.id]);
    r.update(partial, info(partial, { status: "FILLED", filledQty: 10_000_000n, remainingQty: 0n, updatedAtMs: T0 + 100, feesPaid: 5n, endReason: "filled" }));
    expect(partial).toMatchObject({ status: "FILLED", filledQty: 10_000_000n, remainingQty: 0n, updatedAtMs: T0 + 100, feesPaid: 5n, endReason: "filled" });
    r.markRejected(other, T0 + 200);
    expect(other).toMatchObject({ status: "REJECTED", remainingQty: 0n, updatedAtMs: T0 + 200 });
    expect(ids(r.liveOf(A))).toEqual([open.id]);
    expect(r.liveOf(B)).toEqual([]);
    // Still readable by id after ending.
    expect(r.get(partial.id)?.status).toBe("FILLED");
  });

  it("TERMINAL is the four final statuses", () => {
    expect([...TERMINAL].sort()).toEqual(["CANCELLED", "EXPIRED", "FILLED", "REJECTED"]);
  });
});

describe("openPage", () => {
  it("lists live orders newest first, filtered, cut at the limit with the key of the last row", () => {
    const r = new OrderRecords();
    const os = [order(), order({ side: "SELL" }), order({ marketId: "OTHER" }), order(), order({ status: "CANCELLED" })];
    for (const o of os) r.add(o);
    const p = r.openPage(A, {}, undefined, 2);
    expect(ids(p.orders)).toEqual([os[3]!.id, os[2]!.id]);
    expect(p.next).toEqual(keyOf(os[2]!));
    const rest = r.openPage(A, {}, { kind: "key", key: p.next! }, 2);
    expect(ids(rest.orders)).toEqual([os[1]!.id, os[0]!.id]);
    expect(rest.next).toBeNull();
    expect(ids(r.openPage(A, { side: "SELL" }, undefined, 10).orders)).toEqual([os[1]!.id]);
    expect(ids(r.openPage(A, { marketId: "MKT", side: "BUY" }, undefined, 10).orders)).toEqual([os[3]!.id, os[0]!.id]);
  });

  it("exactly limit rows left: no next key", () => {
    const r = new OrderRecords();
    r.add(order());
    r.add(order());
    expect(r.openPage(A, {}, undefined, 2).next).toBeNull();
  });

  it("orders created in the same millisecond are ordered by id length then id (o9 before o10)", () => {
    const r = new OrderRecords();
    const nine = order({ id: "o9", createdAtMs: T0 });
    const ten = order({ id: "o10", createdAtMs: T0 });
    r.add(ten);
    r.add(nine);
    expect(ids(r.openPage(A, {}, undefined, 10).orders)).toEqual(["o10", "o9"]);
    expect(ids(r.openPage(A, {}, at(ten), 10).orders)).toEqual(["o9"]);
  });
});

describe("historyPage", () => {
  it("lists every recorded order newest first, ended ones too, filtered by status, paged strictly below the cursor", () => {
    const r = new OrderRecords();
    const os = Array.from({ length: 7 }, (_, i) => order({ status: i % 3 === 0 ? "CANCELLED" : "OPEN" }));
    for (const o of os) r.add(o);
    r.add(order({ wallet: B }));
    const first = r.historyPage(A, {}, undefined, 3);
    expect(ids(first.orders)).toEqual([os[6]!.id, os[5]!.id, os[4]!.id]);
    expect(first.next).toEqual(keyOf(os[4]!));
    const second = r.historyPage(A, {}, { kind: "key", key: first.next! }, 3);
    expect(ids(second.orders)).toEqual([os[3]!.id, os[2]!.id, os[1]!.id]);
    const third = r.historyPage(A, {}, { kind: "key", key: second.next! }, 3);
    expect(ids(third.orders)).toEqual([os[0]!.id]);
    expect(third.next).toBeNull();
    expect(ids(r.historyPage(A, { status: "CANCELLED" }, undefined, 10).orders)).toEqual([os[6]!.id, os[3]!.id, os[0]!.id]);
  });

  it("a legacy time cursor lists orders created strictly before it", () => {
    const r = new OrderRecords();
    const os = [order({ createdAtMs: T0 + 10 }), order({ createdAtMs: T0 + 20 }), order({ createdAtMs: T0 + 30 })];
    for (const o of os) r.add(o);
    expect(ids(r.historyPage(A, {}, { kind: "time", beforeMs: T0 + 30 }, 10).orders)).toEqual([os[1]!.id, os[0]!.id]);
    expect(ids(r.openPage(A, {}, { kind: "time", beforeMs: T0 + 20 }, 10).orders)).toEqual([os[0]!.id]);
  });

  it("a cursor below every order, or a wallet without orders, gives an empty page", () => {
    const r = new OrderRecords();
    const o = order();
    r.add(o);
    expect(r.historyPage(A, {}, { kind: "key", key: { ms: 0, id: "o0" } }, 10)).toEqual({ orders: [], next: null });
    expect(r.historyPage(B, {}, undefined, 10)).toEqual({ orders: [], next: null });
  });

  it("matches a brute-force listing for every cursor position (binary search start)", () => {
    const r = new OrderRecords();
    const os = Array.from({ length: 25 }, (_, i) => order({ createdAtMs: T0 + Math.floor(i / 3) }));
    for (const o of os) r.add(o);
    const newestFirst = [...os].reverse();
    for (let c = 0; c < os.length; c++) {
      const want = newestFirst.slice(newestFirst.indexOf(os[c]!) + 1).slice(0, 4);
      expect(ids(r.historyPage(A, {}, at(os[c]!), 4).orders)).toEqual(ids(want));
    }
  });
});

describe("orderJson", () => {
  it("writes amounts as decimal strings and times as ISO, with the wallet as walletAddress", () => {
    const o = order({ id: "o-json", clientOrderId: "c-9", price: 333_000n, quantity: 1_000_001n, filledQty: 1n, remainingQty: 1_000_000n, status: "PARTIAL", createdAtMs: T0, updatedAtMs: T0 + 1_500 });
    expect(orderJson(o)).toEqual({
      id: "o-json",
      clientOrderId: "c-9",
      orderHash: o.orderHash,
      walletAddress: A,
      marketId: "MKT",
      tokenId: "11",
      outcome: 0,
      side: "BUY",
      type: "limit",
      timeInForce: "GTC",
      postOnly: true,
      price: "0.333",
      originalQuantity: "1.000001",
      filledQty: "0.000001",
      remainingQty: "1",
      status: "PARTIAL",
      expiration: "0",
      createdAt: "2026-06-01T12:00:00.000Z",
      updatedAt: "2026-06-01T12:00:01.500Z",
    });
  });
});
