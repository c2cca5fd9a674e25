import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, DAVE, fixture, u } from "./helpers.js";

const nowSecs = (f: ReturnType<typeof fixture>) => Math.floor(f.clock.now() / 1000);

describe("post-only", () => {
  it("is refused with post_only_would_cross when it would take, and rests otherwise", () => {
    const f = fixture();
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.50"), quantity: u("1") });
    const cashBefore = f.engine.balance(BOB);
    // BUY NO at 0.50 is a YES ask at 0.50: it would cross the 0.50 bid.
    expect(f.place(BOB, { outcome: 1, side: "BUY", price: u("0.50"), quantity: u("1"), postOnly: true })).toMatchObject({
      status: "REJECTED", code: "post_only_would_cross", trades: [],
    });
    expect(f.engine.balance(BOB)).toEqual(cashBefore);
    expect(f.place(BOB, { outcome: 1, side: "BUY", price: u("0.49"), quantity: u("1"), postOnly: true }).status).toBe("OPEN");
    f.assertConsistent();
  });

  it("a post-only-only market (PRE_MARKET) refuses every other order, and post-only cannot be IOC/FOK", () => {
    const f = fixture();
    f.engine.setPostOnlyOnly("M", true);
    expect(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1") }).code).toBe("market_not_open");
    expect(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1"), postOnly: true }).status).toBe("OPEN");
    expect(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1"), postOnly: true, timeInForce: "IOC" }).code)
      .toBe("invalid_tif");
    f.engine.setPostOnlyOnly("M", false);
    expect(f.place(BOB, { outcome: 1, side: "BUY", price: u("0.5"), quantity: u("1") }).status).toBe("FILLED");
  });
});

describe("IOC and FOK", () => {
  function withAsks() {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("2") });
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.42"), quantity: u("3") });
    return f;
  }

  it("IOC fills what crosses and cancels the rest, releasing its lock", () => {
    const f = withAsks();
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.41"), quantity: u("5"), timeInForce: "IOC" });
    expect(r).toMatchObject({ status: "CANCELLED", endReason: "ioc_remainder", filledQty: u("2"), remainingQty: u("3") });
    expect([f.locked(BOB), f.cash(BOB)]).toEqual([0n, u("1000") - u("0.8")]);
    expect(f.engine.openOrders(BOB)).toEqual([]);
    f.assertConsistent();
  });

  it("a market order is IOC by default and cannot be GTC", () => {
    const f = withAsks();
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.99"), quantity: u("10"), type: "market" });
    expect(r).toMatchObject({ status: "CANCELLED", filledQty: u("5"), remainingQty: u("5") });
    expect(r.trades.map((t) => t.price)).toEqual([u("0.40"), u("0.42")]);
    expect(f.place(BOB, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1"), type: "market", timeInForce: "GTC" }).code)
      .toBe("invalid_tif");
  });

  it("FOK fills completely across levels or does nothing at all", () => {
    const f = withAsks();
    const before = f.engine.book("M", 0);
    const kill = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.42"), quantity: u("5.000001"), timeInForce: "FOK" });
    expect(kill).toMatchObject({ status: "CANCELLED", endReason: "fok_unfillable", filledQty: 0n, trades: [] });
    expect(f.engine.book("M", 0)).toEqual(before);
    expect(f.locked(BOB)).toBe(0n);
    const fill = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.42"), quantity: u("5"), timeInForce: "FOK" });
    expect(fill).toMatchObject({ status: "FILLED", filledQty: u("5") });
    expect(f.place(BOB, { outcome: 0, side: "BUY", price: u("0.42"), quantity: u("1"), timeInForce: "FOK" }).endReason)
      .toBe("fok_unfillable");
    f.assertConsistent();
  });

  it("FOK counts only liquidity before the wallet's own order (self-trade rule)", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.engine.split(BOB, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("1") });
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("1") });
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.41"), quantity: u("5") });
    expect(f.place(BOB, { outcome: 0, side: "BUY", price: u("0.41"), quantity: u("2"), timeInForce: "FOK" }).endReason)
      .toBe("fok_unfillable");
    expect(f.place(BOB, { outcome: 0, side: "BUY", price: u("0.41"), quantity: u("1"), timeInForce: "FOK" }).status).toBe("FILLED");
  });

  it("FOK is exact to the micro when the wallet has other live orders (the order-by-order walk)", () => {
    const f = withAsks();
    f.place(BOB, { outcome: 0, side: "BUY", price: u("0.10"), quantity: u("1") }); // BOB now has a live order
    expect(f.place(BOB, { outcome: 0, side: "BUY", price: u("0.42"), quantity: u("5") + 1n, timeInForce: "FOK" }).endReason)
      .toBe("fok_unfillable");
    expect(f.place(BOB, { outcome: 0, side: "BUY", price: u("0.42"), quantity: u("5"), timeInForce: "FOK" }).status).toBe("FILLED");
    f.assertConsistent();
  });
});

describe("GTD expiry", () => {
  it("expires due orders, reports them and releases their locks; a past expiration is refused", () => {
    const f = fixture();
    const t = nowSecs(f);
    expect(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1"), timeInForce: "GTD", expiration: t }).code)
      .toBe("expired");
    expect(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1"), timeInForce: "GTD" }).code).toBe("invalid_tif");
    const a = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("2"), timeInForce: "GTD", expiration: t + 60 });
    const b = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("1"), timeInForce: "GTD", expiration: t + 30 });
    const c = f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("1"), timeInForce: "GTD", expiration: t + 30 });
    f.engine.cancel(c.orderId);
    expect(f.engine.expireDue(f.clock.now() + 29_999)).toEqual([]);
    const first = f.engine.expireDue(f.clock.now() + 30_000);
    expect(first.map((o) => [o.id, o.status, o.endReason])).toEqual([[b.orderId, "EXPIRED", "expired"]]);
    expect(f.locked(BOB)).toBe(0n);
    expect(f.engine.getOrder(a.orderId)?.status).toBe("OPEN");
    const ended = f.events.filter((e) => e.type === "ended" && e.status === "EXPIRED");
    expect(ended).toHaveLength(1);
    f.assertConsistent();
  });

  it("an order past its expiration never trades: placement expires due orders first", async () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("5"));
    const t = nowSecs(f);
    const a = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("1"), timeInForce: "GTD", expiration: t + 10 });
    await f.clock.advance(10_000);
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1") });
    expect(r).toMatchObject({ status: "OPEN", trades: [] });
    expect(f.engine.getOrder(a.orderId)).toBeUndefined();
    expect(f.engine.positions(ALICE, "M")[0]).toMatchObject({ locked: 0n });
    f.assertConsistent();
  });

  it("a partly filled GTD keeps its expiration and many expirations come out in time order", () => {
    const f = fixture({ deposit: "10000" });
    const t = nowSecs(f);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const exp = t + 1 + ((i * 37) % 100);
      ids.push(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.1"), quantity: u("1"), timeInForce: "GTD", expiration: exp }).orderId);
    }
    for (let i = 0; i < 150; i++) f.engine.cancel(ids[i]!);
    const out = f.engine.expireDue(f.clock.now() + 200_000);
    expect(out).toHaveLength(50);
    const exps = out.map((o) => o.expiration);
    expect(exps).toEqual([...exps].sort((x, y) => x - y));
    f.assertConsistent();
  });
});

describe("self-trade rule: cancel the incoming remainder", () => {
  it("stops at the wallet's own resting order, cancels the taker's remainder and leaves the resting order untouched", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.engine.split(BOB, "M", u("10"));
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("1") });
    const own = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.41"), quantity: u("2") });
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.42"), quantity: u("2") });
    const r = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("4") });
    expect(r).toMatchObject({ status: "CANCELLED", endReason: "self_trade", filledQty: u("1"), remainingQty: u("3") });
    expect(f.engine.getOrder(own.orderId)).toMatchObject({ status: "OPEN", remainingQty: u("2") });
    expect(f.engine.book("M", 0).bids).toEqual([]);
    expect(f.locked(ALICE)).toBe(0n);
    f.assertConsistent();
  });

  it("applies across YES and NO of the same wallet (a NO buy would mint against the wallet's own YES bid)", () => {
    const f = fixture();
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.60"), quantity: u("1") });
    const r = f.place(ALICE, { outcome: 1, side: "BUY", price: u("0.45"), quantity: u("1") });
    expect(r).toMatchObject({ status: "CANCELLED", endReason: "self_trade", filledQty: 0n });
    expect(f.engine.ledger.tradeLog.count).toBe(0);
  });
});

describe("validation", () => {
  it("refuses bad outcomes, prices, quantities, unknown or closed markets and duplicate live ids", () => {
    const f = fixture();
    const base = { side: "BUY" as const, price: u("0.5"), quantity: u("1") };
    expect(f.place(ALICE, { ...base, outcome: 2 }).code).toBe("invalid_outcome");
    expect(f.place(ALICE, { ...base, outcome: -1 }).code).toBe("invalid_outcome");
    expect(f.place(ALICE, { ...base, outcome: 0, price: u("0.5005") }).code).toBe("invalid_amounts");
    expect(f.place(ALICE, { ...base, outcome: 0, price: u("1") }).code).toBe("invalid_amounts");
    expect(f.place(ALICE, { ...base, outcome: 0, price: 0n }).code).toBe("invalid_amounts");
    expect(f.place(ALICE, { ...base, outcome: 0, quantity: 0n }).code).toBe("invalid_amounts");
    expect(f.place(ALICE, { ...base, outcome: 0, quantity: u("1000000.000001") }).code).toBe("invalid_amounts");
    expect(f.place(ALICE, { ...base, outcome: 0, marketId: "X" }).code).toBe("market_not_found");
    f.place(ALICE, { ...base, outcome: 0, orderId: "dup" });
    expect(f.place(BOB, { ...base, outcome: 0, orderId: "dup" }).code).toBe("duplicate_order_id");
    f.engine.setHalted("M", true);
    expect(f.place(ALICE, { ...base, outcome: 0 }).code).toBe("market_not_open");
    f.engine.setHalted("M", false);
    expect(f.place(ALICE, { ...base, outcome: 0 }).status).toBe("OPEN");
    const rejected = f.events.filter((e) => e.type === "rejected");
    expect(rejected).toHaveLength(10);
    f.assertConsistent();
  });
});

describe("events", () => {
  it("reports accepted, fill, ended and rested in order, with both parties' states after each fill", () => {
    const f = fixture({ feeRateBps: 100 });
    const maker = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("3"), orderId: "m1" });
    f.events.length = 0;
    const r = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.5"), quantity: u("5"), orderId: "t1" });
    expect(r.status).toBe("PARTIAL");
    expect(f.events.map((e) => e.type)).toEqual(["accepted", "fill", "ended", "rested"]);
    const [accepted, fill, ended, rested] = f.events;
    expect(accepted).toMatchObject({ order: { id: "t1", status: "OPEN", remainingQty: u("5"), quantity: u("5") } });
    expect(fill).toMatchObject({
      trade: { takerOrderId: "t1", makerOrderId: maker.orderId, quantity: u("3"), fee: u("0.0075") },
      taker: { status: "PARTIAL", filledQty: u("3"), remainingQty: u("2"), feesPaid: u("0.0075") },
      maker: { status: "FILLED", filledQty: u("3"), remainingQty: 0n },
    });
    expect(ended).toMatchObject({ status: "FILLED", reason: "filled", order: { id: "m1" } });
    expect(rested).toMatchObject({ order: { id: "t1", status: "PARTIAL", remainingQty: u("2"), price: u("0.5"), outcome: 1 } });
    const cancel = f.engine.cancel("t1");
    expect(cancel).toMatchObject({ ok: true, quantity: u("5"), filledQty: u("3"), remainingQty: u("2") });
    expect(f.events.at(-1)).toMatchObject({ type: "ended", status: "CANCELLED", reason: "user_cancel" });
  });

  it("trade rows carry EIP-55 wallets and a NO party sees its own price", () => {
    const f = fixture();
    f.place("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd", { outcome: 0, side: "BUY", price: u("0.3"), quantity: u("1") });
    f.engine.deposit("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd", u("1"));
    f.place("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd", { outcome: 0, side: "BUY", price: u("0.3"), quantity: u("1") });
    const r = f.place(DAVE, { outcome: 1, side: "BUY", price: u("0.7"), quantity: u("1") });
    const t = r.trades[0]!;
    expect(t.makerWallet).toBe("0xABcdEFABcdEFabcdEfAbCdefabcdeFABcDEFabCD");
    expect(t.takerWallet).toBe("0x4444444444444444444444444444444444444444");
    expect([t.price, t.makerPrice]).toEqual([u("0.7"), u("0.3")]);
    expect(f.engine.ledger.tradesOf(DAVE)).toEqual([t]);
  });
});
