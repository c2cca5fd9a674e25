import { describe, expect, it } from "vitest";
import { errorEnvelopeSchema, orderRecord, placeBatchResult } from "../../../src/wire/index.js";
import { codeOf, parses, setup } from "./harness.js";

const ARS = "ARS-CHE-ARS";

describe("clientOrderId dedupe (per wallet)", () => {
  it("the same clientOrderId twice gives ONE order and the same placement result", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "2", clientOrderId: "dup-1" });
    const a = await h.call("POST", "/api/orders/place", { body });
    const b = await h.call("POST", "/api/orders/place", { body });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(h.sim.desk.records.size).toBe(1);
    expect(h.sim.engine.openOrders(h.wallets[0]!.address)).toHaveLength(1);
    // A different order under the same id is still the first one, never a second order.
    const other = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.3", quantity: "9", clientOrderId: "dup-1" });
    expect((await h.call("POST", "/api/orders/place", { body: other.body })).body).toEqual(a.body);
    expect(h.sim.desk.records.size).toBe(1);
    expect(h.frames(0).filter((f) => f.type === "order_placed")).toHaveLength(1);
  });

  it("is per wallet: another wallet may use the same id", async () => {
    const h = setup();
    const a = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "same" });
    const b = await h.order(1, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "same" });
    const ra = (await h.call("POST", "/api/orders/place", { body: a.body })).body as { orderId: string };
    const rb = (await h.call("POST", "/api/orders/place", { body: b.body, wallet: 1 })).body as { orderId: string };
    expect(ra.orderId).not.toBe(rb.orderId);
    expect(h.sim.desk.records.size).toBe(2);
  });

  it("a request refused before the matcher records nothing: the id can be reused once fixed", async () => {
    const h = setup();
    const bad = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "fix-me", maker: h.wallets[2]!.address });
    expect(codeOf((await h.call("POST", "/api/orders/place", { body: bad.body })).body)).toBe("maker_mismatch");
    const good = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "fix-me" });
    expect((await h.call("POST", "/api/orders/place", { body: good.body })).body).toMatchObject({ status: "OPEN" });
  });

  it("a matcher reject is recorded: the same id replays the REJECTED result with its order id", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.5", quantity: "50000", clientOrderId: "poor" });
    const first = await h.call("POST", "/api/orders/place", { body });
    expect(first.body).toMatchObject({ status: "REJECTED", code: "insufficient_funds" });
    h.sim.fund(h.wallets[0]!.address, 100_000_000_000n);
    expect((await h.call("POST", "/api/orders/place", { body })).body).toEqual(first.body);
  });

  it("two requests with the same id in flight at once: one order, the other gets 500 idempotency_race", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "race" });
    const [a, b] = await Promise.all([h.call("POST", "/api/orders/place", { body }), h.call("POST", "/api/orders/place", { body })]);
    expect([a.status, b.status].sort()).toEqual([201, 500]);
    expect(codeOf((a.status === 500 ? a : b).body)).toBe("idempotency_race");
    expect(h.sim.desk.records.size).toBe(1);
  });
});

describe("faults on placement (ctx.fault)", () => {
  it("trading_temporarily_unavailable: 503 retryable, nothing recorded; the resend then works", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/place", kind: "trading_temporarily_unavailable", nextCalls: 1 }] });
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "busy" });
    const r = await h.call("POST", "/api/orders/place", { body });
    expect(r.status).toBe(503);
    expect(parses(errorEnvelopeSchema, r.body).error).toMatchObject({ code: "trading_temporarily_unavailable", retryable: true });
    expect(h.sim.desk.records.size).toBe(0);
    expect((await h.call("POST", "/api/orders/place", { body })).body).toMatchObject({ status: "OPEN" });
  });

  it("shard_owner_unavailable: 503 with Retry-After 2, nothing recorded", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/*", kind: "shard_owner_unavailable", nextCalls: 1 }] });
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    const r = await h.call("POST", "/api/orders/place", { body });
    expect(r.status).toBe(503);
    expect(r.headers?.["Retry-After"]).toBe("2");
    expect(codeOf(r.body)).toBe("shard_owner_unavailable");
    expect(h.sim.desk.records.size).toBe(0);
  });

  it("exchange_unavailable with execute: 503, but the order IS recorded (lookup finds it, a resend replays it)", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/place", kind: "exchange_unavailable", execute: true, nextCalls: 1 }] });
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "lost" });
    const r = await h.call("POST", "/api/orders/place", { body });
    expect(r.status).toBe(503);
    expect(codeOf(r.body)).toBe("exchange_unavailable");
    const found = await h.call("GET", "/api/orders/lookup", { query: { clientOrderId: "lost" } });
    expect(parses(orderRecord, found.body).status).toBe("OPEN");
    const again = await h.call("POST", "/api/orders/place", { body });
    expect(again.body).toMatchObject({ status: "OPEN", orderId: (found.body as { id: string }).id });
    expect(h.sim.desk.records.size).toBe(1);
  });

  it("exchange_unavailable without execute records nothing; idempotency_race records and loses the answer", async () => {
    const h = setup({
      faults: [
        { route: "POST /api/orders/place", kind: "exchange_unavailable", execute: false, nextCalls: 1 },
        { route: "POST /api/orders/place", kind: "idempotency_race", nextCalls: 1 },
      ],
    });
    const a = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", clientOrderId: "x1" });
    expect((await h.call("POST", "/api/orders/place", { body: a.body })).status).toBe(503);
    expect(h.sim.desk.records.size).toBe(0);
    const r = await h.call("POST", "/api/orders/place", { body: a.body });
    expect(r.status).toBe(500);
    expect(codeOf(r.body)).toBe("idempotency_race");
    expect(h.sim.desk.records.size).toBe(1);
  });
});

describe("POST /api/orders/place-batch", () => {
  it("answers per entry in request order: accepted, per-entry REJECTED, refused entries, busy-journal entries", async () => {
    const h = setup({ faults: [{ route: "POST /api/orders/place-batch", kind: "journal_intent_not_durable", probability: 1, nextCalls: 1 }] });
    const e0 = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.41", quantity: "1", clientOrderId: "b0" });
    const e1 = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.42", quantity: "1", clientOrderId: "b1" });
    const e2 = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.43", quantity: "1", clientOrderId: "b2", maker: h.wallets[1]!.vault });
    const e3 = { ...e1.body, price: "2", clientOrderId: "b3" };
    const r = await h.call("POST", "/api/orders/place-batch", { body: { orders: [e0.body, e1.body, e2.body, e3] } });
    expect(r.status).toBe(201);
    const { results } = parses(placeBatchResult, r.body);
    expect(results).toHaveLength(4);
    // The first entry that reached the journal was refused as busy; the next one went through.
    expect(results[0]).toMatchObject({ success: false, code: "journal_intent_not_durable", details: { retryable: true }, clientOrderId: "b0" });
    expect(results[1]).toMatchObject({ success: true, status: "OPEN" });
    expect(results[2]).toMatchObject({ success: false, status: "REJECTED", code: "maker_mismatch" });
    expect(results[3]).toMatchObject({ success: false, code: "invalid_amounts", clientOrderId: "b3" });
    expect(h.sim.desk.records.size).toBe(1);
    // The refused entry resent alone goes through.
    const again = await h.call("POST", "/api/orders/place-batch", { body: { orders: [e0.body] } });
    expect(parses(placeBatchResult, again.body).results[0]).toMatchObject({ success: true, status: "OPEN" });
  });

  it("refuses 0 or more than 15 entries with 400 invalid_request", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    for (const orders of [[], Array.from({ length: 16 }, () => body)]) {
      const r = await h.call("POST", "/api/orders/place-batch", { body: { orders } });
      expect(r.status).toBe(400);
      expect(codeOf(r.body)).toBe("invalid_request");
    }
  });
});
