/**
 * Orders of one wallet (src/api/orders.ts, spec 4.6) through the client on a scripted transport:
 * every filter of the open-orders and history reads in the query, a walk started from a given
 * cursor, ids percent-encoded into the path, the lookup's 404 order_not_found as null (and only
 * that 404), reads retried on 5xx as idempotent, and cancels sent to their endpoints with the
 * wallet header. paging.test.ts covers the page walks themselves.
 */
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/index.js";
import { exampleOrderRecord, exampleTrade, ORDER_ID, WALLET } from "../wire/fixtures.js";
import { collect, envelope, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const page = (ids: string[], nextCursor: string | null) =>
  json(200, { walletAddress: WALLET, orders: ids.map((id) => exampleOrderRecord({ id })), nextCursor });

describe("reads", () => {
  it("open orders: market, side (either case), outcome, type, limit and cursor go in the query", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page([], null), page([], null));
    const orders = client.forWallet(WALLET).orders;
    await settle(clock, orders.openPage({ marketId: "SYM", side: "sell", outcome: 1, type: "limit", limit: 50, cursor: "k1" }));
    await settle(clock, orders.openPage());
    expect(transport.paths()).toEqual(["GET /api/orders/open?marketId=SYM&side=sell&outcome=1&type=limit&limit=50&cursor=k1", "GET /api/orders/open"]);
    expect(transport.requests.every((r) => r.headers["x-user-wallet"] === WALLET && r.headers["x-api-key"] !== undefined)).toBe(true);
  });

  it("history: the same filters plus status", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page([], null));
    await settle(clock, client.forWallet(WALLET).orders.historyPage({ side: "BUY", status: "CANCELLED", limit: 200 }));
    expect(transport.paths()).toEqual(["GET /api/orders/history?side=BUY&status=CANCELLED&limit=200"]);
  });

  it("a walk started from a cursor sends it first, and stops if the platform hands it back", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page(["a"], "k2"), page(["b"], null));
    const rows = await settle(clock, collect(client.forWallet(WALLET).orders.history({ cursor: "k1" })));
    expect(rows.map((r) => r.id)).toEqual(["a", "b"]);
    expect(transport.paths()).toEqual(["GET /api/orders/history?cursor=k1", "GET /api/orders/history?cursor=k2"]);

    const again = harness();
    again.transport.enqueue(page(["a"], "k1"));
    const e = (await rejectionOf(again.clock, collect(again.client.forWallet(WALLET).orders.open({ cursor: "k1" })))) as ApiError;
    expect(e.code).toBe("invalid_response");
  });

  it("an order id is one path segment: a slash or question mark in it cannot change the route", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleOrderRecord()), json(200, { orderId: ORDER_ID, fills: [exampleTrade()] }), json(200, { orderId: "x", feesPaid: "0", fillCount: 0, filledQty: "0", notional: "0" }));
    const orders = client.forWallet(WALLET).orders;
    await settle(clock, orders.get("a/b?c"));
    const fills = await settle(clock, orders.fills(ORDER_ID));
    await settle(clock, orders.feesSummary("x y"));
    expect(transport.paths()).toEqual(["GET /api/orders/a%2Fb%3Fc", `GET /api/orders/${ORDER_ID}/fills`, "GET /api/orders/x%20y/fees-summary"]);
    expect(fills.data.fills).toHaveLength(1);
  });

  it("lookup: only a 404 order_not_found is 'not recorded'; another 404 is an error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(404, "order_not_found"), envelope(404, "market_not_found"));
    const orders = client.forWallet(WALLET).orders;
    expect((await settle(clock, orders.lookup({ clientOrderId: "c-1" }))).data).toBeNull();
    const e = (await rejectionOf(clock, orders.lookup({ clientOrderId: "c-2" }))) as ApiError;
    expect(e).toMatchObject({ code: "market_not_found", status: 404 });
  });

  it("a read is idempotent: a 5xx is retried with backoff, up to 3 attempts", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(503, "exchange_unavailable"), envelope(502, "bad_gateway"), json(200, exampleOrderRecord()));
    const r = await settle(clock, client.forWallet(WALLET).orders.get(ORDER_ID));
    expect(r.data.id).toBe(ORDER_ID);
    expect(transport.requests).toHaveLength(3);
    expect(r.meta.attempts).toBe(3);
  });

  it("a record that does not match the wire schema is an error naming the field", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { ...exampleOrderRecord(), filledQty: -1 }));
    const e = (await rejectionOf(clock, client.forWallet(WALLET).orders.get(ORDER_ID))) as ApiError;
    expect(e.source).toBe("schema");
    expect(e.issues?.map((i) => i.path)).toContain("filledQty");
  });
});

describe("cancels", () => {
  it("single, batch and all go to their endpoints with their bodies and the wallet header", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      json(200, { orderId: "o1", status: "CANCELLED", filledQty: "0", remainingQty: "5" }),
      json(200, { cancelled: ["o2", "o3"], notCancelled: [] }),
      json(200, { cancelled: [], notCancelled: [] }),
    );
    const orders = client.forWallet(WALLET).orders;
    expect((await settle(clock, orders.cancel("o1"))).status).toBe("done");
    expect((await settle(clock, orders.cancelBatch(["o2", "o3"]))).status).toBe("answered");
    expect((await settle(clock, orders.cancelAll({ marketId: "SYM" }))).status).toBe("answered");
    expect(transport.requests.map((r) => [r.path, JSON.parse(r.body ?? "null") as unknown, r.headers["x-user-wallet"]])).toEqual([
      ["/api/orders/cancel", { orderId: "o1" }, WALLET],
      ["/api/orders/cancel-batch", { orderIds: ["o2", "o3"] }, WALLET],
      ["/api/orders/cancel-all", { marketId: "SYM" }, WALLET],
    ]);
  });
});
