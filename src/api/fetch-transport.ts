/**
 * The live transport: Node's global fetch (Node 20+).
 *
 * Keep-alive: Node's fetch runs on undici's global dispatcher, which keeps connections alive and
 * pools them per origin by default, so consecutive requests reuse sockets without an Agent. With
 * `localAddress` (config `platform.localAddress`) the requests go through undici's own fetch and
 * an Agent whose connections leave from that address (a host with several addresses, each with
 * its own IP buckets of spec 8.1). A custom `fetch` can be injected (tests).
 *
 * Failure mapping (what matters is whether the request may have reached the platform):
 * - our timeout fires                          -> kind "timeout", maybeDelivered true
 * - connection refused / DNS / TLS handshake   -> kind "connect", maybeDelivered false
 * - reset, socket closed, body cut off          -> kind "reset",   maybeDelivered true
 * - the caller's signal aborted                 -> kind "aborted", maybeDelivered true
 * - anything else                               -> kind "other",   maybeDelivered true (the safe reading)
 *
 * Redirects are not followed (`redirect: "manual"`): the API has none, and following one to
 * another origin would carry the `X-Api-Key` header there.
 */
import { Agent, fetch as undiciFetch } from "undici";
import type { Clock } from "../core/clock.js";
import { RealClock } from "../core/clock.js";
import type { HttpRequest, HttpResponse, Transport } from "../wire/transport.js";
import { TransportError, lowerCaseHeaders } from "../wire/transport.js";

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface FetchTransportOptions {
  /** e.g. `https://api.example.com` (a path prefix is kept; a trailing slash is dropped). */
  baseUrl: string;
  /** Per-request timeout covering the whole exchange, body included. Default 10 s. */
  timeoutMs?: number;
  /** Timer source for the timeout. Default RealClock. */
  clock?: Clock;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Bind every outgoing connection to this local IP address (ignored when `fetch` is given). */
  localAddress?: string | undefined;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Codes of failures that happen before any byte of the request is written. */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED", "ETIMEDOUT"]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** The first `code` found along the cause chain (undici wraps the socket error in a TypeError). */
export function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && typeof cur === "object" && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Map a fetch failure to a TransportError. `answered`: the status line had arrived. */
export function mapFetchError(e: unknown, state: { timedOut: boolean; callerAborted: boolean; answered: boolean }): TransportError {
  if (e instanceof TransportError) return e;
  const code = errorCode(e);
  const suffix = code !== undefined ? ` (${code})` : "";
  if (state.timedOut) return new TransportError("request timed out", true, "timeout", { cause: e });
  if (state.callerAborted) return new TransportError("request aborted", true, "aborted", { cause: e });
  if (code !== undefined && TIMEOUT_CODES.has(code)) return new TransportError(`request timed out${suffix}`, true, "timeout", { cause: e });
  if (!state.answered && code !== undefined && CONNECT_CODES.has(code)) {
    return new TransportError(`connection failed${suffix}`, false, "connect", { cause: e });
  }
  if (state.answered || (code !== undefined && RESET_CODES.has(code))) {
    return new TransportError(`connection lost${suffix}`, true, "reset", { cause: e });
  }
  return new TransportError(`request failed${suffix}`, true, "other", { cause: e });
}

export class FetchTransport implements Transport {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly fetchFn: FetchLike;

  constructor(opts: FetchTransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.clock = opts.clock ?? new RealClock();
    this.fetchFn = opts.fetch ?? (opts.localAddress !== undefined ? boundFetch(opts.localAddress) : (url, init) => fetch(url, init));
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const ctrl = new AbortController();
    const state = { timedOut: false, callerAborted: false, answered: false };
    const timer = this.clock.setTimeout(() => {
      state.timedOut = true;
      ctrl.abort(new TransportError("request timed out", true, "timeout"));
    }, this.timeoutMs);
    const onCallerAbort = (): void => {
      state.callerAborted = true;
      ctrl.abort(new TransportError("request aborted", true, "aborted"));
    };
    if (req.signal?.aborted) onCallerAbort();
    else req.signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      const init: RequestInit = { method: req.method, headers: req.headers, signal: ctrl.signal, redirect: "manual" };
      if (req.body !== undefined) init.body = req.body;
      const res = await this.fetchFn(this.baseUrl + req.path, init);
      state.answered = true;
      const body = await res.text();
      return { status: res.status, headers: lowerCaseHeaders(res.headers), body };
    } catch (e) {
      throw mapFetchError(e, state);
    } finally {
      this.clock.clearTimeout(timer);
      req.signal?.removeEventListener("abort", onCallerAbort);
    }
  }
}

/** fetch over connections bound to `localAddress` (one keep-alive pool per origin, as the global one). */
export function boundFetch(localAddress: string): FetchLike {
  // undici 7 reads localAddress at the top level of the Agent options (inside `connect` it is ignored).
  const dispatcher = new Agent({ localAddress });
  return async (url, init) => {
    const res = await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
    // The package's Headers is not the global class the transport reads: what it reads, re-wrapped.
    const headers = new Headers([...res.headers]);
    return { status: res.status, headers, text: () => res.text() } as unknown as Response;
  };
}
