/**
 * Split, merge and convert (spec 4.8) and their /sim controls; the desk is src/sim/desk/vault-ops.ts.
 *
 *   POST /api/vault/split-signature | merge-signature | convert-signature   vault:write
 *   GET  /api/me/splits-merges?cursor&limit&before   portfolio:read (default 50, max 200, clamped)
 *   GET  /api/me/splits-merges/unlockable?limit      portfolio:read (default 50, max 200)
 *   POST /api/me/splits-merges/{opId}/unlock         vault:write
 *
 * Controls (loopback only, no key, never faulted):
 *   GET  /sim/vault-ops                               every operation, oldest first, and the config
 *   POST /sim/vault-ops/{opId}/fail {reason?}          a pending operation's chain tx fails now
 *   POST /sim/vault-ops/config {confirmMs?, failNext?, failProbability?}
 */
import { z } from "zod";
import { checkRequest, requestErrorEnvelope } from "../../../wire/requests.js";
import { vaultOpsDesk } from "../../desk/vault-ops.js";
import type { RouteContext, RouteDef } from "../types.js";
import { walletRoute } from "./portfolio.js";

export const vaultOpRoutes: RouteDef[] = [
  walletRoute("/api/vault/split-signature", (c, req, ctx) => vaultOpsDesk(ctx.sim).request("split", req.body, c, ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/vault/merge-signature", (c, req, ctx) => vaultOpsDesk(ctx.sim).request("merge", req.body, c, ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/vault/convert-signature", (c, req, ctx) => vaultOpsDesk(ctx.sim).request("convert", req.body, c, ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/me/splits-merges", (c, req, ctx) => vaultOpsDesk(ctx.sim).list(c, req.query, ctx.nowMs)),
  walletRoute("/api/me/splits-merges/unlockable", (c, req, ctx) => vaultOpsDesk(ctx.sim).unlockable(c, req.query, ctx.nowMs)),
  walletRoute("/api/me/splits-merges/:opId/unlock", (c, req, ctx) => vaultOpsDesk(ctx.sim).unlock(c, req.params.opId ?? "", ctx.nowMs), "POST", "vault:write"),
];

function configJson(ctx: RouteContext): Record<string, unknown> {
  return { ...vaultOpsDesk(ctx.sim).config };
}

export const vaultOpControlRoutes: RouteDef[] = [
  {
    method: "GET",
    pattern: "/sim/vault-ops",
    auth: "public",
    handler: (_req, ctx) => ({ status: 200, body: { operations: vaultOpsDesk(ctx.sim).all(ctx.nowMs), config: configJson(ctx) } }),
  },
  {
    method: "POST",
    pattern: "/sim/vault-ops/:opId/fail",
    auth: "public",
    handler: (req, ctx) => {
      const r = checkRequest(z.strictObject({ reason: z.string().min(1).max(500).optional() }), req.body ?? {});
      if (!r.ok) return { status: 400, body: requestErrorEnvelope(r) };
      const a = vaultOpsDesk(ctx.sim).fail(req.params.opId ?? "", ctx.nowMs, r.value.reason);
      return { status: a.status, body: a.body };
    },
  },
  {
    method: "POST",
    pattern: "/sim/vault-ops/config",
    auth: "public",
    handler: (req, ctx) => {
      const r = checkRequest(
        z.strictObject({
          confirmMs: z.number().int().min(0).max(7 * 86_400_000).optional(),
          failNext: z.number().int().min(0).max(1_000_000).optional(),
          failProbability: z.number().min(0).max(1).optional(),
        }),
        req.body ?? {},
      );
      if (!r.ok) return { status: 400, body: requestErrorEnvelope(r) };
      const c = vaultOpsDesk(ctx.sim).config;
      if (r.value.confirmMs !== undefined) c.confirmMs = r.value.confirmMs;
      if (r.value.failNext !== undefined) c.failNext = r.value.failNext;
      if (r.value.failProbability !== undefined) c.failProbability = r.value.failProbability;
      return { status: 200, body: configJson(ctx) };
    },
  },
];

