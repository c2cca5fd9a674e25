/**
 * The request pipeline every endpoint goes through: circuit breaker, rate gate, transport, answer
 * reading, and the retry rules of spec 7.4 chosen per call by a policy:
 *
 * - "read"        GET (and any idempotent call): 5xx and transport failures are retried with
 *                 jittered exponential backoff, `maxAttempts` tries in all.
 * - "idempotent"  single cancel and cancel-batch of ids: repeating them is safe (spec 4.6), so
 *                 they retry like reads; `shard_owner_unavailable` is resent after Retry-After.
 *                 Codes named in `answerCodes` (cancel_unanswered) end the loop as an answer.
 * - "write"       placement, place-batch, vault and withdrawal writes: NEVER retried blindly.
 *                 Only answers that say nothing was recorded (`shard_owner_unavailable`,
 *                 `trading_temporarily_unavailable`) and connections that surely never carried
 *                 the request are resent, with the very same body text. Any other failure ends
 *                 the loop: the caller turns it into an unknown outcome.
 * - "once"        cancel-all: only a 429 (not processed) is resent; nothing else, ever.
 *
 * On every policy a 429 is waited out for exactly Retry-After seconds (never sooner) and resent,
 * `maxRateLimitRetries` times at most. Waits go through the Clock, jitter through the Rng.
 *
 * The circuit breaker never refuses a `riskReducing` call (the cancels), and only counts as
 * failures the answers that say something about the platform's health: see `breakerFailure`.
 */
import { inspect } from "node:util";
import type { Clock } from "../core/clock.js";
import type { Rng } from "../core/rng.js";
import type { NormalizedError } from "../wire/index.js";
import { classifyCode, readErrorBody } from "../wire/index.js";
import type { RetryOptions } from "./backoff.js";
import { backoffDelay } from "./backoff.js";
import type { CircuitBreaker } from "./breaker.js";
import { ApiError, LOCAL_CODES, errorFromTransport } from "./errors.js";
import type { RequestGate } from "./gate.js";
import type { ResponseMeta } from "./meta.js";
import { readMeta } from "./meta.js";
import type { HttpMethod, HttpResponse, Transport } from "../wire/transport.js";
import { TransportError } from "../wire/transport.js";

/** A character trim() would keep. */
const NON_SPACE = /\S/;

export type CallPolicy = "read" | "idempotent" | "write" | "once";

/** How often a long wait before a resend asks `stillWanted` again. */
export const WITHDRAW_POLL_MS = 250;

export interface CallSpec {
  method: HttpMethod;
  /** Path with its query string. */
  path: string;
  /** JSON text, serialised once by the caller so every resend is byte-identical. */
  body?: string;
  /** Sent as `X-User-Wallet` on authenticated calls. */
  wallet?: string;
  /** Send `X-Api-Key` (false for public endpoints: the key is ignored there, spec 5.1). */
  auth: boolean;
  policy: CallPolicy;
  signal?: AbortSignal;
  /** Statuses that are regular answers of this endpoint, not failures (`/ready` answers 503). */
  answerStatuses?: readonly number[];
  /** 5xx codes that end the retry loop as an answer (a cancel's `cancel_unanswered`). */
  answerCodes?: readonly string[];
  /** Gate priority (lower first); default: the gate's class of the request. */
  priority?: number;
  /** Cancels: the circuit breaker never refuses them (they pull quotes when things go wrong). */
  riskReducing?: boolean;
  /** See PlaceCallOptions.stillWanted (placement.ts): asked right before each attempt leaves, after the gate's wait. */
  stillWanted?: () => boolean;
}

export interface Answer {
  kind: "answer";
  status: number;
  headers: Readonly<Record<string, string>>;
  meta: ResponseMeta;
  /** Parsed JSON; undefined when the body is empty or not JSON (`jsonOk` false). */
  json: unknown;
  jsonOk: boolean;
  text: string;
  /** The error the body carries in any envelope shape (also a 2xx with a `code`). */
  error: NormalizedError | undefined;
  attempts: number;
}

export interface NoAnswer {
  kind: "no_answer";
  error: ApiError;
  attempts: number;
}

export type Exchange = Answer | NoAnswer;

/** Nothing was recorded: the SAME request may be resent (spec 7.3). */
export const RESEND_SAME_CODES: ReadonlySet<string> = new Set(["shard_owner_unavailable", "trading_temporarily_unavailable"]);

/** "Cancel recorded, no answer yet": a slow exchange node, not a failing platform. */
const CANCEL_UNANSWERED_CODES: ReadonlySet<string> = new Set(["cancel_unanswered", "cancel_pending"]);

/**
 * Whether an answer counts as a failure for the circuit breaker: a 5xx other than 501, unless it is
 * a regular answer of the endpoint or its code says "busy, nothing recorded" (handling
 * `resend_same` in the catalogue) or "cancel recorded, not yet answered". Counting those would let
 * a burst of busy answers on places open the circuit just when quotes must be pulled.
 */
export function breakerFailure(status: number, code: string | undefined, isAnswerStatus: boolean): boolean {
  if (status < 500 || status === 501 || isAnswerStatus) return false;
  if (code === undefined) return true;
  if (CANCEL_UNANSWERED_CODES.has(code)) return false;
  return classifyCode(code, status).handling !== "resend_same";
}

export interface SecretLike {
  reveal(): string;
}

export interface CoreDeps {
  transport: Transport;
  apiKey: string | SecretLike | undefined;
  clock: Clock;
  rng: Rng;
  gate: RequestGate;
  breaker: CircuitBreaker;
  retry: RetryOptions;
  validateRequests: boolean;
}

const REDACTED = "[REDACTED]";

export class ApiCore {
  readonly #apiKey: string | undefined;
  readonly clock: Clock;
  readonly breaker: CircuitBreaker;
  readonly retry: RetryOptions;
  readonly validateRequests: boolean;
  private readonly transport: Transport;
  private readonly rng: Rng;
  private readonly gate: RequestGate;

  constructor(deps: CoreDeps) {
    const key = deps.apiKey;
    this.#apiKey = key === undefined ? undefined : typeof key === "string" ? key : key.reveal();
    if (this.#apiKey === "") this.#apiKey = undefined;
    this.transport = deps.transport;
    this.clock = deps.clock;
    this.rng = deps.rng;
    this.gate = deps.gate;
    this.breaker = deps.breaker;
    this.retry = deps.retry;
    this.validateRequests = deps.validateRequests;
  }

  /** Whether an API key is configured (never the key). */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /**
   * Logging the client must not dump the transport (a recording transport holds request headers)
   * nor anything else that could hold the key.
   */
  [inspect.custom](): string {
    return `ApiCore { hasApiKey: ${this.hasApiKey}, breaker: ${this.breaker.state()} }`;
  }

  toJSON(): Record<string, unknown> {
    return { hasApiKey: this.hasApiKey, breaker: this.breaker.state() };
  }

  /** Remove the API key from any text that is about to leave the client (messages, details). */
  scrub(text: string): string {
    const key = this.#apiKey;
    return key === undefined || !text.includes(key) ? text : text.split(key).join(REDACTED);
  }

  /** Deep version of `scrub` for server-provided details. */
  scrubValue<T>(value: T): T {
    const key = this.#apiKey;
    if (key === undefined || value === undefined || value === null) return value;
    if (typeof value === "string") return this.scrub(value) as T;
    if (typeof value !== "object") return value;
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return value;
    }
    if (text === undefined || !text.includes(key)) return value;
    return JSON.parse(this.scrub(text)) as T;
  }

  /** Send one call, applying the retry rules of its policy; returns the last answer or failure. */
  async exchange(spec: CallSpec): Promise<Exchange> {
    const r = this.retry;
    let attempts = 0;
    let backoffTries = 0;
    let rateRetries = 0;
    let resends = 0;
    for (;;) {
      const permit = this.breaker.tryAcquire({ riskReducing: spec.riskReducing === true });
      if (!permit.ok) throw this.circuitOpen(spec, permit.retryAfterMs, attempts);
      attempts += 1;

      let admittedAtMs: number | undefined;
      try {
        const admission = await this.gate.acquire(this.gateRequest(spec));
        admittedAtMs = admission ? admission.admittedAtMs : undefined;
      } catch (e) {
        this.breaker.release(permit.probe);
        throw e;
      }
      // Asked right before the request leaves, after any wait (a first send queued behind the gate,
      // or a resend: every pass after the first follows an answer that recorded nothing).
      if (spec.stillWanted?.() === false) {
        this.breaker.release(permit.probe);
        throw this.withdrawn(spec, attempts);
      }

      let res: HttpResponse;
      try {
        res = await this.transport.request(this.httpRequest(spec));
      } catch (e) {
        const te = this.asTransportError(e);
        this.breaker.record(true, permit.probe);
        const error = errorFromTransport(te, this.scrub(te.message), { method: spec.method, path: spec.path, attempts });
        if (spec.policy === "read" || spec.policy === "idempotent") {
          backoffTries += 1;
          if (backoffTries < r.maxAttempts) {
            await this.pause(backoffDelay(backoffTries, r, this.rng), spec, attempts);
            continue;
          }
        } else if (spec.policy === "write" && !te.maybeDelivered && resends < r.maxResends) {
          resends += 1;
          await this.pause(backoffDelay(resends, r, this.rng), spec, attempts);
          continue;
        }
        return { kind: "no_answer", error, attempts };
      }

      this.gate.observe({
        method: spec.method,
        path: spec.path,
        status: res.status,
        headers: res.headers,
        ...(spec.wallet !== undefined ? { wallet: spec.wallet } : {}),
        ...(admittedAtMs !== undefined ? { sentAtMs: admittedAtMs } : {}),
      });
      const answer = this.readAnswer(res, attempts);
      const isAnswerStatus = spec.answerStatuses?.includes(res.status) ?? false;
      const serverFailure = res.status >= 500 && res.status !== 501 && !isAnswerStatus;
      this.breaker.record(breakerFailure(res.status, answer.error?.code, isAnswerStatus), permit.probe);

      if (res.status === 429) {
        const waitSec = answer.error?.retryAfterSec ?? answer.meta.retryAfterSec ?? r.defaultRetryAfterSec;
        if (rateRetries < r.maxRateLimitRetries && waitSec <= r.maxRetryAfterSec) {
          rateRetries += 1;
          await this.pause(waitSec * 1000, spec, attempts);
          continue;
        }
        return answer;
      }
      if (!serverFailure) return answer;

      const code = answer.error?.code;
      if (code !== undefined && spec.answerCodes?.includes(code)) return answer;
      const advisedMs = answer.error?.retryAfterSec !== undefined ? answer.error.retryAfterSec * 1000 : undefined;
      if (code !== undefined && RESEND_SAME_CODES.has(code) && spec.policy !== "once" && spec.policy !== "read") {
        if (resends >= r.maxResends) return answer;
        resends += 1;
        await this.pause(advisedMs ?? backoffDelay(resends, r, this.rng), spec, attempts);
        continue;
      }
      if (spec.policy === "read" || spec.policy === "idempotent") {
        backoffTries += 1;
        if (backoffTries < r.maxAttempts) {
          const wait = backoffDelay(backoffTries, r, this.rng);
          await this.pause(Math.max(wait, advisedMs ?? 0), spec, attempts);
          continue;
        }
      }
      return answer;
    }
  }

  private gateRequest(spec: CallSpec) {
    return {
      method: spec.method,
      path: spec.path,
      ...(spec.wallet !== undefined ? { wallet: spec.wallet } : {}),
      ...(spec.priority !== undefined ? { priority: spec.priority } : {}),
      ...(spec.signal !== undefined ? { signal: spec.signal } : {}),
    };
  }

  private httpRequest(spec: CallSpec) {
    const headers: Record<string, string> = { accept: "application/json" };
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    if (spec.auth && this.#apiKey !== undefined) headers["x-api-key"] = this.#apiKey;
    if (spec.auth && spec.wallet !== undefined) headers["x-user-wallet"] = spec.wallet;
    return {
      method: spec.method,
      path: spec.path,
      headers,
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      ...(spec.signal !== undefined ? { signal: spec.signal } : {}),
    };
  }

  private readAnswer(res: HttpResponse, attempts: number): Answer {
    const meta = readMeta(res.status, res.headers, attempts);
    let json: unknown;
    let jsonOk = false;
    // Any non-space character (as trim() counts spaces) without copying the body, a page of markets included.
    if (NON_SPACE.test(res.body)) {
      try {
        json = JSON.parse(res.body) as unknown;
        jsonOk = true;
      } catch {
        json = undefined;
      }
    }
    const raw = readErrorBody(res.status, jsonOk ? json : res.body, res.headers);
    let error: NormalizedError | undefined;
    if (raw !== undefined) {
      error = { ...raw, message: this.scrub(raw.message) };
      if (raw.details !== undefined) error.details = this.scrubValue(raw.details);
      if (raw.upstream !== undefined) error.upstream = this.scrubValue(raw.upstream);
    }
    return { kind: "answer", status: res.status, headers: res.headers, meta, json, jsonOk, text: res.body, error, attempts };
  }

  /** Anything a transport throws becomes a TransportError whose text holds no key. */
  private asTransportError(e: unknown): TransportError {
    if (e instanceof TransportError) {
      if (this.scrub(e.message) === e.message) return e;
      return new TransportError(this.scrub(e.message), e.maybeDelivered, e.kind);
    }
    const text = e instanceof Error ? e.message : String(e);
    const safe = this.scrub(text) === text;
    return new TransportError(`transport failed: ${this.scrub(text)}`, true, "other", safe ? { cause: e } : undefined);
  }

  /**
   * The wait before a resend. A caller with `stillWanted` is asked every WITHDRAW_POLL_MS while it
   * lasts, so a halt or a close during a long Retry-After ends the call at once (nothing was
   * recorded by the answer that caused the wait) instead of holding the caller for up to a minute.
   */
  private async pause(ms: number, spec: CallSpec, attempts: number): Promise<void> {
    if (spec.stillWanted === undefined) return this.clock.sleep(ms, spec.signal);
    const until = this.clock.now() + ms;
    for (;;) {
      const left = until - this.clock.now();
      if (left <= 0) return;
      await this.clock.sleep(Math.min(left, WITHDRAW_POLL_MS), spec.signal);
      if (!spec.stillWanted()) throw this.withdrawn(spec, attempts);
    }
  }

  private withdrawn(spec: CallSpec, attempts: number): ApiError {
    return new ApiError({
      source: "local",
      status: 0,
      code: LOCAL_CODES.withdrawn,
      message: "not sent: the caller no longer wants it (nothing was recorded)",
      method: spec.method,
      path: spec.path,
      handling: "business_reject",
      attempts,
    });
  }

  private circuitOpen(spec: CallSpec, retryAfterMs: number, attempts: number): ApiError {
    return new ApiError({
      source: "circuit",
      status: 0,
      code: LOCAL_CODES.circuitOpen,
      message: "circuit breaker open: the platform failed more than half of the recent requests",
      method: spec.method,
      path: spec.path,
      handling: "wait_retry_after",
      retryAfterSec: Math.ceil(retryAfterMs / 1000),
      attempts,
    });
  }
}
