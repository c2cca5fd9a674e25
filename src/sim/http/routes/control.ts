/**
 * Operator / test controls of the simulator, under `/sim/` (never `/api/`, so no client of the
 * partner API can reach one by accident). They need no API key and are meant for loopback
 * only: `mm sim` binds 127.0.0.1 by default; do not expose them. The pipeline never injects
 * faults into them (a `*` fault rule must not lock the operator out of `DELETE /sim/faults`).
 *
 *   GET    /sim/clock                      {nowMs, now, mode}
 *   POST   /sim/clock/advance {ms}         virtual clock only; 409 invalid_state otherwise
 *   POST   /sim/markets/:symbol/status     {status} (= set_status) or {trigger, status?}
 *   POST   /sim/markets/:symbol/resolve    {payoutNumerators}
 *   POST   /sim/markets/:symbol/void
 *   POST   /sim/wallets/:address/fund      {amount}  (decimal string, settlement token)
 *   POST   /sim/keys                       {partnerId, scopes, label?} -> the plaintext, once
 *   POST   /sim/keys/:keyId/revoke
 *   GET    /sim/faults | POST /sim/faults {rule} | DELETE /sim/faults | DELETE /sim/faults/:id
 *   GET    /sim/trades                     the whole trade log, oldest first
 */
import { z } from "zod";
import { VirtualClock } from "../../../core/clock.js";
import { formatMicros, tryParseMicros } from "../../../core/money.js";
import { tradeJson } from "../../desk/format.js";
import { checkRequest, requestErrorEnvelope } from "../../../wire/requests.js";
import { errorEnvelope } from "../../../wire/errors.js";
import { type FaultRule, type FaultRuleInput } from "../../platform/faults.js";
import { faultRuleSchema } from "../../platform/scenario-schema.js";
import { PlatformSetupError, type PlatformFailure } from "../../platform/errors.js";
import { WALLET_RE } from "../../platform/derive.js";
import { SCOPES, type ApiKeyRecord } from "../../platform/keys.js";
import { MARKET_STATUSES, type AdminTrigger, type TransitionArgs } from "../../platform/lifecycle.js";
import { isoOf, isoOrNull, parseTimeSpec, type TimeSpec } from "../../platform/time.js";
import type { Market } from "../../platform/catalogue.js";
import type { Simulator } from "../../simulator.js";
import type { TradeRecord } from "../../engine/index.js";
import type { RouteDef, SimRequest, SimResponse } from "../types.js";

const ADMIN_TRIGGERS = [
  "pause", "resume", "suspend", "postpone", "close", "delay", "await_resolution", "dispute", "set_status", "resolve", "void",
] as const satisfies readonly AdminTrigger[];

const MAX_ADVANCE_MS = 366 * 86_400_000;

const ok = (body: unknown, status = 200): SimResponse => ({ status, body });
const fail = (f: PlatformFailure): SimResponse => ({
  status: f.status,
  body: errorEnvelope(f.status, f.code, f.message, f.details !== undefined ? { details: { ...f.details } } : {}),
});
const notFound = (code: string, message: string): SimResponse => ({ status: 404, body: errorEnvelope(404, code, message) });
const invalid = (message: string, details?: Record<string, unknown>): SimResponse => ({
  status: 400,
  body: errorEnvelope(400, "invalid_request", message, details ? { details } : {}),
});

/** Validate the body with a schema; a missing body counts as `{}`. */
function body<S extends z.ZodType>(schema: S, req: SimRequest): { ok: true; value: z.output<S> } | { ok: false; res: SimResponse } {
  const r = checkRequest(schema, req.body ?? {});
  return r.ok ? { ok: true, value: r.value } : { ok: false, res: { status: 400, body: requestErrorEnvelope(r) } };
}

function marketState(sim: Simulator, m: Market): Record<string, unknown> {
  const st = sim.platform.catalogue.lifecycle(m.id);
  return { marketId: m.id, symbol: m.symbol, slug: m.slug, status: st.status };
}

const unknownMarket = (ref: string | undefined): SimResponse => notFound("market_not_found", `no market ${ref ?? ""}`);

function keyJson(k: ApiKeyRecord): Record<string, unknown> {
  return {
    keyId: k.keyId,
    partnerId: k.partnerId,
    scopes: [...k.scopes],
    label: k.label,
    createdAt: isoOf(k.createdAtMs),
    expiresAt: isoOrNull(k.expiresAtMs),
    revokedAt: isoOrNull(k.revokedAtMs),
  };
}

function faultJson(r: FaultRule): Record<string, unknown> {
  return { ...r.input, id: r.id, from: isoOrNull(r.fromMs), to: isoOrNull(r.toMs), remaining: r.remaining, fired: r.fired };
}

/** The full log row for tests: the public row plus the maker's own view and the match kind. */
function controlTradeJson(t: TradeRecord): Record<string, unknown> {
  return {
    ...tradeJson(t),
    kind: t.kind,
    makerOutcome: t.makerOutcome,
    makerSide: t.makerSide,
    makerPrice: formatMicros(t.makerPrice),
  };
}

const timeSpecText = z.string().refine((s) => parseTimeSpec(s) !== undefined, "expected a relative time (+2m, -1h, now) or ISO-8601");

const faultBody = faultRuleSchema(timeSpecText);

function toRule(b: z.output<typeof faultBody>): FaultRuleInput {
  const { window, ...rest } = b;
  if (!window) return rest;
  const spec = (s: string | null | undefined): TimeSpec | null => (s ? (parseTimeSpec(s) ?? null) : null);
  return { ...rest, window: { from: spec(window.from), to: spec(window.to) } };
}

export const controlRoutes: RouteDef[] = [
  {
    method: "GET",
    pattern: "/sim/clock",
    auth: "public",
    handler: (_req, ctx) => {
      const now = ctx.sim.clock.now();
      return ok({ nowMs: now, now: isoOf(now), mode: ctx.sim.clock instanceof VirtualClock ? "virtual" : "realtime" });
    },
  },
  {
    method: "POST",
    pattern: "/sim/clock/advance",
    auth: "public",
    handler: async (req, ctx) => {
      const b = body(z.strictObject({ ms: z.number().int().min(0).max(MAX_ADVANCE_MS) }), req);
      if (!b.ok) return b.res;
      const clock = ctx.sim.clock;
      if (!(clock instanceof VirtualClock)) {
        return fail({ ok: false, status: 409, code: "invalid_state", message: "the simulator runs on the real clock; start it with --clock virtual to advance time" });
      }
      const from = clock.now();
      await clock.advance(b.value.ms);
      return ok({ fromMs: from, nowMs: clock.now(), now: isoOf(clock.now()) });
    },
  },
  {
    method: "POST",
    pattern: "/sim/markets/:symbol/status",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(z.strictObject({ trigger: z.enum(ADMIN_TRIGGERS).optional(), status: z.enum(MARKET_STATUSES).optional() }), req);
      if (!b.ok) return b.res;
      const m = ctx.sim.market(req.params.symbol!);
      if (!m) return unknownMarket(req.params.symbol);
      const trigger = b.value.trigger ?? (b.value.status !== undefined ? "set_status" : undefined);
      if (trigger === undefined) return invalid("give a status (set_status) or a trigger", { fields: ["status", "trigger"], field: "status" });
      if (trigger === "resolve" || trigger === "void") return invalid(`use POST /sim/markets/${m.symbol}/${trigger}`, { fields: ["trigger"], field: "trigger" });
      const args: TransitionArgs = b.value.status !== undefined ? { status: b.value.status } : {};
      const r = ctx.sim.setMarketStatus(m.id, trigger, args);
      if (!r.ok) return fail(r);
      return ok({ ...marketState(ctx.sim, m), transition: { ...r.transition, at: isoOf(r.transition.atMs) } });
    },
  },
  {
    method: "POST",
    pattern: "/sim/markets/:symbol/resolve",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(z.strictObject({ payoutNumerators: z.array(z.number().int().min(0)).min(1) }), req);
      if (!b.ok) return b.res;
      const m = ctx.sim.market(req.params.symbol!);
      if (!m) return unknownMarket(req.params.symbol);
      const nums = b.value.payoutNumerators;
      const r = ctx.sim.resolveMarket(m.id, nums);
      if (!r.ok) return fail(r);
      return ok({ ...marketState(ctx.sim, m), payoutNumerators: nums });
    },
  },
  {
    method: "POST",
    pattern: "/sim/markets/:symbol/void",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(z.strictObject({}), req);
      if (!b.ok) return b.res;
      const m = ctx.sim.market(req.params.symbol!);
      if (!m) return unknownMarket(req.params.symbol);
      const r = ctx.sim.voidMarket(m.id);
      if (!r.ok) return fail(r);
      return ok(marketState(ctx.sim, m));
    },
  },
  {
    method: "POST",
    pattern: "/sim/wallets/:address/fund",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(z.strictObject({ amount: z.string() }), req);
      if (!b.ok) return b.res;
      const address = req.params.address!;
      if (!WALLET_RE.test(address)) return invalid("address must be 0x followed by 40 hex characters", { fields: ["address"], field: "address" });
      const amount = tryParseMicros(b.value.amount);
      if (amount === undefined || amount <= 0n) {
        return invalid("amount must be a positive decimal string with at most 6 decimals", { fields: ["amount"], field: "amount" });
      }
      const wallet = address.toLowerCase();
      ctx.sim.fund(wallet, amount);
      const bal = ctx.sim.engine.balance(wallet);
      return ok({ walletAddress: wallet, funded: formatMicros(amount), collateral: { total: formatMicros(bal.total), locked: formatMicros(bal.locked), available: formatMicros(bal.available) } });
    },
  },
  {
    method: "POST",
    pattern: "/sim/keys",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(z.strictObject({ partnerId: z.string().min(1), scopes: z.array(z.enum(SCOPES)).min(1), label: z.string().nullable().optional() }), req);
      if (!b.ok) return b.res;
      const p = ctx.sim.platform;
      if (!p.partners.get(b.value.partnerId)) return notFound("not_found", `no partner ${b.value.partnerId}`);
      try {
        const issued = p.issueKey(b.value.partnerId, b.value.scopes, { label: b.value.label ?? null });
        return ok({ key: issued.plaintext, ...keyJson(issued.record) }, 201);
      } catch (e) {
        if (e instanceof PlatformSetupError) return fail({ ok: false, status: 409, code: "invalid_state", message: e.message });
        throw e;
      }
    },
  },
  {
    method: "POST",
    pattern: "/sim/keys/:keyId/revoke",
    auth: "public",
    handler: (req, ctx) => {
      const keyId = req.params.keyId!;
      if (!ctx.sim.platform.keys.find(keyId)) return notFound("not_found", `no key ${keyId}`);
      return ok(keyJson(ctx.sim.platform.revokeKey(keyId)));
    },
  },
  {
    method: "GET",
    pattern: "/sim/faults",
    auth: "public",
    handler: (_req, ctx) => ok({ faults: ctx.sim.platform.faults.list().map(faultJson) }),
  },
  {
    method: "POST",
    pattern: "/sim/faults",
    auth: "public",
    handler: (req, ctx) => {
      const b = body(faultBody, req);
      if (!b.ok) return b.res;
      const faults = ctx.sim.platform.faults;
      try {
        const id = faults.add(toRule(b.value), ctx.sim.clock.now());
        const rule = faults.list().find((r) => r.id === id)!;
        return ok(faultJson(rule), 201);
      } catch (e) {
        if (e instanceof PlatformSetupError) return invalid(e.message);
        throw e;
      }
    },
  },
  {
    method: "DELETE",
    pattern: "/sim/faults",
    auth: "public",
    handler: (_req, ctx) => {
      const n = ctx.sim.platform.faults.list().length;
      ctx.sim.platform.faults.clear();
      return ok({ removed: n });
    },
  },
  {
    method: "DELETE",
    pattern: "/sim/faults/:id",
    auth: "public",
    handler: (req, ctx) =>
      ctx.sim.platform.faults.remove(req.params.id!) ? ok({ removed: 1 }) : notFound("not_found", `no fault rule ${req.params.id}`),
  },
  {
    method: "GET",
    pattern: "/sim/trades",
    auth: "public",
    handler: (_req, ctx) => {
      const trades = ctx.sim.engine.ledger.trades().map(controlTradeJson);
      return ok({ trades, count: trades.length });
    },
  },
];
