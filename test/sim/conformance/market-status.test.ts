/**
 * Second pass over spec 3.1: which statuses form the open set of the default lists and which
 * are post-trading (closed=true and detail lookups), that only OPEN / PRE_MARKET take orders,
 * PRE_MARKET post-only (a crossing post-only order does not trade), resting orders across
 * administrative holds, and settlement ending resting orders.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boot, expectEnvelope, specOnlyBody, type Conformance, type Json, type OrderSpec } from "./harness.js";

let c: Conformance;
beforeEach(async () => {
  c = await boot();
});
afterEach(async () => {
  await c.close();
});

type Spec = Omit<OrderSpec, "quantity"> & { quantity?: string };

async function place(w: number, spec: Spec, postOnly = false): Promise<{ status: number; body: Json }> {
  const { body } = await c.order(w, { quantity: "2", ...spec, ...(postOnly ? { postOnly: true } : {}) });
  // postOnly is one of our documented extra fields: send the full body
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body: postOnly ? body : specOnlyBody(body) });
  return { status: r.status, body: r.body };
}

async function move(symbol: string, trigger: string): Promise<void> {
  const r = await c.send(`/sim/markets/${symbol}/status`, { body: { trigger } });
  expect(r.status, r.text).toBe(200);
}

const symbols = async (q: string): Promise<string[]> => ((await c.send(`/api/markets${q}`)).body.markets as Json[]).map((m): string => String(m.symbol));

function refused(r: { status: number; body: Json }): void {
  const code = r.status === 201 ? r.body.code : r.body.error?.code;
  expect(code, JSON.stringify(r.body)).toBe("market_not_open");
  if (r.status === 201) expect(r.body.status).toBe("REJECTED");
  else expect(r.status).toBe(409);
}

describe("3.1 the open set: PRE_MARKET, OPEN, PAUSED, POSTPONED on the default list", () => {
  it("PAUSED and POSTPONED stay on the default list (not on closed=true) and refuse orders", async () => {
    await move("ARS-CHE-ARS", "pause");
    await move("ARS-CHE-CHE", "postpone");
    const open = await symbols("");
    expect(open).toEqual(expect.arrayContaining(["ARS-CHE-ARS", "ARS-CHE-CHE"]));
    const closed = await symbols("?closed=true");
    expect(closed).not.toContain("ARS-CHE-ARS");
    expect(closed).not.toContain("ARS-CHE-CHE");
    expect(await symbols("?status=POSTPONED")).toEqual(["ARS-CHE-CHE"]);
    expect(await symbols("?status=PAUSED")).toEqual(["ARS-CHE-ARS"]);
    refused(await place(0, { symbol: "ARS-CHE-CHE", outcome: 0, side: "BUY", price: "0.2" }));
    refused(await place(0, { symbol: "ARS-CHE-ARS", outcome: 0, side: "BUY", price: "0.2" }));
    const m = await c.market("ARS-CHE-CHE");
    expect(m.status).toBe("POSTPONED");
    expect(m.tradable).toBe(false);
  });

  it("post-trading statuses (PENDING_RESOLUTION, DISPUTED, DELAYED) are only on closed=true and by detail; orders refused", async () => {
    const moves: [string, string[], string][] = [
      ["ARS-CHE-ARS", ["close", "await_resolution"], "PENDING_RESOLUTION"],
      ["ARS-CHE-CHE", ["close", "await_resolution", "dispute"], "DISPUTED"],
      ["ARS-CHE-DRAW", ["delay"], "DELAYED"],
    ];
    for (const [symbol, triggers, status] of moves) {
      for (const t of triggers) await move(symbol, t);
      const closedRow = (await c.send("/api/markets?closed=true")).body.markets.find((m: Json) => m.symbol === symbol);
      expect(closedRow?.status, symbol).toBe(status);
      expect(await symbols(""), symbol).not.toContain(symbol);
      const detail = await c.send(`/api/markets/${closedRow.slug}`);
      expect(detail.status).toBe(200);
      expect(detail.body.status).toBe(status);
      refused(await place(0, { symbol, outcome: 0, side: "BUY", price: "0.2" }));
    }
  });
});

describe("3.1 PRE_MARKET: only post-only orders trade", () => {
  it("a post-only order that would cross is refused (it cannot take); two non-crossing post-only orders rest", async () => {
    const bid = await place(0, { symbol: "BAR-RMA-BAR", outcome: 0, side: "BUY", price: "0.45" }, true);
    expect(bid.body.status).toBe("OPEN");
    // NO bid at 0.6 is a YES ask at 0.4: it would cross the 0.45 bid
    const crossing = await place(1, { symbol: "BAR-RMA-BAR", outcome: 1, side: "BUY", price: "0.6" }, true);
    expect(crossing.status).toBe(201);
    expect(crossing.body.status).toBe("REJECTED");
    expect(crossing.body.filledQty).toBe("0");
    const ask = await place(1, { symbol: "BAR-RMA-BAR", outcome: 1, side: "BUY", price: "0.5" }, true);
    expect(ask.body.status).toBe("OPEN");
    // nothing traded in PRE_MARKET
    expect((await c.send("/api/markets/BAR-RMA-BAR/trades")).body.trades).toEqual([]);
  });

  it("a post-only order resting from PRE_MARKET trades with full matching once opensAt passes", async () => {
    const bid = await place(0, { symbol: "BAR-RMA-BAR", outcome: 0, side: "BUY", price: "0.45" }, true);
    expect(bid.body.status).toBe("OPEN");
    await c.advance(20_000);
    expect((await c.market("BAR-RMA-BAR")).status).toBe("OPEN");
    const taker = await place(1, { symbol: "BAR-RMA-BAR", outcome: 1, side: "BUY", price: "0.55" });
    expect(taker.body).toMatchObject({ status: "FILLED", filledQty: "2" });
    expect((await c.send(`/api/orders/${bid.body.orderId}`, { headers: c.auth(0) })).body.status).toBe("FILLED");
  });

  it("after closesAt even a post-only order is refused", async () => {
    await c.advance(5 * 60_000);
    refused(await place(0, { symbol: "ARS-CHE-GOAL5", outcome: 0, side: "BUY", price: "0.1" }, true));
  });
});

describe("3.1 holds keep resting orders; settlement ends them", () => {
  it("a pause keeps resting orders on the open list and they can still be cancelled", async () => {
    const a = await place(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.1" });
    const b = await place(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.11" });
    await move("ARS-CHE-DRAW", "pause");
    const open = (await c.send("/api/orders/open?marketId=ARS-CHE-DRAW", { headers: c.auth(0) })).body.orders as Json[];
    expect(open.map((o): string => String(o.id)).sort()).toEqual([a.body.orderId, b.body.orderId].sort());
    const r = await c.send("/api/orders/cancel", { headers: c.auth(0), body: { orderId: a.body.orderId } });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("CANCELLED");
    await move("ARS-CHE-DRAW", "resume");
    expect((await c.send(`/api/orders/${b.body.orderId}`, { headers: c.auth(0) })).body.status).toBe("OPEN");
  });

  it("resolution ends resting orders (terminal, not cancellable) and refuses new ones", async () => {
    const a = await place(1, { symbol: "ARS-CHE-ARS", outcome: 0, side: "BUY", price: "0.1" });
    expect((await c.send("/sim/markets/ARS-CHE-ARS/resolve", { body: { payoutNumerators: [0, 1] } })).status).toBe(200);
    const read = (await c.send(`/api/orders/${a.body.orderId}`, { headers: c.auth(1) })).body;
    expect(read.status).toBe("CANCELLED");
    expect((await c.send("/api/orders/open", { headers: c.auth(1) })).body.orders).toEqual([]);
    expectEnvelope(await c.send("/api/orders/cancel", { headers: c.auth(1), body: { orderId: a.body.orderId } }), 409, "not_cancellable");
    refused(await place(1, { symbol: "ARS-CHE-ARS", outcome: 0, side: "BUY", price: "0.1" }));
    const m = (await c.send("/api/markets?closed=true")).body.markets.find((x: Json) => x.symbol === "ARS-CHE-ARS");
    expect(m.status).toBe("RESOLVED");
  });
});
