import { describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/index.js";
import { exampleEvent, exampleMarket, exampleOrderRecord, exampleTrade, WALLET } from "../wire/fixtures.js";
import { collect, envelope, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const order = (n: number) => exampleOrderRecord({ id: uuid(n), clientOrderId: `c-${n}` });
const page = (ns: number[], nextCursor: string | null) => json(200, { walletAddress: WALLET, orders: ns.map(order), nextCursor });

describe("open orders iterator", () => {
  it("returns every order once across pages, passing nextCursor back, stopping at null", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page([1, 2, 3], "cur-a"), page([3, 4, 5], "cur-b"), page([6], null));
    const orders = await settle(clock, collect(client.forWallet(WALLET).orders.open({ marketId: "SYM", limit: 3 })));
    expect(orders.map((o) => o.clientOrderId)).toEqual(["c-1", "c-2", "c-3", "c-4", "c-5", "c-6"]);
    expect(transport.paths()).toEqual([
      "GET /api/orders/open?marketId=SYM&limit=3",
      "GET /api/orders/open?marketId=SYM&limit=3&cursor=cur-a",
      "GET /api/orders/open?marketId=SYM&limit=3&cursor=cur-b",
    ]);
    expect(transport.requests.every((r) => r.headers["x-user-wallet"] === WALLET)).toBe(true);
  });

  it("an empty first page with a null cursor ends at once", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page([], null));
    expect(await settle(clock, collect(client.orders.open()))).toEqual([]);
    expect(transport.requests).toHaveLength(1);
  });

  it("a cursor that comes back again stops the walk with an error instead of looping", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page([1], "cur-a"), page([2], "cur-b"), page([3], "cur-a"));
    const e = (await rejectionOf(clock, collect(client.orders.open()))) as ApiError;
    expect(e.code).toBe("invalid_response");
    expect(transport.requests).toHaveLength(3);
  });

  it("history pages the same way, with its status filter", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page([1], "h1"), page([2], null));
    const rows = await settle(clock, collect(client.orders.history({ status: "FILLED" })));
    expect(rows).toHaveLength(2);
    expect(transport.paths()).toEqual(["GET /api/orders/history?status=FILLED", "GET /api/orders/history?status=FILLED&cursor=h1"]);
  });
});

describe("events walker (spec 4.2 rule 1)", () => {
  const ev = (n: number) => exampleEvent({ id: uuid(n), slug: `e-${n}` });
  const evPage = (ns: number[]) => json(200, { events: ns.map(ev) });

  it("walks page=1.. with limit=100 until an empty page, de-duplicated by id", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(evPage([1, 2, 3]), evPage([3, 4]), evPage([2, 5]), evPage([]));
    const events = await settle(clock, collect(client.events.walk({ tag: ["wc", "ucl"], vertical: "football" })));
    expect(events.map((e) => e.slug)).toEqual(["e-1", "e-2", "e-3", "e-4", "e-5"]);
    expect(transport.paths()).toEqual([1, 2, 3, 4].map((p) => `GET /api/events?tag=wc&tag=ucl&vertical=football&page=${p}&limit=100`));
    expect(transport.requests.every((r) => r.headers["x-api-key"] === undefined)).toBe(true);
  });

  it("stops at maxPages if the platform never answers an empty page", async () => {
    const { clock, transport, client } = harness();
    transport.route("GET", /^\/api\/events/, evPage([1]));
    const events = await settle(clock, collect(client.events.walk({}, { maxPages: 5 })));
    expect(events).toHaveLength(1);
    expect(transport.requests).toHaveLength(5);
  });
});

describe("markets iterator (offset + hasMore)", () => {
  it("steps the offset by the rows served until hasMore is false", async () => {
    const { clock, transport, client } = harness();
    const m = (n: number) => exampleMarket({ id: uuid(n), slug: `m-${n}` });
    transport.enqueue(json(200, { markets: [m(1), m(2)], hasMore: true }), json(200, { markets: [m(3)], hasMore: false }));
    const markets = await settle(clock, collect(client.markets.iterate({ limit: 2 })));
    expect(markets.map((x) => x.slug)).toEqual(["m-1", "m-2", "m-3"]);
    expect(transport.paths()).toEqual(["GET /api/markets?limit=2&offset=0", "GET /api/markets?limit=2&offset=2"]);
  });
});

describe("portfolio iterators", () => {
  it("positions and trades follow nextCursor", async () => {
    const { clock, transport, client } = harness();
    const pos = (marketId: string) => ({ marketId, tokenId: "1", outcome: 0, quantity: "1", locked: "0", avgPrice: null });
    transport.enqueue(
      json(200, { walletAddress: WALLET, positions: [pos("A")], nextCursor: "p2" }),
      json(200, { walletAddress: WALLET, positions: [pos("B")], nextCursor: null }),
    );
    const positions = await settle(clock, collect(client.portfolio.positions({ limit: 1 })));
    expect(positions.map((p) => p.marketId)).toEqual(["A", "B"]);

    const t = (id: string) => ({ ...exampleTrade({ id }), role: "maker", orderId: "o" });
    transport.enqueue(json(200, { trades: [t("t1"), t("t2")], nextCursor: "c" }), json(200, { trades: [t("t2"), t("t3")], nextCursor: null }));
    const trades = await settle(clock, collect(client.portfolio.trades()));
    expect(trades.map((x) => x.id)).toEqual(["t1", "t2", "t3"]);
    expect(transport.paths().slice(2)).toEqual(["GET /api/me/trades", "GET /api/me/trades?cursor=c"]);
  });
});

describe("lookup", () => {
  it("finds by clientOrderId or orderHash; 404 order_not_found is null, not an error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, order(1)), envelope(404, "order_not_found"));
    const found = await settle(clock, client.orders.lookup({ clientOrderId: "c-1" }));
    expect(found.data?.id).toBe(uuid(1));
    const missing = await settle(clock, client.orders.lookup({ orderHash: "0xab" }));
    expect(missing.data).toBeNull();
    expect(transport.paths()).toEqual(["GET /api/orders/lookup?clientOrderId=c-1", "GET /api/orders/lookup?orderHash=0xab"]);
  });
});
