/**
 * Order routes (spec 4.6): `orders:write` for the POSTs, `orders:read` for the GETs, always for
 * the effective wallet; and the partner feeds of spec 4.9 (partner-level, src/sim/desk/partner-feeds.ts). The work is in src/sim/desk; these handlers pick the wallet and the fault
 * out of the context and hand back the desk's answer.
 */
import type { Caller } from "../../desk/caller.js";
import type { DeskAnswer } from "../../desk/answers.js";
import { errorAnswer, failureAnswer } from "../../desk/answers.js";
import { mmKpis, partnerTrades, reconciliationSnapshot } from "../../desk/partner-feeds.js";
import { openOrders, orderById, orderFeesSummary, orderFills, orderHistory, orderLookup } from "../../desk/reads.js";
import type { RouteContext, RouteDef, SimResponse } from "../types.js";

const WRITE = { scopes: ["orders:write" as const], walletRequired: true };
const READ = { scopes: ["orders:read" as const], walletRequired: true };
const PARTNER_READ = { scopes: ["orders:read" as const], walletRequired: false };

function respond(a: DeskAnswer): SimResponse {
  return a.headers === undefined ? { status: a.status, body: a.body } : { status: a.status, body: a.body, headers: a.headers };
}

/** The effective wallet (lower-case) and partner; undefined only if the pipeline let a wallet-less call through. */
export function callerOf(ctx: RouteContext): Caller | undefined {
  const wallet = ctx.auth?.wallet;
  if (wallet === null || wallet === undefined) return undefined;
  return { wallet: wallet.toLowerCase(), partner: ctx.auth!.partner };
}

export function noWallet(): SimResponse {
  return respond(errorAnswer(401, "api_key_user_wallet_required", "this endpoint acts for a wallet: send X-User-Wallet"));
}

/** A fault the pipeline passed to a read route: answer it (nothing to record). */
function readFault(ctx: RouteContext): SimResponse | undefined {
  const f = ctx.fault;
  if (f === undefined || !("http" in f) || f.kind === "cancel_pending") return undefined;
  return respond(failureAnswer(f.http));
}

/** Partner-level feeds (spec 4.9): no wallet needed; a fault the pipeline passed is answered. */
function partnerFeed(handler: (partnerId: string, ctx: RouteContext, query: URLSearchParams) => DeskAnswer): RouteDef["handler"] {
  return (req, ctx) => {
    const partnerId = ctx.auth?.partner.id;
    if (partnerId === undefined) return respond(errorAnswer(401, "auth_required", "X-Api-Key header is required on this endpoint"));
    return readFault(ctx) ?? respond(handler(partnerId, ctx, req.query));
  };
}

function read(handler: (caller: Caller, ctx: RouteContext, params: Record<string, string>, query: URLSearchParams) => DeskAnswer): RouteDef["handler"] {
  return (req, ctx) => {
    const caller = callerOf(ctx);
    if (caller === undefined) return noWallet();
    return readFault(ctx) ?? respond(handler(caller, ctx, req.params, req.query));
  };
}

/** A write route: the desk acts for the caller's wallet and handles the fault the pipeline passed itself. */
function write(
  handler: (body: unknown, caller: Caller, ctx: RouteContext) => DeskAnswer | Promise<DeskAnswer>,
): RouteDef["handler"] {
  return async (req, ctx) => {
    const caller = callerOf(ctx);
    return caller === undefined ? noWallet() : respond(await handler(req.body, caller, ctx));
  };
}

export const orderRoutes: RouteDef[] = [
  {
    method: "POST",
    pattern: "/api/orders/place",
    auth: WRITE,
    handler: write((body, caller, ctx) => ctx.sim.desk.place(body, caller, ctx.fault)),
  },
  {
    method: "POST",
    pattern: "/api/orders/place-batch",
    auth: WRITE,
    handler: write((body, caller, ctx) => ctx.sim.desk.placeBatch(body, caller, ctx.fault)),
  },
  {
    method: "POST",
    pattern: "/api/orders/cancel",
    auth: WRITE,
    handler: write((body, caller, ctx) => ctx.sim.desk.cancels.cancel(body, caller, ctx.fault)),
  },
  {
    method: "POST",
    pattern: "/api/orders/cancel-batch",
    auth: WRITE,
    handler: write((body, caller, ctx) => ctx.sim.desk.cancels.cancelBatch(body, caller, ctx.fault)),
  },
  {
    method: "POST",
    pattern: "/api/orders/cancel-all",
    auth: WRITE,
    handler: write((body, caller, ctx) => ctx.sim.desk.cancels.cancelAll(body, caller, ctx.fault)),
  },
  {
    method: "GET",
    pattern: "/api/orders/open",
    auth: READ,
    handler: read((c, ctx, _p, q) => openOrders(ctx.sim.desk.records, c.wallet, q)),
  },
  {
    method: "GET",
    pattern: "/api/orders/history",
    auth: READ,
    handler: read((c, ctx, _p, q) => orderHistory(ctx.sim.desk.records, c.wallet, q)),
  },
  {
    method: "GET",
    pattern: "/api/orders/lookup",
    auth: READ,
    handler: read((c, ctx, _p, q) => orderLookup(ctx.sim.desk.records, c.wallet, q)),
  },
  {
    method: "GET",
    pattern: "/api/orders/:id",
    auth: READ,
    handler: read((c, ctx, p) => orderById(ctx.sim.desk.records, c.wallet, p.id ?? "")),
  },
  {
    method: "GET",
    pattern: "/api/orders/:id/fills",
    auth: READ,
    handler: read((c, ctx, p) => orderFills(ctx.sim.desk.records, c.wallet, p.id ?? "")),
  },
  {
    method: "GET",
    pattern: "/api/orders/:id/fees-summary",
    auth: READ,
    handler: read((c, ctx, p) => orderFeesSummary(ctx.sim.desk.records, c.wallet, p.id ?? "")),
  },
  {
    method: "GET",
    pattern: "/api/v1/partner/trades",
    auth: PARTNER_READ,
    handler: partnerFeed((id, ctx, q) => partnerTrades(ctx.sim.engine, ctx.sim.platform, id, q)),
  },
  {
    method: "GET",
    pattern: "/api/v1/partner/mm-kpis",
    auth: PARTNER_READ,
    handler: partnerFeed((id, ctx, q) => mmKpis(ctx.sim.engine, ctx.sim.platform, ctx.sim.desk.records, id, ctx.nowMs, q)),
  },
  {
    method: "GET",
    pattern: "/api/v1/partner/reconciliation/snapshot",
    auth: { scopes: ["portfolio:read" as const], walletRequired: false },
    handler: partnerFeed((id, ctx, q) => reconciliationSnapshot(ctx.sim.engine, ctx.sim.platform, ctx.sim.desk.records, id, ctx.nowMs, q)),
  },
];
