/**
 * Public platform routes (spec 4.9): health, readiness, the contract registry, fee
 * configuration, freeze status, notices and tags; plus the other public reads (matches, search,
 * upcoming, geo, leaderboard, activity, challenges) from the public-*.ts modules. Shapes as docs/spec-gaps.md decides them.
 * Addresses are served lower-case (spec 2.1: most responses are).
 */
import { MAX_FEE_RATE_BPS } from "../../../core/amounts.js";
import { isoOf, tagJson } from "../../platform/index.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { ok } from "./public-common.js";
import { activityRoutes } from "./public-activity.js";
import { extraPublicRoutes } from "./public-extra.js";
import { leaderboardRoutes } from "./public-leaderboard.js";
import { activeNotices, platformState } from "./public-state.js";

function health(): SimResponse {
  return ok({ status: "ok" });
}

/** 200 `{ready: true, checks}`, or 503 `{ready: false, checks}` while a check fails. */
function ready(_req: SimRequest, ctx: RouteContext): SimResponse {
  const checks = { ...platformState(ctx.sim).readyChecks };
  const isReady = Object.values(checks).every(Boolean);
  return { status: isReady ? 200 : 503, body: { ready: isReady, checks } };
}

function contracts(_req: SimRequest, ctx: RouteContext): SimResponse {
  const s = ctx.sim.platform.settings;
  return ok({
    chainId: s.chainId,
    domain: { name: s.domain.name, version: s.domain.version },
    exchange: { binary: s.contracts.exchange.binary.toLowerCase(), negRisk: s.contracts.exchange.negRisk.toLowerCase() },
    vaultFactory: s.contracts.vaultFactory.toLowerCase(),
    collateral: s.contracts.collateral.toLowerCase(),
  });
}

function feeConfig(_req: SimRequest, ctx: RouteContext): SimResponse {
  return ok({ defaultFeeTakerBps: ctx.sim.platform.settings.defaultFeeTakerBps, maxFeeRateBps: MAX_FEE_RATE_BPS });
}

function status(_req: SimRequest, ctx: RouteContext): SimResponse {
  const s = platformState(ctx.sim);
  return ok({ frozen: s.frozen, reason: s.reason, updatedAt: isoOf(s.updatedAtMs) });
}

function notices(_req: SimRequest, ctx: RouteContext): SimResponse {
  return ok({
    notices: activeNotices(ctx.sim, ctx.nowMs).map((n) => ({
      id: n.id,
      severity: n.severity,
      title: n.title,
      message: n.message,
      startsAt: isoOf(n.startsAtMs),
      endsAt: n.endsAtMs === null ? null : isoOf(n.endsAtMs),
    })),
  });
}

function tags(_req: SimRequest, ctx: RouteContext): SimResponse {
  return ok({ tags: ctx.sim.platform.catalogue.tags().map(tagJson) });
}

export const platformRoutes: RouteDef[] = [
  { method: "GET", pattern: "/health", auth: "public", handler: health },
  { method: "GET", pattern: "/ready", auth: "public", handler: ready },
  { method: "GET", pattern: "/api/platform/contracts", auth: "public", handler: contracts },
  { method: "GET", pattern: "/api/platform/fee-config", auth: "public", handler: feeConfig },
  { method: "GET", pattern: "/api/platform/status", auth: "public", handler: status },
  { method: "GET", pattern: "/api/platform/notices", auth: "public", handler: notices },
  { method: "GET", pattern: "/api/tags", auth: "public", handler: tags },
  ...extraPublicRoutes,
  ...leaderboardRoutes,
  ...activityRoutes,
];
