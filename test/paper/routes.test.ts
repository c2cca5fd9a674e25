/**
 * The keyed routes paper mode answers from the paper account (paper/routes.ts), in the wire's
 * shapes: placements (through the modelled exchange, one or a batch, each refusal in its place),
 * cancels, the order reads (open, history newest first, lookup, by id) with their paging and
 * filters, the wallet's reads, and 501 for a keyed route paper mode never sends. Bad bodies,
 * cursors, limits and a maker that is not the wallet or its vault are refused naming the field.
 */
import { describe, expect, it } from "vitest";
import { parseMicros as m } from "../../src/core/money.js";
import { COUNTERPARTY, PaperAccount } from "../../src/paper/account.js";
import { W, paperPlaceBody } from "./fixtures.js";
import { answerPaperRoute, isPaperRoute, type PaperRouteContext, type RouteAnswer } from "../../src/paper/routes.js";

const T0 = Date.UTC(2026, 0, 1, 12);
const VAULT = "0x00000000000000000000000000000000000000ee";
const iso = (ms: number): string => new Date(ms).toISOString();

function setup() {
  const clock = { now: T0 };
  const account = new PaperAccount({ wallets: [W], startingCash: m("1000"), queue: { kind: "risk-averse" }, now: () => clock.now });
  account.observeMarket({ symbol: "MKT", status: "OPEN", outcomeCount: 2, feeTakerBps: 200, negRiskEligible: false, tokenIds: ["11", "12"] });
  // YES: bids 0.40 x 100, asks 0.45 x 50
  account.observeBook("MKT", 0, [[m("0.40"), m("100")]], [[m("0.45"), m("50")]]);
  let hashes = 0;
  const ctx: PaperRouteContext = { account, wallet: W, vaultOf: () => VAULT, orderHashOf: () => `0xhash${++hashes}`, now: () => clock.now };
  const atExchange: string[] = [];
  const call = (method: string, path: string, body?: unknown): Promise<RouteAnswer> => {
    const url = new URL(path, "http://paper.invalid");
    return answerPaperRoute(ctx, method, url.pathname, url.searchParams, body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body), (fn) => {
      atExchange.push(`${method} ${url.pathname}`);
      return Promise.resolve(fn());
    });
  };
  return { clock, account, call, atExchange };
}

const place = paperPlaceBody;

const error = (status: number, code: string) => ({ status, body: { status, error: expect.objectContaining({ code }) } });

describe("which routes are paper routes", () => {
  it("orders, the wallet's reads, vault, withdrawals and partner routes; nothing public", () => {
    for (const p of ["/api/orders", "/api/orders/place", "/api/me/balances", "/api/vault/deposit", "/api/withdrawals", "/api/v1/partner/keys"]) expect(isPaperRoute(p), p).toBe(true);
    for (const p of ["/api/markets", "/api/markets/MKT/orderbook", "/api/me2", "/api/ordersx", "/health"]) expect(isPaperRoute(p), p).toBe(false);
  });
});

describe("placing", () => {
  it("rests an order at the modelled exchange and answers it; the order reads show it", async () => {
    const { call, atExchange } = setup();
    const r = await call("POST", "/api/orders/place", place());
    expect(atExchange).toEqual(["POST /api/orders/place"]);
    expect(r.status).toBe(201);
    const id = (r.body as { orderId: string }).orderId;
    expect(r.body).toEqual({ orderId: id, status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] });
    const record = {
      id,
      clientOrderId: "c1",
      orderHash: "0xhash1",
      walletAddress: W,
      marketId: "MKT",
      tokenId: "11",
      outcome: 0,
      side: "BUY",
      type: "limit",
      timeInForce: "GTC",
      postOnly: true,
      price: "0.41",
      originalQuantity: "10",
      filledQty: "0",
      remainingQty: "10",
      status: "OPEN",
      expiration: "0",
      createdAt: iso(T0),
      updatedAt: iso(T0),
    };
    expect(await call("GET", "/api/orders/open")).toEqual({ status: 200, body: { walletAddress: W, orders: [record], nextCursor: null } });
    expect(await call("GET", `/api/orders/${id}`)).toEqual({ status: 200, body: record });
    expect(await call("GET", "/api/orders/lookup?clientOrderId=c1")).toEqual({ status: 200, body: record });
    expect(await call("GET", "/api/orders/lookup?orderHash=0xhash1")).toEqual({ status: 200, body: record });
    expect(await call("GET", "/api/orders/nope")).toEqual(error(404, "order_not_found"));
    expect(await call("GET", "/api/orders/lookup?clientOrderId=zz")).toEqual(error(404, "order_not_found"));
    const both = await call("GET", "/api/orders/lookup?clientOrderId=c1&orderHash=0xhash1");
    expect(both).toEqual(error(400, "invalid_request"));
    expect((both.body as { error: { details: unknown } }).error.details).toEqual({ fields: ["clientOrderId", "orderHash"], field: "clientOrderId" });
    expect(await call("GET", "/api/orders/lookup")).toEqual(error(400, "invalid_request"));
  });

  it("takes the book as taker and answers the trades; the wallet's trades show its role", async () => {
    const { call, clock } = setup();
    clock.now = T0 + 5_000;
    const r = await call("POST", "/api/orders/place", place({ price: "0.46", quantity: "20", postOnly: false }, { makerAmount: "9200000", takerAmount: "20000000" }));
    const body = r.body as { orderId: string; trades: { id: string }[] };
    // 20 x 0.45 at 200 bps: fee 0.02 x 0.45 x 0.55 x 20 = 0.099
    const trade = {
      id: body.trades[0]!.id,
      marketId: "MKT",
      tokenId: "11",
      outcome: 0,
      side: "BUY",
      price: "0.45",
      quantity: "20",
      fee: "0.099",
      feeRateBps: 200,
      makerOrderId: "paper-counterparty",
      takerOrderId: body.orderId,
      makerWallet: COUNTERPARTY,
      takerWallet: W,
      createdAt: iso(T0 + 5_000),
    };
    expect(r).toEqual({ status: 201, body: { orderId: body.orderId, status: "FILLED", filledQty: "20", remainingQty: "0", trades: [trade] } });
    expect(await call("GET", "/api/me/trades")).toEqual({ status: 200, body: { trades: [{ ...trade, role: "taker", orderId: body.orderId }], nextCursor: null } });
    expect((await call("GET", `/api/me/trades?before=${T0 + 5_000}`)).body).toEqual({ trades: [], nextCursor: null });
    expect(((await call("GET", `/api/me/trades?before=${iso(T0 + 5_001)}`)).body as { trades: unknown[] }).trades).toHaveLength(1);
    expect(await call("GET", "/api/me/trades?before=yesterday")).toEqual(error(400, "invalid_request"));
    // 1000 - 9 - 0.099, 20 YES at 0.45
    expect(await call("GET", "/api/me/balances")).toEqual({ status: 200, body: { walletAddress: W, vaultAddress: VAULT, collateral: { total: "990.901", locked: "0", available: "990.901" } } });
    expect(await call("GET", "/api/me/positions")).toEqual({ status: 200, body: { walletAddress: W, positions: [{ marketId: "MKT", tokenId: "11", outcome: 0, quantity: "20", locked: "0", avgPrice: "0.45" }], nextCursor: null } });
  });

  it("answers a refusal as a REJECTED placement", async () => {
    const { call } = setup();
    const r = await call("POST", "/api/orders/place", place({ price: "0.45" }, { makerAmount: "4500000" }));
    expect(r).toEqual({ status: 201, body: { orderId: null, status: "REJECTED", filledQty: "0", remainingQty: "0", trades: [], code: "post_only_would_cross", message: expect.any(String) } });
  });

  it("finds the market by token id when the body does not name it", async () => {
    const { call } = setup();
    const r = await call("POST", "/api/orders/place", place({ marketId: undefined, outcome: undefined }, { tokenId: "12", makerAmount: "4100000" }));
    expect(r.body).toMatchObject({ status: "OPEN" });
    expect((await call("GET", "/api/orders/open?outcome=1")).body).toMatchObject({ orders: [{ marketId: "MKT", outcome: 1, tokenId: "12" }] });
    const unknown = await call("POST", "/api/orders/place", place({ marketId: undefined, outcome: undefined }, { tokenId: "99" }));
    expect(unknown).toEqual(error(400, "invalid_request"));
    expect((unknown.body as { error: { message: string } }).error.message).toBe("marketId and outcome are needed in paper mode (the token id is not among the markets read)");
  });

  it("refuses a bad body, a maker that is not the wallet or its vault, a side the signature does not carry", async () => {
    const { call, atExchange } = setup();
    const bad = await call("POST", "/api/orders/place", place({ price: "x" }));
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { details: { fields: string[] } } }).error.details.fields).toContain("price");
    expect((await call("POST", "/api/orders/place", "{not json")).status).toBe(400);
    expect(atExchange).toEqual([]);
    expect(await call("POST", "/api/orders/place", place({ maker: "0x00000000000000000000000000000000000000bb" }))).toEqual(error(403, "maker_mismatch"));
    expect((await call("POST", "/api/orders/place", place({ maker: VAULT }))).body).toMatchObject({ status: "OPEN" });
    const side = await call("POST", "/api/orders/place", place({}, { side: 1 }));
    expect(side).toEqual(error(400, "invalid_request"));
    expect((side.body as { error: { message: string; details: unknown } }).error).toMatchObject({ message: "side does not match the signed side", details: { fields: ["side"], field: "side" } });
  });

  it("places a batch at once, each entry answered in its place", async () => {
    const { call, atExchange } = setup();
    const r = await call("POST", "/api/orders/place-batch", { orders: [place(), place({ price: "nope", clientOrderId: "c2" }), place({ maker: VAULT.replace("ee", "dd"), clientOrderId: "c3" })] });
    expect(atExchange).toEqual(["POST /api/orders/place-batch"]);
    const results = (r.body as { results: Record<string, unknown>[] }).results;
    expect(r.status).toBe(201);
    expect(results[0]).toMatchObject({ success: true, status: "OPEN", remainingQty: "10" });
    expect(results[1]).toMatchObject({ success: false, status: "REJECTED", orderId: null });
    expect(results[2]).toEqual({ success: false, status: "REJECTED", code: "maker_mismatch", message: "maker must be the effective wallet or its vault", orderId: null, clientOrderId: "c3" });
    expect(await call("POST", "/api/orders/place-batch", { orders: [] })).toEqual(error(400, "invalid_request"));
  });
});

describe("cancelling", () => {
  async function resting(n: number) {
    const s = setup();
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(((await s.call("POST", "/api/orders/place", place({ clientOrderId: `c${i}`, price: "0.3", quantity: "1" }, { makerAmount: "300000", takerAmount: "1000000" }))).body as { orderId: string }).orderId);
    return { ...s, ids };
  }

  it("cancels one order once; again it is not cancellable, an unknown one not found", async () => {
    const { call, ids } = await resting(1);
    expect(await call("POST", "/api/orders/cancel", { orderId: ids[0] })).toEqual({ status: 200, body: { orderId: ids[0], status: "CANCELLED", filledQty: "0", remainingQty: "1" } });
    expect(await call("POST", "/api/orders/cancel", { orderId: ids[0] })).toEqual(error(409, "not_cancellable"));
    expect(await call("POST", "/api/orders/cancel", { orderId: "nope" })).toEqual(error(404, "order_not_found"));
    expect(await call("POST", "/api/orders/cancel", { id: "x" })).toEqual(error(400, "invalid_request"));
  });

  it("cancels a batch, listing what could not be cancelled, and all of a market's", async () => {
    const { call, ids } = await resting(3);
    expect(await call("POST", "/api/orders/cancel-batch", { orderIds: [ids[0], "nope"] })).toEqual({
      status: 200,
      body: { cancelled: [ids[0]], notCancelled: [{ orderId: "nope", code: "order_not_found", message: expect.any(String) }] },
    });
    expect(await call("POST", "/api/orders/cancel-all", { marketId: "OTHER" })).toEqual({ status: 200, body: { cancelled: [], notCancelled: [] } });
    expect(await call("POST", "/api/orders/cancel-all", {})).toEqual({ status: 200, body: { cancelled: [ids[1], ids[2]], notCancelled: [] } });
    expect((await call("GET", "/api/orders/open")).body).toMatchObject({ orders: [] });
  });
});

describe("reading orders page by page", () => {
  async function three() {
    const s = setup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      s.clock.now = T0 + i * 1_000;
      const side = i === 1 ? { side: "SELL", price: "0.9", quantity: "1" } : { price: "0.3", quantity: "1" };
      // the SELL is refused (no shares): it ends REJECTED, not in the history
      ids.push(((await s.call("POST", "/api/orders/place", place({ clientOrderId: `c${i}`, ...side }, { makerAmount: "300000", takerAmount: "1000000", side: i === 1 ? 1 : 0 }))).body as { orderId: string }).orderId);
    }
    return { ...s, ids };
  }

  it("gives the history newest first, in pages with an opaque cursor", async () => {
    const { call, ids } = await three();
    const live = [ids[2]!, ids[0]!];
    await call("POST", "/api/orders/cancel", { orderId: ids[0] });
    const all = (await call("GET", "/api/orders/history")).body as { orders: { id: string; status: string }[]; nextCursor: string | null };
    expect(all.orders.map((o) => [o.id, o.status])).toEqual([
      [live[0], "OPEN"],
      [live[1], "CANCELLED"],
    ]);
    expect(all.nextCursor).toBeNull();
    const first = (await call("GET", "/api/orders/history?limit=1")).body as { orders: { id: string }[]; nextCursor: string };
    expect(first.orders.map((o) => o.id)).toEqual([live[0]]);
    expect(Buffer.from(first.nextCursor, "base64url").toString()).toBe("paper:1");
    const second = (await call("GET", `/api/orders/history?limit=1&cursor=${first.nextCursor}`)).body as { orders: { id: string }[]; nextCursor: string | null };
    expect([second.orders.map((o) => o.id), second.nextCursor]).toEqual([[live[1]], null]);
    expect((await call("GET", "/api/orders/history?status=cancelled")).body).toMatchObject({ orders: [{ id: live[1] }] });
    expect((await call("GET", "/api/orders/open?side=sell")).body).toMatchObject({ orders: [] });
    expect((await call("GET", "/api/orders/open?side=buy&marketId=MKT")).body).toMatchObject({ orders: [{ id: live[0] }] });
  });

  it("refuses a cursor it did not give and a limit that is not a positive integer", async () => {
    const { call } = await three();
    const cursor = await call("GET", `/api/orders/open?cursor=${Buffer.from("other:1").toString("base64url")}`);
    expect(cursor).toEqual(error(400, "invalid_request"));
    expect((cursor.body as { error: { message: string } }).error.message).toBe("cursor is not a cursor of this endpoint");
    for (const l of ["0", "-1", "abc", "1.5"]) expect(await call("GET", `/api/orders/history?limit=${l}`), l).toEqual(error(400, "invalid_request"));
    expect(((await call("GET", "/api/orders/history?limit=999999")).body as { orders: unknown[] }).orders).toHaveLength(2);
  });
});

describe("the wallet's reads", () => {
  it("vault, balances with what resting orders lock, and the fixed answers", async () => {
    const { call } = setup();
    await call("POST", "/api/orders/place", place());
    expect(await call("GET", "/api/me/vault")).toEqual({ status: 200, body: { walletAddress: W, vaultAddress: VAULT, deployed: true } });
    // BUY 10 at 0.41 locks 4.1 and the largest fee 10 shares can pay at 200 bps (0.02 x 0.25 x 10 = 0.05)
    expect(await call("GET", "/api/me/balances")).toEqual({ status: 200, body: { walletAddress: W, vaultAddress: VAULT, collateral: { total: "1000", locked: "4.15", available: "995.85" } } });
    expect(await call("GET", "/api/me/positions")).toEqual({ status: 200, body: { walletAddress: W, positions: [], nextCursor: null } });
    expect(await call("GET", "/api/me/fee-tier")).toEqual({ status: 200, body: { walletAddress: W, tier: "paper", makerBps: 0 } });
    expect(await call("GET", "/api/me/auto-redeem")).toEqual({ status: 200, body: { walletAddress: W, enabled: false } });
    expect(await call("GET", "/api/me/balance-events")).toEqual({ status: 200, body: { walletAddress: W, events: [], nextCursor: null } });
    for (const p of ["/api/me/splits-merges", "/api/me/splits-merges/unlockable"]) expect(await call("GET", p)).toEqual({ status: 200, body: { walletAddress: W, operations: [], nextCursor: null } });
  });

  it("answers 501 for a keyed route paper mode never sends", async () => {
    const { call } = setup();
    const r = await call("POST", "/api/vault/deposit", {});
    expect(r).toEqual(error(501, "not_implemented"));
    expect((r.body as { error: { message: string } }).error.message).toBe("POST /api/vault/deposit is not modelled in paper mode (nothing is sent to the platform)");
    expect(await call("DELETE", "/api/orders/o1")).toEqual(error(501, "not_implemented"));
  });
});
