/**
 * Public market routes (spec 4.3): the bulk list of full rows, detail by slug, and the
 * per-symbol sub-resources (order book, trades, price history, ohlc, traders), the disputable
 * list. Public: no key, a key is ignored.
 *
 * The engine addresses markets by symbol; `marketId` in sub-resource bodies is the symbol (the
 * same id the place body and trade rows use). Unlisted (SCHEDULED) markets answer 404 like
 * unknown ones.
 */
import { formatMicros } from "../../../core/money.js";
import { MARKET_STATUSES, type MarketStatus } from "../../../wire/index.js";
import { CLOSED_SET, isoOf, marketRowJson, OPEN_SET, type Market } from "../../platform/index.js";
import type { Simulator } from "../../simulator.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { clampedLimit, digitsValue, fail, first, isDigits, limitOffset, multiValues, ok, parsed, parseTimeBound, rejected, type Parsed } from "./public-common.js";
import { engineQuotes } from "./public-quotes.js";
import { candles, traders, tradersByOutcome } from "./public-market-stats.js";
import { parseTradeBound, PRICE_INTERVALS, pricePoints, tradesPage, type TradeBound } from "./public-trades.js";

export const MARKETS_DEFAULT_LIMIT = 50;
export const MARKETS_MAX_LIMIT = 500;
export const TRADES_DEFAULT_LIMIT = 50;
export const TRADES_MAX_LIMIT = 200;
export const BOOK_DEFAULT_DEPTH = 50;
export const TRADERS_DEFAULT_LIMIT = 50;
export const TRADERS_MAX_LIMIT = 200;
export const DISPUTABLE_MAX_LIMIT = 500;
/** Statuses whose outcome can still be disputed (our reading of "disputable"). */
const DISPUTABLE: ReadonlySet<MarketStatus> = new Set(["PENDING_RESOLUTION", "DISPUTED"]);
const BOOK_MAX_DEPTH = 999;

function boolParam(req: SimRequest, ctx: RouteContext, key: string): Parsed<boolean | undefined> {
  const v = first(req.query, key);
  if (v === undefined) return parsed(undefined);
  const s = v.toLowerCase();
  if (s === "true") return parsed(true);
  if (s === "false") return parsed(false);
  return rejected(fail(ctx, 400, "invalid_request", `${key} must be true or false`, { field: key, fields: [key] }));
}

/** Statuses of `?status=` (repeated or CSV, any case); unknown -> 400 invalid_status. */
function statusParam(req: SimRequest, ctx: RouteContext): Parsed<MarketStatus[] | undefined> {
  const values = multiValues(req.query, "status");
  if (values.length === 0) return parsed(undefined);
  const out: MarketStatus[] = [];
  for (const v of values) {
    const hit = MARKET_STATUSES.find((s) => s.toLowerCase() === v);
    if (hit === undefined) {
      return rejected(fail(ctx, 400, "invalid_status", `unknown market status ${JSON.stringify(v)}`, { field: "status", allowed: [...MARKET_STATUSES] }));
    }
    out.push(hit);
  }
  return parsed(out);
}

/** GET /api/markets: `{markets, hasMore}` of full rows. */
function listMarkets(req: SimRequest, ctx: RouteContext): SimResponse {
  const paging = limitOffset(req, ctx, MARKETS_DEFAULT_LIMIT, MARKETS_MAX_LIMIT);
  if (!paging.ok) return paging.response;
  const { limit, offset } = paging.value;
  const closed = boolParam(req, ctx, "closed");
  if (!closed.ok) return closed.response;
  const statuses = statusParam(req, ctx);
  if (!statuses.ok) return statuses.response;

  const cat = ctx.sim.platform.catalogue;
  // An explicit status list wins over closed=true (it is the more precise request).
  const want: ReadonlySet<MarketStatus> = statuses.value !== undefined ? new Set(statuses.value) : closed.value === true ? CLOSED_SET : OPEN_SET;
  const all = cat.markets("all").filter((m) => want.has(cat.status(m.id) as MarketStatus));
  const page = all.slice(offset, offset + limit);
  const quotes = engineQuotes(ctx.sim.engine, cat, ctx.nowMs);
  return ok({
    markets: page.map((m) => marketRowJson(cat, m, quotes, "full", ctx.nowMs)),
    hasMore: offset + page.length < all.length,
  });
}

function notFound(ctx: RouteContext, key: "slug" | "symbol", value: string): SimResponse {
  return fail(ctx, 404, "market_not_found", `no market with ${key} ${JSON.stringify(value)}`, { [key]: value });
}

/** GET /api/markets/:slug: the detail row (full, without probabilityChange). */
function marketDetail(req: SimRequest, ctx: RouteContext): SimResponse {
  const slug = req.params.slug ?? "";
  const cat = ctx.sim.platform.catalogue;
  const m = cat.marketBySlug(slug);
  if (m === undefined) return notFound(ctx, "slug", slug);
  return ok(marketRowJson(cat, m, engineQuotes(ctx.sim.engine, cat, ctx.nowMs), "detail", ctx.nowMs));
}

function bySymbol(req: SimRequest, ctx: RouteContext): Parsed<Market> {
  const symbol = req.params.symbol ?? "";
  const m = ctx.sim.platform.catalogue.marketBySymbol(symbol);
  return m === undefined ? rejected(notFound(ctx, "symbol", symbol)) : parsed(m);
}

/** `?outcome=` (default 0): 400 invalid_outcome when not an index of the market. */
function outcomeParam(req: SimRequest, ctx: RouteContext, m: Market): Parsed<number> {
  const text = first(req.query, "outcome");
  if (text === undefined) return parsed(0);
  const n = isDigits(text) ? digitsValue(text) : Number.NaN;
  if (!(n >= 0 && n < m.outcomeCount)) {
    return rejected(fail(ctx, 400, "invalid_outcome", `outcome must be 0..${m.outcomeCount - 1}`, { field: "outcome", outcomeCount: m.outcomeCount }));
  }
  return parsed(n);
}

function hasEngineMarket(sim: Simulator, symbol: string): boolean {
  return sim.engine.markets.has(symbol);
}

/**
 * GET /api/markets/:symbol/orderbook?outcome=N[&depth=D]: one outcome's book, best first,
 * aggregated per price. A binary NO book is the complement of the YES book (engine view).
 */
function orderbook(req: SimRequest, ctx: RouteContext): SimResponse {
  const found = bySymbol(req, ctx);
  if (!found.ok) return found.response;
  const m = found.value;
  const outcome = outcomeParam(req, ctx, m);
  if (!outcome.ok) return outcome.response;
  const depthText = first(req.query, "depth");
  let depth = BOOK_DEFAULT_DEPTH;
  if (depthText !== undefined) {
    if (!isDigits(depthText) || digitsValue(depthText) < 1) {
      return fail(ctx, 400, "invalid_request", "depth must be a positive integer", { field: "depth", fields: ["depth"] });
    }
    depth = Math.min(digitsValue(depthText), BOOK_MAX_DEPTH);
  }
  const tokenId = m.outcomeTokenIds[outcome.value] ?? null;
  const base = { marketId: m.symbol, outcome: outcome.value, tokenId };
  if (!hasEngineMarket(ctx.sim, m.symbol)) return ok({ ...base, bids: [], asks: [], updatedAt: isoOf(ctx.nowMs) });
  const snap = ctx.sim.engine.book(m.symbol, outcome.value, depth);
  const level = (l: { price: bigint; quantity: bigint }) => ({ price: formatMicros(l.price), quantity: formatMicros(l.quantity) });
  return ok({ ...base, bids: snap.bids.map(level), asks: snap.asks.map(level), updatedAt: isoOf(ctx.nowMs) });
}

function boundParam(req: SimRequest, ctx: RouteContext, key: "before" | "after"): Parsed<TradeBound | undefined> {
  const text = first(req.query, key);
  if (text === undefined) return parsed(undefined);
  const b = parseTradeBound(text);
  if (b === undefined) {
    return rejected(fail(ctx, 400, "invalid_request", `${key} must be an ISO-8601 time, epoch milliseconds or a nextCursor`, { field: key, fields: [key] }));
  }
  return parsed(b);
}

/** GET /api/markets/:symbol/trades: `{trades, nextCursor}`, newest first. */
function trades(req: SimRequest, ctx: RouteContext): SimResponse {
  const found = bySymbol(req, ctx);
  if (!found.ok) return found.response;
  const limitText = first(req.query, "limit");
  let limit = TRADES_DEFAULT_LIMIT;
  if (limitText !== undefined) {
    const n = isDigits(limitText) ? digitsValue(limitText) : Number.NaN;
    if (!(n >= 1)) return fail(ctx, 400, "invalid_limit", "limit must be a positive integer", { max: TRADES_MAX_LIMIT });
    limit = Math.min(n, TRADES_MAX_LIMIT);
  }
  const before = boundParam(req, ctx, "before");
  if (!before.ok) return before.response;
  const after = boundParam(req, ctx, "after");
  if (!after.ok) return after.response;
  return ok(
    tradesPage(ctx.sim.engine, found.value.symbol, {
      limit,
      ...(before.value !== undefined ? { before: before.value } : {}),
      ...(after.value !== undefined ? { after: after.value } : {}),
    }),
  );
}

/** GET /api/markets/:symbol/price-history?outcome&interval&from&to: trade prices, oldest first. */
function priceHistory(req: SimRequest, ctx: RouteContext): SimResponse {
  const found = bySymbol(req, ctx);
  if (!found.ok) return found.response;
  const m = found.value;
  const outcome = outcomeParam(req, ctx, m);
  if (!outcome.ok) return outcome.response;
  const intervalText = first(req.query, "interval");
  let intervalMs: number | undefined;
  if (intervalText !== undefined) {
    intervalMs = PRICE_INTERVALS[intervalText];
    if (intervalMs === undefined) {
      return fail(ctx, 400, "invalid_interval", `unknown interval ${JSON.stringify(intervalText)}`, { allowed: Object.keys(PRICE_INTERVALS) });
    }
  }
  const range: { fromMs?: number; toMs?: number } = {};
  for (const key of ["from", "to"] as const) {
    const text = first(req.query, key);
    if (text === undefined) continue;
    const ms = parseTimeBound(text);
    if (ms === undefined) return fail(ctx, 400, "invalid_request", `${key} must be an ISO-8601 time or epoch milliseconds`, { field: key, fields: [key] });
    range[key === "from" ? "fromMs" : "toMs"] = ms;
  }
  const points = pricePoints(ctx.sim.engine, m.symbol, outcome.value, { ...range, ...(intervalMs !== undefined ? { intervalMs } : {}) });
  return ok({ marketId: m.symbol, outcome: outcome.value, points });
}

/** GET /api/markets/:symbol/ohlc?interval&outcome (deprecated upstream; default interval 1h). */
function ohlc(req: SimRequest, ctx: RouteContext): SimResponse {
  const found = bySymbol(req, ctx);
  if (!found.ok) return found.response;
  const m = found.value;
  const interval = first(req.query, "interval") ?? "1h";
  const intervalMs = PRICE_INTERVALS[interval];
  if (intervalMs === undefined) {
    return fail(ctx, 400, "invalid_interval", `unknown interval ${JSON.stringify(interval)}`, { allowed: Object.keys(PRICE_INTERVALS) });
  }
  const outcome = outcomeParam(req, ctx, m);
  if (!outcome.ok) return outcome.response;
  return ok({ marketId: m.symbol, outcome: outcome.value, interval, candles: candles(ctx.sim.engine, m.symbol, outcome.value, intervalMs) });
}

/** GET /api/markets/:symbol/traders?limit (default 50, max 200, larger clamped). */
function marketTraders(req: SimRequest, ctx: RouteContext): SimResponse {
  const found = bySymbol(req, ctx);
  if (!found.ok) return found.response;
  const limit = clampedLimit(req, ctx, TRADERS_DEFAULT_LIMIT, TRADERS_MAX_LIMIT);
  if (!limit.ok) return limit.response;
  return ok({ marketId: found.value.symbol, traders: traders(ctx.sim.engine, found.value.symbol, limit.value) });
}

/** GET /api/markets/:symbol/traders/by-outcome?limit (default 50, clamped to 1..200 per outcome). */
function marketTradersByOutcome(req: SimRequest, ctx: RouteContext): SimResponse {
  const found = bySymbol(req, ctx);
  if (!found.ok) return found.response;
  const text = first(req.query, "limit");
  let limit = TRADERS_DEFAULT_LIMIT;
  if (text !== undefined) {
    if (!/^-?\d+$/.test(text)) return fail(ctx, 400, "invalid_limit", "limit must be an integer", { min: 1, max: TRADERS_MAX_LIMIT });
    limit = Math.min(Math.max(Number(text), 1), TRADERS_MAX_LIMIT);
  }
  return ok({ marketId: found.value.symbol, outcomes: tradersByOutcome(ctx.sim.engine, found.value, limit) });
}

/** GET /api/markets/disputable?limit&offset: full rows of markets awaiting or under dispute. */
function disputable(req: SimRequest, ctx: RouteContext): SimResponse {
  const paging = limitOffset(req, ctx, MARKETS_DEFAULT_LIMIT, DISPUTABLE_MAX_LIMIT);
  if (!paging.ok) return paging.response;
  const { limit, offset } = paging.value;
  const cat = ctx.sim.platform.catalogue;
  const all = cat.markets("closed").filter((m) => DISPUTABLE.has(cat.status(m.id) as MarketStatus));
  const page = all.slice(offset, offset + limit);
  const quotes = engineQuotes(ctx.sim.engine, cat, ctx.nowMs);
  return ok({ markets: page.map((m) => marketRowJson(cat, m, quotes, "full", ctx.nowMs)), hasMore: offset + page.length < all.length });
}

export const marketRoutes: RouteDef[] = [
  { method: "GET", pattern: "/api/markets", auth: "public", handler: listMarkets },
  { method: "GET", pattern: "/api/markets/:slug", auth: "public", handler: marketDetail },
  { method: "GET", pattern: "/api/markets/:symbol/orderbook", auth: "public", handler: orderbook },
  { method: "GET", pattern: "/api/markets/:symbol/trades", auth: "public", handler: trades },
  { method: "GET", pattern: "/api/markets/:symbol/price-history", auth: "public", handler: priceHistory },
  { method: "GET", pattern: "/api/markets/:symbol/ohlc", auth: "public", handler: ohlc },
  { method: "GET", pattern: "/api/markets/:symbol/traders", auth: "public", handler: marketTraders },
  { method: "GET", pattern: "/api/markets/:symbol/traders/by-outcome", auth: "public", handler: marketTradersByOutcome },
  // A literal segment wins over `:slug` in the router (and in the rate table).
  { method: "GET", pattern: "/api/markets/disputable", auth: "public", handler: disputable },
];
