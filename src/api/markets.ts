/** Markets (spec 4.3, public): list with offset paging, detail by slug, and the per-symbol sub-resources. */
import type { CryptoSeriesWindows, MarketSummary, MarketsPage, MarketTradesPage, MarketTradesRawPage, Orderbook, PriceHistory } from "../wire/index.js";
import { cryptoSeriesWindows, marketSummary, marketsPage, marketTradesPage, marketTradesRawPage, orderbook, priceHistory } from "../wire/index.js";
import type { ApiCore } from "./core.js";
import { readCall } from "./decode.js";
import { path, withQuery, type QueryParams } from "./query.js";
import type { CallOptions, Ok, UnknownRecord } from "./results.js";
import { unknownRecord } from "./results.js";

export interface MarketsListQuery {
  /** 1..500, default 50 on the platform. */
  limit?: number;
  offset?: number;
  /** Post-trading markets instead of the open set. */
  closed?: boolean;
  /** Status filter; several values are sent as repeated keys. */
  status?: string | readonly string[];
}

export interface MarketTradesQuery {
  /** Default 50, max 200. */
  limit?: number;
  /** Time cursors (ISO-8601 or what a previous page handed out). */
  before?: string;
  after?: string;
}

export interface PriceHistoryQuery {
  outcome?: number;
  interval?: string;
  from?: string;
  to?: string;
}

export interface SeriesWindowsQuery {
  /** 1..500; default 50 (500 with state=all). */
  limit?: number;
  offset?: number;
  /** `all` lists settled windows too. */
  state?: "all";
  /** Dates (ISO-8601). */
  from?: string;
  to?: string;
}

/** Largest page of `GET /api/markets` (spec 4.3). */
export const MARKETS_MAX_LIMIT = 500;

const readSpec = (p: string, opts?: CallOptions) =>
  ({ method: "GET", path: p, auth: false, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) }) as const;

const tradesPath = (symbol: string, q: MarketTradesQuery) =>
  withQuery(path`/api/markets/${symbol}/trades`, { limit: q.limit, before: q.before, after: q.after });

export class MarketsApi {
  constructor(private readonly core: ApiCore) {}

  list(q: MarketsListQuery = {}, opts?: CallOptions): Promise<Ok<MarketsPage>> {
    const params: QueryParams = { limit: q.limit, offset: q.offset, closed: q.closed ? "true" : undefined, status: q.status };
    return readCall(this.core, readSpec(withQuery("/api/markets", params), opts), marketsPage);
  }

  /** Every page from `offset` on, stepping by the rows served, until `hasMore` is false. */
  async *pages(q: MarketsListQuery = {}, opts?: CallOptions): AsyncGenerator<Ok<MarketsPage>, void, undefined> {
    let offset = q.offset ?? 0;
    const limit = q.limit ?? MARKETS_MAX_LIMIT;
    for (;;) {
      const page = await this.list({ ...q, limit, offset }, opts);
      yield page;
      const n = page.data.markets.length;
      if (!page.data.hasMore || n === 0) return;
      offset += n;
    }
  }

  /** Every market of the list, each id once. */
  async *iterate(q: MarketsListQuery = {}, opts?: CallOptions): AsyncGenerator<MarketSummary, void, undefined> {
    const seen = new Set<string>();
    for await (const page of this.pages(q, opts)) {
      for (const m of page.data.markets) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        yield m;
      }
    }
  }

  /** Detail by slug (not by symbol). */
  get(slug: string, opts?: CallOptions): Promise<Ok<MarketSummary>> {
    return readCall(this.core, readSpec(path`/api/markets/${slug}`, opts), marketSummary);
  }

  /** One outcome's book. */
  orderbook(symbol: string, outcome: number, opts?: CallOptions): Promise<Ok<Orderbook>> {
    return readCall(this.core, readSpec(withQuery(path`/api/markets/${symbol}/orderbook`, { outcome }), opts), orderbook);
  }

  trades(symbol: string, q: MarketTradesQuery = {}, opts?: CallOptions): Promise<Ok<MarketTradesPage>> {
    return readCall(this.core, readSpec(tradesPath(symbol, q), opts), marketTradesPage);
  }

  /** The same request with the rows left unchecked (`unknown[]`): the caller reads each with `trade`. */
  tradesPage(symbol: string, q: MarketTradesQuery = {}, opts?: CallOptions): Promise<Ok<MarketTradesRawPage>> {
    return readCall(this.core, readSpec(tradesPath(symbol, q), opts), marketTradesRawPage);
  }

  priceHistory(symbol: string, q: PriceHistoryQuery = {}, opts?: CallOptions): Promise<Ok<PriceHistory>> {
    const p = withQuery(path`/api/markets/${symbol}/price-history`, { outcome: q.outcome, interval: q.interval, from: q.from, to: q.to });
    return readCall(this.core, readSpec(p, opts), priceHistory);
  }

  /** `GET /api/markets/disputable`: full rows of markets open to a resolution dispute (`limit` max 500, `offset`). */
  disputable(q: { limit?: number; offset?: number } = {}, opts?: CallOptions): Promise<Ok<MarketsPage>> {
    return readCall(this.core, readSpec(withQuery("/api/markets/disputable", { limit: q.limit, offset: q.offset }), opts), marketsPage);
  }

  /** Every disputable market, stepping `offset` by the rows served until `hasMore` is false. */
  async *iterateDisputable(q: { limit?: number } = {}, opts?: CallOptions): AsyncGenerator<MarketSummary, void, undefined> {
    let offset = 0;
    const limit = q.limit ?? MARKETS_MAX_LIMIT;
    for (;;) {
      const page = await this.disputable({ limit, offset }, opts);
      yield* page.data.markets;
      if (!page.data.hasMore || page.data.markets.length === 0) return;
      offset += page.data.markets.length;
    }
  }

  /** `GET /api/crypto-series/{id}/windows` (spec 4.3); 404 `crypto_series_not_found` for an unknown series. */
  cryptoSeriesWindows(seriesId: string, q: SeriesWindowsQuery = {}, opts?: CallOptions): Promise<Ok<CryptoSeriesWindows>> {
    const p = withQuery(path`/api/crypto-series/${seriesId}/windows`, { limit: q.limit, offset: q.offset, state: q.state, from: q.from, to: q.to });
    return readCall(this.core, readSpec(p, opts), cryptoSeriesWindows);
  }

  /** Shape not shown (spec 4.9): passed through. */
  traders(symbol: string, q: { limit?: number } = {}, opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    return readCall(this.core, readSpec(withQuery(path`/api/markets/${symbol}/traders`, { limit: q.limit }), opts), unknownRecord);
  }

  tradersByOutcome(symbol: string, q: { limit?: number } = {}, opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    const p = withQuery(path`/api/markets/${symbol}/traders/by-outcome`, { limit: q.limit });
    return readCall(this.core, readSpec(p, opts), unknownRecord);
  }

  /** Deprecated on the platform; an unknown interval is `400 invalid_interval` with `details.allowed`. */
  ohlc(symbol: string, q: { interval?: string; outcome?: number } = {}, opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    const p = withQuery(path`/api/markets/${symbol}/ohlc`, { interval: q.interval, outcome: q.outcome });
    return readCall(this.core, readSpec(p, opts), unknownRecord);
  }
}
