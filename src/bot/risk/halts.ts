/**
 * The halt book: which scopes (global, a wallet, a market) may not quote, and why.
 *
 * A halt is keyed by (scope, reason): one scope can hold several reasons, and each clears on its
 * own rule (CLEAR_RULES, repeated in docs/metrics.md). A scope quotes only when neither it, nor
 * the global scope, nor (for a market) its wallet holds any halt.
 *
 * The book is plain state changed by explicit calls with the time passed in; the evaluators
 * (evaluators.ts) decide when to raise or clear, the facade (risk.ts) wires them.
 */
import {
  HALT_REASONS,
  scopeKey,
  type ClearedBy,
  type GateVerdict,
  type Halt,
  type HaltChange,
  type HaltReason,
  type HaltScope,
} from "./types.js";

export interface ClearRule {
  /** True when the rule clears the halt by itself; false: only an operator resume (or a restart). */
  automatic: boolean;
  rule: string;
}

/**
 * How each halt ends. A restart clears every halt (the book is in memory); the conditions that
 * raised an automatic halt are re-checked from the first observations after it.
 */
export const CLEAR_RULES: Readonly<Record<HaltReason, ClearRule>> = {
  kill_switch: {
    automatic: false,
    rule: "operator resume (POST /admin/resume) or restart",
  },
  daily_loss: {
    automatic: false,
    rule:
      "operator resume or restart; the resume acknowledges the loss so far, and the halt comes back " +
      "when the day's loss grows by another dailyLossLimit (the acknowledgement resets at 00:00 UTC)",
  },
  manual: { automatic: false, rule: "operator resume or restart" },
  instance_conflict: {
    automatic: false,
    rule: "stop the other daemon running with the same instance.id, then operator resume or restart",
  },
  auth_refused: {
    automatic: true,
    rule: "a request with the API key succeeds again (refusals are retried with backoff meanwhile)",
  },
  dead_man: {
    automatic: true,
    rule: "the platform answers again, the wallet's quotes were pulled with cancel-all, and a reconciliation completed after that",
  },
  circuit_open: { automatic: true, rule: "the client's circuit breaker is closed again (a half-open probe succeeded)" },
  stream_down: {
    automatic: true,
    rule: "the user stream is subscribed again AND a reconciliation completed after that reconnect",
  },
  reconciliation_drift: {
    automatic: true,
    rule: "a later reconciliation of the wallet finds no more than driftTolerance drifted records",
  },
  reject_storm: {
    automatic: true,
    rule: "no unexplained reject for rejectQuietMs (default 60 s) after the storm",
  },
  capacity: {
    automatic: true,
    rule: "the quote cycle keeps up again (event-loop lag under the bound for the recovery period)",
  },
  stale_market_data: { automatic: true, rule: "a book update younger than staleDataSec arrives for the market" },
};

const REASON_RANK: Readonly<Record<HaltReason, number>> = Object.fromEntries(
  HALT_REASONS.map((r, i) => [r, i]),
) as Record<HaltReason, number>;

const SCOPE_RANK = { global: 0, wallet: 1, market: 2 } as const;

function key(scope: HaltScope, reason: HaltReason): string {
  return `${scopeKey(scope)}|${reason}`;
}

/** Most serious first: by reason rank, then wider scope first, then age. */
export function compareHalts(a: Halt, b: Halt): number {
  return (
    REASON_RANK[a.reason] - REASON_RANK[b.reason] ||
    SCOPE_RANK[a.scope.kind] - SCOPE_RANK[b.scope.kind] ||
    a.sinceMs - b.sinceMs ||
    (scopeKey(a.scope) < scopeKey(b.scope) ? -1 : scopeKey(a.scope) > scopeKey(b.scope) ? 1 : 0)
  );
}

export class HaltBook {
  private readonly halts = new Map<string, Halt>();

  /** Raise a halt; a halt already active keeps its start time and detail. */
  raise(scope: HaltScope, reason: HaltReason, detail: string, nowMs: number): HaltChange | undefined {
    const k = key(scope, reason);
    if (this.halts.has(k)) return undefined;
    const halt: Halt = { scope, reason, sinceMs: nowMs, detail };
    this.halts.set(k, halt);
    return { type: "raised", halt, atMs: nowMs };
  }

  clear(scope: HaltScope, reason: HaltReason, nowMs: number, by: ClearedBy): HaltChange | undefined {
    const k = key(scope, reason);
    const halt = this.halts.get(k);
    if (halt === undefined) return undefined;
    this.halts.delete(k);
    return { type: "cleared", halt, atMs: nowMs, by };
  }

  has(scope: HaltScope, reason: HaltReason): boolean {
    return this.halts.has(key(scope, reason));
  }

  get(scope: HaltScope, reason: HaltReason): Halt | undefined {
    return this.halts.get(key(scope, reason));
  }

  /** Every active halt, most serious first. */
  active(): Halt[] {
    return [...this.halts.values()].sort(compareHalts);
  }

  /** Active halts of one reason, any scope. */
  withReason(reason: HaltReason): Halt[] {
    return this.active().filter((h) => h.reason === reason);
  }

  /** Halts on exactly this scope (not the wider ones). */
  onScope(scope: HaltScope): Halt[] {
    const prefix = `${scopeKey(scope)}|`;
    return [...this.halts.entries()].filter(([k]) => k.startsWith(prefix)).map(([, h]) => h).sort(compareHalts);
  }

  /**
   * May (wallet, market) quote? No when the global scope, the wallet, or the market holds a halt.
   * `market` may be omitted to ask about a wallet as a whole.
   */
  gate(wallet: string, market?: string): GateVerdict {
    const halts = [
      ...this.onScope({ kind: "global" }),
      ...this.onScope({ kind: "wallet", wallet }),
      ...(market === undefined ? [] : this.onScope({ kind: "market", market })),
    ].sort(compareHalts);
    const first = halts[0];
    if (first === undefined) return { quote: true };
    return { quote: false, reason: first.reason, scope: first.scope, halts };
  }

  /** True when any halt holds the global scope (the process is not ready). */
  globallyHalted(): boolean {
    return this.onScope({ kind: "global" }).length > 0;
  }

  get size(): number {
    return this.halts.size;
  }
}
