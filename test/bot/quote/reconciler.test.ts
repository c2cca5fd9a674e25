import { describe, expect, it } from "vitest";
import type { DesiredQuote, LiveOrder } from "../../../src/bot/quote/quotes.js";
import { reconcile, type ReconcileOptions } from "../../../src/bot/quote/reconciler.js";
import { parseMicros } from "../../../src/core/money.js";

const m = parseMicros;

const NOW = 1_000_000;

function dq(price: string, size = "10", over: Partial<DesiredQuote> = {}): DesiredQuote {
  return { outcome: 0, side: "BUY", price: parseMicros(price), size: parseMicros(size), postOnly: true, ...over };
}

function lo(id: string, price: string, size = "10", over: Partial<LiveOrder> = {}): LiveOrder {
  const s = parseMicros(size);
  return {
    clientOrderId: id,
    orderId: `oid-${id}`,
    outcome: 0,
    side: "BUY",
    price: parseMicros(price),
    size: s,
    remaining: s,
    postOnly: true,
    createdAtMs: NOW - 1_000,
    state: "open",
    ...over,
  };
}

function opts(over: Partial<ReconcileOptions> = {}): ReconcileOptions {
  return {
    priceToleranceTicks: 1,
    sizeTolerance: 0.1,
    maxOrderAgeMs: 60_000,
    nowMs: NOW,
    budget: { cancels: 1000, places: 1000 },
    ...over,
  };
}

const ids = (orders: { clientOrderId: string }[]): string[] => orders.map((o) => o.clientOrderId);

describe("reconcile: keep or replace", () => {
  it("keeps orders within price and size tolerance so queue position survives", () => {
    const live = [lo("a", "0.501", "10.5"), lo("b", "0.45", "10", { side: "SELL", remaining: m("9.2") })];
    const plan = reconcile([dq("0.50"), dq("0.45", "10", { side: "SELL" })], live, opts());
    expect(ids(plan.keep).sort()).toEqual(["a", "b"]);
    expect(plan.cancels).toEqual([]);
    expect(plan.places).toEqual([]);
    expect(plan.cancelBatches).toEqual([]);
    expect(plan.placeBatches).toEqual([]);
  });

  it("never keeps a SELL of held shares larger than its quote (the holdings left): it would oversell", () => {
    const sell = { side: "SELL" as const, reducesInventory: true };
    // The quote was cut to 19.25 (what is held beyond the other sells); the live order is 20.
    const plan = reconcile([dq("0.68", "19.25", sell)], [lo("a", "0.68", "20", { side: "SELL" })], opts());
    expect(ids(plan.cancels)).toEqual(["a"]);
    expect(plan.cancelReasons).toEqual({ a: "size" });
    // Smaller than its quote, within tolerance: kept (it sells less than allowed).
    const kept = reconcile([dq("0.68", "19.25", sell)], [lo("b", "0.68", "18", { side: "SELL" })], opts());
    expect(ids(kept.keep)).toEqual(["b"]);
    // An ordinary SELL (not of held shares) keeps the symmetric tolerance.
    const plain = reconcile([dq("0.68", "19.25", { side: "SELL", reducesInventory: false })], [lo("c", "0.68", "20", { side: "SELL" })], opts());
    expect(ids(plain.keep)).toEqual(["c"]);
  });

  it("replaces an order whose price moved beyond tolerance", () => {
    const plan = reconcile([dq("0.50")], [lo("a", "0.502")], opts());
    expect(ids(plan.cancels)).toEqual(["a"]);
    expect(plan.cancelReasons).toEqual({ a: "price" });
    expect(plan.places).toEqual([dq("0.50")]);
    expect(plan.cancelBatches).toEqual([["oid-a"]]);
    expect(plan.placeBatches).toEqual([[dq("0.50")]]);
  });

  it("replaces a partly filled order once its remaining size is out of tolerance", () => {
    const plan = reconcile([dq("0.50", "10")], [lo("a", "0.50", "10", { remaining: m("8.9"), state: "partial" })], opts());
    expect(plan.cancelReasons).toEqual({ a: "size" });
    expect(plan.places).toHaveLength(1);
  });

  it("replaces an order older than maxOrderAgeMs", () => {
    const old = lo("a", "0.50", "10", { createdAtMs: NOW - 60_001 });
    const plan = reconcile([dq("0.50")], [old], opts());
    expect(plan.cancelReasons).toEqual({ a: "age" });
    expect(plan.places).toHaveLength(1);
    expect(reconcile([dq("0.50")], [{ ...old, createdAtMs: NOW - 60_000 }], opts()).keep).toHaveLength(1);
  });

  it("replaces a taking order when the quote must be post-only, but not the reverse", () => {
    const plan = reconcile([dq("0.50")], [lo("a", "0.50", "10", { postOnly: false })], opts());
    expect(plan.cancelReasons).toEqual({ a: "postOnly" });
    const relaxed = reconcile([dq("0.50", "10", { postOnly: false })], [lo("a", "0.50")], opts());
    expect(ids(relaxed.keep)).toEqual(["a"]);
  });

  it("never keeps an order for the wrong outcome or side", () => {
    const plan = reconcile([dq("0.50")], [lo("a", "0.50", "10", { side: "SELL" }), lo("b", "0.50", "10", { outcome: 1 })], opts());
    expect(plan.keep).toEqual([]);
    expect(ids(plan.cancels).sort()).toEqual(["a", "b"]);
    expect(plan.cancelReasons).toEqual({ a: "surplus", b: "surplus" });
  });

  it("matches greedily by closeness and prefers the older order on a tie", () => {
    const live = [lo("near", "0.500"), lo("far", "0.511"), lo("twin-new", "0.520", "10", { createdAtMs: NOW - 10 }), lo("twin-old", "0.520", "10", { createdAtMs: NOW - 500 })];
    const plan = reconcile([dq("0.501"), dq("0.52"), dq("0.51")], live, opts());
    expect(ids(plan.keep).sort()).toEqual(["far", "near", "twin-old"]);
    expect(ids(plan.cancels)).toEqual(["twin-new"]);
    expect(plan.cancelReasons["twin-new"]).toBe("surplus");
    expect(plan.places).toEqual([]);
  });

  it("cancels everything when nothing is desired (pull)", () => {
    const plan = reconcile([], [lo("a", "0.5"), lo("b", "0.4", "10", { side: "SELL" })], opts());
    expect(ids(plan.cancels).sort()).toEqual(["a", "b"]);
    expect(plan.places).toEqual([]);
  });
});

describe("reconcile: in-flight orders", () => {
  it("a pending order at the desired quote is kept and not placed again", () => {
    const plan = reconcile([dq("0.50")], [lo("p", "0.50", "10", { state: "pending", orderId: undefined })], opts());
    expect(ids(plan.keep)).toEqual(["p"]);
    expect(plan.places).toEqual([]);
    expect(plan.cancels).toEqual([]);
  });

  it("a pending order off the desired price is never cancelled and still blocks its slot", () => {
    const pending = lo("p", "0.45", "10", { state: "pending", orderId: undefined, createdAtMs: 0 });
    const plan = reconcile([dq("0.50")], [pending], opts());
    expect(plan.cancels).toEqual([]);
    expect(plan.places).toEqual([]);
    expect(plan.deferred.places).toEqual([{ quote: dq("0.50"), reason: "pending" }]);
    expect(ids(plan.deferred.pending)).toEqual(["p"]);
  });

  it("an open order with no orderId yet is treated like a pending one", () => {
    const plan = reconcile([dq("0.50")], [lo("x", "0.40", "10", { orderId: undefined })], opts());
    expect(plan.cancels).toEqual([]);
    expect(ids(plan.deferred.pending)).toEqual(["x"]);
    expect(plan.places).toEqual([]);
  });

  it("an order already cancelling is left alone, and its remaining size holds its slot: no second full-size order", () => {
    const plan = reconcile([dq("0.50")], [lo("c", "0.45", "10", { state: "cancelling" })], opts());
    expect(plan.cancels).toEqual([]);
    expect(plan.keep).toEqual([]);
    expect(ids(plan.inFlight)).toEqual(["c"]);
    expect(plan.places).toEqual([]);
    expect(plan.deferred.places).toEqual([{ quote: dq("0.50"), reason: "cancelling" }]);
  });

  it("places once the cancelling order's remaining leaves room for the whole replacement", () => {
    // 7 of the 10 filled while the cancel was pending: 3 remain, a 10 still does not fit in 10.
    const live = [lo("c", "0.45", "10", { state: "cancelling", remaining: m("3") })];
    expect(reconcile([dq("0.50")], live, opts()).deferred.places).toMatchObject([{ reason: "cancelling" }]);
    // A ladder of 10 + 10 with 3 cancelling: the first level fits (13 <= 20), the second waits.
    const plan = reconcile([dq("0.50"), dq("0.49", "10", { level: 1 })], live, opts());
    expect(plan.places).toEqual([dq("0.50")]);
    expect(plan.deferred.places).toEqual([{ quote: dq("0.49", "10", { level: 1 }), reason: "cancelling" }]);
    // Fully filled while cancelling: nothing outstanding, nothing held.
    expect(reconcile([dq("0.50")], [lo("c", "0.45", "10", { state: "cancelling", remaining: 0n })], opts()).places).toEqual([dq("0.50")]);
  });

  it("counts what stays in the slot too, and only holds its own slot", () => {
    const live = [lo("k", "0.50", "10"), lo("c", "0.40", "4", { state: "cancelling" }), lo("s", "0.60", "10", { side: "SELL", state: "cancelling" })];
    const desired = [dq("0.50"), dq("0.48", "6", { level: 1 }), dq("0.55", "10", { outcome: 1 })];
    const plan = reconcile(desired, live, opts());
    expect(ids(plan.keep)).toEqual(["k"]);
    // BUY slot: 10 kept + 4 cancelling + 6 = 20 > 16 wanted: deferred. Outcome 1 has nothing cancelling.
    expect(plan.places).toEqual([dq("0.55", "10", { outcome: 1 })]);
    expect(plan.deferred.places).toEqual([{ quote: dq("0.48", "6", { level: 1 }), reason: "cancelling" }]);
    // A deferral for a cancel does not use the place budget.
    const tight = reconcile(desired, live, opts({ budget: { cancels: 10, places: 1 } }));
    expect(tight.places).toEqual([dq("0.55", "10", { outcome: 1 })]);
  });
});

describe("reconcile: ordering, batches, budget", () => {
  it("orders cancels most dangerous first: unwanted, off-price, then the rest; aggressive prices first", () => {
    const live = [
      lo("age", "0.30", "10", { createdAtMs: 0 }),
      lo("price-low", "0.35"),
      lo("price-high", "0.38"),
      lo("size", "0.40", "10", { remaining: m("1"), state: "partial" }),
      lo("sell-surplus", "0.90", "10", { side: "SELL" }),
    ];
    const plan = reconcile([dq("0.30"), dq("0.40"), dq("0.36"), dq("0.379")], live, opts({ priceToleranceTicks: 0 }));
    expect(ids(plan.cancels)).toEqual(["sell-surplus", "price-high", "price-low", "size", "age"]);
    expect(plan.cancelReasons).toMatchObject({ age: "age", size: "size", "price-low": "price", "price-high": "price", "sell-surplus": "surplus" });
  });

  it("splits cancels and places into batches at the platform limits", () => {
    const live = Array.from({ length: 250 }, (_, i) => lo(`o${String(i).padStart(3, "0")}`, "0.10", "1", { side: "SELL" }));
    const desired = Array.from({ length: 40 }, (_, i) => dq(`${(i + 100) / 1000}`, "1", { level: i }));
    const plan = reconcile(desired, live, opts());
    expect(plan.cancelBatches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(plan.placeBatches.map((b) => b.length)).toEqual([15, 15, 10]);
    expect(plan.cancelBatches.flat()).toEqual(plan.cancels.map((o) => o.orderId));
    expect(plan.placeBatches.flat()).toEqual(plan.places);
    const small = reconcile(desired, live, opts({ maxBatch: { cancel: 7, place: 4 } }));
    expect(small.cancelBatches[0]).toHaveLength(7);
    expect(small.placeBatches.map((b) => b.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
  });

  it("under a tight budget: cancels first, then risk-reducing places, then closest to the mid", () => {
    const desired = [
      dq("0.48", "10", { level: 1 }),
      dq("0.49", "10", { level: 0 }),
      dq("0.53", "10", { side: "SELL", outcome: 0, level: 1, reducesInventory: true }),
      dq("0.47", "10", { outcome: 1, level: 0, reducesInventory: true }),
    ];
    const plan = reconcile(desired, [], opts({ budget: { cancels: 0, places: 3 } }));
    // Both reducing quotes first (level 0 before level 1), then the closest increasing one.
    expect(plan.places.map((q) => [q.outcome, q.side, q.price])).toEqual([
      [1, "BUY", m("0.47")],
      [0, "SELL", m("0.53")],
      [0, "BUY", m("0.49")],
    ]);
    expect(plan.deferred.places).toEqual([{ quote: desired[0], reason: "budget" }]);
  });

  it("uses mids, when given, to rank by distance", () => {
    const desired = [dq("0.40", "1", { level: 0 }), dq("0.60", "1", { side: "SELL", level: 0, reducesInventory: false }), dq("0.48", "1", { level: 1 })];
    const plan = reconcile(desired, [], opts({ budget: { cancels: 0, places: 1 }, mids: { 0: m("0.5") } }));
    expect(plan.places).toEqual([desired[2]]);
  });

  it("never places a replacement whose cancel was deferred beyond the slot's desired count", () => {
    const live = [lo("a", "0.40"), lo("b", "0.41"), lo("s", "0.60", "10", { side: "SELL" })];
    const desired = [dq("0.45"), dq("0.46"), dq("0.55", "10", { side: "SELL" })];
    const plan = reconcile(desired, live, opts({ budget: { cancels: 1, places: 10 } }));
    // One cancel fits: the most aggressive stale bid goes (b at 0.41).
    expect(ids(plan.cancels)).toEqual(["b"]);
    expect(ids(plan.deferred.cancels)).toEqual(["a", "s"]);
    // The BUY slot wants 2, still holds a (deferred): one replacement fits. The SELL slot is full.
    expect(plan.places).toEqual([dq("0.45")]);
    expect(plan.deferred.places).toEqual([
      { quote: dq("0.55", "10", { side: "SELL" }), reason: "slot-full" },
      { quote: dq("0.46"), reason: "slot-full" },
    ]);
  });

  it("a zero budget defers everything and keeps what it can", () => {
    const plan = reconcile([dq("0.50"), dq("0.30")], [lo("k", "0.50"), lo("x", "0.20")], opts({ budget: { cancels: 0, places: 0 } }));
    expect(ids(plan.keep)).toEqual(["k"]);
    expect(plan.cancels).toEqual([]);
    expect(plan.places).toEqual([]);
    expect(ids(plan.deferred.cancels)).toEqual(["x"]);
    expect(plan.deferred.places.map((d) => d.reason)).toEqual(["slot-full"]);
  });

  it("is deterministic and independent of the order of live orders", () => {
    const live = [lo("a", "0.40"), lo("b", "0.50"), lo("c", "0.60", "10", { side: "SELL" }), lo("d", "0.62", "10", { side: "SELL" }), lo("e", "0.41", "3")];
    const desired = [dq("0.50"), dq("0.41"), dq("0.61", "10", { side: "SELL" })];
    const o = opts({ budget: { cancels: 2, places: 1 } });
    const first = reconcile(desired, live, o);
    expect(reconcile(desired, live, o)).toEqual(first);
    expect(reconcile(desired, [...live].reverse(), o)).toEqual(first);
    expect(reconcile(desired, [live[2]!, live[0]!, live[4]!, live[1]!, live[3]!], o)).toEqual(first);
  });
});
