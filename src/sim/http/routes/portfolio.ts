/**
 * Portfolio routes of the effective wallet (spec 4.8, `portfolio:read`): vault info, balances,
 * positions, trades and fees. Shapes and paging in src/sim/desk/portfolio.ts.
 */
import type { DeskAnswer } from "../../desk/answers.js";
import { balances, fees, positions, trades, vaultInfo } from "../../desk/portfolio.js";
import type { Caller } from "../../desk/desk.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { callerOf, noWallet } from "./orders.js";

const READ = { scopes: ["portfolio:read" as const], walletRequired: true };

function route(pattern: string, handler: (caller: Caller, req: SimRequest, ctx: RouteContext) => DeskAnswer): RouteDef {
  return {
    method: "GET",
    pattern,
    auth: READ,
    handler: (req, ctx): SimResponse => {
      const caller = callerOf(ctx);
      if (caller === undefined) return noWallet();
      const a = handler(caller, req, ctx);
      return a.headers === undefined ? { status: a.status, body: a.body } : { status: a.status, body: a.body, headers: a.headers };
    },
  };
}

export const portfolioRoutes: RouteDef[] = [
  route("/api/me/vault", (c, _req, ctx) => vaultInfo(ctx.sim.platform, c.wallet, ctx.nowMs)),
  route("/api/me/balances", (c, _req, ctx) => balances(ctx.sim.platform, ctx.sim.engine, c.wallet, ctx.nowMs)),
  route("/api/me/positions", (c, req, ctx) => positions(ctx.sim.engine, c.wallet, req.query)),
  route("/api/me/trades", (c, req, ctx) => trades(ctx.sim.engine, c.wallet, req.query)),
  route("/api/me/fees", (c, req, ctx) => fees(ctx.sim.engine, c.wallet, req.query)),
];
