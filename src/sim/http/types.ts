/**
 * The simulator's route contract. One route table serves both the node:http server and the
 * in-process transport; every route module exports `RouteDef[]`, and the pipeline
 * (src/sim/http/pipeline.ts) runs, for every request, in this order:
 *   parse -> match route -> fault injection -> auth (5.2, for non-public routes) ->
 *   rate limit (8.1/8.2) -> handler -> common headers (X-API-Version, X-Server-Time,
 *   X-Request-Id, X-RateLimit-*) ; any thrown error -> a 500 envelope, never a crash.
 */
import type { Simulator } from "../simulator.js";
import type { AuthorizeSuccess } from "../platform/platform.js";
import type { Fault } from "../platform/faults.js";

export type HttpMethod = "GET" | "POST" | "DELETE";
export type Scope = "orders:read" | "orders:write" | "portfolio:read" | "vault:write";

export interface SimRequest {
  method: HttpMethod;
  /** Path without the query string, e.g. `/api/orders/o12`. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when there was none. Bodies that are not JSON never reach handlers. */
  body: unknown;
  /** Caller address after the forwarded-for rules of 8.1. */
  ip: string;
  /** Path parameters from the route pattern (`/api/orders/:id` -> `{id}`). */
  params: Record<string, string>;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  body: unknown;
}

export interface RouteContext {
  sim: Simulator;
  nowMs: number;
  requestId: string;
  traceId: string;
  /** Present on authenticated routes. */
  auth?: AuthorizeSuccess;
  /** The fault the plan chose for this request, when the handler must act on it (cancel_pending, exchange_unavailable with execute, journal_intent_not_durable per entry). */
  fault?: Fault;
}

export type Handler = (req: SimRequest, ctx: RouteContext) => SimResponse | Promise<SimResponse>;

export interface RouteDef {
  method: HttpMethod;
  /** Express-style pattern: `/api/markets/:symbol/orderbook`. Literal segments win over params. */
  pattern: string;
  /** "public" or the scopes required (all of them, spec 5.2 step 6). */
  auth: "public" | { scopes: Scope[]; walletRequired?: boolean };
  handler: Handler;
}
