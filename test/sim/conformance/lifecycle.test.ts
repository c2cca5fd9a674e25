/**
 * Spec 3.1 on the virtual clock: PRE_MARKET is post-only, OPEN at opensAt, refused after
 * closesAt; administrative moves and the lifecycle stamps; tradingMode / notTradableReason.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boot, T0, type Conformance, type Json } from "./harness.js";

let c: Conformance;
beforeEach(async () => {
  c = await boot();
});
afterEach(async () => {
  await c.close();
});

const iso = (ms: number): string => new Date(ms).toISOString();

async function place(symbol: string, extra: { postOnly?: boolean; price?: string } = {}): Promise<{ status: number; body: Json }> {
  const { body } = await c.order(0, { symbol, outcome: 0, side: "BUY", price: extra.price ?? "0.3", quantity: "5", ...(extra.postOnly ? { postOnly: true } : {}) });
  const r = await c.send("/api/orders/place", { headers: c.auth(0), body });
  return { status: r.status, body: r.body };
}

async function move(symbol: string, trigger: string): Promise<void> {
  const r = await c.send(`/sim/markets/${symbol}/status`, { body: { trigger } });
  expect(r.status, r.text).toBe(200);
}

function notOpen(r: { status: number; body: Json }): void {
  // 4.6 answers placements 201; 7.3 lists market_not_open as 409. Either way the code is market_not_open.
  const code = r.status === 201 ? r.body.code : r.body.error?.code;
  expect(code).toBe("market_not_open");
  if (r.status === 201) expect(r.body.status).toBe("REJECTED");
  else expect(r.status).toBe(409);
}

describe("3.1 PRE_MARKET -> OPEN at opensAt", () => {
  it("PRE_MARKET takes only post-only orders; at opensAt full matching", async () => {
    let m = await c.market("BAR-RMA-BAR");
    expect(m.status).toBe("PRE_MARKET");
    expect(m.tradingWindow.preMarketStartsAt).toBe(iso(T0 - 3_600_000));
    expect(m.tradingWindow.opensAt).toBe(iso(T0 + 20_000));
    expect(m.tradingMode).toBe("pre_market_post_only");
    expect(m.notTradableReason).toBeNull();

    const plain = await place("BAR-RMA-BAR");
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ status: "REJECTED", code: "market_not_open" });
    const po = await place("BAR-RMA-BAR", { postOnly: true });
    expect(po.body.status).toBe("OPEN");

    await c.advance(19_999);
    expect((await c.market("BAR-RMA-BAR")).status).toBe("PRE_MARKET");
    await c.advance(1);
    m = await c.market("BAR-RMA-BAR");
    expect(m.status).toBe("OPEN");
    expect(m.tradingMode).not.toBe("pre_market_post_only");
    expect((await place("BAR-RMA-BAR")).body.status).toBe("OPEN");
  });

  it("a market without pre-market has preMarketStartsAt null", async () => {
    expect((await c.market("ARS-CHE-GOAL5")).tradingWindow.preMarketStartsAt).toBeNull();
  });
});

describe("3.1 closesAt", () => {
  it("orders are refused after closesAt; the market moves to CLOSED with closedAt", async () => {
    expect((await place("ARS-CHE-GOAL5")).body.status).toBe("OPEN");
    await c.advance(5 * 60_000);
    notOpen(await place("ARS-CHE-GOAL5"));
    const d = (await c.send("/api/markets?closed=true")).body.markets.find((m: Json): boolean => m.symbol === "ARS-CHE-GOAL5");
    expect(d.status).toBe("CLOSED");
    expect(d.lifecycle.closedAt).toBe(iso(T0 + 5 * 60_000));
    expect(d.tradable).toBe(false);
    expect(d.tradingMode).toBeNull();
    // post-trading states: detail lookups and closed lists, not the default list
    expect((await c.send(`/api/markets/${d.slug}`)).body.status).toBe("CLOSED");
    expect((await c.send("/api/markets")).body.markets.map((m: Json): string => String(m.symbol))).not.toContain("ARS-CHE-GOAL5");
  });
});

describe("3.1 administrative moves", () => {
  it("pause writes pausedAt, kept after resume; PAUSED shows tradingMode paused and refuses orders", async () => {
    await c.advance(1_000);
    await move("ARS-CHE-ARS", "pause");
    let m = await c.market("ARS-CHE-ARS");
    expect(m.status).toBe("PAUSED");
    expect(m.lifecycle.pausedAt).toBe(iso(T0 + 1_000));
    expect(m.tradingMode).toBe("paused");
    expect(m.notTradableReason).toBe("paused");
    notOpen(await place("ARS-CHE-ARS"));
    await c.advance(1_000);
    await move("ARS-CHE-ARS", "resume");
    m = await c.market("ARS-CHE-ARS");
    expect(m.status).toBe("OPEN");
    expect(m.lifecycle.pausedAt).toBe(iso(T0 + 1_000));
    expect(m.notTradableReason).toBeNull();
  });

  it("SUSPENDED does not write pausedAt but shows tradingMode paused, notTradableReason suspended", async () => {
    await move("ARS-CHE-CHE", "suspend");
    const m = await c.market("ARS-CHE-CHE");
    expect(m.status).toBe("SUSPENDED");
    expect(m.lifecycle.pausedAt).toBeNull();
    expect(m.tradingMode).toBe("paused");
    expect(m.notTradableReason).toBe("suspended");
    notOpen(await place("ARS-CHE-CHE"));
    // SUSPENDED is post-trading: closed=true list, not the default list
    expect((await c.send("/api/markets?closed=true")).body.markets.map((x: Json): string => String(x.symbol))).toContain("ARS-CHE-CHE");
  });

  it("DELAYED -> close overwrites closedAt with the newest CLOSED time", async () => {
    await move("ARS-CHE-DRAW", "close");
    const first = (await c.market("ARS-CHE-DRAW")).lifecycle.closedAt;
    expect(first).toBe(iso(T0));
    await move("ARS-CHE-DRAW", "delay");
    expect((await c.market("ARS-CHE-DRAW")).status).toBe("DELAYED");
    await c.advance(60_000);
    await move("ARS-CHE-DRAW", "close");
    const m = await c.market("ARS-CHE-DRAW");
    expect(m.status).toBe("CLOSED");
    expect(m.lifecycle.closedAt).toBe(iso(T0 + 60_000));
  });

  it("resolution: RESOLVED, resolvedAt and payoutNumerators set, terminal; closedAt null when never CLOSED", async () => {
    const r = await c.send("/sim/markets/ARS-CHE-ARS/resolve", { body: { payoutNumerators: [1, 0] } });
    expect(r.status).toBe(200);
    const m = await c.market("ARS-CHE-ARS");
    expect(m.status).toBe("RESOLVED");
    expect(m.lifecycle.resolvedAt).toBe(iso(T0));
    expect(m.lifecycle.voidedAt).toBeNull();
    expect(m.lifecycle.closedAt).toBeNull();
    expect(m.payoutNumerators).toEqual([1, 0]);
    expect((await c.send("/sim/markets/ARS-CHE-ARS/void", { body: {} })).status).toBe(409);
    expect((await c.send("/sim/markets/ARS-CHE-ARS/status", { body: { trigger: "pause" } })).status).toBe(409);
  });

  it("void: VOIDED with voidedAt, never resolvedAt", async () => {
    expect((await c.send("/sim/markets/EPL-WINNER/void", { body: {} })).status).toBe(200);
    const m = await c.market("EPL-WINNER");
    expect(m.status).toBe("VOIDED");
    expect(m.lifecycle.voidedAt).toBe(iso(T0));
    expect(m.lifecycle.resolvedAt).toBeNull();
    expect(m.payoutNumerators).toBeNull();
  });
});
