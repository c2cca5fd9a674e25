/**
 * The request pipeline shared by the node:http server and the in-process transport: raw
 * request in (text), raw response out (text), so both paths serialise exactly alike.
 *
 * Per request, in order (src/sim/http/types.ts):
 *   1. parse the URL and headers; match the route (404 not_found / 405 invalid_request);
 *   2. fault injection: `faults.decide("METHOD /path", now)`. Latency delays the request on the
 *      sim clock (it then counts as received later: X-Server-Time and ctx.nowMs are taken
 *      after the delay). See `planFault` for which kinds are answered here and which reach
 *      the handler in `ctx.fault`; an answered fault is counted against the ip buckets like an
 *      auth refusal and carries their headers;
 *   3. auth (spec 5.2) with the route's scopes, for non-public routes;
 *   4. rate limits (8.1/8.2): ONE all-or-nothing check of the ip, wallet and partner buckets,
 *      after auth because the wallet is only known then. A request refused by auth is checked
 *      against its ip buckets only (and told about them in the headers). Public routes count
 *      against the ip bucket only (a key there is ignored, 5.1);
 *   5. the JSON body (invalid JSON is a 400 `invalid_request`), read only once the caller is
 *      known, so a request without a key is 401 whatever its body;
 *   6. the handler; anything it throws, or a response that is not serialisable (a bigint
 *      that leaked out), is a logged 500 `internal`, never a crash;
 *   7. common headers on EVERY response, errors included: X-API-Version, X-Server-Time,
 *      X-Request-Id, X-Trace-Id, Content-Type, plus X-RateLimit-* where a bucket applied.
 *      Error envelopes get `error.trace_id`; an envelope with `retryAfterSec` gets the
 *      matching Retry-After header (7.1: the body mirrors the header). A 429 `rate_limited`
 *      body never carries the wait (7.1 rule 5): it is only in Retry-After.
 */
import { createHash } from "node:crypto";
import type { Logger } from "../../log/index.js";
import { createLogger } from "../../log/index.js";
import { decisionHeaders, FixedWindowLimiter, parseIp, rateTableWith, type RateTable } from "../../ratelimit/index.js";
import { errorEnvelope, rateLimitedEnvelope, type ErrorEnvelope } from "../../wire/errors.js";
import type { Fault } from "../platform/faults.js";
import type { PlatformFailure } from "../platform/errors.js";
import type { AuthorizeSuccess } from "../platform/platform.js";
import type { Simulator } from "../simulator.js";
import { Router } from "./router.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "./types.js";

export interface RawRequest {
  method: string;
  /** Path with query string, e.g. `/api/orders/open?limit=10`. */
  url: string;
  /** Header names in any case; repeated headers as arrays (node's shape). */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body as received; "" when there is none. */
  bodyText: string;
  /** The socket peer (the in-process transport passes 127.0.0.1). */
  remoteAddress?: string;
}

export interface RawResponse {
  status: number;
  /** Canonically cased names (X-Request-Id, Content-Type, ...). */
  headers: Record<string, string>;
  bodyText: string;
}

export interface PipelineOptions {
  sim: Simulator;
  routes: readonly RouteDef[];
  logger?: Logger;
  /** Seed of request and trace ids. Default: the simulator's seed. */
  idSeed?: number;
  /** Enforce the spec 8.2 buckets. Default true. */
  rateLimits?: boolean;
  /**
   * Take the caller IP from the last X-Forwarded-For entry, as behind one trusted ingress hop
   * (8.1). Default true, which also lets tests choose the caller IP; false: the socket peer.
   */
  trustForwardedFor?: boolean;
}

export const HEADER = {
  apiVersion: "X-API-Version",
  serverTime: "X-Server-Time",
  requestId: "X-Request-Id",
  traceId: "X-Trace-Id",
  contentType: "Content-Type",
  retryAfter: "Retry-After",
  allow: "Allow",
} as const;

export const JSON_CONTENT_TYPE = "application/json";

/** Set by the pipeline on every response; a handler's value for one of these is replaced. */
const COMMON = [HEADER.apiVersion, HEADER.serverTime, HEADER.requestId, HEADER.traceId, HEADER.contentType] as const;
const COMMON_LOWER: readonly string[] = COMMON.map((name) => name.toLowerCase());

export const CONTROL_PREFIX = "/sim/";

const PLACE_PATHS: ReadonlySet<string> = new Set(["/api/orders/place", "/api/orders/place-batch"]);
const CANCEL_PATHS: ReadonlySet<string> = new Set(["/api/orders/cancel", "/api/orders/cancel-batch", "/api/orders/cancel-all"]);

/**
 * What the pipeline does with the fault the plan chose:
 * - `answer`: reply with it before auth and without running the handler (shard_owner_unavailable,
 *   trading_temporarily_unavailable, rate_limited_burst; exchange_unavailable without execute;
 *   idempotency_race outside the place routes): nothing is recorded.
 * - `pass`: the handler gets it in ctx.fault (cancel_pending on the cancel routes;
 *   idempotency_race on place / place-batch; exchange_unavailable with execute).
 * - `after`: once the handler ran, its answer is replaced by this one unless it already is a
 *   5xx (exchange_unavailable with execute: "may have been recorded"; idempotency_race on the
 *   place routes: recorded, answer lost, unless the handler chose otherwise).
 * cancel_pending elsewhere, ws_* kinds and latency-only decisions have no HTTP effect.
 * lock_invariant_violation and exchange_transport_error answer; exchange_malformed_response and
 * exchange_upstream_error act as exchange_unavailable; cancel_unanswered passes on the cancel
 * routes, lock_invariant on cancel-batch and cancel-all (per-entry answers).
 */
export interface FaultPlanStep {
  answer?: PlatformFailure;
  pass?: Fault;
  after?: PlatformFailure;
  /** exchange_malformed_response with rawBody: `answer` / `after` go out as this text, not an envelope. */
  rawText?: string;
}

export function planFault(fault: Fault | undefined, method: string, path: string): FaultPlanStep {
  if (!fault) return {};
  const post = method === "POST";
  switch (fault.kind) {
    case "shard_owner_unavailable":
    case "trading_temporarily_unavailable":
    case "rate_limited_burst":
      return { answer: fault.http };
    case "lock_invariant_violation":
    case "exchange_transport_error":
      return { answer: fault.http };
    case "exchange_unavailable":
    case "exchange_upstream_error":
      return fault.execute ? { pass: fault, after: fault.http } : { answer: fault.http };
    case "exchange_malformed_response": {
      const raw = fault.rawText !== undefined ? { rawText: fault.rawText } : {};
      return fault.execute ? { pass: fault, after: fault.http, ...raw } : { answer: fault.http, ...raw };
    }
    case "cancel_unanswered":
      return post && CANCEL_PATHS.has(path) ? { pass: fault } : {};
    case "lock_invariant":
      return post && (path === "/api/orders/cancel-batch" || path === "/api/orders/cancel-all") ? { pass: fault } : {};
    case "idempotency_race":
      return post && PLACE_PATHS.has(path) ? { pass: fault, after: fault.http } : { answer: fault.http };
    case "cancel_pending":
      return post && CANCEL_PATHS.has(path) ? { pass: fault } : {};
    case "journal_intent_not_durable":
      return { pass: fault };
    case "latency":
    case "ws_disconnect":
    case "ws_duplicate_frames":
    case "ws_reorder_frames":
      return {};
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isEnvelope(body: unknown): body is { status: number; error: Record<string, unknown> } {
  return isRecord(body) && typeof body.status === "number" && isRecord(body.error) && typeof body.error.code === "string";
}

export function failureEnvelope(f: PlatformFailure): ErrorEnvelope {
  return errorEnvelope(f.status, f.code, f.message, {
    ...(f.details !== undefined ? { details: { ...f.details } } : {}),
    ...(f.retryable !== undefined ? { retryable: f.retryable } : {}),
    ...(f.retryAfterSec !== undefined ? { retryAfterSec: f.retryAfterSec } : {}),
  });
}

function lowerHeaders(h: RawRequest["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const key = k.toLowerCase();
    const text = typeof v === "string" ? v : v.join(", ");
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  }
  return out;
}

/** The trusted caller address (8.1: the last forwarded-for entry, else the socket peer), IPv4-mapped unwrapped. */
export function callerAddress(forwardedFor: string | undefined, remote: string | undefined, trustForwardedFor: boolean): string {
  if (trustForwardedFor && forwardedFor !== undefined) {
    const entries = forwardedFor.split(",").map((e) => e.trim()).filter((e) => e.length > 0);
    const last = entries[entries.length - 1];
    const p = last === undefined ? null : parseIp(last);
    if (p) return p.v === 4 ? p.text : bareV6(last!);
  }
  const r = remote ?? "127.0.0.1";
  const p = parseIp(r);
  return p?.v === 4 ? p.text : bareV6(r);
}

/** `[2001:db8::1]:443` -> `2001:db8::1` (the form IP allowlists are written in). */
function bareV6(entry: string): string {
  let s = entry.trim();
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    if (end > 0) s = s.slice(1, end);
  }
  return s.toLowerCase();
}

interface Stamp {
  requestId: string;
  traceId: string;
  receivedAtMs: number;
}

export class Pipeline {
  readonly router: Router;
  readonly sim: Simulator;
  readonly limiter: FixedWindowLimiter;
  /** The 8.2 buckets this platform enforces: the spec's defaults with the scenario's overrides. */
  readonly rateTable: RateTable;
  private readonly logger: Logger;
  private readonly idSeed: number;
  private readonly rateLimits: boolean;
  private readonly trustForwardedFor: boolean;
  private counter = 0;
  /** The id seed as 8 hex digits (request ids). */
  private readonly seedHex: string;
  /** The last caller address worked out, by its inputs (one caller in a backtest: parsed once). */
  private lastCaller: { forwardedFor: string | undefined; remote: string | undefined; ip: string } | undefined;

  constructor(opts: PipelineOptions) {
    this.sim = opts.sim;
    this.router = new Router(opts.routes);
    this.logger = opts.logger ?? createLogger({ level: "silent" });
    this.idSeed = (opts.idSeed ?? opts.sim.rng.seed) >>> 0;
    this.rateLimits = opts.rateLimits ?? true;
    this.trustForwardedFor = opts.trustForwardedFor ?? true;
    this.seedHex = this.idSeed.toString(16).padStart(8, "0");
    this.limiter = new FixedWindowLimiter(opts.sim.clock);
    this.rateTable = rateTableWith(opts.sim.platform.scenario.platform.rateLimits);
  }

  /** Never rejects: every failure becomes an error envelope. */
  async handle(raw: RawRequest): Promise<RawResponse> {
    const stamp = this.stamp();
    try {
      return await this.run(raw, stamp);
    } catch (err) {
      this.logger.error({ err, method: raw.method, requestId: stamp.requestId }, "simulator pipeline failed");
      return this.render(stamp, { status: 500, body: errorEnvelope(500, "internal", "internal error") });
    }
  }

  /** An error answer with the common headers, for failures outside a route (413, bad upgrade). */
  errorResponse(status: number, code: string, message: string, extras: { details?: Record<string, unknown>; headers?: Record<string, string> } = {}): RawResponse {
    const body = errorEnvelope(status, code, message, extras.details !== undefined ? { details: extras.details } : {});
    return this.render(this.stamp(), { status, body, ...(extras.headers ? { headers: extras.headers } : {}) });
  }

  /** A failure from the platform layer (auth, WS upgrade refusal) as a response. */
  failureResponse(f: PlatformFailure): RawResponse {
    return this.render(this.stamp(), { status: f.status, body: failureEnvelope(f) });
  }

  /** Requests stamped so far (every request handled, and every answer made outside a route). */
  get requestsStamped(): number {
    return this.counter;
  }

  private stamp(): Stamp {
    const n = ++this.counter;
    // createHash, not the one-shot crypto.hash: that one is Node 20.12+ and package.json allows any Node 20.
    const traceId = createHash("sha256").update(`trace:${this.idSeed}:${n}`).digest("hex").slice(0, 32);
    return { requestId: `req-${this.seedHex}-${n.toString(16).padStart(8, "0")}`, traceId, receivedAtMs: this.sim.clock.now() };
  }

  /** callerAddress, remembered for the last inputs (a pure function of them). */
  private caller(forwardedFor: string | undefined, remote: string | undefined): string {
    const last = this.lastCaller;
    if (last !== undefined && last.forwardedFor === forwardedFor && last.remote === remote) return last.ip;
    const ip = callerAddress(forwardedFor, remote, this.trustForwardedFor);
    this.lastCaller = { forwardedFor, remote, ip };
    return ip;
  }

  private async run(raw: RawRequest, stamp: Stamp): Promise<RawResponse> {
    const method = raw.method.toUpperCase();
    const hash = raw.url.indexOf("#");
    const url = hash >= 0 ? raw.url.slice(0, hash) : raw.url;
    const q = url.indexOf("?");
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    // Empty segments dropped ("//a/b/" is "/a/b"); a path with none is kept as it is.
    const path = rawPath.length > 1 && rawPath.charCodeAt(0) === 47 && !rawPath.endsWith("/") && !rawPath.includes("//") ? rawPath : "/" + rawPath.split("/").filter((s) => s.length > 0).join("/");
    const query = new URLSearchParams(q >= 0 ? url.slice(q + 1) : "");

    const found = this.router.match(method, path);
    if (found.kind === "not_found") {
      return this.render(stamp, { status: 404, body: errorEnvelope(404, "not_found", `no route for ${method} ${path}`) });
    }
    if (found.kind === "bad_path") {
      return this.render(stamp, {
        status: 400,
        body: errorEnvelope(400, "invalid_request", `path segment ${JSON.stringify(found.segment)} is not valid percent-encoding`),
      });
    }
    if (found.kind === "method_not_allowed") {
      return this.render(stamp, {
        status: 405,
        headers: { [HEADER.allow]: found.allowed.join(", ") },
        body: errorEnvelope(405, "invalid_request", `method ${method} is not allowed on ${path}; allowed: ${found.allowed.join(", ")}`, {
          details: { allowed: [...found.allowed] },
        }),
      });
    }
    const route = found.route;

    const headers = lowerHeaders(raw.headers);
    const ip = this.caller(headers["x-forwarded-for"], raw.remoteAddress);

    // The /sim control routes are never faulted: a `*` rule must not lock out DELETE /sim/faults.
    const fault = path.startsWith(CONTROL_PREFIX) ? undefined : this.sim.platform.faults.decide(`${method} ${path}`, stamp.receivedAtMs);
    if (fault && fault.latencyMs > 0) {
      await this.sim.clock.sleep(fault.latencyMs);
      stamp.receivedAtMs = this.sim.clock.now();
    }
    const step = planFault(fault, method, path);
    if (step.answer) {
      // Answered before auth, so treated like an auth refusal: counted against, and told about,
      // the ip buckets (spec 4: rate-limit headers on every response). A synthetic 429 burst
      // stands for a refusing bucket itself and carries only its Retry-After.
      const limited = fault?.kind === "rate_limited_burst" ? { headers: {} } : this.rateCheck(method, url, ip, undefined, stamp.receivedAtMs);
      if (limited.refused) return this.render(stamp, limited.refused);
      if (step.rawText !== undefined) return this.renderText(stamp, step.answer.status, limited.headers, step.rawText);
      return this.render(stamp, { status: step.answer.status, headers: limited.headers, body: failureEnvelope(step.answer) });
    }

    let auth: AuthorizeSuccess | undefined;
    if (route.auth !== "public") {
      const r = this.sim.platform.authorize({
        apiKeyHeader: headers["x-api-key"],
        userWalletHeader: headers["x-user-wallet"],
        authorizationHeader: headers["authorization"],
        ip,
        requiredScopes: route.auth.scopes,
        walletRequired: route.auth.walletRequired ?? true,
        nowMs: stamp.receivedAtMs,
      });
      if (!r.ok) {
        // A refused caller still counts against (and is told about) the ip buckets: spec 4 puts the
        // rate-limit headers on every response, and an ingress limits unauthenticated traffic too.
        const limited = this.rateCheck(method, url, ip, undefined, stamp.receivedAtMs);
        if (limited.refused) return this.render(stamp, limited.refused);
        return this.render(stamp, { status: r.status, headers: limited.headers, body: failureEnvelope(r) });
      }
      auth = r;
    }

    const limited = this.rateCheck(method, url, ip, auth, stamp.receivedAtMs);
    if (limited.refused) return this.render(stamp, limited.refused);
    const rateHeaders = limited.headers;

    // The body is read only once the caller is known (spec 5.2: no key is 401 whatever the body).
    let body: unknown = undefined;
    if (raw.bodyText.trim() !== "") {
      try {
        body = JSON.parse(raw.bodyText) as unknown;
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        return this.render(stamp, { status: 400, headers: rateHeaders, body: errorEnvelope(400, "invalid_request", `request body is not valid JSON: ${why}`) });
      }
    }


    const req: SimRequest = { method: route.method, path, query, headers, body, ip, params: found.params };
    const ctx: RouteContext = {
      sim: this.sim,
      nowMs: stamp.receivedAtMs,
      requestId: stamp.requestId,
      traceId: stamp.traceId,
      ...(auth ? { auth } : {}),
      ...(step.pass ? { fault: step.pass } : {}),
    };
    let res: SimResponse;
    try {
      res = await route.handler(req, ctx);
      if (!isRecord(res) || !Number.isInteger(res.status) || res.status < 100 || res.status > 599) {
        throw new TypeError(`handler returned no valid response (${isRecord(res) ? `status ${JSON.stringify(res.status)}` : typeof res})`);
      }
    } catch (err) {
      this.logger.error({ err, route: `${route.method} ${route.pattern}`, requestId: stamp.requestId }, "route handler failed");
      return this.render(stamp, { status: 500, headers: rateHeaders, body: errorEnvelope(500, "internal", "internal error") });
    }
    if (step.after && res.status < 500) {
      if (step.rawText !== undefined) return this.renderText(stamp, step.after.status, rateHeaders, step.rawText);
      return this.render(stamp, { status: step.after.status, headers: rateHeaders, body: failureEnvelope(step.after) });
    }
    return this.render(stamp, { ...res, headers: { ...rateHeaders, ...res.headers } }, `${route.method} ${route.pattern}`);
  }

  /** The buckets of 8.2 that apply (ip only until the caller is authenticated); one check for all. */
  private rateCheck(
    method: string,
    url: string,
    ip: string,
    auth: AuthorizeSuccess | undefined,
    nowMs: number,
  ): { headers: Record<string, string>; refused?: SimResponse } {
    if (!this.rateLimits) return { headers: {} };
    const rules = this.rateTable.bucketsFor(method, url);
    if (rules.length === 0) return { headers: {} };
    const subjects = auth ? { ip, partner: auth.partner.id, ...(auth.wallet !== null ? { wallet: auth.wallet } : {}) } : { ip };
    const decision = this.limiter.check(rules, subjects, nowMs, auth ? { rateLimitPerMin: auth.partner.rateLimitPerMin } : {});
    const headers = decisionHeaders(decision);
    if (decision.allowed) return { headers };
    return { headers, refused: { status: 429, headers, body: rateLimitedEnvelope(`rate limit exceeded (${decision.bucket.id})`) } };
  }

  /** A body that is not JSON (a fault standing for a gateway's page), with the common headers. */
  private renderText(stamp: Stamp, status: number, extra: Record<string, string>, text: string): RawResponse {
    const headers: Record<string, string> = { ...extra };
    headers[HEADER.apiVersion] = this.sim.platform.settings.apiVersion;
    headers[HEADER.serverTime] = String(stamp.receivedAtMs);
    headers[HEADER.requestId] = stamp.requestId;
    headers[HEADER.traceId] = stamp.traceId;
    headers[HEADER.contentType] = "text/html";
    return { status, headers, bodyText: text };
  }

  /** Serialise and stamp the common headers; an unserialisable body becomes a 500. */
  private render(stamp: Stamp, res: SimResponse, routeName?: string): RawResponse {
    let body = res.body;
    let status = res.status;
    const extra = new Map<string, [string, string]>();
    for (const [k, v] of Object.entries(res.headers ?? {})) extra.set(k.toLowerCase(), [k, String(v)]);

    if (isEnvelope(body)) {
      const error: Record<string, unknown> = { ...body.error };
      if (error.trace_id === undefined) error.trace_id = stamp.traceId;
      if (typeof error.retryAfterSec === "number" && !extra.has("retry-after")) {
        extra.set("retry-after", [HEADER.retryAfter, String(Math.ceil(error.retryAfterSec))]);
      }
      if (error.code === "rate_limited") delete error.retryAfterSec;
      body = { ...body, error };
    }

    let bodyText: string;
    try {
      bodyText = body === undefined ? "" : JSON.stringify(body);
    } catch (err) {
      this.logger.error({ err, route: routeName, requestId: stamp.requestId }, "response body is not serialisable");
      status = 500;
      extra.clear();
      bodyText = JSON.stringify(errorEnvelope(500, "internal", "internal error", { traceId: stamp.traceId }));
    }

    const headers: Record<string, string> = {};
    for (const name of COMMON_LOWER) extra.delete(name);
    for (const [, [k, v]] of extra) headers[k] = v;
    headers[HEADER.apiVersion] = this.sim.platform.settings.apiVersion;
    headers[HEADER.serverTime] = String(stamp.receivedAtMs);
    headers[HEADER.requestId] = stamp.requestId;
    headers[HEADER.traceId] = stamp.traceId;
    headers[HEADER.contentType] = JSON_CONTENT_TYPE;
    return { status, headers, bodyText };
  }
}
