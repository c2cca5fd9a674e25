import { describe, expect, it } from "vitest";
import { errorEnvelopeSchema, orderFeesSummary, orderFills, orderRecord, ordersPage, parseServerFrame } from "../../../src/wire/index.js";
import { codeOf, parses, setup, T0, type Harness } from "./harness.js";

const ARS = "ARS-CHE-ARS";

async function place(h: Harness, w: number, spec: Partial<Parameters<Harness["order"]>[1]> = {}): Promise<string> {
  const { body } = await h.order(w, { symbol: ARS, outcome: 0, side: "BUY", price: "0.30", quantity: "1", ...spec });
  const r = (await h.call("POST", "/api/orders/place", { body, wallet: w })).body as { orderId: string; status: string };
  expect(r.orderId).toBeTruthy();
  return r.orderId;
}

async function page(h: Harness, path: string, query: Record<string, string>) {
  const r = await h.call("GET", path, { query });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return parses(ordersPage, r.body);
}

describe("GET /api/orders/open", () => {
  it("a cursor walk returns each order exactly once while orders are added and cancelled between pages", async () => {
    const h = setup();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      ids.push(await place(h, 0, { price: `0.${(100 + i).toString()}` }));
      if (i % 4 === 0) await h.clock.advance(1); // several orders share a millisecond, others do not
    }
    const seen: string[] = [];
    const cancelledUnseen = new Set<string>();
    const added = new Set<string>();
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const p = await page(h, "/api/orders/open", { limit: "5", ...(cursor ? { cursor } : {}) });
      pages++;
      seen.push(...p.orders.map((o) => o.id));
      for (const o of p.orders) expect(o.walletAddress).toBe(h.wallets[0]!.address);
      if (p.nextCursor !== null) expect(p.orders).toHaveLength(5);
      cursor = p.nextCursor;
      // Between pages: a newer order arrives and an older, not yet seen one is cancelled.
      added.add(await place(h, 0, { price: "0.05" }));
      const victim = ids.find((id) => !seen.includes(id) && !cancelledUnseen.has(id));
      if (victim !== undefined && pages % 2 === 0) {
        await h.call("POST", "/api/orders/cancel", { body: { orderId: victim } });
        cancelledUnseen.add(victim);
      }
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    const expected = ids.filter((id) => !cancelledUnseen.has(id));
    expect([...seen].sort()).toEqual([...expected].sort());
    for (const id of added) expect(seen).not.toContain(id);
    // Newest first.
    expect(seen).toEqual([...expected].reverse());
  });

  it("filters by marketId, side (either case), outcome and type; the default first page holds up to 500", async () => {
    const h = setup();
    await place(h, 0, { price: "0.30" });
    await place(h, 0, { price: "0.31", outcome: 1 });
    await place(h, 0, { symbol: "ARS-CHE-DRAW", price: "0.1" });
    const all = await page(h, "/api/orders/open", {});
    expect(all.orders).toHaveLength(3);
    expect(all.nextCursor).toBeNull();
    expect((await page(h, "/api/orders/open", { marketId: "ARS-CHE-DRAW" })).orders).toHaveLength(1);
    expect((await page(h, "/api/orders/open", { outcome: "1" })).orders).toHaveLength(1);
    expect((await page(h, "/api/orders/open", { side: "buy" })).orders).toHaveLength(3);
    expect((await page(h, "/api/orders/open", { side: "SELL" })).orders).toHaveLength(0);
    expect((await page(h, "/api/orders/open", { type: "LIMIT" })).orders).toHaveLength(3);
  });

  it("undefined, repeated or malformed parameters are 400 invalid_request naming the field", async () => {
    const h = setup();
    const bad: [Record<string, string> | URLSearchParams, string][] = [
      [{ foo: "1" }, "foo"],
      [{ limit: "0" }, "limit"],
      [{ limit: "501" }, "limit"],
      [{ side: "hold" }, "side"],
      [new URLSearchParams("limit=5&limit=6"), "limit"],
      [{ cursor: "!!!" }, "cursor"],
      [{ cursor: Buffer.from("hello").toString("base64url") }, "cursor"],
    ];
    for (const [query, field] of bad) {
      const r = await h.call("GET", "/api/orders/open", { query });
      expect(r.status).toBe(400);
      const env = parses(errorEnvelopeSchema, r.body);
      expect(env.error.code).toBe("invalid_request");
      expect(env.error.details?.fields).toContain(field);
    }
  });

  it("accepts a legacy ISO-8601 cursor (orders created strictly before it)", async () => {
    const h = setup();
    const old = await place(h, 0);
    await h.clock.advance(1000);
    await place(h, 0);
    const p = await page(h, "/api/orders/open", { cursor: new Date(T0 + 500).toISOString() });
    expect(p.orders.map((o) => o.id)).toEqual([old]);
  });
});

describe("GET /api/orders/history, /{id}, /lookup", () => {
  it("history holds terminal orders too, newest first, with a status filter", async () => {
    const h = setup();
    const a = await place(h, 0);
    const b = await place(h, 0);
    await h.call("POST", "/api/orders/cancel", { body: { orderId: a } });
    const p = await page(h, "/api/orders/history", {});
    expect(p.orders.map((o) => [o.id, o.status])).toEqual([[b, "OPEN"], [a, "CANCELLED"]]);
    expect((await page(h, "/api/orders/history", { status: "cancelled" })).orders.map((o) => o.id)).toEqual([a]);
    const walk1 = await page(h, "/api/orders/history", { limit: "1" });
    expect(walk1.nextCursor).not.toBeNull();
    const walk2 = await page(h, "/api/orders/history", { limit: "1", cursor: walk1.nextCursor! });
    expect(walk2.orders.map((o) => o.id)).toEqual([a]);
    expect(walk2.nextCursor).toBeNull();
    const bad = await h.call("GET", "/api/orders/history", { query: { status: "LOST" } });
    expect(bad.status).toBe(400);
    expect(parses(errorEnvelopeSchema, bad.body).error.details?.fields).toEqual(["status"]);
    // limit above 200 is clamped, not refused
    expect((await h.call("GET", "/api/orders/history", { query: { limit: "1000" } })).status).toBe(200);
  });

  it("by id and lookup are per wallet; lookup takes exactly one of clientOrderId / orderHash", async () => {
    const h = setup();
    const { body, built } = await h.order(0, { symbol: ARS, outcome: 0, side: "SELL", price: "0.9", quantity: "1", clientOrderId: "look" });
    await h.sim.desk.place(body, { wallet: h.wallets[0]!.address });
    const byCoid = parses(orderRecord, (await h.call("GET", "/api/orders/lookup", { query: { clientOrderId: "look" } })).body);
    expect(byCoid.status).toBe("REJECTED"); // no shares to sell: recorded, refused by the matcher
    const byHash = parses(orderRecord, (await h.call("GET", "/api/orders/lookup", { query: { orderHash: built.orderHash.toUpperCase().replace("0X", "0x") } })).body);
    expect(byHash.id).toBe(byCoid.id);
    expect((await h.call("GET", "/api/orders/lookup", { query: { clientOrderId: "look" }, wallet: 1 })).status).toBe(404);
    expect((await h.call("GET", `/api/orders/${byCoid.id}`, { wallet: 1 })).status).toBe(404);
    expect(codeOf((await h.call("GET", "/api/orders/lookup", { query: {} })).body)).toBe("invalid_request");
    expect((await h.call("GET", "/api/orders/lookup", { query: { clientOrderId: "look", orderHash: built.orderHash } })).status).toBe(400);
    expect(codeOf((await h.call("GET", "/api/orders/lookup", { query: { clientOrderId: "nope" } })).body)).toBe("order_not_found");
  });
});

describe("fills: placement trades, user_fill frames for both parties, fills and fees-summary", () => {
  it("a binary mint: each side sees the trade in its own token with its role", async () => {
    const h = setup();
    const makerId = await place(h, 0, { price: "0.55", quantity: "10", clientOrderId: "mk" });
    const taker = await h.order(1, { symbol: ARS, outcome: 1, side: "BUY", price: "0.45", quantity: "4", clientOrderId: "tk" });
    const r = (await h.call("POST", "/api/orders/place", { body: taker.body, wallet: 1 })).body as {
      orderId: string; status: string; trades: { price: string; outcome: number; makerOrderId: string; fee: string }[];
    };
    expect(r.status).toBe("FILLED");
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]).toMatchObject({ price: "0.45", outcome: 1, makerOrderId: makerId });
    // fee = ceil(100 * 0.45 * 0.55 * 4 / 10000) = 0.0099
    expect(r.trades[0]!.fee).toBe("0.0099");

    const mf = h.frames(0).filter((f) => f.type === "user_fill");
    const tf = h.frames(1).filter((f) => f.type === "user_fill");
    expect(mf).toHaveLength(1);
    expect(tf).toHaveLength(1);
    expect(mf[0]).toMatchObject({ role: "maker", orderId: makerId, clientOrderId: "mk", price: "0.55", outcome: 0, side: "BUY", quantity: "4", fee: "0", orderStatus: "PARTIAL", filledQty: "4", remainingQty: "6" });
    expect(tf[0]).toMatchObject({ role: "taker", orderId: r.orderId, clientOrderId: "tk", price: "0.45", outcome: 1, quantity: "4", fee: "0.0099", orderStatus: "FILLED" });
    // Taker frames: order_placed before its fill; every frame parses with the wire schema.
    expect(h.frames(1).map((f) => f.type)).toEqual(["order_placed", "user_fill"]);
    for (const f of [...h.frames(0), ...h.frames(1)]) {
      const parsed = parseServerFrame(f);
      expect(parsed.kind, JSON.stringify(f)).toBe("frame");
    }

    const fills = parses(orderFills, (await h.call("GET", `/api/orders/${makerId}/fills`)).body);
    expect(fills.fills).toHaveLength(1);
    expect(fills.fills[0]).toMatchObject({ price: "0.55", role: "maker", orderId: makerId });
    const fees = parses(orderFeesSummary, (await h.call("GET", `/api/orders/${r.orderId}/fees-summary`, { wallet: 1 })).body);
    expect(fees).toEqual({ orderId: r.orderId, feesPaid: "0.0099", fillCount: 1, filledQty: "4", notional: "1.8" });
    const makerFees = parses(orderFeesSummary, (await h.call("GET", `/api/orders/${makerId}/fees-summary`)).body);
    expect(makerFees).toMatchObject({ feesPaid: "0", notional: "2.2", filledQty: "4" });
  });

  it("an IOC that finds nothing is a REJECTED result of a recorded, cancelled order; a partial IOC is PARTIAL", async () => {
    const h = setup();
    const none = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.5", quantity: "1", timeInForce: "IOC" });
    const r = (await h.call("POST", "/api/orders/place", { body: none.body })).body as { status: string; code: string; orderId: string };
    expect(r).toMatchObject({ status: "REJECTED", code: "ioc_unfilled" });
    expect(parses(orderRecord, (await h.call("GET", `/api/orders/${r.orderId}`)).body).status).toBe("CANCELLED");
    await place(h, 1, { price: "0.55", quantity: "2" });
    const part = await h.order(0, { symbol: ARS, outcome: 1, side: "BUY", price: "0.45", quantity: "5", timeInForce: "IOC" });
    expect((await h.call("POST", "/api/orders/place", { body: part.body })).body).toMatchObject({ status: "PARTIAL", filledQty: "2", remainingQty: "3", orderStatus: "CANCELLED" });
  });
});

describe("GTD expiry", () => {
  it("expires on the clock with an order_expired frame", async () => {
    const h = setup();
    h.sim.start();
    try {
      const id = await place(h, 0, { timeInForce: "GTD", expiration: T0 / 1000 + 60 });
      await h.clock.advance(59_000);
      expect(h.sim.engine.isLive(id)).toBe(true);
      await h.clock.advance(1_000);
      expect(h.sim.engine.isLive(id)).toBe(false);
      const expired = h.frames(0).find((f) => f.type === "order_expired");
      expect(parseServerFrame(expired).kind).toBe("frame");
      expect(expired).toMatchObject({ orderId: id, status: "EXPIRED", originalQuantity: "1", remainingQty: "1", serverTs: T0 + 60_000 });
      expect(parses(orderRecord, (await h.call("GET", `/api/orders/${id}`)).body).status).toBe("EXPIRED");
    } finally {
      h.sim.stop();
    }
  });
});
