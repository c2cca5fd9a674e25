/**
 * What the tracker says about its records (src/bot/orders/order-tracker-queries.ts), over records
 * built by hand: public views, the reconciler's live orders, counts, reads due, fill gaps and the
 * comparison with an open-orders walk.
 */
import { describe, expect, it } from "vitest";
import { ORDER_STATES, type OrderState } from "../../../src/bot/orders/order-states.js";
import { newRecord, type Rec } from "../../../src/bot/orders/order-tracker-index.js";
import {
  cancellable,
  diffOpenWalk,
  fillGapsOf,
  liveOrderViews,
  nextReadDueOf,
  readNeedsOf,
  selectViews,
  stateCounts,
  view,
} from "../../../src/bot/orders/order-tracker-queries.js";
import { parseMicros as m } from "../../../src/core/money.js";

const T = 1_000_000;

function rec(id: string, over: Partial<Rec> = {}): Rec {
  const r = newRecord({ kind: "sent", clientOrderId: id, orderHash: `0xhash-${id}`, intent: { marketId: "M", outcome: 0, side: "BUY", price: m("0.4"), size: m("10"), postOnly: true }, nowMs: T });
  return Object.assign(r, over);
}

describe("view and selectViews", () => {
  it("the public copy has no tradeIds, cancelRequested or seq, and is not the record", () => {
    const r = rec("a", { orderId: "o1", state: "open", tradeIds: new Set(["t1"]), cancelRequested: true, seq: 4 });
    const v = view(r);
    expect(v).not.toBe(r);
    for (const k of ["tradeIds", "cancelRequested", "seq"]) expect(k in v).toBe(false);
    expect(v).toMatchObject({ clientOrderId: "a", orderId: "o1", state: "open", price: m("0.4") });
    v.state = "filled";
    expect(r.state).toBe("open");
  });

  it("selectViews keeps the records the predicate picks, in their order", () => {
    const rs = [rec("a", { state: "open" }), rec("b", { state: "filled" }), rec("c", { state: "open" })];
    expect(selectViews(rs, (r) => r.state === "open").map((v) => v.clientOrderId)).toEqual(["a", "c"]);
    expect(selectViews(rs, () => false)).toEqual([]);
  });
});

describe("liveOrderViews", () => {
  it.each<{ state: OrderState; cancelRequested?: boolean; live: string }>([
    { state: "open", live: "open" },
    { state: "partial", live: "partial" },
    { state: "cancel_requested", live: "cancelling" },
    { state: "cancel_pending", live: "cancelling" },
    { state: "sent", live: "pending" },
    { state: "unknown", live: "pending" },
    { state: "unknown", cancelRequested: true, live: "cancelling" },
  ])("$state (cancel sent: $cancelRequested) → $live", ({ state, cancelRequested, live }) => {
    const [lo] = liveOrderViews([rec("a", { state, cancelRequested: cancelRequested ?? false })]);
    expect(lo!.state).toBe(live);
  });

  it("remaining is size less filled; orderId only when known", () => {
    const [withId, withoutId] = liveOrderViews([rec("a", { state: "partial", orderId: "o1", filledQty: m("3.5") }), rec("b")]);
    expect(withId).toEqual({ clientOrderId: "a", orderId: "o1", outcome: 0, side: "BUY", price: m("0.4"), size: m("10"), remaining: m("6.5"), postOnly: true, createdAtMs: T, state: "partial" });
    expect("orderId" in withoutId!).toBe(false);
    expect(withoutId!.remaining).toBe(m("10"));
  });
});

describe("stateCounts", () => {
  it("every state present, counted", () => {
    const c = stateCounts([rec("a", { state: "open" }), rec("b", { state: "open" }), rec("c", { state: "filled" })]);
    expect(Object.keys(c).sort()).toEqual([...ORDER_STATES].sort());
    expect(c.open).toBe(2);
    expect(c.filled).toBe(1);
    expect(Object.values(c).reduce((a, b) => a + b, 0)).toBe(3);
  });
});

describe("cancellable", () => {
  it.each<{ name: string; r: Rec | undefined; now: number; ok: boolean }>([
    { name: "no record", r: undefined, now: T, ok: false },
    { name: "open without an orderId", r: rec("a", { state: "open" }), now: T, ok: false },
    { name: "open", r: rec("a", { state: "open", orderId: "o" }), now: T, ok: true },
    { name: "partial", r: rec("a", { state: "partial", orderId: "o" }), now: T, ok: true },
    { name: "cancel_pending without Retry-After", r: rec("a", { state: "cancel_pending", orderId: "o" }), now: T, ok: true },
    { name: "cancel_pending before its Retry-After", r: rec("a", { state: "cancel_pending", orderId: "o", cancelRetryAtMs: T + 1 }), now: T, ok: false },
    { name: "cancel_pending at its Retry-After", r: rec("a", { state: "cancel_pending", orderId: "o", cancelRetryAtMs: T }), now: T, ok: true },
    { name: "cancel_requested (a cancel in flight)", r: rec("a", { state: "cancel_requested", orderId: "o" }), now: T, ok: false },
    { name: "sent", r: rec("a", { state: "sent", orderId: "o" }), now: T, ok: false },
    { name: "filled", r: rec("a", { state: "filled", orderId: "o" }), now: T, ok: false },
  ])("$name → $ok", ({ r, now, ok }) => {
    expect(cancellable(r, now)).toBe(ok);
  });
});

describe("readNeedsOf", () => {
  it.each<{ name: string; r: Rec; now: number; notRecordedAfterMs?: number; need: Record<string, unknown> | undefined }>([
    { name: "nothing to read", r: rec("a", { state: "open", orderId: "o" }), now: T, need: undefined },
    { name: "a flagged read by id", r: rec("a", { state: "open", orderId: "o", needsRead: "missing_from_walk" }), now: T, need: { reason: "missing_from_walk", via: "id", orderId: "o" } },
    { name: "unknown without an id: a lookup", r: rec("a", { state: "unknown", needsRead: "unknown" }), now: T, need: { reason: "unknown", via: "lookup" } },
    {
      name: "unknown looked up: conclusive after the not-recorded window from the last send",
      r: rec("a", { state: "unknown", needsRead: "unknown", lastSentAtMs: T - 500 }),
      now: T,
      notRecordedAfterMs: 2_000,
      need: { reason: "unknown", via: "lookup", conclusiveAtMs: T + 1_500 },
    },
    { name: "an early 404 waits until nextReadAtMs", r: rec("a", { state: "unknown", needsRead: "unknown", nextReadAtMs: T + 1 }), now: T, need: undefined },
    { name: "... and is due at it", r: rec("a", { state: "unknown", needsRead: "unknown", nextReadAtMs: T }), now: T, need: { reason: "unknown", via: "lookup" } },
    { name: "cancel_pending past its Retry-After: re-cancel", r: rec("a", { state: "cancel_pending", orderId: "o", cancelRetryAtMs: T - 1 }), now: T, need: { reason: "cancel_retry", via: "id", orderId: "o" } },
    { name: "cancel_pending before its Retry-After: nothing yet", r: rec("a", { state: "cancel_pending", orderId: "o", cancelRetryAtMs: T + 1 }), now: T, need: undefined },
    { name: "a flagged reason wins over a cancel retry", r: rec("a", { state: "cancel_pending", orderId: "o", cancelRetryAtMs: T - 1, needsRead: "contradiction" }), now: T, need: { reason: "contradiction", via: "id" } },
    { name: "no conclusive time for a read by id", r: rec("a", { state: "unknown", orderId: "o", needsRead: "unknown" }), now: T, notRecordedAfterMs: 2_000, need: { reason: "unknown", via: "id" } },
  ])("$name", ({ r, now, notRecordedAfterMs, need }) => {
    const got = readNeedsOf([r], now, notRecordedAfterMs);
    if (need === undefined) expect(got).toEqual([]);
    else {
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ clientOrderId: "a", orderHash: "0xhash-a", ...need });
      if (!("conclusiveAtMs" in need)) expect("conclusiveAtMs" in got[0]!).toBe(false);
      if (!("orderId" in need)) expect(got[0]!.orderId).toBe(r.orderId);
    }
  });
});

describe("nextReadDueOf", () => {
  it.each<{ name: string; rs: Rec[]; due: number | undefined }>([
    { name: "nothing waiting", rs: [rec("a", { state: "open" })], due: undefined },
    { name: "the earliest of an early 404 and a Retry-After", rs: [rec("a", { state: "unknown", nextReadAtMs: T + 30 }), rec("b", { state: "cancel_pending", cancelRetryAtMs: T + 20 }), rec("c", { state: "cancel_pending", cancelRetryAtMs: T + 40 })], due: T + 20 },
    { name: "a nextReadAtMs left on a record no longer unknown is not waited for", rs: [rec("a", { state: "open", nextReadAtMs: T + 5 })], due: undefined },
    { name: "a cancelRetryAtMs on a record not cancel_pending is not waited for", rs: [rec("a", { state: "unknown", cancelRetryAtMs: T + 5 })], due: undefined },
  ])("$name", ({ rs, due }) => {
    expect(nextReadDueOf(rs)).toBe(due);
  });
});

describe("fillGapsOf", () => {
  it("orders whose reported fill total is above the trades seen, with the missing quantity", () => {
    const gaps = fillGapsOf([rec("a", { filledQty: m("5"), tradeQty: m("3") }), rec("b", { filledQty: m("5"), tradeQty: m("5") }), rec("c", { filledQty: m("1"), tradeQty: m("2") })]);
    expect(gaps.map((g) => [g.order.clientOrderId, g.missingQty])).toEqual([["a", m("2")]]);
    expect("tradeIds" in gaps[0]!.order).toBe(false);
  });
});

describe("diffOpenWalk", () => {
  const WALK_START = T + 100;
  it("resting orders absent from the walk are missing, terminal ones listed open contradict, untracked ids are foreign", () => {
    const rs = [
      rec("open-listed", { state: "open", orderId: "o1" }),
      rec("open-missing", { state: "open", orderId: "o2" }),
      rec("partial-missing", { state: "partial", orderId: "o3" }),
      rec("cancel-pending-missing", { state: "cancel_pending", orderId: "o4" }),
      rec("cancel-requested-missing", { state: "cancel_requested", orderId: "o5" }),
      rec("filled-listed", { state: "filled", orderId: "o6" }),
      rec("cancelled-unlisted", { state: "cancelled", orderId: "o7" }),
      rec("no-id", { state: "sent" }),
      rec("unknown-unlisted", { state: "unknown", orderId: "o8" }),
      // created after the walk started: the walk may not show it yet
      rec("new-missing", { state: "open", orderId: "o9", createdAtMs: WALK_START }),
      rec("already-flagged", { state: "open", orderId: "o10", needsRead: "final_fill_total" }),
    ];
    const tracked = new Set(rs.flatMap((r) => (r.orderId === undefined ? [] : [r.orderId])));
    const flagged: string[] = [];
    const d = diffOpenWalk(rs, (id) => tracked.has(id), ["o1", "o6", "foreign-1", "foreign-2"], WALK_START, (r) => flagged.push(r.clientOrderId));
    expect(d.missing.map((o) => o.clientOrderId)).toEqual(["open-missing", "partial-missing", "cancel-pending-missing", "cancel-requested-missing", "already-flagged"]);
    expect(d.terminalButOpen.map((o) => o.clientOrderId)).toEqual(["filled-listed"]);
    expect(d.foreign).toEqual(["foreign-1", "foreign-2"]);
    expect(flagged).toEqual(["open-missing", "partial-missing", "cancel-pending-missing", "cancel-requested-missing", "filled-listed", "already-flagged"]);
    const reason = (id: string) => rs.find((r) => r.clientOrderId === id)!.needsRead;
    expect(reason("open-missing")).toBe("missing_from_walk");
    expect(reason("filled-listed")).toBe("contradiction");
    // a reason already set is kept
    expect(reason("already-flagged")).toBe("final_fill_total");
    for (const id of ["open-listed", "cancelled-unlisted", "no-id", "unknown-unlisted", "new-missing"]) expect(reason(id)).toBeUndefined();
  });

  it("an empty walk over no records: nothing", () => {
    expect(diffOpenWalk([], () => false, [], T, () => undefined)).toEqual({ missing: [], foreign: [], terminalButOpen: [] });
  });
});
