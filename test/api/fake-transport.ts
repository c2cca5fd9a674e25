/**
 * An in-memory Transport for the client tests: scripted answers (a queue, then routes), every
 * request recorded with the virtual time it arrived at.
 */
import type { Clock } from "../../src/core/clock.js";
import { flushMicrotasks } from "../../src/core/clock.js";
import type { VirtualClock } from "../../src/core/clock.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { TransportError } from "../../src/wire/transport.js";

export interface RecordedRequest {
  method: HttpRequest["method"];
  path: string;
  /** Lower-cased. */
  headers: Record<string, string>;
  body: string | undefined;
  at: number;
}

export type Reply = HttpResponse | TransportError | Error;
export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;

export class FakeTransport implements Transport {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: (Reply | Handler)[] = [];
  private readonly routes: { method: string; match: RegExp; handler: Handler }[] = [];

  constructor(private readonly clock: Clock) {}

  /** Answers for the next requests, in order (before any route). */
  enqueue(...replies: (Reply | Handler)[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** A standing answer for requests matching method and path (checked after the queue). */
  route(method: string, match: RegExp, handler: Handler | Reply): this {
    this.routes.push({ method, match, handler: typeof handler === "function" ? handler : () => handler });
    return this;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
    const rec: RecordedRequest = { method: req.method, path: req.path, headers, body: req.body, at: this.clock.now() };
    this.requests.push(rec);
    const next = this.queue.shift();
    let reply: Reply;
    if (next !== undefined) {
      reply = typeof next === "function" ? await next(rec) : next;
    } else {
      const r = this.routes.find((x) => x.method === req.method && x.match.test(req.path));
      if (r === undefined) throw new Error(`FakeTransport: nothing scripted for ${req.method} ${req.path}`);
      reply = await r.handler(rec);
    }
    if (reply instanceof Error) throw reply;
    return reply;
  }

  paths(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }
}

export const BASE_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  "x-api-version": "2026-10-09",
  "x-server-time": "1767225600123",
  "x-request-id": "req-1",
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function envelope(
  status: number,
  code: string,
  message = code,
  extra: { retryAfterSec?: number; retryable?: boolean; details?: Record<string, unknown>; trace_id?: string } = {},
  headers: Record<string, string> = {},
): HttpResponse {
  return json(status, { status, error: { code, message, ...extra } }, headers);
}

export function rateLimited(retryAfterSec: number | undefined): HttpResponse {
  return envelope(429, "rate_limited", "rate limit exceeded", {}, retryAfterSec === undefined ? {} : { "retry-after": String(retryAfterSec) });
}

export function timeout(): TransportError {
  return new TransportError("request timed out", true, "timeout");
}

export function refused(): TransportError {
  return new TransportError("connection failed (ECONNREFUSED)", false, "connect");
}

export function reset(): TransportError {
  return new TransportError("connection lost (ECONNRESET)", true, "reset");
}

/**
 * Drive a VirtualClock until `p` settles: fire the next due timer, let continuations run, repeat.
 * Throws if `p` is stuck with no timer left to fire.
 */
export async function settle<T>(clock: VirtualClock, p: Promise<T>): Promise<T> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 100_000 && !done; i++) {
    await flushMicrotasks();
    if (done) break;
    const due = clock.nextDue();
    if (due === undefined) {
      await flushMicrotasks(10);
      if (!done) throw new Error("settle: promise stuck with no timer scheduled");
      break;
    }
    await clock.advanceTo(due);
  }
  return p;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Run `p` expecting a rejection; returns the error. */
export async function rejectionOf(clock: VirtualClock, p: Promise<unknown>): Promise<unknown> {
  try {
    await settle(clock, p);
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}
