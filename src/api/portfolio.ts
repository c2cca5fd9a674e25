/**
 * Portfolio of one wallet (spec 4.8, `portfolio:read`): vault info, balances, positions and trades
 * (cursor paged, with iterators), fees, fee tier and deposit limits (shapes not shown: passed
 * through as records).
 */
import type { AutoRedeem, Balances, BalanceEventsPage, MyTrade, MyTradesPage, PortfolioSummary, Position, PositionsPage, SplitsMergesPage, UnlockablePage, VaultInfo, VaultOperation } from "../wire/index.js";
import { autoRedeem, balanceEventsPage, balances, myTradesPage, portfolioSummary, positionsPage, splitsMergesPage, unlockablePage, vaultInfo } from "../wire/index.js";
import type { ApiCore, CallSpec } from "./core.js";
import { readCall } from "./decode.js";
import { cursorPages } from "./paging.js";
import { withQuery } from "./query.js";
import type { CallOptions, Ok, UnknownRecord } from "./results.js";
import { unknownRecord } from "./results.js";

export interface CursorQuery {
  cursor?: string;
  limit?: number;
}

export interface TradesQuery extends CursorQuery {
  /** Legacy time cursor. */
  before?: string;
}

export class PortfolioApi {
  constructor(
    private readonly core: ApiCore,
    readonly wallet: string | undefined,
  ) {}

  private readSpec(p: string, opts?: CallOptions): CallSpec {
    return { method: "GET", path: p, wallet: this.wallet, auth: true, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
  }

  /** `vaultAddress` is the `maker` of every signed order. */
  vault(opts?: CallOptions): Promise<Ok<VaultInfo>> {
    return readCall(this.core, this.readSpec("/api/me/vault", opts), vaultInfo);
  }

  balances(opts?: CallOptions): Promise<Ok<Balances>> {
    return readCall(this.core, this.readSpec("/api/me/balances", opts), balances);
  }

  /** Max 50 per page; the full list when `limit` is omitted. */
  positionsPage(q: CursorQuery = {}, opts?: CallOptions): Promise<Ok<PositionsPage>> {
    return readCall(this.core, this.readSpec(withQuery("/api/me/positions", { cursor: q.cursor, limit: q.limit }), opts), positionsPage);
  }

  async *positions(q: CursorQuery = {}, opts?: CallOptions): AsyncGenerator<Position, void, undefined> {
    const pages = cursorPages((cursor) => this.positionsPage({ ...q, cursor }, opts), { method: "GET", path: "/api/me/positions" }, q.cursor);
    for await (const page of pages) yield* page.data.positions;
  }

  /** Default 50, max 200 per page. */
  tradesPage(q: TradesQuery = {}, opts?: CallOptions): Promise<Ok<MyTradesPage>> {
    const p = withQuery("/api/me/trades", { cursor: q.cursor, limit: q.limit, before: q.before });
    return readCall(this.core, this.readSpec(p, opts), myTradesPage);
  }

  /** Every trade once (by trade id), newest first as the platform pages them. */
  async *trades(q: TradesQuery = {}, opts?: CallOptions): AsyncGenerator<MyTrade, void, undefined> {
    const seen = new Set<string>();
    const pages = cursorPages((cursor) => this.tradesPage({ ...q, cursor }, opts), { method: "GET", path: "/api/me/trades" }, q.cursor);
    for await (const page of pages) {
      for (const t of page.data.trades) {
        if (seen.has(t.id)) continue;
        seen.add(t.id);
        yield t;
      }
    }
  }

  fees(q: CursorQuery = {}, opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    return readCall(this.core, this.readSpec(withQuery("/api/me/fees", { cursor: q.cursor, limit: q.limit }), opts), unknownRecord);
  }

  feeTier(opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    return readCall(this.core, this.readSpec("/api/me/fee-tier", opts), unknownRecord);
  }

  depositLimits(opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    return readCall(this.core, this.readSpec("/api/me/deposit-limits", opts), unknownRecord);
  }

  /** `GET /api/me/portfolio`: collateral and positions in one read. */
  portfolio(opts?: CallOptions): Promise<Ok<PortfolioSummary>> {
    return readCall(this.core, this.readSpec("/api/me/portfolio", opts), portfolioSummary);
  }

  autoRedeem(opts?: CallOptions): Promise<Ok<AutoRedeem>> {
    return readCall(this.core, this.readSpec("/api/me/auto-redeem", opts), autoRedeem);
  }

  /** Default 100, max 500 per page; `before` is the legacy time cursor. */
  balanceEventsPage(q: TradesQuery = {}, opts?: CallOptions): Promise<Ok<BalanceEventsPage>> {
    const p = withQuery("/api/me/balance-events", { cursor: q.cursor, limit: q.limit, before: q.before });
    return readCall(this.core, this.readSpec(p, opts), balanceEventsPage);
  }

  /** Every balance event, following `nextCursor`. */
  async *balanceEvents(q: TradesQuery = {}, opts?: CallOptions): AsyncGenerator<Record<string, unknown>, void, undefined> {
    const pages = cursorPages((cursor) => this.balanceEventsPage({ ...q, cursor }, opts), { method: "GET", path: "/api/me/balance-events" }, q.cursor);
    for await (const page of pages) yield* page.data.events;
  }

  /** Split / merge operations: default 50, max 200 per page. */
  splitsMergesPage(q: TradesQuery = {}, opts?: CallOptions): Promise<Ok<SplitsMergesPage>> {
    const p = withQuery("/api/me/splits-merges", { cursor: q.cursor, limit: q.limit, before: q.before });
    return readCall(this.core, this.readSpec(p, opts), splitsMergesPage);
  }

  /** Every split / merge / convert operation of the wallet, newest first, following `nextCursor`. */
  async *splitsMerges(q: TradesQuery = {}, opts?: CallOptions): AsyncGenerator<VaultOperation, void, undefined> {
    const pages = cursorPages((cursor) => this.splitsMergesPage({ ...q, cursor }, opts), { method: "GET", path: "/api/me/splits-merges" }, q.cursor);
    for await (const page of pages) yield* page.data.operations;
  }

  /** Operations whose off-chain lock can be recovered (`vault.unlock(opId)`): default 50, max 200. */
  unlockable(q: { limit?: number } = {}, opts?: CallOptions): Promise<Ok<UnlockablePage>> {
    return readCall(this.core, this.readSpec(withQuery("/api/me/splits-merges/unlockable", { limit: q.limit }), opts), unlockablePage);
  }
}
