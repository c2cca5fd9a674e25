/**
 * Portfolio routes of the effective wallet (spec 4.8, `portfolio:read`): vault info, balances,
 * positions, trades and fees (src/sim/desk/portfolio.ts), plus the rest of the wallet surface
 * (src/sim/desk/accounts.ts). Mutations need `vault:write` (5.4). Withdrawals, vault deployment and
 * the emergency are in ./withdrawals.ts; split, merge, convert and the splits-merges list and
 * unlock in ./vault-ops.ts.
 */
import type { DeskAnswer } from "../../desk/answers.js";
import {
  depositLimits,
  feeTier,
  portfolio,
} from "../../desk/accounts.js";
import { balances, fees, positions, trades, vaultInfo } from "../../desk/portfolio.js";
import { autoRedeemState, balanceEvents } from "../../desk/settlement-reads.js";
import type { Caller } from "../../desk/caller.js";
import type { HttpMethod, RouteContext, RouteDef, Scope, SimRequest, SimResponse } from "../types.js";
import { callerOf, noWallet } from "./orders.js";

type WalletHandler = (caller: Caller, req: SimRequest, ctx: RouteContext) => DeskAnswer;

/** A route for the calling wallet (X-User-Wallet required): the desk's answer as the response. */
export function walletRoute(pattern: string, handler: WalletHandler, method: HttpMethod = "GET", scope: Scope = "portfolio:read"): RouteDef {
  return {
    method,
    pattern,
    auth: { scopes: [scope], walletRequired: true },
    handler: (req, ctx): SimResponse => {
      const caller = callerOf(ctx);
      if (caller === undefined) return noWallet();
      const a = handler(caller, req, ctx);
      return a.headers === undefined ? { status: a.status, body: a.body } : { status: a.status, body: a.body, headers: a.headers };
    },
  };
}

export const portfolioRoutes: RouteDef[] = [
  walletRoute("/api/me/vault", (c, _req, ctx) => vaultInfo(ctx.sim.platform, c.wallet, ctx.nowMs)),
  walletRoute("/api/me/balances", (c, _req, ctx) => balances(ctx.sim.platform, ctx.sim.engine, c.wallet, ctx.nowMs)),
  walletRoute("/api/me/positions", (c, req, ctx) => positions(ctx.sim.engine, c.wallet, req.query)),
  walletRoute("/api/me/trades", (c, req, ctx) => trades(ctx.sim.engine, c.wallet, req.query)),
  walletRoute("/api/me/fees", (c, req, ctx) => fees(ctx.sim.engine, c.wallet, req.query)),
  walletRoute("/api/me/portfolio", (c, _req, ctx) => portfolio(ctx.sim.platform, ctx.sim.engine, c.wallet, ctx.nowMs)),
  walletRoute("/api/me/fee-tier", (c) => feeTier(c.wallet)),
  walletRoute("/api/me/auto-redeem", (c, _req, ctx) => autoRedeemState(ctx.sim.platform, ctx.sim.engine, c.wallet)),
  walletRoute("/api/me/deposit-limits", (c) => depositLimits(c.wallet)),
  walletRoute("/api/me/balance-events", (c, req, ctx) => balanceEvents(ctx.sim.engine, c.wallet, req.query)),
];
