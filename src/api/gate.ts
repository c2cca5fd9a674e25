/**
 * The client's view of a rate gate (spec 8): ask before sending, report every answer. The
 * `RateGate` of src/ratelimit satisfies this interface structurally; the client defaults to a
 * gate that admits everything (the platform's 429s are still honoured by the retry loop).
 */

export interface GateRequest {
  readonly method: string;
  /** Path with its query string. */
  readonly path: string;
  /** The acting wallet (`X-User-Wallet`); undefined for public and single-wallet calls. */
  readonly wallet?: string;
  /** Lower goes first (Bottleneck style); omitted: the gate picks from the request's class. */
  readonly priority?: number;
  readonly signal?: AbortSignal;
}

export interface GateAnswer {
  readonly method: string;
  readonly path: string;
  readonly wallet?: string;
  readonly status: number;
  /** Lower-cased response headers (X-RateLimit-*, Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  /** `admittedAtMs` of the admission this answer belongs to. */
  readonly sentAtMs?: number;
}

export interface RequestGate {
  /** Resolves when the request may be sent (after reserving room in every bucket that applies). */
  acquire(req: GateRequest): Promise<{ readonly admittedAtMs?: number } | void>;
  /** Resynchronise from an answer (headers, 429 Retry-After). */
  observe(res: GateAnswer): void;
}

export const NOOP_GATE: RequestGate = {
  acquire: () => Promise.resolve(),
  observe: () => undefined,
};
