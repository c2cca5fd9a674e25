/**
 * Cancels of one wallet's orders (src/bot/engine/cancel-sender.ts, spec 4.6) over the real client on
 * a scripted transport and a real order tracker: each answer of a single cancel and of a
 * cancel-batch lands in the tracker as the header's table says (done, pending with its
 * Retry-After, refused -> read it, thrown -> rests again), batches are cut at 100, and only the
 * orders the tracker let go to cancelling are sent.
 */
import { describe, expect, it } from "vitest";
import { MAX_CANCEL_BATCH, UNKNOWN_CANCEL_RETRY_MS, endedByRefusal, sendCancels, trackCancelAnswer, type CancelContext } from "../../../src/bot/engine/cancel-sender.js";
import type { EngineEvent } from "../../../src/bot/observer.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import { parseMicros } from "../../../src/core/money.js";
import { T0, WALLET, clientHarness, envelope, json, orderRecord, silentLogger } from "./fakes.js";

const m = parseMicros;

function setup(n = 1) {
  const h = clientHarness();
  const tracker = new OrderTracker(WALLET);
  const events: EngineEvent[] = [];
  const orders = Array.from({ length: n }, (_, i) => {
    const rec = orderRecord({ clientOrderId: `c${i}`, originalQuantity: "10", remainingQty: "10" });
    tracker.adopt(rec, T0, T0);
    return { clientOrderId: `c${i}`, orderId: rec.id };
  });
  const ctx: CancelContext = {
    wallet: WALLET,
    api: h.client.forWallet(WALLET),
    clock: h.clock,
    log: silentLogger(),
    observer: { onEvent: (e) => events.push(e) },
    track: (ev) => tracker.apply(ev),
  };
  const state = (i: number) => tracker.get(`c${i}`)!;
  return { ...h, tracker, events, orders, ctx, state };
}

const cancelled = (events: EngineEvent[]) => events.flatMap((e) => (e.type === "order_cancelled" ? [`${e.clientOrderId}:${e.result}`] : []));

describe("a single cancel", () => {
  it("200 CANCELLED: the order is cancelled, the observer hears it, one request with the order id", async () => {
    const s = setup();
    const id = s.orders[0]!.orderId;
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: id, status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    expect(await sendCancels(s.ctx, s.orders, "MKT")).toBe(1);
    expect(s.transport.requests.map((r) => [r.path, r.body])).toEqual([["/api/orders/cancel", { orderId: id }]]);
    expect(s.state(0).state).toBe("cancelled");
    expect(cancelled(s.events)).toEqual(["c0:CANCELLED"]);
  });

  it("200 FILLED: the fill won the race, the order is filled in full", async () => {
    const s = setup();
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: s.orders[0]!.orderId, status: "FILLED", filledQty: "10", remainingQty: "0" }));
    await sendCancels(s.ctx, s.orders, "MKT");
    expect(s.state(0)).toMatchObject({ state: "filled", filledQty: m("10"), finalConfirmed: true });
    expect(cancelled(s.events)).toEqual(["c0:FILLED"]);
  });

  it("202 cancel_pending: the order waits in cancel_pending, repeated after the answer's Retry-After", async () => {
    const s = setup();
    const id = s.orders[0]!.orderId;
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(202, { status: "cancel_pending", code: "cancel_pending", orderId: id, message: "recorded", retryAfterSec: 7 }, { "retry-after": "7" }));
    await sendCancels(s.ctx, s.orders, "MKT");
    expect(s.state(0)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + 7_000 });
    expect(cancelled(s.events)).toEqual(["c0:pending"]);
  });

  it("a lost answer (5xx without a code) is treated as pending and repeated after a second", async () => {
    const s = setup();
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(502, "bad gateway"));
    await sendCancels(s.ctx, s.orders, "MKT");
    expect(s.state(0)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + UNKNOWN_CANCEL_RETRY_MS });
  });

  it("not_cancellable, order_not_found and forbidden: the order's end is unknown and it is read next", async () => {
    for (const [status, code] of [[409, "not_cancellable"], [404, "order_not_found"], [403, "forbidden"]] as const) {
      const s = setup();
      s.transport.on("POST", /^\/api\/orders\/cancel$/, envelope(status, code));
      await sendCancels(s.ctx, s.orders, "MKT");
      expect(s.state(0).state).toBe("unknown");
      // Not an order_cancelled: nothing says it was cancelled.
      expect(cancelled(s.events)).toEqual([]);
    }
  });

  it("a refusal that says nothing about the order (400) and a thrown request leave the order resting", async () => {
    const s = setup();
    s.transport.on("POST", /^\/api\/orders\/cancel$/, envelope(400, "invalid_request"));
    await sendCancels(s.ctx, s.orders, "MKT");
    expect(s.state(0).state).toBe("open");

    const t = setup();
    // A refused key is thrown by the client: nothing was recorded.
    t.transport.on("POST", /^\/api\/orders\/cancel$/, envelope(401, "api_key_revoked"));
    await sendCancels(t.ctx, t.orders, "MKT");
    expect(t.state(0).state).toBe("open");
    expect(t.state(0).cancelAttempts).toBe(1);
  });
});

describe("which orders are sent", () => {
  it("skips orders without a platform id and orders the tracker does not let go to cancelling", async () => {
    const s = setup(3);
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: s.orders[1]!.orderId, status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    // c0 is already being cancelled by an earlier cycle: a second cancel_requested is not applied.
    s.tracker.apply({ kind: "cancel_requested", clientOrderId: "c0", orderId: s.orders[0]!.orderId, nowMs: T0 });
    const sent = await sendCancels(s.ctx, [s.orders[0]!, s.orders[1]!, { clientOrderId: "c2" }], "MKT");
    expect(sent).toBe(1);
    expect(s.transport.requests.map((r) => r.body)).toEqual([{ orderId: s.orders[1]!.orderId }]);
    expect(s.state(2).state).toBe("open");
  });

  it("nothing to cancel sends nothing", async () => {
    const s = setup(0);
    expect(await sendCancels(s.ctx, [], "MKT")).toBe(0);
    expect(s.transport.requests).toEqual([]);
  });
});

describe("a cancel-batch", () => {
  it("sends one batch; each id takes its own answer: cancelled, pending (Retry-After), unmentioned (1 s), refused", async () => {
    const s = setup(4);
    const [a, b, c, d] = s.orders.map((o) => o.orderId);
    s.transport.on(
      "POST",
      /^\/api\/orders\/cancel-batch$/,
      json(200, { cancelled: [a], notCancelled: [{ orderId: b, code: "cancel_pending", message: "recorded" }, { orderId: d, code: "not_cancellable", message: "filled" }] }, { "retry-after": "3" }),
    );
    expect(await sendCancels(s.ctx, s.orders, "MKT")).toBe(4);
    expect(s.transport.requests.map((r) => [r.path, r.body])).toEqual([["/api/orders/cancel-batch", { orderIds: [a, b, c, d] }]]);
    expect(s.state(0).state).toBe("cancelled");
    expect(s.state(1)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + 3_000 });
    expect(s.state(2)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + UNKNOWN_CANCEL_RETRY_MS });
    expect(s.state(3).state).toBe("unknown");
    expect(cancelled(s.events)).toEqual(["c0:CANCELLED", "c1:pending", "c2:pending"]);
  });

  it("pending ids of an answer without Retry-After wait the spec's 5 s", async () => {
    const s = setup(2);
    const [a, b] = s.orders.map((o) => o.orderId);
    s.transport.on("POST", /^\/api\/orders\/cancel-batch$/, json(200, { cancelled: [], notCancelled: [a, b].map((orderId) => ({ orderId, code: "lock_invariant", message: "" })) }));
    await sendCancels(s.ctx, s.orders, "MKT");
    expect(s.state(0)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + 5_000 });
    expect(s.state(1)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + 5_000 });
  });

  it("a refused batch refuses every id with its code; a batch the client throws on leaves them all resting", async () => {
    const s = setup(2);
    s.transport.on("POST", /^\/api\/orders\/cancel-batch$/, envelope(404, "order_not_found"));
    await sendCancels(s.ctx, s.orders, "MKT");
    expect([s.state(0).state, s.state(1).state]).toEqual(["unknown", "unknown"]);

    const t = setup(2);
    t.transport.on("POST", /^\/api\/orders\/cancel-batch$/, envelope(401, "api_key_expired"));
    await sendCancels(t.ctx, t.orders, "MKT");
    expect([t.state(0).state, t.state(1).state]).toEqual(["open", "open"]);
  });

  it("cuts at 100 ids: 101 orders go as a batch of 100 and a single cancel", async () => {
    const s = setup(MAX_CANCEL_BATCH + 1);
    s.transport.on("POST", /^\/api\/orders\/cancel-batch$/, (r) => json(200, { cancelled: (r.body as { orderIds: string[] }).orderIds, notCancelled: [] }));
    const last = s.orders.at(-1)!.orderId;
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: last, status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    expect(await sendCancels(s.ctx, s.orders, "MKT")).toBe(101);
    expect(s.transport.requests.map((r) => r.path)).toEqual(["/api/orders/cancel-batch", "/api/orders/cancel"]);
    expect((s.transport.requests[0]!.body as { orderIds: string[] }).orderIds).toHaveLength(100);
    expect(s.tracker.get("c100")!.state).toBe("cancelled");
    expect(s.tracker.get("c0")!.state).toBe("cancelled");
  });
});

describe("endedByRefusal", () => {
  it("names the refusals that say the order no longer rests, and only those", () => {
    expect(endedByRefusal("not_cancellable")).toEqual({ kind: "not_cancellable" });
    expect(endedByRefusal("order_not_found")).toEqual({ kind: "not_found" });
    expect(endedByRefusal("forbidden")).toBeUndefined();
    expect(endedByRefusal(undefined)).toBeUndefined();
  });
});

describe("trackCancelAnswer (answers obtained outside the executor)", () => {
  it("a resting order takes the cancel request first, then the answer", () => {
    const s = setup(1);
    const t: string[] = [];
    trackCancelAnswer(s.tracker, (ev) => (t.push(ev.kind), s.tracker.apply(ev)), s.orders[0]!.orderId, { kind: "done", status: "CANCELLED" }, T0 + 5);
    expect(t).toEqual(["cancel_requested", "cancel_result"]);
    expect(s.state(0).state).toBe("cancelled");
  });

  it("an order already being cancelled takes the answer only", () => {
    const s = setup(1);
    s.tracker.apply({ kind: "cancel_requested", clientOrderId: "c0", orderId: s.orders[0]!.orderId, nowMs: T0 });
    const t: string[] = [];
    trackCancelAnswer(s.tracker, (ev) => (t.push(ev.kind), s.tracker.apply(ev)), s.orders[0]!.orderId, { kind: "pending", retryAfterMs: 5_000 }, T0 + 5);
    expect(t).toEqual(["cancel_result"]);
    expect(s.state(0)).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: T0 + 5_005 });
  });

  it("an unknown or terminal order takes nothing", () => {
    const s = setup(1);
    const t: string[] = [];
    const track = (ev: Parameters<CancelContext["track"]>[0]) => (t.push(ev.kind), s.tracker.apply(ev));
    trackCancelAnswer(s.tracker, track, "no-such-order", { kind: "done", status: "CANCELLED" }, T0);
    trackCancelAnswer(s.tracker, track, s.orders[0]!.orderId, { kind: "done", status: "CANCELLED" }, T0);
    t.length = 0;
    trackCancelAnswer(s.tracker, track, s.orders[0]!.orderId, { kind: "done", status: "FILLED" }, T0 + 1);
    expect(t).toEqual([]);
    expect(s.state(0).state).toBe("cancelled");
  });
});
