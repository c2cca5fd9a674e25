/**
 * Second pass over spec 3.3 and 4.6 cancels: terminal orders leave the open list and cannot be
 * cancelled (EXPIRED, REJECTED and FILLED alike), per-id answers of cancel-batch, cancel-all
 * restricted to a market, cancel_pending inside batch and cancel-all answers repeated with a
 * cancel-batch of exactly those ids (4.6 cancel semantics), and the final fill total on reads.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boot, expectEnvelope, specOnlyBody, type Conformance, type Json, type OrderSpec } from "./harness.js";

let c: Conformance;
beforeAll(async () => {
  c = await boot();
});
afterAll(async () => {
  await c.close();
});
beforeEach(async () => {
  // fresh per-second windows for place (20), cancel (40), cancel-batch (5), cancel-all (1)
  await c.advance(1_000);
});

type Spec = Omit<OrderSpec, "quantity"> & { quantity?: string };

async function place(w: number, spec: Spec): Promise<Json> {
  const { body } = await c.order(w, { quantity: "1", ...spec });
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body: specOnlyBody(body) });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

async function rest(w: number, spec: Spec): Promise<string> {
  const res = await place(w, spec);
  expect(res.status).toBe("OPEN");
  return res.orderId as string;
}

const cancel = (w: number, orderId: string) => c.send("/api/orders/cancel", { headers: c.auth(w), body: { orderId } });
const batch = (w: number, orderIds: string[]) => c.send("/api/orders/cancel-batch", { headers: c.auth(w), body: { orderIds } });
const read = async (w: number, id: string): Promise<Json> => (await c.send(`/api/orders/${id}`, { headers: c.auth(w) })).body;
const openIds = async (w: number, q = ""): Promise<string[]> =>
  ((await c.send(`/api/orders/open${q}`, { headers: c.auth(w) })).body.orders as Json[]).map((o): string => String(o.id));

describe("3.3 terminal orders", () => {
  it("an EXPIRED order leaves the open list, reads EXPIRED, and its cancel is 409 not_cancellable", async () => {
    const exp = Math.floor(c.clock.now() / 1000) + 5;
    const id = await rest(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.01", timeInForce: "GTD", expiration: exp });
    expect(await openIds(0)).toContain(id);
    await c.advance(6_000);
    expect(await openIds(0)).not.toContain(id);
    expect((await read(0, id)).status).toBe("EXPIRED");
    expectEnvelope(await cancel(0, id), 409, "not_cancellable");
    const hist = await c.send("/api/orders/history?status=EXPIRED", { headers: c.auth(0) });
    expect(hist.body.orders.map((o: Json): string => String(o.id))).toContain(id);
  });

  it("a REJECTED placement that was recorded (has an orderId) is terminal: not open, cancel 409 not_cancellable", async () => {
    const res = await place(2, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.9", quantity: "20000" });
    expect(res).toMatchObject({ status: "REJECTED", code: "insufficient_funds" });
    expect(typeof res.orderId).toBe("string");
    expect(await openIds(2)).not.toContain(res.orderId);
    expectEnvelope(await cancel(2, res.orderId), 409, "not_cancellable");
  });

  it("non-terminal statuses only on the open list; history keeps every status, filterable", async () => {
    const live = await rest(1, { symbol: "ARS-CHE-GOAL5", outcome: 0, side: "BUY", price: "0.2", quantity: "4" });
    // partial fill: wallet 2 takes 1 of the 4 through the NO side
    const taker = await place(2, { symbol: "ARS-CHE-GOAL5", outcome: 1, side: "BUY", price: "0.8", quantity: "1" });
    expect(taker.status).toBe("FILLED");
    const gone = await rest(1, { symbol: "ARS-CHE-GOAL5", outcome: 0, side: "BUY", price: "0.1" });
    expect((await cancel(1, gone)).status).toBe(200);
    const open = (await c.send("/api/orders/open", { headers: c.auth(1) })).body.orders as Json[];
    for (const o of open) expect(["PENDING", "OPEN", "PARTIAL"]).toContain(o.status);
    expect(open.find((o) => o.id === live)?.status).toBe("PARTIAL");
    expect(open.map((o): string => String(o.id))).not.toContain(gone);
    const statuses = async (s: string): Promise<string[]> =>
      ((await c.send(`/api/orders/history?status=${s}`, { headers: c.auth(1) })).body.orders as Json[]).map((o): string => String(o.status));
    expect(await statuses("PARTIAL")).toEqual(["PARTIAL"]);
    expect(new Set(await statuses("cancelled"))).toEqual(new Set(["CANCELLED"]));
    expect(await statuses("FILLED")).toEqual([]);
    expect((await c.send("/api/orders/history?status=FILLED", { headers: c.auth(2) })).body.orders.map((o: Json): string => String(o.id))).toContain(taker.orderId);
  });

  it("the order read gives the final status and the final fill total after a partial fill and a cancel", async () => {
    const id = await rest(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.21", quantity: "5" });
    expect((await place(1, { symbol: "ARS-CHE-DRAW", outcome: 1, side: "BUY", price: "0.79", quantity: "2" })).status).toBe("FILLED");
    const r = await cancel(0, id);
    expect(r.body).toMatchObject({ orderId: id, status: "CANCELLED", filledQty: "2", remainingQty: "3" });
    expect(await read(0, id)).toMatchObject({ id, status: "CANCELLED", filledQty: "2", originalQuantity: "5" });
    const fills = (await c.send(`/api/orders/${id}/fills`, { headers: c.auth(0) })).body;
    expect(fills.fills.reduce((s: number, f: Json) => s + Number(f.quantity), 0)).toBe(2);
  });
});

describe("4.6 cancel-batch per-id answers", () => {
  it("cancelled ids and notCancelled entries with order_not_found, forbidden and not_cancellable; a repeated id counts once", async () => {
    const mine = await rest(0, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.01" });
    const done = await rest(0, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.02" });
    expect((await cancel(0, done)).status).toBe(200);
    const theirs = await rest(1, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.01" });
    const r = await batch(0, [mine, mine, theirs, done, "no-such-order"]);
    expect(r.status).toBe(200);
    expect(r.body.cancelled).toEqual([mine]);
    const codes = Object.fromEntries((r.body.notCancelled as Json[]).map((e) => [e.orderId, e.code]));
    expect(codes).toEqual({ [theirs]: "forbidden", [done]: "not_cancellable", "no-such-order": "order_not_found" });
    for (const e of r.body.notCancelled) expect(typeof e.message).toBe("string");
    // the other wallet's order is untouched
    expect((await read(1, theirs)).status).toBe("OPEN");
  });

  it("more than 100 ids, or none, is 400 invalid_request", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `x${i}`);
    expectEnvelope(await batch(0, ids), 400, "invalid_request");
    expectEnvelope(await batch(0, []), 400, "invalid_request");
  });
});

describe("4.6 cancel-all", () => {
  it("with marketId cancels only that market's orders of the effective wallet", async () => {
    const a = await rest(2, { symbol: "ARS-CHE-ARS", outcome: 0, side: "BUY", price: "0.05" });
    const b = await rest(2, { symbol: "ARS-CHE-ARS", outcome: 1, side: "BUY", price: "0.05" });
    const keep = await rest(2, { symbol: "ARS-CHE-CHE", outcome: 0, side: "BUY", price: "0.05" });
    const other = await rest(1, { symbol: "ARS-CHE-ARS", outcome: 0, side: "BUY", price: "0.04" });
    const r = await c.send("/api/orders/cancel-all", { headers: c.auth(2), body: { marketId: "ARS-CHE-ARS" } });
    expect(r.status).toBe(200);
    expect([...r.body.cancelled].sort()).toEqual([a, b].sort());
    expect(r.body.notCancelled).toEqual([]);
    expect(await openIds(2)).toContain(keep);
    expect(await openIds(1)).toContain(other);
  });

  it("ids named cancel_pending are repeated with a cancel-batch of exactly those ids; nothing cancels twice", async () => {
    const x = await rest(2, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.01" });
    const y = await rest(2, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.02" });
    const f = await c.send("/sim/faults", { body: { route: "POST /api/orders/cancel-all", kind: "cancel_pending", nextCalls: 1, completeAfterMs: 2_000 } });
    expect(f.status).toBe(201);
    const all = await c.send("/api/orders/cancel-all", { headers: c.auth(2), body: { marketId: "EPL-WINNER" } });
    expect(all.status).toBe(200);
    expect(all.body.cancelled).toEqual([]);
    const pending = (all.body.notCancelled as Json[]).filter((e) => e.code === "cancel_pending").map((e): string => String(e.orderId));
    expect(pending.sort()).toEqual([x, y].sort());
    // recorded, not yet answered: the orders are still live
    expect((await read(2, x)).status).toBe("OPEN");
    // repeated before completion: still pending, no second cancel
    const early = await batch(2, pending);
    expect(early.body.cancelled).toEqual([]);
    expect((early.body.notCancelled as Json[]).map((e): string => String(e.code))).toEqual(["cancel_pending", "cancel_pending"]);
    await c.advance(5_000); // Retry-After: 5
    const again = await batch(2, pending);
    expect([...again.body.cancelled].sort()).toEqual([x, y].sort());
    expect(again.body.notCancelled).toEqual([]);
    expect((await read(2, x)).status).toBe("CANCELLED");
    expect(await openIds(2, "?marketId=EPL-WINNER")).not.toContain(x);
  });

  it("a single cancel of a batch-pending id answers 202 cancel_pending until it completes", async () => {
    const z = await rest(0, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.01" });
    await c.send("/sim/faults", { body: { route: "POST /api/orders/cancel-batch", kind: "cancel_pending", nextCalls: 1, completeAfterMs: 3_000 } });
    const b = await batch(0, [z]);
    expect(b.body.notCancelled).toEqual([expect.objectContaining({ orderId: z, code: "cancel_pending" })]);
    const single = await cancel(0, z);
    expect(single.status).toBe(202);
    expect(single.headers.get("retry-after")).toBe("5");
    expect(single.body).toMatchObject({ status: "cancel_pending", code: "cancel_pending", orderId: z });
    await c.advance(5_000);
    const done = await cancel(0, z);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ orderId: z, status: "CANCELLED" });
  });
});
