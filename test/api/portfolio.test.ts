/**
 * Portfolio of one wallet (src/api/portfolio.ts, spec 4.8) through the client on a scripted
 * transport: the paths and queries of each read, positions and trades walked from a starting
 * cursor (trades once by id), records whose shape the spec does not show passed through as they
 * come, and typed reads refusing an answer of the wrong shape.
 */
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/index.js";
import { exampleBalances, exampleTrade, exampleVaultInfo, WALLET } from "../wire/fixtures.js";
import { collect, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const pos = (marketId: string) => ({ marketId, tokenId: "1", outcome: 0, quantity: "2.5", locked: "0", avgPrice: "0.4" });
const trade = (id: string) => ({ ...exampleTrade({ id }), role: "maker", orderId: "o1" });

describe("PortfolioApi", () => {
  it("vault and balances: typed reads with the wallet's header", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleVaultInfo()), json(200, exampleBalances()));
    const p = client.forWallet(WALLET).portfolio;
    expect((await settle(clock, p.vault())).data).toEqual(exampleVaultInfo());
    expect((await settle(clock, p.balances())).data.collateral).toEqual(exampleBalances().collateral);
    expect(transport.requests.map((r) => [r.path, r.headers["x-user-wallet"]])).toEqual([
      ["/api/me/vault", WALLET],
      ["/api/me/balances", WALLET],
    ]);
  });

  it("positionsPage and tradesPage put cursor, limit and the legacy 'before' in the query", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { walletAddress: WALLET, positions: [pos("A")], nextCursor: null }), json(200, { trades: [], nextCursor: null }));
    const p = client.forWallet(WALLET).portfolio;
    const r = await settle(clock, p.positionsPage({ cursor: "c1", limit: 50 }));
    expect(r.data.positions[0]).toMatchObject({ marketId: "A", quantity: "2.5" });
    await settle(clock, p.tradesPage({ limit: 200, before: "2026-01-01T00:00:00Z" }));
    expect(transport.paths()).toEqual(["GET /api/me/positions?cursor=c1&limit=50", "GET /api/me/trades?limit=200&before=2026-01-01T00%3A00%3A00Z"]);
  });

  it("positions and trades walk from a starting cursor; a trade repeated across pages comes once", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      json(200, { walletAddress: WALLET, positions: [pos("A")], nextCursor: "p3" }),
      json(200, { walletAddress: WALLET, positions: [pos("B")], nextCursor: "" }),
    );
    const p = client.forWallet(WALLET).portfolio;
    expect((await settle(clock, collect(p.positions({ cursor: "p2" })))).map((x) => x.marketId)).toEqual(["A", "B"]);
    transport.enqueue(json(200, { trades: [trade("t1"), trade("t2")], nextCursor: "c2" }), json(200, { trades: [trade("t1"), trade("t3")], nextCursor: null }));
    expect((await settle(clock, collect(p.trades({ limit: 2 })))).map((t) => t.id)).toEqual(["t1", "t2", "t3"]);
    expect(transport.paths()).toEqual([
      "GET /api/me/positions?cursor=p2",
      "GET /api/me/positions?cursor=p3",
      "GET /api/me/trades?limit=2",
      "GET /api/me/trades?cursor=c2&limit=2",
    ]);
  });

  it("fees, fee tier and deposit limits pass their records through as they come", async () => {
    const { clock, transport, client } = harness();
    const fees = { fees: [{ id: "f1", amount: "0.01", extra: { nested: true } }], nextCursor: null };
    transport.enqueue(json(200, fees), json(200, { tier: "VIP", takerDiscountBps: 10 }), json(200, { daily: "1000", monthly: null }));
    const p = client.forWallet(WALLET).portfolio;
    expect((await settle(clock, p.fees({ limit: 5, cursor: "x" }))).data).toEqual(fees);
    expect((await settle(clock, p.feeTier())).data).toEqual({ tier: "VIP", takerDiscountBps: 10 });
    expect((await settle(clock, p.depositLimits())).data).toEqual({ daily: "1000", monthly: null });
    expect(transport.paths()).toEqual(["GET /api/me/fees?cursor=x&limit=5", "GET /api/me/fee-tier", "GET /api/me/deposit-limits"]);
  });

  it("a balance of the wrong shape is refused with the path of the bad field", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { ...exampleBalances(), collateral: { total: "ten", locked: "0", available: "0" } }));
    const e = (await rejectionOf(clock, client.forWallet(WALLET).portfolio.balances())) as ApiError;
    expect(e).toMatchObject({ source: "schema", code: "invalid_response" });
    expect(e.issues?.map((i) => i.path)).toEqual(["collateral.total"]);
  });
});
