/**
 * Spec 6 over a real WebSocket: serverTs on every frame (comparable with X-Server-Time),
 * order_placed / order_cancelled / order_expired fields, user_fill role maker / taker.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import { boot, specOnlyBody, type Conformance, type Inbox, type Json, wsOpen } from "./harness.js";

let c: Conformance;
const sockets: WebSocket[] = [];
beforeEach(async () => {
  c = await boot();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await c.close();
});

async function subscribe(w: number): Promise<Inbox> {
  const { ws, inbox } = await wsOpen(c.url, "/ws/user", c.auth(w));
  sockets.push(ws);
  ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
  const ack = await inbox.next();
  expect(ack.type).toBe("subscribed");
  expect(Number.isInteger(ack.serverTs)).toBe(true);
  return inbox;
}

async function place(w: number, spec: Parameters<Conformance["order"]>[1]): Promise<{ res: Json; serverTime: number }> {
  const { body } = await c.order(w, spec);
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body: specOnlyBody(body) });
  expect(r.status).toBe(201);
  return { res: r.body, serverTime: Number(r.headers.get("x-server-time")) };
}

describe("6: user_orders frames", () => {
  it("order_placed carries originalQuantity and serverTs (>= the request's X-Server-Time)", async () => {
    const inbox = await subscribe(0);
    await c.advance(1234);
    const { res, serverTime } = await place(0, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.1", quantity: "3" });
    const f = await inbox.nextOf("order_placed");
    expect(f).toMatchObject({ orderId: res.orderId, originalQuantity: "3" });
    expect(f.serverTs).toBeGreaterThanOrEqual(serverTime);
    expect(f.serverTs).toBe(c.clock.now());
  });

  it("user_fill: role maker for the resting order, taker for the crossing one; order_cancelled after a partial fill", async () => {
    const makerInbox = await subscribe(0);
    const takerInbox = await subscribe(1);
    const maker = await place(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.4", quantity: "10" });
    // wallet 1 sells... it holds no YES: it buys NO at 0.6 (the complement), crossing the YES bid for 4
    const taker = await place(1, { symbol: "ARS-CHE-DRAW", outcome: 1, side: "BUY", price: "0.6", quantity: "4" });
    expect(taker.res.status).toBe("FILLED");
    const mf = await makerInbox.nextOf("user_fill");
    expect(mf).toMatchObject({ orderId: maker.res.orderId, role: "maker", quantity: "4" });
    expect(Number.isInteger(mf.serverTs)).toBe(true);
    const tf = await takerInbox.nextOf("user_fill");
    expect(tf).toMatchObject({ orderId: taker.res.orderId, role: "taker", quantity: "4" });

    const cancel = await c.send("/api/orders/cancel", { headers: c.auth(0), body: { orderId: maker.res.orderId } });
    expect(cancel.status).toBe(200);
    const cf = await makerInbox.nextOf("order_cancelled");
    expect(cf).toMatchObject({ orderId: maker.res.orderId, originalQuantity: "10", remainingQty: "6" });
    expect(Number(cf.originalQuantity) - Number(cf.remainingQty)).toBe(4);
    expect(cf.serverTs).toBeGreaterThanOrEqual(Number(cancel.headers.get("x-server-time")));
  });

  it("order_expired carries originalQuantity and remainingQty", async () => {
    const inbox = await subscribe(0);
    const exp = Math.floor(c.clock.now() / 1000) + 30;
    const { res } = await place(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.1", quantity: "2", timeInForce: "GTD", expiration: exp });
    expect(res.status).toBe("OPEN");
    await c.advance(31_000);
    const f = await inbox.nextOf("order_expired");
    expect(f).toMatchObject({ orderId: res.orderId, originalQuantity: "2", remainingQty: "2" });
    expect(f.serverTs).toBeGreaterThanOrEqual(exp * 1000);
    expect((await c.send(`/api/orders/${res.orderId}`, { headers: c.auth(0) })).body.status).toBe("EXPIRED");
  });

  it("every outbound frame carries serverTs: subscribed, pong, error, server ping", async () => {
    const { ws, inbox } = await wsOpen(c.url, "/ws/user", c.auth(2));
    sockets.push(ws);
    ws.send(JSON.stringify({ type: "ping" }));
    ws.send(JSON.stringify({ type: "subscribe", channel: "nope" }));
    ws.send("not json");
    for (let i = 0; i < 3; i++) {
      const f = await inbox.next();
      expect(Number.isInteger(f.serverTs), JSON.stringify(f)).toBe(true);
    }
    await c.advance(15_000);
    const ping = await inbox.nextOf("ping");
    expect(ping.serverTs).toBe(c.clock.now());
  });
});
