/**
 * Fault injection: rules that make chosen routes fail the way the spec says the real platform
 * can (7.3), so clients can be tested against every unhappy path deterministically.
 *
 * A rule names a route pattern (`POST /api/orders/place`, `POST /api/orders/*`, `/api/me/*`,
 * `WS /ws/user`, `*`), a kind, and when it fires: with a probability (drawn from the rule's
 * own seeded Rng, so adding a rule never changes another rule's draws), inside a time window,
 * and/or for the next N matching calls. Latency rules add up; of the other kinds the first
 * rule (in order) that fires wins and later rules are not consulted.
 */
import type { Rng } from "../../core/rng.js";
import { failure, PlatformSetupError, type PlatformFailure } from "./errors.js";
import { resolveTimeSpec, type TimeSpec } from "./time.js";

export const FAULT_KINDS = [
  "shard_owner_unavailable",
  "trading_temporarily_unavailable",
  "cancel_pending",
  "exchange_unavailable",
  "idempotency_race",
  "journal_intent_not_durable",
  "rate_limited_burst",
  "latency",
  "ws_disconnect",
  "ws_duplicate_frames",
  "ws_reorder_frames",
  "cancel_unanswered",
  "lock_invariant",
  "lock_invariant_violation",
  "exchange_transport_error",
  "exchange_malformed_response",
  "exchange_upstream_error",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Kinds decided per place-batch entry (decideEntry), not per request. */
const ENTRY_KINDS: ReadonlySet<FaultKind> = new Set(["journal_intent_not_durable"]);

export interface FaultRuleInput {
  id?: string;
  route: string;
  kind: FaultKind;
  /** Chance that a matching call fires (default 1). */
  probability?: number;
  /** Active window; relative times are from the scenario start (or from now for runtime rules). */
  window?: { from?: TimeSpec | null; to?: TimeSpec | null };
  /** Fire on at most this many matching calls, then stay spent. */
  nextCalls?: number;
  /** shard_owner_unavailable (default 2), rate_limited_burst (default 1). */
  retryAfterSec?: number;
  /** latency: added milliseconds. */
  latencyMs?: number;
  /** cancel_pending: when the recorded cancel completes (default 3000 ms). */
  completeAfterMs?: number;
  /**
   * exchange_unavailable, exchange_malformed_response, exchange_upstream_error: record (execute)
   * the request before answering; a number is a probability.
   */
  execute?: boolean | number;
  /** exchange_malformed_response: answer with the non-JSON text itself (no envelope), as a gateway would. */
  rawBody?: boolean;
  /** exchange_upstream_error: the downstream status in details.upstream (default 502; also the HTTP status). */
  upstreamStatus?: number;
  /** exchange_upstream_error / exchange_malformed_response: the downstream body in details.upstream. */
  upstreamBody?: unknown;
  /** ws_duplicate_frames: copies of each frame sent (default 2). */
  copies?: number;
  /** ws_reorder_frames: frames held and shuffled together (default 2). */
  reorderWindow?: number;
}

interface FaultBase {
  readonly ruleId: string;
  /** Latency to add before answering (sum of the latency rules that fired). */
  readonly latencyMs: number;
}

export type Fault =
  | (FaultBase & { readonly kind: "latency" })
  | (FaultBase & { readonly kind: "shard_owner_unavailable"; readonly http: PlatformFailure })
  | (FaultBase & { readonly kind: "trading_temporarily_unavailable"; readonly http: PlatformFailure })
  | (FaultBase & { readonly kind: "cancel_pending"; readonly http: PlatformFailure; readonly completeAfterMs: number })
  | (FaultBase & { readonly kind: "exchange_unavailable"; readonly http: PlatformFailure; readonly execute: boolean })
  | (FaultBase & { readonly kind: "idempotency_race"; readonly http: PlatformFailure })
  | (FaultBase & { readonly kind: "journal_intent_not_durable"; readonly entry: PlatformFailure })
  | (FaultBase & { readonly kind: "rate_limited_burst"; readonly http: PlatformFailure })
  | (FaultBase & { readonly kind: "ws_disconnect" })
  | (FaultBase & { readonly kind: "ws_duplicate_frames"; readonly copies: number })
  | (FaultBase & { readonly kind: "ws_reorder_frames"; readonly window: number })
  /** A cancel recorded but unanswered, said the older nodes' way: 503 with Retry-After 5 and details.orderId. */
  | (FaultBase & { readonly kind: "cancel_unanswered"; readonly http: PlatformFailure; readonly completeAfterMs: number })
  /** Cancel-batch / cancel-all: every live id comes back in notCancelled with code lock_invariant, nothing done. */
  | (FaultBase & { readonly kind: "lock_invariant" })
  | (FaultBase & { readonly kind: "lock_invariant_violation"; readonly http: PlatformFailure })
  | (FaultBase & { readonly kind: "exchange_transport_error"; readonly http: PlatformFailure })
  | (FaultBase & {
      readonly kind: "exchange_malformed_response";
      readonly http: PlatformFailure;
      readonly execute: boolean;
      /** Set when the answer is this text itself, not an envelope. */
      readonly rawText?: string;
    })
  | (FaultBase & { readonly kind: "exchange_upstream_error"; readonly http: PlatformFailure; readonly execute: boolean });

export interface FaultRule {
  readonly id: string;
  readonly route: string;
  readonly kind: FaultKind;
  readonly probability: number;
  readonly fromMs: number | null;
  readonly toMs: number | null;
  /** Fires left, or null when unlimited. */
  readonly remaining: number | null;
  readonly fired: number;
  readonly input: FaultRuleInput;
}

interface LiveRule {
  id: string;
  input: FaultRuleInput;
  match: (route: string) => boolean;
  rng: Rng;
  probability: number;
  fromMs: number | null;
  toMs: number | null;
  remaining: number | null;
  fired: number;
}

function globToRegExp(glob: string): RegExp {
  const body = glob.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}$`, "i");
}

/** `*`; `METHOD /path*`; or `/path*` for any method. `*` spans any characters, `/` included. */
export function routeMatcher(pattern: string): (route: string) => boolean {
  const p = pattern.trim();
  if (p === "*") return () => true;
  if (p.startsWith("/")) {
    const re = globToRegExp(p);
    return (route) => re.test(route.trim().split(/\s+/).slice(-1)[0] ?? "");
  }
  const re = globToRegExp(p.replace(/\s+/g, " "));
  return (route) => re.test(route.trim().replace(/\s+/g, " "));
}

function validate(input: FaultRuleInput): void {
  if (!input.route.trim()) throw new PlatformSetupError("fault route must not be empty");
  const p = input.probability ?? 1;
  if (!(p >= 0 && p <= 1)) throw new PlatformSetupError(`fault probability must be in [0, 1], got ${p}`);
  if (input.nextCalls !== undefined && !(Number.isInteger(input.nextCalls) && input.nextCalls >= 0)) {
    throw new PlatformSetupError("fault nextCalls must be a non-negative integer");
  }
}

export interface FaultPlanOptions {
  rng: Rng;
  /** Relative window times of the initial rules are from here (the scenario start). */
  startMs: number;
  rules?: readonly FaultRuleInput[];
}

export class FaultPlan {
  private readonly rng: Rng;
  private rules: LiveRule[] = [];
  private nextId = 1;

  constructor(opts: FaultPlanOptions) {
    this.rng = opts.rng.fork("faults");
    for (const r of opts.rules ?? []) this.add(r, opts.startMs);
  }

  /** Add a rule; relative window times count from `nowMs`. Returns its id. */
  add(input: FaultRuleInput, nowMs: number): string {
    validate(input);
    const id = input.id ?? `fault-${this.nextId}`;
    this.nextId++;
    if (this.rules.some((r) => r.id === id)) throw new PlatformSetupError(`duplicate fault id ${id}`);
    this.rules.push({
      id,
      input: { ...input },
      match: routeMatcher(input.route),
      rng: this.rng.fork(`rule:${id}`),
      probability: input.probability ?? 1,
      fromMs: input.window?.from ? resolveTimeSpec(input.window.from, nowMs) : null,
      toMs: input.window?.to ? resolveTimeSpec(input.window.to, nowMs) : null,
      remaining: input.nextCalls ?? null,
      fired: 0,
    });
    return id;
  }

  remove(id: string): boolean {
    const n = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length !== n;
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({
      id: r.id,
      route: r.input.route,
      kind: r.input.kind,
      probability: r.probability,
      fromMs: r.fromMs,
      toMs: r.toMs,
      remaining: r.remaining,
      fired: r.fired,
      input: r.input,
    }));
  }

  /** The fault for one request on `route` ("METHOD /path", or "WS /ws/user" per frame), if any. */
  decide(route: string, nowMs: number): Fault | undefined {
    return this.run(route, nowMs, false);
  }

  /** The fault for one place-batch entry (journal_intent_not_durable), if any. */
  decideEntry(route: string, nowMs: number): Fault | undefined {
    return this.run(route, nowMs, true);
  }

  private run(route: string, nowMs: number, entry: boolean): Fault | undefined {
    let latencyMs = 0;
    let latencyRule: string | undefined;
    let chosen: LiveRule | undefined;
    for (const r of this.rules) {
      const isLatency = r.input.kind === "latency";
      if (ENTRY_KINDS.has(r.input.kind) !== entry) continue;
      if (chosen && !isLatency) continue;
      if (!this.fires(r, route, nowMs)) continue;
      if (isLatency) {
        latencyMs += r.input.latencyMs ?? 0;
        latencyRule ??= r.id;
      } else chosen = r;
    }
    if (chosen) return build(chosen, latencyMs);
    return latencyRule === undefined ? undefined : { kind: "latency", ruleId: latencyRule, latencyMs };
  }

  private fires(r: LiveRule, route: string, nowMs: number): boolean {
    if (!r.match(route)) return false;
    if (r.fromMs !== null && nowMs < r.fromMs) return false;
    if (r.toMs !== null && nowMs >= r.toMs) return false;
    if (r.remaining !== null && r.remaining <= 0) return false;
    if (r.probability <= 0) return false;
    if (r.probability < 1 && r.rng.float() >= r.probability) return false;
    if (r.remaining !== null) r.remaining--;
    r.fired++;
    return true;
  }
}

/** What a gateway in front of a failed exchange node sends back: not JSON. */
export const MALFORMED_TEXT = "<html><head><title>502 Bad Gateway</title></head><body>bad gateway</body></html>";

function decideExecute(i: FaultRuleInput, r: LiveRule): boolean {
  return typeof i.execute === "number" ? r.rng.float() < i.execute : (i.execute ?? false);
}

function build(r: LiveRule, latencyMs: number): Fault {
  const i = r.input;
  const base = { ruleId: r.id, latencyMs };
  switch (i.kind) {
    case "shard_owner_unavailable": {
      const retryAfterSec = i.retryAfterSec ?? 2;
      return {
        ...base,
        kind: i.kind,
        http: failure(503, i.kind, "exchange node restarting or taking over; nothing was recorded, resend the same request", undefined, {
          retryable: true,
          retryAfterSec,
        }),
      };
    }
    case "trading_temporarily_unavailable":
      return {
        ...base,
        kind: i.kind,
        http: failure(503, i.kind, "exchange too busy; resend the same signed order unchanged under the same clientOrderId", undefined, {
          retryable: true,
        }),
      };
    case "cancel_pending":
      return {
        ...base,
        kind: i.kind,
        completeAfterMs: i.completeAfterMs ?? 3000,
        http: failure(202, i.kind, "cancel recorded, no answer yet; repeat after Retry-After", undefined, { retryAfterSec: 5 }),
      };
    case "exchange_unavailable": {
      const execute = decideExecute(i, r);
      return { ...base, kind: i.kind, execute, http: failure(503, i.kind, "exchange upstream unreachable; the request may have been recorded") };
    }
    case "idempotency_race":
      return { ...base, kind: i.kind, http: failure(500, i.kind, "internal race on (wallet, clientOrderId)") };
    case "journal_intent_not_durable":
      return {
        ...base,
        kind: i.kind,
        entry: failure(503, i.kind, "exchange too busy to journal this entry; resend it", { retryable: true }),
      };
    case "rate_limited_burst":
      return {
        ...base,
        kind: i.kind,
        http: failure(429, "rate_limited", "rate limit exceeded", undefined, { retryAfterSec: i.retryAfterSec ?? 1 }),
      };
    case "latency":
      return { ...base, kind: i.kind, latencyMs: latencyMs };
    case "ws_disconnect":
      return { ...base, kind: i.kind };
    case "ws_duplicate_frames":
      return { ...base, kind: i.kind, copies: Math.max(2, i.copies ?? 2) };
    case "ws_reorder_frames":
      return { ...base, kind: i.kind, window: Math.max(2, i.reorderWindow ?? 2) };
    case "cancel_unanswered":
      return {
        ...base,
        kind: i.kind,
        completeAfterMs: i.completeAfterMs ?? 3000,
        http: failure(503, i.kind, "cancel recorded, no answer yet (older exchange node); repeat after Retry-After", undefined, {
          retryAfterSec: i.retryAfterSec ?? 5,
        }),
      };
    case "lock_invariant":
      return { ...base, kind: i.kind };
    case "lock_invariant_violation":
      return { ...base, kind: i.kind, http: failure(503, i.kind, "vault state diverged from the off-chain mirror") };
    case "exchange_transport_error":
      return { ...base, kind: i.kind, http: failure(503, i.kind, "connection to the exchange failed") };
    case "exchange_malformed_response": {
      const text = typeof i.upstreamBody === "string" ? i.upstreamBody : MALFORMED_TEXT;
      const http = failure(503, i.kind, "the exchange answered with a body that is not JSON", { upstream: { status: 502, body: text } });
      return { ...base, kind: i.kind, execute: decideExecute(i, r), http, ...(i.rawBody ? { rawText: text } : {}) };
    }
    case "exchange_upstream_error": {
      const status = i.upstreamStatus ?? 502;
      const body = i.upstreamBody ?? "upstream error (unstructured reply)";
      const http = failure(status, i.kind, "unstructured reply from a downstream service", { upstream: { status, body } });
      return { ...base, kind: i.kind, execute: decideExecute(i, r), http };
    }
  }
}
