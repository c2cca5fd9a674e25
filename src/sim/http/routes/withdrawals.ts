/**
 * Withdrawals, vault deployment and the vault emergency (spec 4.7, 4.8), and their /sim controls.
 * The desks are src/sim/desk/withdrawals.ts, vault-deploy.ts and emergency.ts.
 *
 *   POST /api/withdrawals/request                 vault:write
 *   GET  /api/me/withdrawals?cursor&limit         portfolio:read (default 100, max 200, clamped)
 *   GET  /api/me/withdrawals/fee?amount           portfolio:read
 *   GET  /api/me/withdrawals/deposit-sources      portfolio:read
 *   GET  /api/me/withdrawals/{id}                 portfolio:read
 *   POST /api/me/withdrawals/{id}/cancel          vault:write
 *   POST /api/me/vault/deploy/sign, /deploy/submit vault:write
 *   POST /api/me/vault/emergency                  vault:write
 *
 * Controls (loopback only, no key, never faulted):
 *   GET  /sim/withdrawals                          every record, oldest first
 *   POST /sim/withdrawals/{id}/{move} {reason?}    move: review, cosign, broadcast, confirm, revert, reject, fail
 *   POST /sim/withdrawals/destinations {destination, state, wallet?}   state: cleared, aml_blocked, banned, new
 *   POST /sim/withdrawals/config {auto?, eddThreshold?, fee?, coSignMs?, broadcastMs?, confirmMs?}
 */
import { z } from "zod";
import { formatMicros, tryParseMicros } from "../../../core/money.js";
import { errorEnvelope } from "../../../wire/errors.js";
import { checkRequest, requestErrorEnvelope } from "../../../wire/requests.js";
import { vaultEmergency } from "../../desk/emergency.js";
import { vaultDeployDesk } from "../../desk/vault-deploy.js";
import { WITHDRAWAL_MOVES, withdrawalDesk, type WithdrawalMove } from "../../desk/withdrawals.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { walletRoute } from "./portfolio.js";


export const withdrawalRoutes: RouteDef[] = [
  walletRoute("/api/withdrawals/request", (c, req, ctx) => withdrawalDesk(ctx.sim).request(req.body, c, ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/me/withdrawals", (c, req, ctx) => withdrawalDesk(ctx.sim).list(c, req.query, ctx.nowMs)),
  walletRoute("/api/me/withdrawals/fee", (c, req, ctx) => withdrawalDesk(ctx.sim).fee(c, req.query)),
  walletRoute("/api/me/withdrawals/deposit-sources", (c, _req, ctx) => withdrawalDesk(ctx.sim).depositSources(c)),
  walletRoute("/api/me/withdrawals/:id", (c, req, ctx) => withdrawalDesk(ctx.sim).detail(c, req.params.id ?? "", ctx.nowMs)),
  walletRoute("/api/me/withdrawals/:id/cancel", (c, req, ctx) => withdrawalDesk(ctx.sim).cancel(c, req.params.id ?? "", ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/me/vault/deploy/sign", (c, _req, ctx) => vaultDeployDesk(ctx.sim).sign(c, ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/me/vault/deploy/submit", (c, req, ctx) => vaultDeployDesk(ctx.sim).submit(req.body, c, ctx.nowMs), "POST", "vault:write"),
  walletRoute("/api/me/vault/emergency", (c, _req, ctx) => vaultEmergency(ctx.sim, c, ctx.nowMs), "POST", "vault:write"),
];

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const address = z.string().regex(ADDRESS, { error: "expected 0x followed by 40 hex characters" });
const moneyText = z.string().refine((s) => (tryParseMicros(s) ?? -1n) >= 0n, "expected a non-negative decimal string with at most 6 decimals");
const ms = z.number().int().min(0).max(7 * 86_400_000);

function body<S extends z.ZodType>(schema: S, req: SimRequest): { ok: true; value: z.output<S> } | { ok: false; res: SimResponse } {
  const r = checkRequest(schema, req.body ?? {});
  return r.ok ? { ok: true, value: r.value } : { ok: false, res: { status: 400, body: requestErrorEnvelope(r) } };
}

function configJson(ctx: RouteContext): Record<string, unknown> {
  const c = withdrawalDesk(ctx.sim).config;
  return { auto: c.auto, eddThreshold: formatMicros(c.eddThreshold), fee: formatMicros(c.fee), ...c.timings };
}

export const withdrawalControlRoutes: RouteDef[] = [
  {
    method: "GET",
    pattern: "/sim/withdrawals",
    auth: "public",
    handler: (_req, ctx) => ({ status: 200, body: { withdrawals: withdrawalDesk(ctx.sim).all(ctx.nowMs), config: configJson(ctx) } }),
  },
  {
    method: "POST",
    pattern: "/sim/withdrawals/:id/:move",
    auth: "public",
    handler: (req, ctx) => {
      const move = req.params.move ?? "";
      if (!(WITHDRAWAL_MOVES as readonly string[]).includes(move)) {
        return { status: 404, body: errorEnvelope(404, "not_found", `no withdrawal move ${JSON.stringify(move)}; moves: ${WITHDRAWAL_MOVES.join(", ")}`, { details: { allowed: [...WITHDRAWAL_MOVES] } }) };
      }
      const b = body(z.strictObject({ reason: z.string().min(1).max(500).optional() }), req);
      if (!b.ok) return b.res;
      const a = withdrawalDesk(ctx.sim).move(req.params.id ?? "", move as WithdrawalMove, ctx.nowMs, b.value.reason);
      return { status: a.status, body: a.body };
    },
  },
  {
    method: "POST",
    pattern: "/sim/withdrawals/destinations",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(z.strictObject({ destination: address, state: z.enum(["cleared", "aml_blocked", "banned", "new"]), wallet: address.optional() }), req);
      if (!b.ok) return b.res;
      withdrawalDesk(ctx.sim).setDestination(b.value.destination, b.value.state, b.value.wallet);
      return { status: 200, body: { destination: b.value.destination.toLowerCase(), state: b.value.state, wallet: b.value.wallet?.toLowerCase() ?? null } };
    },
  },
  {
    method: "POST",
    pattern: "/sim/withdrawals/config",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(
        z.strictObject({ auto: z.boolean().optional(), eddThreshold: moneyText.optional(), fee: moneyText.optional(), coSignMs: ms.optional(), broadcastMs: ms.optional(), confirmMs: ms.optional() }),
        req,
      );
      if (!b.ok) return b.res;
      const c = withdrawalDesk(ctx.sim).config;
      const v = b.value;
      if (v.auto !== undefined) c.auto = v.auto;
      if (v.eddThreshold !== undefined) c.eddThreshold = tryParseMicros(v.eddThreshold)!;
      if (v.fee !== undefined) c.fee = tryParseMicros(v.fee)!;
      if (v.coSignMs !== undefined) c.timings.coSignMs = v.coSignMs;
      if (v.broadcastMs !== undefined) c.timings.broadcastMs = v.broadcastMs;
      if (v.confirmMs !== undefined) c.timings.confirmMs = v.confirmMs;
      return { status: 200, body: configJson(ctx) };
    },
  },
];
