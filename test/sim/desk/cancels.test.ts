import { describe, expect, it } from "vitest";
import { cancelDone, cancelManyResult, cancelPending, errorEnvelopeSchema, orderRecord, parseServerFrame } from "../../../src/wire/index.js";
import { codeOf, parses, setup, type Harness } from "./harness.js";

const ARS = "ARS-CHE-ARS";

async function rest(h: Harness, w: number, price = "0.4", qty = "5", symbol = ARS): Promise<string> {
  const { body } = await h.order(w, { symbol, outcome: 0, side: "BUY", price, quantity: qty });
  const r = (await h.call("POST", "/api/orders/place", { body, wallet: w })).body as { orderId: string; status: string };
  expect(r.status).toBe("OPEN");
  return r.orderId;
}

describe("POST /api/orders/cancel", () => {
  it("200 CANCELLED with an order_cancelled frame; a second cancel is 409 not_cancellable", async () => {
    const h = setup();
    const id = await rest(h, 0);
    const r = await h.call("POST", "/api/orders/cancel", { body: { orderId: id } });
    expect(r.status).toBe(200);
    expect(parses(cancelDone, r.body)).toEqual({ orderId: id, status: "CANCELLED", filledQty: "0", remainingQty: "5" });
    expect(h.sim.engine.isLive(id)).toBe(false);
    const frame = h.frames(0).find((f) => f.type === "order_cancelled");
    expect(frame).toMatchObject({ orderId: id, originalQuantity: "5", remainingQty: "5", status: "CANCELLED" });
    expect(parseServerFrame(frame).kind).toBe("frame");
    const again = await h.call("POST", "/api/orders/cancel", { body: { orderId: id } });
    expect(again.status).toBe(409);
    expect(parses(errorEnvelopeSchema, again.body).error.code).toBe("not_cancellable");
  });

  it("404 order_not_found for an unknown id, 403 forbidden for another wallet's order, 400 for a bad body", async () => {
    const h = setup();
    const id = await rest(h, 1);
    expect((await h.call("POST", "/api/orders/cancel", { body: { orderId: "nope" } })).status).toBe(404);
    const r = await h.call("POST", "/api/orders/cancel", { body: { orderId: id } });
    expect(r.status).toBe(403);
    expect(codeOf(r.body)).toBe("forbidden");
    expect(h.sim.engine.isLive(id)).toBe(true);
    const bad = await h.call("POST", "/api/orders/cancel", { body: { id } });
    expect(bad.status).toBe(400);
    expect(codeOf(bad.body)).toBe("invalid_request");
  });

  it("cancel_pending: 202 + Retry-After 5, completes on the clock, repeats are safe and never cancel twice", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/cancel", kind: "cancel_pending", completeAfterMs: 3000, nextCalls: 1 }] });
    const id = await rest(h, 0);
    const r = await h.call("POST", "/api/orders/cancel", { body: { orderId: id } });
    expect(r.status).toBe(202);
    expect(r.headers?.["Retry-After"]).toBe("5");
    const body = parses(cancelPending, r.body);
    expect(body).toMatchObject({ orderId: id, retryAfterSec: 5 });
    expect(body).not.toHaveProperty("remainingQty");
    expect(h.sim.engine.isLive(id)).toBe(true);
    // Repeated while pending: 202 again, still one recorded cancel.
    expect((await h.call("POST", "/api/orders/cancel", { body: { orderId: id } })).status).toBe(202);
    expect(h.sim.desk.cancelTimers.size).toBe(1);
    await h.clock.advance(3000);
    expect(h.sim.engine.isLive(id)).toBe(false);
    for (let i = 0; i < 2; i++) {
      const done = await h.call("POST", "/api/orders/cancel", { body: { orderId: id } });
      expect(done.status).toBe(200);
      expect(parses(cancelDone, done.body).status).toBe("CANCELLED");
    }
    expect(h.frames(0).filter((f) => f.type === "order_cancelled")).toHaveLength(1);
  });

  it("cancel_pending lost to a fill: the final answer is FILLED and the stream says so", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/cancel", kind: "cancel_pending", completeAfterMs: 3000, nextCalls: 1 }] });
    const id = await rest(h, 0, "0.4", "5");
    expect((await h.call("POST", "/api/orders/cancel", { body: { orderId: id } })).status).toBe(202);
    const hit = await h.order(1, { symbol: ARS, outcome: 1, side: "BUY", price: "0.6", quantity: "5" });
    expect((await h.call("POST", "/api/orders/place", { body: hit.body, wallet: 1 })).body).toMatchObject({ status: "FILLED" });
    await h.clock.advance(3000);
    const done = await h.call("POST", "/api/orders/cancel", { body: { orderId: id } });
    expect(parses(cancelDone, done.body)).toMatchObject({ status: "FILLED", filledQty: "5", remainingQty: "0" });
    expect(h.frames(0).find((f) => f.type === "order_cancelled")).toMatchObject({ orderId: id, status: "FILLED", remainingQty: "0" });
    expect(parses(orderRecord, (await h.call("GET", `/api/orders/${id}`)).body).status).toBe("FILLED");
  });
});

describe("cancel-batch and cancel-all", () => {
  it("cancel-batch sorts ids into cancelled and notCancelled with codes", async () => {
    const h = setup();
    const a = await rest(h, 0, "0.40");
    const b = await rest(h, 0, "0.39");
    const theirs = await rest(h, 1, "0.38");
    await h.call("POST", "/api/orders/cancel", { body: { orderId: b } });
    const r = await h.call("POST", "/api/orders/cancel-batch", { body: { orderIds: [a, b, theirs, "ghost", a] } });
    expect(r.status).toBe(200);
    const res = parses(cancelManyResult, r.body);
    expect(res.cancelled).toEqual([a]);
    expect(res.notCancelled.map((x) => [x.orderId, x.code])).toEqual([
      [b, "not_cancellable"],
      [theirs, "forbidden"],
      ["ghost", "order_not_found"],
    ]);
  });

  it("cancel-batch under cancel_pending lists the ids as cancel_pending, then a cancel-batch of exactly those ids finishes", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/cancel-batch", kind: "cancel_pending", completeAfterMs: 1000, nextCalls: 1 }] });
    const ids = [await rest(h, 0, "0.40"), await rest(h, 0, "0.39")];
    const r = parses(cancelManyResult, (await h.call("POST", "/api/orders/cancel-batch", { body: { orderIds: ids } })).body);
    expect(r.cancelled).toEqual([]);
    expect(r.notCancelled.map((x) => x.code)).toEqual(["cancel_pending", "cancel_pending"]);
    await h.clock.advance(1000);
    const done = parses(cancelManyResult, (await h.call("POST", "/api/orders/cancel-batch", { body: { orderIds: ids } })).body);
    expect(done).toEqual({ cancelled: ids, notCancelled: [] });
  });

  it("cancel-all cancels the wallet's live orders, optionally of one market only", async () => {
    const h = setup();
    const a = await rest(h, 0, "0.40");
    const d = await rest(h, 0, "0.20", "1", "ARS-CHE-DRAW");
    const theirs = await rest(h, 1, "0.38");
    const one = parses(cancelManyResult, (await h.call("POST", "/api/orders/cancel-all", { body: { marketId: "ARS-CHE-DRAW" } })).body);
    expect(one).toEqual({ cancelled: [d], notCancelled: [] });
    const all = parses(cancelManyResult, (await h.call("POST", "/api/orders/cancel-all", { body: {} })).body);
    expect(all).toEqual({ cancelled: [a], notCancelled: [] });
    expect(h.sim.engine.isLive(theirs)).toBe(true);
    expect((await h.call("POST", "/api/orders/cancel-all", { body: { marketId: "NOPE" } })).status).toBe(404);
  });
});
