/**
 * Order storage (src/sim/engine/order.ts): slots recycled through a free list with a generation
 * that changes on every reuse, fresh slots zeroed, packed fields (own and book tick, status and end
 * reason) that do not disturb each other, growth that keeps every record, the flag helpers and the
 * code tables, and the plain-object snapshot of an order.
 */
import { describe, expect, it } from "vitest";
import {
  BID,
  ASK,
  END_REASONS,
  F_ASK,
  F_COMPLEMENT,
  F_MARKET,
  F_POST_ONLY,
  F_RESTING,
  F_SELL,
  NIL,
  OrderStore,
  S_CANCELLED,
  S_FREE,
  S_OPEN,
  S_PARTIAL,
  STATUS_NAMES,
  TIF_SHIFT,
  TIFS,
  endReasonCode,
  isGtd,
  orderInfo,
  tifCode,
  type OrderNames,
} from "../../../src/sim/engine/order.js";
import type { EndReason } from "../../../src/sim/engine/types.js";

describe("code tables", () => {
  it("tifCode is the index in TIFS, -1 for anything else", () => {
    expect(TIFS.map(tifCode)).toEqual([0, 1, 2, 3]);
    expect(tifCode("DAY" as never)).toBe(-1);
  });

  it("isGtd reads the time in force from the flags, ignoring the other bits", () => {
    expect(isGtd(1 << TIF_SHIFT)).toBe(true);
    expect(isGtd((1 << TIF_SHIFT) | F_SELL | F_ASK | F_RESTING)).toBe(true);
    expect([0, 2, 3].map((c) => isGtd((c << TIF_SHIFT) | F_POST_ONLY))).toEqual([false, false, false]);
  });

  it("endReasonCode is the index in END_REASONS for every reason; 0 means none", () => {
    const reasons = END_REASONS.filter((r): r is EndReason => r !== undefined);
    expect(reasons).toHaveLength(9);
    for (const r of reasons) expect(END_REASONS[endReasonCode(r)]).toBe(r);
    expect(END_REASONS[0]).toBeUndefined();
  });

  it("status names follow the status codes", () => {
    expect([STATUS_NAMES[S_OPEN], STATUS_NAMES[S_PARTIAL], STATUS_NAMES[S_CANCELLED]]).toEqual(["OPEN", "PARTIAL", "CANCELLED"]);
  });
});

describe("OrderStore slots", () => {
  it("allocates slots in order, fresh: OPEN, unlinked, amounts zero", () => {
    const st = new OrderStore(4);
    const a = st.alloc();
    const b = st.alloc();
    expect([a, b, st.live]).toEqual([0, 1, 2]);
    expect([st.status(a), st.prev(a), st.next(a)]).toEqual([S_OPEN, NIL, NIL]);
    expect([st.quantity(a), st.remaining(a), st.filled(a), st.feesPaid(a), st.cashAcc(a), st.cashDone(a), st.lockCash(a), st.lockFee(a)]).toEqual([0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n]);
  });

  it("a released slot is reused next with a new generation, its amounts and links cleared and its id dropped", () => {
    const st = new OrderStore(4);
    const s = st.alloc();
    st.ids[s] = "o1";
    st.setQuantity(s, 5_000_000n);
    st.setLockFee(s, 7n);
    st.setPrev(s, 3);
    st.setNext(s, 2);
    const gen0 = st.gen(s);
    st.release(s);
    expect([st.status(s), st.ids[s], st.live, st.gen(s)]).toEqual([S_FREE, undefined, 0, gen0 + 1]);
    const again = st.alloc();
    expect(again).toBe(s);
    expect([st.gen(again), st.quantity(again), st.lockFee(again), st.prev(again), st.next(again), st.status(again)]).toEqual([gen0 + 1, 0n, 0n, NIL, NIL, S_OPEN]);
  });

  it("recycles the most recently released slot first", () => {
    const st = new OrderStore(8);
    const [a, b, c] = [st.alloc(), st.alloc(), st.alloc()];
    st.release(a);
    st.release(c);
    expect(st.alloc()).toBe(c);
    expect(st.alloc()).toBe(a);
    expect(st.alloc()).toBe(3);
    expect(b).toBe(1);
  });

  it("grows past its capacity keeping every record's fields", () => {
    const st = new OrderStore(2);
    const slots: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = st.alloc();
      st.ids[s] = `o${i}`;
      st.setQuantity(s, BigInt(i + 1) * 1_000_000n);
      st.setTicks(s, 100 + i, 900 - i);
      st.setCreatedAt(s, 1_000 + i);
      st.setAccount(s, 10 + i);
      slots.push(s);
    }
    expect(st.cap).toBe(8);
    for (const [i, s] of slots.entries()) {
      expect([st.ids[s], st.quantity(s), st.tick(s), st.bookTick(s), st.createdAt(s), st.account(s)]).toEqual([`o${i}`, BigInt(i + 1) * 1_000_000n, 100 + i, 900 - i, 1_000 + i, 10 + i]);
    }
  });
});

describe("OrderStore packed fields", () => {
  it("own tick and book tick share a word without clobbering each other (1..999)", () => {
    const st = new OrderStore(2);
    const s = st.alloc();
    st.setTicks(s, 999, 1);
    expect([st.tick(s), st.bookTick(s)]).toEqual([999, 1]);
    st.setTicks(s, 400, 600);
    expect([st.tick(s), st.bookTick(s)]).toEqual([400, 600]);
  });

  it("status and end reason share a word without clobbering each other", () => {
    const st = new OrderStore(2);
    const s = st.alloc();
    st.setEndReason(s, endReasonCode("market_halted"));
    st.setStatus(s, S_CANCELLED);
    expect([st.status(s), END_REASONS[st.endReason(s)]]).toEqual([S_CANCELLED, "market_halted"]);
    st.setStatus(s, S_PARTIAL);
    expect(END_REASONS[st.endReason(s)]).toBe("market_halted");
    st.setEndReason(s, endReasonCode("filled"));
    expect(st.status(s)).toBe(S_PARTIAL);
  });

  it("a released slot reads as free and not live, whatever it held", () => {
    const st = new OrderStore(2);
    const s = st.alloc();
    st.setEndReason(s, endReasonCode("expired"));
    st.release(s);
    expect(st.status(s)).toBe(S_FREE);
    expect(st.isLive(s)).toBe(false);
  });

  it("flag helpers read side, book side, resting and time in force; liveness follows status", () => {
    const st = new OrderStore(2);
    const s = st.alloc();
    st.setFlags(s, F_SELL | F_ASK | F_RESTING | (3 << TIF_SHIFT));
    expect([st.isSell(s), st.bookSide(s), st.isResting(s), st.tif(s)]).toEqual([true, ASK, true, "FOK"]);
    st.setFlags(s, 2 << TIF_SHIFT);
    expect([st.isSell(s), st.bookSide(s), st.isResting(s), st.tif(s)]).toEqual([false, BID, false, "IOC"]);
    expect(st.isLive(s)).toBe(true);
    st.setStatus(s, S_PARTIAL);
    expect(st.isLive(s)).toBe(true);
    st.setStatus(s, S_CANCELLED);
    expect(st.isLive(s)).toBe(false);
  });
});

describe("orderInfo", () => {
  const names: OrderNames = {
    wallet: (i) => `wallet-${i}`,
    marketId: (i) => `market-${i}`,
    tokenId: (m, o) => `tok-${m}-${o}`,
  };

  it("copies the public fields, names resolved, flags decoded, the given price", () => {
    const st = new OrderStore(2);
    const s = st.alloc();
    st.ids[s] = "o77";
    st.setAccount(s, 4);
    st.setMarket(s, 2);
    st.setOutcome(s, 1);
    st.setFlags(s, F_SELL | F_COMPLEMENT | F_POST_ONLY | (1 << TIF_SHIFT));
    st.setExpiration(s, 1_780_000_000);
    st.setQuantity(s, 10_000_000n);
    st.setFilled(s, 4_000_000n);
    st.setRemaining(s, 6_000_000n);
    st.setFeesPaid(s, 0n);
    st.setStatus(s, S_PARTIAL);
    st.setCreatedAt(s, 1_000);
    st.setUpdatedAt(s, 2_000);
    expect(orderInfo(st, s, names, 350_000n)).toEqual({
      id: "o77",
      wallet: "wallet-4",
      marketId: "market-2",
      outcome: 1,
      tokenId: "tok-2-1",
      side: "SELL",
      type: "limit",
      timeInForce: "GTD",
      postOnly: true,
      price: 350_000n,
      expiration: 1_780_000_000,
      quantity: 10_000_000n,
      filledQty: 4_000_000n,
      remainingQty: 6_000_000n,
      status: "PARTIAL",
      feesPaid: 0n,
      createdAtMs: 1_000,
      updatedAtMs: 2_000,
      endReason: undefined,
    });
  });

  it("a market order that ended shows its type and end reason, and is detached from the store", () => {
    const st = new OrderStore(2);
    const s = st.alloc();
    st.ids[s] = "o1";
    st.setFlags(s, F_MARKET | (2 << TIF_SHIFT));
    st.setStatus(s, S_CANCELLED);
    st.setEndReason(s, endReasonCode("ioc_remainder"));
    const info = orderInfo(st, s, names, 990_000n);
    expect([info.side, info.type, info.timeInForce, info.postOnly, info.status, info.endReason]).toEqual(["BUY", "market", "IOC", false, "CANCELLED", "ioc_remainder"]);
    st.setStatus(s, S_OPEN);
    expect(info.status).toBe("CANCELLED");
  });
});
