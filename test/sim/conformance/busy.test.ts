/**
 * Spec 7.1 / 7.3 / 4.6 unhappy paths, injected through the /sim/faults control route and probed
 * over plain HTTP: the busy and resend answers (`trading_temporarily_unavailable`,
 * `shard_owner_unavailable`, `journal_intent_not_durable`), "may have been recorded"
 * (`exchange_unavailable`) and the dedupe that makes resending safe.
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
  expect((await c.send("/sim/faults", { method: "DELETE" })).status).toBe(200);
});

async function fault(rule: Record<string, unknown>): Promise<void> {
  const r = await c.send("/sim/faults", { body: rule });
  expect(r.status, r.text).toBe(201);
}

async function signed(coid: string, price = "0.01"): Promise<Json> {
  const { body } = await c.order(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price, quantity: "1", clientOrderId: coid });
  return specOnlyBody(body);
}

const place = (body: Json) => c.send("/api/orders/place", { headers: c.auth(0), body });
const lookup = (coid: string) => c.send(`/api/orders/lookup?clientOrderId=${coid}`, { headers: c.auth(0) });

describe("7.3 trading_temporarily_unavailable (4.6 busy exchange)", () => {
  it("503 with retryable: true and nothing recorded; the same signed order resent under the same clientOrderId is placed once", async () => {
    const body = await signed("busy-1");
    await fault({ route: "POST /api/orders/place", kind: "trading_temporarily_unavailable", nextCalls: 1 });
    const busy = await place(body);
    const e = expectEnvelope(busy, 503, "trading_temporarily_unavailable");
    expect(e.retryable).toBe(true);
    // spec 4: the rate-limit headers are on every response, this one included
    expect(busy.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(busy.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    expect(busy.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    expectEnvelope(await lookup("busy-1"), 404, "order_not_found");
    const again = await place(body);
    expect(again.status).toBe(201);
    expect(again.body.status).toBe("OPEN");
    expect((await lookup("busy-1")).body.id).toBe(again.body.orderId);
    // a third send is a dedupe, not a second order
    expect((await place(body)).body.orderId).toBe(again.body.orderId);
  });
});

describe("7.3 shard_owner_unavailable", () => {
  it("on place: 503, Retry-After: 2 mirrored by retryAfterSec, nothing recorded; resending the same request works", async () => {
    const body = await signed("shard-1");
    await fault({ route: "POST /api/orders/place", kind: "shard_owner_unavailable", nextCalls: 1 });
    const r = await place(body);
    const e = expectEnvelope(r, 503, "shard_owner_unavailable");
    expect(r.headers.get("retry-after")).toBe("2");
    if (e.retryAfterSec !== undefined) expect(e.retryAfterSec).toBe(2);
    expectEnvelope(await lookup("shard-1"), 404, "order_not_found");
    await c.advance(2_000);
    expect((await place(body)).body.status).toBe("OPEN");
  });

  it("on cancel: nothing recorded, the order stays live; the resent cancel cancels it", async () => {
    const placed = await place(await signed("shard-2"));
    expect(placed.body.status).toBe("OPEN");
    await fault({ route: "POST /api/orders/cancel", kind: "shard_owner_unavailable", nextCalls: 1 });
    const r = await c.send("/api/orders/cancel", { headers: c.auth(0), body: { orderId: placed.body.orderId } });
    expectEnvelope(r, 503, "shard_owner_unavailable");
    expect(r.headers.get("retry-after")).toBe("2");
    expect(r.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect((await c.send(`/api/orders/${placed.body.orderId}`, { headers: c.auth(0) })).body.status).toBe("OPEN");
    const again = await c.send("/api/orders/cancel", { headers: c.auth(0), body: { orderId: placed.body.orderId } });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("CANCELLED");
  });

  it("on cancel-all: 503 and nothing cancelled", async () => {
    const placed = await place(await signed("shard-3"));
    await fault({ route: "POST /api/orders/cancel-all", kind: "shard_owner_unavailable", nextCalls: 1 });
    expectEnvelope(await c.send("/api/orders/cancel-all", { headers: c.auth(0), body: {} }), 503, "shard_owner_unavailable");
    expect((await c.send(`/api/orders/${placed.body.orderId}`, { headers: c.auth(0) })).body.status).toBe("OPEN");
  });
});

describe("4.6 place-batch busy entries: journal_intent_not_durable", () => {
  it("the refused entry has success: false, the code and details.retryable: true; the other entries keep their results", async () => {
    const a = await signed("jb-a", "0.02");
    const b = await signed("jb-b", "0.03");
    await fault({ route: "POST /api/orders/place-batch", kind: "journal_intent_not_durable", nextCalls: 1 });
    const r = await c.send("/api/orders/place-batch", { headers: c.auth(0), body: { orders: [a, b] } });
    expect(r.status).toBe(201);
    const [first, second] = r.body.results as Json[];
    expect(first).toMatchObject({ success: false, code: "journal_intent_not_durable", clientOrderId: "jb-a" });
    expect(first.details.retryable).toBe(true);
    expect(second).toMatchObject({ success: true, status: "OPEN" });
    expectEnvelope(await lookup("jb-a"), 404, "order_not_found");
    // resending the refused entry unchanged places it
    const again = await c.send("/api/orders/place-batch", { headers: c.auth(0), body: { orders: [a] } });
    expect(again.body.results[0]).toMatchObject({ success: true, status: "OPEN" });
  });
});

describe("7.3 exchange_unavailable: may have been recorded", () => {
  it("503; the order can be found by clientOrderId and a resend returns the first result, never a second order", async () => {
    const body = await signed("eu-1");
    await fault({ route: "POST /api/orders/place", kind: "exchange_unavailable", execute: true, nextCalls: 1 });
    expectEnvelope(await place(body), 503, "exchange_unavailable");
    const found = await lookup("eu-1");
    expect(found.status).toBe(200);
    const again = await place(body);
    expect(again.status).toBe(201);
    expect(again.body.orderId).toBe(found.body.id);
    const open = await c.send("/api/orders/open?marketId=EPL-WINNER", { headers: c.auth(0) });
    expect(open.body.orders.filter((o: Json) => o.clientOrderId === "eu-1")).toHaveLength(1);
  });
});
