/**
 * The /health and /ready answers.
 *
 * - liveness (/health): 200 while the engine loop ticks: the last `tick` is at most maxTickAgeMs
 *   old (before the first tick: within startupGraceMs of construction). 503 otherwise, so a
 *   supervisor restarts a wedged process.
 * - readiness (/ready): 200 once startup completed (markStarted), no GLOBAL halt holds and no
 *   halt of a reason in NOT_READY_HALT_REASONS holds on ANY scope; 503 with a JSON reason
 *   otherwise ("starting", "stopping", "halted" with those halts). Those reasons say the daemon
 *   cannot see or act on part of what it owns (key refused, stream lost, loop stalled, load shed),
 *   so even a single wallet or market under one is not "all well". Other wallet or market halts
 *   (a reject storm, stale data on one market, a manual halt) keep the process ready: they are
 *   the risk layer working, and the rest still quotes.
 */
import type { Clock } from "../core/clock.js";
import type { Halt, HaltReason } from "../bot/risk/types.js";
import { scopeTarget } from "../bot/risk/types.js";
import { redactSecrets } from "../log/redact.js";

export interface ProbeAnswer {
  ok: boolean;
  body: Record<string, unknown>;
}

export interface ProbesOptions {
  clock: Clock;
  /** Default 30 s. */
  maxTickAgeMs?: number;
  /** Default 120 s. */
  startupGraceMs?: number;
  /** The risk facade (Risk) fits. */
  risk?: { globallyHalted(): boolean; halts(): readonly Halt[] };
}

/**
 * Halts that make /ready false on any scope (wallet, market or global), not only global: the
 * daemon is blind or cannot act there. The one place this set is written (docs quote it).
 */
export const NOT_READY_HALT_REASONS: readonly HaltReason[] = ["auth_refused", "stream_down", "dead_man", "capacity"];

const NOT_READY: ReadonlySet<HaltReason> = new Set(NOT_READY_HALT_REASONS);

/** Whether `h` alone makes the process not ready: any global halt, or one of NOT_READY_HALT_REASONS anywhere. */
export function haltBlocksReadiness(h: Halt): boolean {
  return h.scope.kind === "global" || NOT_READY.has(h.reason);
}

export function haltJson(h: Halt): Record<string, unknown> {
  return {
    scope: h.scope.kind,
    target: redactSecrets(scopeTarget(h.scope)),
    reason: h.reason,
    detail: redactSecrets(h.detail),
    sinceMs: h.sinceMs,
  };
}

export class Probes {
  private readonly createdAtMs: number;
  private lastTickMs: number | undefined;
  private started = false;
  private stopping = false;

  constructor(private readonly opts: ProbesOptions) {
    this.createdAtMs = opts.clock.now();
  }

  tick(nowMs: number): void {
    this.lastTickMs = nowMs;
  }

  markStarted(): void {
    this.started = true;
  }

  markStopping(): void {
    this.stopping = true;
  }

  liveness(): ProbeAnswer {
    const now = this.opts.clock.now();
    if (this.lastTickMs === undefined) {
      const ok = now - this.createdAtMs <= (this.opts.startupGraceMs ?? 120_000);
      return { ok, body: { status: ok ? "starting" : "no_tick" } };
    }
    const age = now - this.lastTickMs;
    const ok = age <= (this.opts.maxTickAgeMs ?? 30_000);
    return { ok, body: { status: ok ? "ok" : "loop_stalled", lastTickAgeMs: age } };
  }

  readiness(): ProbeAnswer {
    if (this.stopping) return { ok: false, body: { ready: false, reason: "stopping" } };
    if (!this.started) return { ok: false, body: { ready: false, reason: "starting" } };
    const risk = this.opts.risk;
    if (risk === undefined) return { ok: true, body: { ready: true } };
    const halts = risk.halts().filter(haltBlocksReadiness);
    if (halts.length > 0 || risk.globallyHalted()) {
      return { ok: false, body: { ready: false, reason: "halted", halts: halts.map(haltJson) } };
    }
    return { ok: true, body: { ready: true } };
  }

  isReady(): boolean {
    return this.readiness().ok;
  }
}
