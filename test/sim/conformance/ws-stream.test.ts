/**
 * Second pass over spec 6 on a real WebSocket: frames reach only the effective wallet's
 * connections (every one of them), nothing is replayed from before the subscribe, a batch or
 * market-wide cancel sends one order_cancelled per order, the final status of a cancel that lost
 * to a fill (FILLED) arrives on user_orders, and the frame timestamps order events across
 * transports (serverTs against X-Server-Time).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import { boot, specOnlyBody, type Conformance, type Inbox, type Json, type OrderSpec, wsOpen } from "./harness.js";

let c: Conformance;
const sockets: WebSocket[] = [];
beforeEach(async () => {
  c = await boot();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await c.close();
});

async function connect(w: number): Promise<{ ws: WebSocket; inbox: Inbox }> {
  const s = await wsOpen(c.url, "/ws/user", c.auth(w));
  sockets.push(s.ws);
  return s;
}

async function subscribe(w: number): Promise<Inbox> {
  const { ws, inbox } = await connect(w);
  ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
  expect((await inbox.next()).type).toBe("subscribed");
  return inbox;
}

type Spec = Omit<OrderSpec, "quantity"> & { quantity?: string };

async function place(w: number, spec: Spec): Promise<{ body: Json; serverTime: number }> {
  const { body } = await c.order(w, { quantity: "1", ...spec });
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body: specOnlyBody(body) });
  expect(r.status, r.text).toBe(201);
  return { body: r.body, serverTime: Number(r.headers.get("x-server-time")) };
}

describe("6: who receives frames", () => {
  it("a wallet's frames go to that wallet's connections only, and to every one of them", async () => {
    const a1 = await subscribe(0);
    const a2 = await subscribe(0);
    const b = await subscribe(1);
    const mine = await place(0, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.05" });
    for (const inbox of [a1, a2]) {
      const f = await inbox.next();
      expect(f).toMatchObject({ type: "order_placed", orderId: mine.body.orderId, channel: "user_orders" });
      expect(f.walletAddress).toBe(c.auth(0)["X-User-Wallet"]!.toLowerCase());
    }
    // wallet 1's first frame is its own order: wallet 0's frame never reached it
    const theirs = await place(1, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.04" });
    const f = await b.next();
    expect(f).toMatchObject({ type: "order_placed", orderId: theirs.body.orderId });
  });

  it("nothing is sent before the subscribe, and nothing from before it is replayed", async () => {
    const { ws, inbox } = await connect(2);
    await place(2, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.05" });
    ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
    expect((await inbox.next()).type).toBe("subscribed");
    const later = await place(2, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.06" });
    const f = await inbox.next();
    expect(f).toMatchObject({ type: "order_placed", orderId: later.body.orderId });
  });

  it("a second subscribe is answered again without doubling the feed", async () => {
    const { ws, inbox } = await connect(0);
    ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
    ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
    expect((await inbox.next()).type).toBe("subscribed");
    expect((await inbox.next()).type).toBe("subscribed");
    const one = await place(0, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.05" });
    const two = await place(0, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.06" });
    expect((await inbox.next()).orderId).toBe(one.body.orderId);
    expect((await inbox.next()).orderId).toBe(two.body.orderId);
  });
});

describe("6: cancels on the stream", () => {
  it("cancel-batch and cancel-all send one order_cancelled per order, with originalQuantity and remainingQty", async () => {
    const inbox = await subscribe(0);
    const ids: string[] = [];
    for (const price of ["0.01", "0.02", "0.03"]) ids.push((await place(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price, quantity: "2" })).body.orderId);
    for (let i = 0; i < 3; i++) expect((await inbox.next()).type).toBe("order_placed");
    const b = await c.send("/api/orders/cancel-batch", { headers: c.auth(0), body: { orderIds: ids.slice(0, 2) } });
    expect(b.body.cancelled).toHaveLength(2);
    const all = await c.send("/api/orders/cancel-all", { headers: c.auth(0), body: {} });
    expect(all.body.cancelled).toEqual([ids[2]]);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const f = await inbox.next();
      expect(f).toMatchObject({ type: "order_cancelled", originalQuantity: "2", remainingQty: "2", status: "CANCELLED" });
      expect(f.serverTs).toBe(c.clock.now());
      seen.push(f.orderId);
    }
    expect(seen).toEqual(ids);
    // a repeat cancels nothing and sends nothing: the next frame is a new order's
    expect((await c.send("/api/orders/cancel-all", { headers: c.auth(0), body: {} })).status).toBe(429);
    await c.advance(1_000);
    expect((await c.send("/api/orders/cancel-all", { headers: c.auth(0), body: {} })).body.cancelled).toEqual([]);
    const next = await place(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.04" });
    expect(await inbox.next()).toMatchObject({ type: "order_placed", orderId: next.body.orderId });
  });

  it("a pending cancel completes with exactly one order_cancelled, however often it is repeated", async () => {
    const inbox = await subscribe(1);
    const { body } = await place(1, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.02", quantity: "3" });
    expect((await inbox.next()).type).toBe("order_placed");
    await c.send("/sim/faults", { body: { route: "POST /api/orders/cancel", kind: "cancel_pending", nextCalls: 1, completeAfterMs: 2_000 } });
    for (let i = 0; i < 3; i++) expect((await c.send("/api/orders/cancel", { headers: c.auth(1), body: { orderId: body.orderId } })).status).toBe(202);
    await c.advance(5_000);
    expect((await c.send("/api/orders/cancel", { headers: c.auth(1), body: { orderId: body.orderId } })).status).toBe(200);
    const f = await inbox.next();
    expect(f).toMatchObject({ type: "order_cancelled", orderId: body.orderId, status: "CANCELLED", originalQuantity: "3", remainingQty: "3" });
    const marker = await place(1, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.03" });
    expect(await inbox.next()).toMatchObject({ type: "order_placed", orderId: marker.body.orderId });
  });

  it("a pending cancel that loses to a fill: user_fill, then the final status FILLED on user_orders", async () => {
    const inbox = await subscribe(0);
    const { body } = await place(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2" });
    expect((await inbox.next()).type).toBe("order_placed");
    await c.send("/sim/faults", { body: { route: "POST /api/orders/cancel", kind: "cancel_pending", nextCalls: 1, completeAfterMs: 3_000 } });
    expect((await c.send("/api/orders/cancel", { headers: c.auth(0), body: { orderId: body.orderId } })).status).toBe(202);
    const taker = await place(1, { symbol: "ARS-CHE-DRAW", outcome: 1, side: "BUY", price: "0.7", quantity: "2" });
    expect(taker.body.status).toBe("FILLED");
    const fill = await inbox.next();
    expect(fill).toMatchObject({ type: "user_fill", orderId: body.orderId, role: "maker", quantity: "2" });
    expect(fill.serverTs).toBeGreaterThanOrEqual(taker.serverTime);
    await c.advance(3_000);
    const end = await inbox.next();
    expect(end).toMatchObject({ type: "order_cancelled", orderId: body.orderId, status: "FILLED", originalQuantity: "2", remainingQty: "0" });
    expect((await c.send(`/api/orders/${body.orderId}`, { headers: c.auth(0) })).body).toMatchObject({ status: "FILLED", filledQty: "2" });
  });
});

describe("6: serverTs orders events across transports", () => {
  it("frames of later requests never carry an earlier serverTs than those requests' X-Server-Time", async () => {
    const inbox = await subscribe(2);
    const stamps: [number, number][] = [];
    for (let i = 0; i < 3; i++) {
      await c.advance(250 + i);
      const r = await place(2, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: `0.0${i + 1}` });
      const f = await inbox.next();
      expect(f.orderId).toBe(r.body.orderId);
      stamps.push([r.serverTime, f.serverTs]);
    }
    for (const [http, ws] of stamps) expect(ws).toBeGreaterThanOrEqual(http);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]![1]).toBeGreaterThan(stamps[i - 1]![1]);
  });
});
