/**
 * Public activity and challenge reads (spec 4.9; shapes not shown, ours):
 *
 *   GET /api/users/{address}/activity?cursor&limit        (limit default 20, max 100, clamped)
 *   GET /api/users/by-vault/{vault}/activity?cursor&limit
 *     {walletAddress, vaultAddress, activity: [{type: "trade", ...trade row as that wallet saw
 *      it}], nextCursor}: the wallet's fills, newest first; an address with no activity answers
 *      an empty page; a malformed address is 400 invalid_request.
 *   GET /api/challenges?cursor&limit, GET /api/markets/{symbol}/challenges?cursor&limit
 *     {challenges, nextCursor}: the scenario's resolution challenges (src/sim/desk/challenges.ts),
 *     newest first, keyset cursor; limit default 50, above 200 clamped; a cursor not of this
 *     endpoint is 400 invalid_request; unknown symbol 404 market_not_found.
 */
import { partyTradeJson, roleOf } from "../../desk/format.js";
import { challengePage, type ChallengeKey } from "../../desk/challenges.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { base64url, clampedLimit, fail, first, fromBase64url, ok } from "./public-common.js";

export const ACTIVITY_DEFAULT_LIMIT = 20;
export const ACTIVITY_MAX_LIMIT = 100;
export const CHALLENGES_DEFAULT_LIMIT = 50;
const CHALLENGES_MAX_LIMIT = 200;
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

function badCursor(ctx: RouteContext): SimResponse {
  return fail(ctx, 400, "invalid_request", "cursor is not a cursor of this endpoint", { fields: ["cursor"], field: "cursor" });
}

function activityOf(req: SimRequest, ctx: RouteContext, wallet: string): SimResponse {
  const limit = clampedLimit(req, ctx, ACTIVITY_DEFAULT_LIMIT, ACTIVITY_MAX_LIMIT);
  if (!limit.ok) return limit.response;
  const cursorText = first(req.query, "cursor");
  let belowRow = Number.POSITIVE_INFINITY;
  if (cursorText !== undefined) {
    const m = /^act:(\d{1,12})$/.exec(fromBase64url(cursorText) ?? "");
    if (m === null) return badCursor(ctx);
    belowRow = Number(m[1]);
  }
  const engine = ctx.sim.engine;
  const log = engine.ledger.tradeLog;
  const account = engine.ledger.find(wallet);
  const rows = (account === undefined ? [] : log.rowsOfAccount(account)).filter((r) => r < belowRow);
  const page = rows.slice(-limit.value).reverse();
  const last = page[page.length - 1];
  return ok({
    walletAddress: wallet,
    vaultAddress: ctx.sim.platform.wallets.vaultInfo(wallet, ctx.nowMs).vaultAddress.toLowerCase(),
    activity: page.map((row) => {
      const t = log.get(row);
      return { type: "trade", ...partyTradeJson(t, roleOf(t, wallet)) };
    }),
    nextCursor: rows.length > limit.value && last !== undefined ? base64url(`act:${last}`) : null,
  });
}

function badAddress(ctx: RouteContext, field: string): SimResponse {
  return fail(ctx, 400, "invalid_request", `${field} must be 0x followed by 40 hex characters`, { fields: [field], field });
}

function userActivity(req: SimRequest, ctx: RouteContext): SimResponse {
  const address = req.params.address ?? "";
  if (!ADDRESS_RE.test(address)) return badAddress(ctx, "address");
  return activityOf(req, ctx, address.toLowerCase());
}

function vaultActivity(req: SimRequest, ctx: RouteContext): SimResponse {
  const vault = req.params.vault ?? "";
  if (!ADDRESS_RE.test(vault)) return badAddress(ctx, "vault");
  const wallets = ctx.sim.platform.wallets;
  const owner = wallets.list().find((w) => w.vaultAddress.toLowerCase() === vault.toLowerCase());
  if (owner === undefined) {
    return ok({ walletAddress: null, vaultAddress: vault.toLowerCase(), activity: [], nextCursor: null });
  }
  return activityOf(req, ctx, owner.address);
}

function challengesOf(req: SimRequest, ctx: RouteContext, symbol: string | undefined): SimResponse {
  const limit = clampedLimit(req, ctx, CHALLENGES_DEFAULT_LIMIT, CHALLENGES_MAX_LIMIT);
  if (!limit.ok) return limit.response;
  const cursorText = first(req.query, "cursor");
  let after: ChallengeKey | undefined;
  if (cursorText !== undefined) {
    const m = /^ch:(\d{1,15}):([A-Za-z0-9._-]{1,64})$/.exec(fromBase64url(cursorText) ?? "");
    if (m === null) return badCursor(ctx);
    after = { createdAtMs: Number(m[1]), id: m[2]! };
  }
  const page = challengePage(ctx.sim.platform, ctx.nowMs, { limit: limit.value, ...(symbol === undefined ? {} : { symbol }), ...(after === undefined ? {} : { after }) });
  const last = page.last;
  return ok({ challenges: page.rows, nextCursor: page.more && last !== undefined ? base64url(`ch:${last.createdAtMs}:${last.id}`) : null });
}

function challenges(req: SimRequest, ctx: RouteContext): SimResponse {
  return challengesOf(req, ctx, undefined);
}

function marketChallenges(req: SimRequest, ctx: RouteContext): SimResponse {
  const symbol = req.params.symbol ?? "";
  const market = ctx.sim.platform.catalogue.marketBySymbol(symbol);
  if (market === undefined) {
    return fail(ctx, 404, "market_not_found", `no market with symbol ${JSON.stringify(symbol)}`, { symbol });
  }
  return challengesOf(req, ctx, market.symbol);
}

export const activityRoutes: RouteDef[] = [
  { method: "GET", pattern: "/api/users/:address/activity", auth: "public", handler: userActivity },
  { method: "GET", pattern: "/api/users/by-vault/:vault/activity", auth: "public", handler: vaultActivity },
  { method: "GET", pattern: "/api/challenges", auth: "public", handler: challenges },
  { method: "GET", pattern: "/api/markets/:symbol/challenges", auth: "public", handler: marketChallenges },
];
