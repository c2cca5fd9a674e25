/**
 * GET /api/leaderboard (spec 4.4, 2.10), computed on request from the engine's trade log and
 * the settled markets (the simulator's "snapshot" is always current).
 *
 * - Users: every registered wallet whose vault is deployed (synthetic-flow wallets are not users).
 * - PnL (2.10): realised only. Each wallet keeps an average cost per (market, outcome); a SELL leg
 *   (merges included: both legs of a merge are sells) realises (price - avg) x qty; a resolution
 *   or void realises payout - avg x qty for what was held. Fees are not in PnL. Volume: the
 *   settlement token the wallet's legs moved. Both count only events inside the period.
 * - Periods: `today` since 00:00 UTC, `week` the last 7 days, `month` the last 30 days, `all`.
 * - Order: pnl descending, then volume descending, then vault ascending (wallets with no realised
 *   activity sort last, with a real rank); `sort=volume` reorders the same snapshot by volume and
 *   re-stamps the ranks.
 * - `search`: case-insensitive prefix of the wallet (or vault) when it looks 0x-hex, else of the
 *   username (the scenario wallet name). `total` counts the entries after search.
 * - `cursor`: base64url of the next offset. `me`: the caller's entry when an API key (and, for
 *   multi_wallet partners, X-User-Wallet) authenticates and its vault is deployed; rank null when
 *   it has no activity in the period (2.10: its pnl and volume are then zero). Errors: 400 bad_request.
 */
import { getAddress } from "viem/utils";
import { formatMicros, SCALE, type Micros } from "../../../core/money.js";
import { isoOf } from "../../platform/index.js";
import type { Simulator } from "../../simulator.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { base64url, fail, first, fromBase64url, ok } from "./public-common.js";

export const LEADERBOARD_PERIODS = ["today", "week", "month", "all"] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export const LEADERBOARD_DEFAULT_LIMIT = 20;
export const LEADERBOARD_MAX_LIMIT = 50;
const DAY_MS = 86_400_000;

export interface LeaderboardEntryJson {
  rank: number | null;
  vaultAddress: string;
  walletAddress: string;
  username: string | null;
  pnl: string;
  volume: string;
}

interface Row {
  wallet: string;
  vault: string;
  username: string | null;
  pnl: Micros;
  volume: Micros;
  active: boolean;
}

export function periodStartMs(period: LeaderboardPeriod, nowMs: number): number {
  switch (period) {
    case "today":
      return Math.floor(nowMs / DAY_MS) * DAY_MS;
    case "week":
      return nowMs - 7 * DAY_MS;
    case "month":
      return nowMs - 30 * DAY_MS;
    case "all":
      return Number.NEGATIVE_INFINITY;
  }
}

interface Holding {
  qty: Micros;
  cost: Micros;
}

/** Realised PnL and volume per wallet (lower-case) inside [fromMs, nowMs]. */
export function realised(sim: Simulator, fromMs: number, nowMs: number): Map<string, { pnl: Micros; volume: Micros; active: boolean }> {
  const out = new Map<string, { pnl: Micros; volume: Micros; active: boolean }>();
  const holdings = new Map<string, Holding>();
  const acc = (wallet: string) => {
    let a = out.get(wallet);
    if (a === undefined) out.set(wallet, (a = { pnl: 0n, volume: 0n, active: false }));
    return a;
  };
  const leg = (wallet: string, marketId: string, outcome: number, side: "BUY" | "SELL", price: Micros, qty: Micros, cash: Micros, atMs: number): void => {
    const w = wallet.toLowerCase();
    const key = `${w}\n${marketId}\n${outcome}`;
    const h = holdings.get(key) ?? { qty: 0n, cost: 0n };
    const inPeriod = atMs >= fromMs && atMs <= nowMs;
    if (side === "BUY") {
      h.qty += qty;
      h.cost += (price * qty) / SCALE;
    } else {
      const sold = qty < h.qty ? qty : h.qty;
      const basis = h.qty > 0n ? (h.cost * sold) / h.qty : 0n;
      h.qty -= sold;
      h.cost -= basis;
      if (inPeriod) {
        const a = acc(w);
        a.pnl += (price * qty) / SCALE - basis;
        a.active = true;
      }
    }
    holdings.set(key, h);
    if (inPeriod) {
      const a = acc(w);
      a.volume += cash;
      a.active = true;
    }
  };
  for (const t of sim.engine.ledger.trades()) {
    leg(t.takerWallet, t.marketId, t.outcome, t.side, t.price, t.quantity, t.takerCash, t.createdAtMs);
    leg(t.makerWallet, t.marketId, t.makerOutcome, t.makerSide, t.makerPrice, t.quantity, t.makerCash, t.createdAtMs);
  }
  const cat = sim.platform.catalogue;
  for (const [symbol, r] of sim.settlements) {
    const m = cat.marketBySymbol(symbol, true);
    if (m === undefined) continue;
    const st = cat.lifecycle(m.id);
    const atMs = st.resolvedAtMs ?? st.voidedAtMs ?? nowMs;
    if (atMs < fromMs || atMs > nowMs) continue;
    for (const p of r.payouts) {
      const w = p.wallet.toLowerCase();
      const h = holdings.get(`${w}\n${p.marketId}\n${p.outcome}`);
      const basis = h === undefined || h.qty <= 0n ? 0n : (h.cost * (p.quantity < h.qty ? p.quantity : h.qty)) / h.qty;
      const a = acc(w);
      a.pnl += p.amount - basis;
      a.active = true;
    }
  }
  return out;
}

function rowsOf(sim: Simulator, period: LeaderboardPeriod, nowMs: number): Row[] {
  const stats = realised(sim, periodStartMs(period, nowMs), nowMs);
  const names = new Map(sim.platform.walletSecrets.map((w) => [w.address.toLowerCase(), w.name]));
  const rows: Row[] = [];
  for (const w of sim.platform.wallets.list()) {
    const info = sim.platform.wallets.vaultInfo(w.address, nowMs);
    if (!info.deployed) continue;
    const s = stats.get(w.address) ?? { pnl: 0n, volume: 0n, active: false };
    rows.push({ wallet: w.address, vault: info.vaultAddress.toLowerCase(), username: names.get(w.address) ?? null, pnl: s.pnl, volume: s.volume, active: s.active });
  }
  return rows;
}

const cmpBig = (a: Micros, b: Micros): number => (a === b ? 0 : a > b ? -1 : 1);
const byPnl = (a: Row, b: Row): number => cmpBig(a.pnl, b.pnl) || cmpBig(a.volume, b.volume) || (a.vault < b.vault ? -1 : a.vault > b.vault ? 1 : 0);
const byVolume = (a: Row, b: Row): number => cmpBig(a.volume, b.volume) || byPnl(a, b);

function entryJson(r: Row, rank: number | null): LeaderboardEntryJson {
  return { rank, vaultAddress: r.vault, walletAddress: getAddress(r.wallet), username: r.username, pnl: formatMicros(r.pnl), volume: formatMicros(r.volume) };
}

function bad(ctx: RouteContext, field: string, message: string, allowed?: readonly string[]): SimResponse {
  return fail(ctx, 400, "bad_request", message, { field, fields: [field], ...(allowed ? { allowed: [...allowed] } : {}) });
}

/** The caller's wallet when a key authenticates (the endpoint is public: a bad key is ignored). */
function callerWallet(req: SimRequest, ctx: RouteContext): string | null {
  if (req.headers["x-api-key"] === undefined) return null;
  const a = ctx.sim.platform.authorize({
    apiKeyHeader: req.headers["x-api-key"],
    userWalletHeader: req.headers["x-user-wallet"],
    ip: req.ip,
    requiredScopes: [],
    nowMs: ctx.nowMs,
  });
  return a.ok ? a.wallet : null;
}

function leaderboard(req: SimRequest, ctx: RouteContext): SimResponse {
  const periodText = (first(req.query, "period") ?? "today").toLowerCase();
  const period = LEADERBOARD_PERIODS.find((p) => p === periodText);
  if (period === undefined) return bad(ctx, "period", `unknown period ${JSON.stringify(periodText)}`, LEADERBOARD_PERIODS);
  const sort = (first(req.query, "sort") ?? "pnl").toLowerCase();
  if (sort !== "pnl" && sort !== "volume") return bad(ctx, "sort", `unknown sort ${JSON.stringify(sort)}`, ["pnl", "volume"]);
  const limitText = first(req.query, "limit");
  let limit = LEADERBOARD_DEFAULT_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > LEADERBOARD_MAX_LIMIT) {
      return bad(ctx, "limit", `limit must be an integer in 1..${LEADERBOARD_MAX_LIMIT}`);
    }
    limit = Number(limitText);
  }
  const cursorText = first(req.query, "cursor");
  let offset = 0;
  if (cursorText !== undefined) {
    const decoded = fromBase64url(cursorText);
    const m = decoded === undefined ? null : /^lb:(\d{1,9})$/.exec(decoded);
    if (m === null) return bad(ctx, "cursor", "cursor is not a cursor of this endpoint");
    offset = Number(m[1]);
  }
  const search = (first(req.query, "search") ?? "").trim().toLowerCase();

  const ranked = rowsOf(ctx.sim, period, ctx.nowMs).sort(sort === "volume" ? byVolume : byPnl);
  const rankOf = new Map(ranked.map((r, i) => [r.wallet, i + 1]));
  const hex = /^0x[0-9a-f]*$/.test(search);
  const matching = search === "" ? ranked : ranked.filter((r) => (hex ? r.wallet.startsWith(search) || r.vault.startsWith(search) : (r.username ?? "").toLowerCase().startsWith(search)));
  const page = matching.slice(offset, offset + limit);
  const next = offset + page.length < matching.length ? base64url(`lb:${offset + page.length}`) : null;

  const me = callerWallet(req, ctx);
  const mine = me === null ? undefined : ranked.find((r) => r.wallet === me);
  return ok({
    period,
    snapshotAt: isoOf(ctx.nowMs),
    total: matching.length,
    entries: page.map((r) => entryJson(r, rankOf.get(r.wallet) ?? null)),
    nextCursor: next,
    me: mine === undefined ? null : entryJson(mine, mine.active ? (rankOf.get(mine.wallet) ?? null) : null),
  });
}

export const leaderboardRoutes: RouteDef[] = [{ method: "GET", pattern: "/api/leaderboard", auth: "public", handler: leaderboard }];
