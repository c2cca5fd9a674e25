import { describe, expect, it } from "vitest";
import {
  cancelAllBody,
  cancelBatchBody,
  cancelBody,
  checkPlaceBody,
  checkQuery,
  checkRequest,
  effectiveTimeInForce,
  openOrdersQuery,
  orderHistoryQuery,
  placeBatchBody,
  placeBatchEnvelope,
  placeBody,
  queryToObject,
  requestErrorEnvelope,
} from "../../src/wire/index.js";
import { examplePlaceBody, exampleSignedOrder } from "./fixtures.js";
import { expectInvalidAt, expectValid } from "./helpers.js";

describe("place body", () => {
  it("accepts the spec-gaps example and defaults postOnly to false", () => {
    const { postOnly: _p, ...body } = examplePlaceBody();
    const parsed = expectValid(placeBody, body);
    expect(parsed.postOnly).toBe(false);
    expect(parsed.order.feeRateBps).toBe(100);
  });

  it("names the bad field: a string feeRateBps inside the signed order", () => {
    const body = examplePlaceBody({ order: { ...exampleSignedOrder(), feeRateBps: "100" as never } });
    const err = expectInvalidAt(placeBody, body, "order.feeRateBps");
    expect(err.message).toContain("expected number");
  });

  it("refuses unknown keys (typo of clientOrderId) naming the key", () => {
    const check = checkPlaceBody({ ...examplePlaceBody(), clientOrderID: "x" });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.code).toBe("invalid_request");
      expect(check.fields).toEqual(["clientOrderID"]);
      expect(check.message).toContain("clientOrderID");
    }
  });

  it("maps bad price / quantity to invalid_amounts, off-grid price included", () => {
    for (const [field, value] of [
      ["price", "0.5555"],
      ["price", "0"],
      ["price", "1"],
      ["price", "abc"],
      ["quantity", "0"],
      ["quantity", "-5"],
      ["quantity", "1.0000001"],
    ] as const) {
      const check = checkPlaceBody({ ...examplePlaceBody(), [field]: value });
      expect(check.ok, `${field}=${value}`).toBe(false);
      if (!check.ok) {
        expect(check.code).toBe("invalid_amounts");
        expect(check.fields).toEqual([field]);
      }
    }
  });

  it("maps a negative outcome to invalid_outcome and other fields to invalid_request", () => {
    const a = checkPlaceBody({ ...examplePlaceBody(), outcome: -1 });
    expect(a.ok ? "" : a.code).toBe("invalid_outcome");
    const b = checkPlaceBody({ ...examplePlaceBody(), type: "stop" });
    expect(b.ok ? "" : b.code).toBe("invalid_request");
    const c = checkPlaceBody({ ...examplePlaceBody(), side: "buy" });
    expect(c.ok ? "" : c.fields).toEqual(["side"]);
  });

  it("market orders default to IOC, limit orders to GTC", () => {
    expect(effectiveTimeInForce("market", undefined)).toBe("IOC");
    expect(effectiveTimeInForce("limit", undefined)).toBe("GTC");
    expect(effectiveTimeInForce("limit", "GTD")).toBe("GTD");
  });

  it("requestErrorEnvelope carries details.fields and details.field", () => {
    const check = checkPlaceBody({ ...examplePlaceBody(), price: "0.5555" });
    if (check.ok) throw new Error("expected failure");
    const env = requestErrorEnvelope(check);
    expect(env.status).toBe(400);
    expect(env.error.code).toBe("invalid_amounts");
    expect(env.error.details).toEqual({ fields: ["price"], field: "price" });
  });
});

describe("batch and cancel bodies", () => {
  it("place-batch takes 1..15 orders", () => {
    expectValid(placeBatchBody, { orders: [examplePlaceBody()] });
    expectInvalidAt(placeBatchBody, { orders: [] }, "orders");
    expectInvalidAt(placeBatchBody, { orders: Array.from({ length: 16 }, () => examplePlaceBody()) }, "orders");
    expectInvalidAt(placeBatchBody, { orders: [examplePlaceBody(), { ...examplePlaceBody(), maker: "0x1" }] }, "orders[1].maker");
    // The envelope form leaves entries to per-entry validation.
    expectValid(placeBatchEnvelope, { orders: [{ anything: true }] });
  });

  it("cancel, cancel-batch (1..100) and cancel-all", () => {
    expectValid(cancelBody, { orderId: "abc" });
    expectInvalidAt(cancelBody, { orderId: 12 }, "orderId");
    expectValid(cancelBatchBody, { orderIds: ["a", "b"] });
    expectInvalidAt(cancelBatchBody, { orderIds: Array.from({ length: 101 }, (_, i) => `o${i}`) }, "orderIds");
    expectInvalidAt(cancelBatchBody, { orderIds: ["a", ""] }, "orderIds[1]");
    expectValid(cancelAllBody, {});
    expectValid(cancelAllBody, { marketId: "FIFA26-ARG-FRA-MW" });
    expect(checkRequest(cancelAllBody, { market: "x" })).toMatchObject({ ok: false, code: "invalid_request", fields: ["market"] });
  });
});

describe("order query strings (spec 4.6)", () => {
  it("open: filters parse either case, limit defaults to 500", () => {
    const r = checkQuery(openOrdersQuery, new URLSearchParams("marketId=SYM&side=sell&outcome=1&type=LIMIT"));
    expect(r).toEqual({ ok: true, value: { marketId: "SYM", side: "SELL", outcome: 1, type: "limit", limit: 500 } });
  });

  it("open: limit must be 1..500", () => {
    expect(checkQuery(openOrdersQuery, { limit: "500" })).toMatchObject({ ok: true, value: { limit: 500 } });
    for (const bad of ["0", "501", "ten", "-1", "1.5"]) {
      expect(checkQuery(openOrdersQuery, { limit: bad }), bad).toMatchObject({ ok: false, code: "invalid_request", fields: ["limit"] });
    }
  });

  it("undefined parameters are invalid_request naming the parameter", () => {
    const r = checkQuery(openOrdersQuery, new URLSearchParams("marketId=SYM&offset=10"));
    expect(r).toMatchObject({ ok: false, code: "invalid_request", fields: ["offset"] });
    const h = checkQuery(orderHistoryQuery, { statuses: "FILLED" });
    expect(h).toMatchObject({ ok: false, fields: ["statuses"] });
  });

  it("bad outcome / side / type name their field", () => {
    expect(checkQuery(openOrdersQuery, { outcome: "-1" })).toMatchObject({ ok: false, fields: ["outcome"] });
    expect(checkQuery(openOrdersQuery, { side: "long" })).toMatchObject({ ok: false, fields: ["side"] });
    expect(checkQuery(openOrdersQuery, { type: "stop" })).toMatchObject({ ok: false, fields: ["type"] });
    expect(checkQuery(openOrdersQuery, { cursor: "" })).toMatchObject({ ok: false, fields: ["cursor"] });
  });

  it("a repeated parameter is refused", () => {
    expect(queryToObject(new URLSearchParams("side=buy&side=sell"))).toEqual({ side: ["buy", "sell"] });
    expect(checkQuery(openOrdersQuery, new URLSearchParams("side=buy&side=sell"))).toMatchObject({ ok: false, fields: ["side"] });
  });

  it("history: default 100, above 200 clamped, below 1 refused, status either case", () => {
    expect(checkQuery(orderHistoryQuery, {})).toEqual({ ok: true, value: { limit: 100 } });
    expect(checkQuery(orderHistoryQuery, { limit: "1000" })).toMatchObject({ ok: true, value: { limit: 200 } });
    expect(checkQuery(orderHistoryQuery, { limit: "0" })).toMatchObject({ ok: false, fields: ["limit"] });
    expect(checkQuery(orderHistoryQuery, { status: "cancelled" })).toMatchObject({ ok: true, value: { status: "CANCELLED" } });
    expect(checkQuery(orderHistoryQuery, { status: "DONE" })).toMatchObject({ ok: false, code: "invalid_request", fields: ["status"] });
  });
});
