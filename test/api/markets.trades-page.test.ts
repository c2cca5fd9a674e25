/** `markets.tradesPage`: the same request as `markets.trades`, its rows unchecked; `trades` stays strict. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.js";
import { exampleTrade, SYMBOL } from "../wire/fixtures.js";
import { json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

describe("markets.tradesPage", () => {
  it("sends what trades() sends and hands back every row unchecked", async () => {
    const { clock, transport, client } = harness();
    const { price: _p, ...noPrice } = exampleTrade({ id: "bad" });
    const body = { trades: [exampleTrade({ id: "a" }), noPrice, 7], nextCursor: null };
    transport.enqueue(json(200, body), json(200, body));
    const page = await settle(clock, client.markets.tradesPage(SYMBOL, { limit: 200, after: "2026-01-01T00:00:00.000Z" }));
    expect(page.data.trades).toEqual(body.trades);
    // The typed reader refuses the same page whole.
    const err = await rejectionOf(clock, client.markets.trades(SYMBOL, { limit: 200, after: "2026-01-01T00:00:00.000Z" }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).source).toBe("schema");
    expect(transport.paths()).toEqual([
      `GET /api/markets/${SYMBOL}/trades?limit=200&after=2026-01-01T00%3A00%3A00.000Z`,
      `GET /api/markets/${SYMBOL}/trades?limit=200&after=2026-01-01T00%3A00%3A00.000Z`,
    ]);
  });

  it("refuses a page whose trades are not an array", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { trades: { a: 1 } }));
    const err = await rejectionOf(clock, client.markets.tradesPage(SYMBOL));
    expect((err as ApiError).source).toBe("schema");
  });
});
