/**
 * Spec 4.6 cancels (200 / 202 cancel_pending / 404 / 403 / 409), open orders and history (filters,
 * undefined parameters, limit and cursor rules), order reads, 3.3 order statuses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boot, expectEnvelope, specOnlyBody, type Conformance, type Json } from "./harness.js";

let c: Conformance;
beforeAll(async () => {
  c = await boot();
});
afterAll(async () => {
  await c.close();
});
beforeEach(async () => {
  await c.advance(1_000);
});

async function rest(w: number, spec: { symbol: string; outcome: number; side: "BUY" | "SELL"; price: string; quantity?: string; type?: "limit" | "market"; clientOrderId?: string }): Promise<string> {
  const { body } = await c.order(w, { quantity: "1", ...spec });
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body });
  expect(r.status).toBe(201);
  expect(r.body.status, r.text).toBe("OPEN");
  return r.body.orderId as string;
}

const cancel = (w: number, orderId: unknown) => c.send("/api/orders/cancel", { headers: c.auth(w), body: { orderId } });

describe("POST /api/orders/cancel", () => {
  it("cancels an open order; a repeat is 409 not_cancellable; another wallet's is 403 forbidden; unknown 404", async () => {
    const id = await rest(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.05" });
    expectEnvelope(await cancel(1, id), 403, "forbidden");
    const r = await cancel(0, id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ orderId: id, status: "CANCELLED" });
    expectEnvelope(await cancel(0, id), 409, "not_cancellable");
    expectEnvelope(await cancel(0, "no-such-order"), 404, "order_not_found");
    const read = await c.send(`/api/orders/${id}`, { headers: c.auth(0) });
    expect(read.body.status).toBe("CANCELLED");
    // another wallet cannot read it either
    expectEnvelope(await c.send(`/api/orders/${id}`, { headers: c.auth(1) }), 404, "order_not_found");
  });

  it("a cancel body without orderId is 400", async () => {
    expect((await c.send("/api/orders/cancel", { headers: c.auth(0), body: {} })).status).toBe(400);
  });

  it("recorded but unanswered: 202 cancel_pending, Retry-After: 5, body fields of 4.6, no remainingQty; safe to repeat", async () => {
    const id = await rest(0, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.05" });
    const f = await c.send("/sim/faults", { body: { route: "POST /api/orders/cancel", kind: "cancel_pending", nextCalls: 1, completeAfterMs: 3000 } });
    expect(f.status).toBe(201);
    const r = await cancel(0, id);
    expect(r.status).toBe(202);
    expect(r.headers.get("retry-after")).toBe("5");
    expect(r.body).toMatchObject({ status: "cancel_pending", code: "cancel_pending", orderId: id });
    expect(typeof r.body.message).toBe("string");
    expect(r.body.retryAfterSec).toBe(5);
    expect(r.body).not.toHaveProperty("remainingQty");
    const again = await cancel(0, id);
    expect(again.status).toBe(202);
    await c.advance(5_000);
    const done = await cancel(0, id);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("CANCELLED");
    expect((await c.send(`/api/orders/${id}`, { headers: c.auth(0) })).body.status).toBe("CANCELLED");
  });

  it("cancel-batch and cancel-all answer cancelled / notCancelled", async () => {
    const a = await rest(0, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.04" });
    const b = await rest(0, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.03" });
    const batch = await c.send("/api/orders/cancel-batch", { headers: c.auth(0), body: { orderIds: [a, "nope"] } });
    expect(batch.status).toBe(200);
    expect(batch.body.cancelled).toEqual([a]);
    expect(batch.body.notCancelled).toEqual([expect.objectContaining({ orderId: "nope", code: "order_not_found" })]);
    const all = await c.send("/api/orders/cancel-all", { headers: c.auth(0), body: {} });
    expect(all.status).toBe(200);
    expect(all.body.cancelled).toContain(b);
    expect((await c.send("/api/orders/open", { headers: c.auth(0) })).body.orders).toEqual([]);
  });
});

describe("GET /api/orders/open", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    await c.advance(1_000);
    // 7 orders of wallet 2: 4 BUY YES on DRAW, 3 BUY outcome 1 on EPL
    for (let i = 0; i < 4; i++) ids.push(await rest(2, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: `0.0${i + 1}` }));
    await c.advance(1_000);
    for (let i = 0; i < 3; i++) ids.push(await rest(2, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: `0.0${i + 1}` }));
  });

  it("the effective wallet's non-terminal orders, {walletAddress, orders, nextCursor}", async () => {
    const r = await c.send("/api/orders/open", { headers: c.auth(2) });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["nextCursor", "orders", "walletAddress"]);
    expect(r.body.walletAddress).toBe(c.auth(2)["X-User-Wallet"]!.toLowerCase());
    expect(r.body.orders.map((o: Json): string => String(o.id)).sort()).toEqual([...ids].sort());
    expect(r.body.nextCursor).toBeNull();
    for (const o of r.body.orders) expect(["PENDING", "OPEN", "PARTIAL"]).toContain(o.status);
  });

  it("filters: marketId (symbol), side and type in either case, outcome", async () => {
    const q = async (s: string): Promise<number> => (await c.send(`/api/orders/open?${s}`, { headers: c.auth(2) })).body.orders.length as number;
    expect(await q("marketId=ARS-CHE-DRAW")).toBe(4);
    expect(await q("marketId=EPL-WINNER&outcome=1")).toBe(3);
    expect(await q("outcome=0")).toBe(4);
    expect(await q("side=buy")).toBe(7);
    expect(await q("side=SELL")).toBe(0);
    expect(await q("type=LIMIT")).toBe(7);
    expect(await q("type=market")).toBe(0);
  });

  it("undefined or malformed parameters: 400 invalid_request with details.fields", async () => {
    for (const [q, field] of [["foo=1", "foo"], ["side=up", "side"], ["type=stop", "type"], ["outcome=-1", "outcome"], ["limit=0", "limit"], ["limit=x", "limit"], ["cursor=%%%", "cursor"]] as const) {
      const e = expectEnvelope(await c.send(`/api/orders/open?${q}`, { headers: c.auth(2) }), 400, "invalid_request");
      expect(e.details.fields, q).toContain(field);
    }
  });

  it("limit/cursor: newest first, disjoint windows, nextCursor null only on the last page", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const path = `/api/orders/open?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const r = await c.send(path, { headers: c.auth(2) });
      expect(r.status).toBe(200);
      sizes.push(r.body.orders.length);
      seen.push(...r.body.orders.map((o: Json): string => String(o.id)));
      cursor = r.body.nextCursor;
      if (cursor === null) break;
      expect(typeof cursor).toBe("string");
    }
    expect(sizes.slice(0, 2)).toEqual([3, 3]);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
    expect(new Set(seen).size).toBe(7);
    // newest first: the EPL orders (placed later) come before the DRAW ones
    expect(seen.slice(0, 3).sort()).toEqual(ids.slice(4).sort());
  });

  it("a legacy ISO-8601 cursor is accepted", async () => {
    const r = await c.send(`/api/orders/open?cursor=${encodeURIComponent(new Date(c.clock.now() + 1).toISOString())}`, { headers: c.auth(2) });
    expect(r.status).toBe(200);
    expect(r.body.orders).toHaveLength(7);
  });
});

describe("GET /api/orders/history and reads", () => {
  it("status filter; unknown status is 400 invalid_request naming the field; limit above 200 clamped", async () => {
    const id = await rest(1, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.02" });
    expect((await cancel(1, id)).status).toBe(200);
    const cancelled = await c.send("/api/orders/history?status=cancelled", { headers: c.auth(1) });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.orders.map((o: Json): string => String(o.id))).toContain(id);
    expect(cancelled.body.orders.every((o: Json) => o.status === "CANCELLED")).toBe(true);
    const e = expectEnvelope(await c.send("/api/orders/history?status=DONE", { headers: c.auth(1) }), 400, "invalid_request");
    expect(e.details.fields).toEqual(["status"]);
    expect((await c.send("/api/orders/history?limit=5000", { headers: c.auth(1) })).status).toBe(200);
    expectEnvelope(await c.send("/api/orders/history?bogus=1", { headers: c.auth(1) }), 400, "invalid_request");
  });

  it("an order filled by a taker reads FILLED with its fills; lookup by clientOrderId", async () => {
    const maker = await rest(0, { symbol: "ARS-CHE-ARS", outcome: 0, side: "BUY", price: "0.33", quantity: "2", clientOrderId: "mk-1" });
    const { body } = await c.order(1, { symbol: "ARS-CHE-ARS", outcome: 1, side: "BUY", price: "0.67", quantity: "2" });
    const taker = await c.send("/api/orders/place", { headers: c.auth(1), body: specOnlyBody(body) });
    expect(taker.body.status).toBe("FILLED");
    expect(taker.body.trades).toHaveLength(1);
    const read = await c.send(`/api/orders/${maker}`, { headers: c.auth(0) });
    expect(read.body).toMatchObject({ id: maker, status: "FILLED", filledQty: "2", remainingQty: "0" });
    const fills = await c.send(`/api/orders/${maker}/fills`, { headers: c.auth(0) });
    expect(fills.status).toBe(200);
    expect((await c.send(`/api/orders/${maker}/fees-summary`, { headers: c.auth(0) })).status).toBe(200);
    const look = await c.send("/api/orders/lookup?clientOrderId=mk-1", { headers: c.auth(0) });
    expect(look.body.id).toBe(maker);
    expectEnvelope(await cancel(0, maker), 409, "not_cancellable");
  });
});

describe("3.3 PARTIAL and the pending-cancel race", () => {
  it("a placement that fills part answers PARTIAL; the rest rests and reads PARTIAL", async () => {
    await rest(0, { symbol: "ARS-CHE-CHE", outcome: 0, side: "BUY", price: "0.35", quantity: "3" });
    const { body } = await c.order(1, { symbol: "ARS-CHE-CHE", outcome: 1, side: "BUY", price: "0.65", quantity: "5" });
    const r = await c.send("/api/orders/place", { headers: c.auth(1), body: specOnlyBody(body) });
    expect(r.body).toMatchObject({ status: "PARTIAL", filledQty: "3", remainingQty: "2" });
    const read = await c.send(`/api/orders/${r.body.orderId}`, { headers: c.auth(1) });
    expect(read.body).toMatchObject({ status: "PARTIAL", filledQty: "3", remainingQty: "2" });
    const open = await c.send("/api/orders/open?marketId=ARS-CHE-CHE", { headers: c.auth(1) });
    expect(open.body.orders.map((o: Json): string => String(o.id))).toContain(r.body.orderId);
    const cancelled = await cancel(1, r.body.orderId);
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", filledQty: "3", remainingQty: "2" });
  });

  it("a pending cancel that loses to a fill ends FILLED, and a repeat says so", async () => {
    const id = await rest(0, { symbol: "ARS-CHE-CHE", outcome: 0, side: "BUY", price: "0.36", quantity: "2" });
    await c.send("/sim/faults", { body: { route: "POST /api/orders/cancel", kind: "cancel_pending", nextCalls: 1, completeAfterMs: 3000 } });
    expect((await cancel(0, id)).status).toBe(202);
    const { body } = await c.order(1, { symbol: "ARS-CHE-CHE", outcome: 1, side: "BUY", price: "0.64", quantity: "2" });
    expect((await c.send("/api/orders/place", { headers: c.auth(1), body: specOnlyBody(body) })).body.status).toBe("FILLED");
    await c.advance(5_000);
    const done = await cancel(0, id);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("FILLED");
  });
});
