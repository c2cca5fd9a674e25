/**
 * The /health and /ready answers.
 *
 * - liveness (/health): 200 while the engine loop ticks: the last `tick` is at most maxTickAgeMs
 *   old (before the first tick: within startupGraceMs of construction). 503 otherwise, so a
 *   supervisor restarts a wedged process.
 * - readiness (/ready): 200 once startup completed (markStarted) and no GLOBAL halt holds; 503
 *   with a JSON reason otherwise ("starting", "stopping", "halted" with the halts). A halted
 *   wallet or market alone keeps the process ready: the rest still quotes.
 */
import type { Clock } from "../core/clock.js";
import type { Halt } from "../bot/risk/types.js";
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
    if (risk?.globallyHalted()) {
      const halts = risk.halts().filter((h) => h.scope.kind === "global");
      return { ok: false, body: { ready: false, reason: "halted", halts: halts.map(haltJson) } };
    }
    return { ok: true, body: { ready: true } };
  }

  isReady(): boolean {
    return this.readiness().ok;
  }
}
