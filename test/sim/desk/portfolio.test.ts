import { describe, expect, it } from "vitest";
import { balances, myTradesPage, positionsPage, vaultInfo } from "../../../src/wire/index.js";
import { codeOf, parses, setup, type Harness } from "./harness.js";

const ARS = "ARS-CHE-ARS";

async function place(h: Harness, w: number, spec: Partial<Parameters<Harness["order"]>[1]>): Promise<{ orderId: string; status: string }> {
  const { body } = await h.order(w, { symbol: ARS, outcome: 0, side: "BUY", price: "0.5", quantity: "1", ...spec });
  return (await h.call("POST", "/api/orders/place", { body, wallet: w })).body as { orderId: string; status: string };
}

describe("portfolio routes", () => {
  it("vault and balances (locked follows resting BUY orders: notional + peak fee)", async () => {
    const h = setup();
    const v = parses(vaultInfo, (await h.call("GET", "/api/me/vault")).body);
    expect(v).toEqual({ walletAddress: h.wallets[0]!.address, vaultAddress: h.wallets[0]!.vault.toLowerCase(), deployed: true });
    await place(h, 0, { price: "0.4", quantity: "10" });
    const b = parses(balances, (await h.call("GET", "/api/me/balances")).body);
    // 4 notional + ceil(100 * 10 / 40000) = 0.025 peak fee
    expect(b.collateral).toEqual({ total: "10000", locked: "4.025", available: "9995.975" });
    expect(b.vaultAddress).toBe(v.vaultAddress);
  });

  it("positions: full list without limit, pages of at most 50 with a cursor", async () => {
    const h = setup();
    // wallet 0 buys YES on three markets from wallet 1's NO bids (mints)
    for (const symbol of ["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE"]) {
      await place(h, 1, { symbol, outcome: 1, price: "0.5", quantity: "3" });
      expect((await place(h, 0, { symbol, outcome: 0, price: "0.5", quantity: "3" })).status).toBe("FILLED");
    }
    const all = parses(positionsPage, (await h.call("GET", "/api/me/positions")).body);
    expect(all.positions.map((p) => [p.marketId, p.outcome, p.quantity, p.avgPrice])).toEqual([
      ["ARS-CHE-ARS", 0, "3", "0.5"],
      ["ARS-CHE-DRAW", 0, "3", "0.5"],
      ["ARS-CHE-CHE", 0, "3", "0.5"],
    ]);
    expect(all.nextCursor).toBeNull();
    const p1 = parses(positionsPage, (await h.call("GET", "/api/me/positions", { query: { limit: "2" } })).body);
    expect(p1.positions).toHaveLength(2);
    const p2 = parses(positionsPage, (await h.call("GET", "/api/me/positions", { query: { limit: "2", cursor: p1.nextCursor! } })).body);
    expect(p2.positions.map((p) => p.marketId)).toEqual(["ARS-CHE-CHE"]);
    expect(p2.nextCursor).toBeNull();
    expect(codeOf((await h.call("GET", "/api/me/positions", { query: { limit: "x" } })).body)).toBe("invalid_request");
    expect((await h.call("GET", "/api/me/positions", { query: { limit: "500" } })).status).toBe(200);
  });

  it("trades: newest first, each row in the caller's token with role and orderId, cursor paging", async () => {
    const h = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const maker = await place(h, 1, { outcome: 1, price: "0.6", quantity: "1" });
      await place(h, 0, { outcome: 0, price: "0.4", quantity: "1" });
      ids.push(maker.orderId);
      await h.clock.advance(1000);
    }
    const mine = parses(myTradesPage, (await h.call("GET", "/api/me/trades")).body);
    expect(mine.trades).toHaveLength(5);
    expect(mine.nextCursor).toBeNull();
    const times = mine.trades.map((t) => Date.parse(t.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const t of mine.trades) expect(t).toMatchObject({ role: "taker", price: "0.4", outcome: 0, side: "BUY" });
    const theirs = parses(myTradesPage, (await h.call("GET", "/api/me/trades", { wallet: 1 })).body);
    for (const t of theirs.trades) expect(t).toMatchObject({ role: "maker", price: "0.6", outcome: 1, fee: "0" });
    expect(theirs.trades.map((t) => t.orderId)).toEqual([...ids].reverse());
    // Paging: 2 + 2 + 1, no row twice.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: Record<string, string> = { limit: "2", ...(cursor ? { cursor } : {}) };
      const p = parses(myTradesPage, (await h.call("GET", "/api/me/trades", { query: q })).body);
      seen.push(...p.trades.map((t) => t.id));
      cursor = p.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(mine.trades.map((t) => t.id));
    const before = parses(myTradesPage, (await h.call("GET", "/api/me/trades", { query: { before: mine.trades[1]!.createdAt } })).body);
    expect(before.trades.map((t) => t.id)).toEqual(mine.trades.slice(2).map((t) => t.id));
  });

  it("fees: the wallet's taker fees per fill with the total", async () => {
    const h = setup();
    await place(h, 1, { outcome: 1, price: "0.5", quantity: "4" });
    await place(h, 0, { outcome: 0, price: "0.5", quantity: "4" });
    const r = (await h.call("GET", "/api/me/fees")).body as { feesPaid: string; fees: { fee: string; feeRateBps: number }[]; nextCursor: string | null };
    // ceil(100 * 0.25 * 4 / 10000) = 0.01
    expect(r).toMatchObject({ feesPaid: "0.01", nextCursor: null });
    expect(r.fees).toEqual([expect.objectContaining({ fee: "0.01", feeRateBps: 100 })]);
    const maker = (await h.call("GET", "/api/me/fees", { wallet: 1 })).body as { feesPaid: string; fees: unknown[] };
    expect(maker).toMatchObject({ feesPaid: "0", fees: [] });
  });
});
