/**
 * Spec 4 / 4.3 / 4.6 query rules that need volume: `GET /api/orders/open` without `limit` is a
 * first page of 500 (never the whole set), history defaults to 100 and clamps to 200, market
 * trades default to 50 and clamp to 200; and the common rule that unknown query parameters are
 * ignored everywhere except the five endpoints that reject them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, boot, expectEnvelope, specOnlyBody, type Conformance, type Json } from "./harness.js";

describe("4.6 open orders and history page sizes (505 resting orders)", () => {
  const TOTAL = 505;
  let c: Conformance;
  const ids: string[] = [];
  beforeAll(async () => {
    c = await boot();
    const bodies: Json[] = [];
    for (let i = 0; i < TOTAL; i++) {
      // BUY at the lowest grid prices, spread over four outcomes: nothing can cross them
      const price = `0.00${1 + (i % 9)}`;
      bodies.push(specOnlyBody((await c.order(0, { symbol: "EPL-WINNER", outcome: i % 4, side: "BUY", price, quantity: "1" })).body));
    }
    for (let b = 0; b * 15 < TOTAL; b++) {
      if (b % 8 === 0) await c.advance(1_000); // place-batch: 8 per second per wallet
      const r = await c.send("/api/orders/place-batch", { headers: c.auth(0), body: { orders: bodies.slice(b * 15, b * 15 + 15) } });
      expect(r.status, r.text).toBe(201);
      for (const e of r.body.results as Json[]) {
        expect(e.status).toBe("OPEN");
        ids.push(e.orderId);
      }
    }
  }, 60_000);
  afterAll(async () => {
    await c.close();
  });

  it("open without limit: a first page of 500 and a nextCursor, never the whole set; the cursor gives the rest", async () => {
    const first = await c.send("/api/orders/open", { headers: c.auth(0) });
    expect(first.status).toBe(200);
    expect(first.body.orders).toHaveLength(500);
    expect(typeof first.body.nextCursor).toBe("string");
    const rest = await c.send(`/api/orders/open?cursor=${encodeURIComponent(first.body.nextCursor)}`, { headers: c.auth(0) });
    expect(rest.body.orders).toHaveLength(TOTAL - 500);
    expect(rest.body.nextCursor).toBeNull();
    const seen = [...first.body.orders, ...rest.body.orders].map((o: Json): string => String(o.id));
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it("open limit=500 is the maximum page; a page that holds exactly the rest has nextCursor null", async () => {
    const first = await c.send("/api/orders/open?limit=500", { headers: c.auth(0) });
    expect(first.body.orders).toHaveLength(500);
    const exact = await c.send(`/api/orders/open?limit=${TOTAL - 500}&cursor=${encodeURIComponent(first.body.nextCursor)}`, { headers: c.auth(0) });
    expect(exact.body.orders).toHaveLength(TOTAL - 500);
    expect(exact.body.nextCursor).toBeNull();
    // filters page the same way: outcome 0 holds every fourth order
    const tail = await c.send("/api/orders/open?outcome=0&limit=500", { headers: c.auth(0) });
    expect(tail.body.orders).toHaveLength(Math.ceil(TOTAL / 4));
    expect(tail.body.nextCursor).toBeNull();
  });

  it("history: default page 100, larger limits clamped to 200", async () => {
    const d = await c.send("/api/orders/history", { headers: c.auth(0) });
    expect(d.body.orders).toHaveLength(100);
    expect(typeof d.body.nextCursor).toBe("string");
    for (const q of ["limit=201", "limit=1000", "limit=200"]) {
      const r = await c.send(`/api/orders/history?${q}`, { headers: c.auth(0) });
      expect(r.status, q).toBe(200);
      expect(r.body.orders, q).toHaveLength(200);
    }
    const small = await c.send("/api/orders/history?limit=7", { headers: c.auth(0) });
    expect(small.body.orders).toHaveLength(7);
  });
});

describe("4.3 market trades page sizes", () => {
  let c: Conformance;
  beforeAll(async () => {
    c = await boot({
      flow: true,
      edit: (doc: Json) => {
        const m = doc.events[0].markets[1]; // ARS-CHE-DRAW
        m.flow = { ...m.flow, takerArrivalPerMin: 60 };
      },
    });
    // the synthetic flow trades on the sim clock
    for (let i = 0; i < 8; i++) await c.advance(60_000);
  }, 60_000);
  afterAll(async () => {
    await c.close();
  });

  it("default 50, larger limits clamped to 200, pages disjoint through nextCursor", async () => {
    const total = ((await c.send("/sim/trades")).body.trades as Json[]).filter((t) => t.marketId === "ARS-CHE-DRAW").length;
    expect(total).toBeGreaterThan(200);
    const d = await c.send("/api/markets/ARS-CHE-DRAW/trades");
    expect(d.body.trades).toHaveLength(50);
    const big = await c.send("/api/markets/ARS-CHE-DRAW/trades?limit=1000");
    expect(big.status).toBe(200);
    expect(big.body.trades).toHaveLength(200);
    const next = await c.send(`/api/markets/ARS-CHE-DRAW/trades?limit=200&before=${encodeURIComponent(big.body.nextCursor)}`);
    const ids = new Set([...big.body.trades, ...next.body.trades].map((t: Json): string => String(t.id)));
    expect(ids.size).toBe(200 + next.body.trades.length);
  });
});

describe("4 / 9: unknown query parameters", () => {
  let c: Conformance;
  beforeAll(async () => {
    c = await boot();
  });
  afterAll(async () => {
    await c.close();
  });

  it("are ignored on endpoints outside the five that reject them (public, order reads, portfolio)", async () => {
    const { body } = await c.order(1, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.01", quantity: "1", clientOrderId: "unk-1" });
    const placed = await c.send("/api/orders/place", { headers: c.auth(1), body: specOnlyBody(body) });
    expect(placed.body.status).toBe("OPEN");
    const id = placed.body.orderId as string;
    const keyed: [string, (r: Json) => void][] = [
      [`/api/orders/lookup?clientOrderId=unk-1&zzz=1`, (b) => expect(b.id).toBe(id)],
      [`/api/orders/${id}?zzz=1`, (b) => expect(b.id).toBe(id)],
      [`/api/orders/${id}/fills?zzz=1`, (b) => expect(b.orderId).toBe(id)],
      [`/api/orders/${id}/fees-summary?zzz=1`, (b) => expect(b.orderId).toBe(id)],
      ["/api/me/balances?zzz=1", (b) => expect(b.collateral).toBeDefined()],
      ["/api/me/positions?zzz=1", (b) => expect(Array.isArray(b.positions)).toBe(true)],
      ["/api/me/trades?zzz=1", (b) => expect(Array.isArray(b.trades)).toBe(true)],
    ];
    for (const [p, check] of keyed) {
      const r = await c.send(p, { headers: c.auth(1) });
      expect(r.status, `${p}: ${r.text}`).toBe(200);
      check(r.body);
    }
    for (const p of ["/api/markets?zzz=1", "/api/markets/ARS-CHE-ARS/orderbook?zzz=1", "/api/markets/ARS-CHE-ARS/trades?zzz=1", "/api/events?zzz=1", "/api/tags?zzz=1", "/api/leaderboard?zzz=1", "/api/platform/contracts?zzz=1"]) {
      expect((await c.send(p)).status, p).toBe(200);
    }
  });

  it("are 400 invalid_request on open and history, even next to valid ones, and names are case-sensitive", async () => {
    for (const p of ["/api/orders/open?limit=5&zzz=1", "/api/orders/history?status=OPEN&zzz=", "/api/orders/open?Limit=5"]) {
      const e = expectEnvelope(await c.send(p, { headers: c.auth(1) }), 400, "invalid_request");
      expect(e.details.fields.length, p).toBeGreaterThan(0);
    }
    const e = expectEnvelope(await c.send("/api/v1/partner/mm-kpis?limit=5&zzz=1", { headers: { "X-Api-Key": API_KEY } }), 400, "invalid_request");
    expect(e.details.fields).toContain("zzz");
  });
});
