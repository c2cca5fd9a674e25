/**
 * Is the platform answering our REST requests? A Transport wrapper that notes, per wallet (the
 * X-User-Wallet header) and for requests of no wallet (books, markets), when the last answer came
 * and since when requests fail. "Failing" is what says the platform cannot be reached or cannot
 * serve: a transport error (refused, reset, timeout) or a 5xx the circuit breaker also counts as a
 * failure (breakerFailure: not 501, not the "busy, nothing recorded" or "cancel recorded, no
 * answer yet" codes). Any other answer, 4xx and 429 included, says the platform is there.
 *
 * An open circuit breaker sends nothing, so nothing is noted and the failure keeps its start:
 * "REST failing" covers the open circuit too. Read by the dead-man switch (dead-man.ts).
 */
import { breakerFailure } from "../../api/core.js";
import type { HttpRequest, HttpResponse, Transport } from "../../wire/transport.js";

interface Health {
  /** Last answer. */
  okAtMs: number | undefined;
  /** First failure since the last answer; undefined while the last outcome was an answer. */
  failingSinceMs: number | undefined;
}

/** The key of requests carrying no wallet. */
const PLATFORM = "";

export class RestHealth {
  private readonly health = new Map<string, Health>();
  private readonly listeners = new Set<(wallet: string) => void>();

  constructor(private readonly now: () => number) {}

  /** The transport, with every outcome noted here. */
  wrap(inner: Transport): Transport {
    return {
      request: async (req: HttpRequest): Promise<HttpResponse> => {
        const key = walletOf(req);
        try {
          const res = await inner.request(req);
          this.note(key, !breakerFailure(res.status, res.status >= 500 ? errorCode(res.body) : undefined, false));
          return res;
        } catch (e) {
          this.note(key, false);
          throw e;
        }
      },
    };
  }

  note(wallet: string, answered: boolean): void {
    const key = wallet.toLowerCase();
    const at = this.now();
    const h = this.health.get(key) ?? { okAtMs: undefined, failingSinceMs: undefined };
    const recovered = answered && h.failingSinceMs !== undefined;
    if (answered) {
      h.okAtMs = at;
      h.failingSinceMs = undefined;
    } else h.failingSinceMs ??= at;
    this.health.set(key, h);
    if (recovered) for (const fn of [...this.listeners]) fn(key);
  }

  /**
   * Called when requests of a wallet (or of no wallet: "") are answered again after failing; the
   * answer is still on its way to its caller. Returns the unsubscribe function.
   */
  onRecovered(fn: (wallet: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Since when REST fails for this wallet: its own requests fail, or (when it sent none since its
   * last answer) requests of no wallet started failing after that answer. Undefined: answering.
   */
  failingSince(wallet: string): number | undefined {
    const w = this.health.get(wallet.toLowerCase());
    if (w?.failingSinceMs !== undefined) return w.failingSinceMs;
    const p = this.health.get(PLATFORM)?.failingSinceMs;
    if (p === undefined) return undefined;
    return w?.okAtMs !== undefined && w.okAtMs > p ? undefined : p;
  }

  /** Time of the last answer to a request of this wallet or of no wallet (undefined: none yet). */
  lastAnswerMs(wallet: string): number | undefined {
    const a = this.health.get(wallet.toLowerCase())?.okAtMs;
    const b = this.health.get(PLATFORM)?.okAtMs;
    if (a === undefined) return b;
    return b === undefined ? a : Math.max(a, b);
  }
}

function walletOf(req: HttpRequest): string {
  for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() === "x-user-wallet") return v.toLowerCase();
  return PLATFORM;
}

/** The error envelope's code (7.1), if the body is one. */
function errorCode(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
