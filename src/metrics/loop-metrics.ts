/**
 * Event-loop lag and the dead-man switch as metrics, on the daemon's registry:
 *
 *   mm_event_loop_lag_seconds           histogram of every lag sample (a timer's late firing)
 *   mm_event_loop_lag_p99_seconds       p99 of the monitor's recent window, read at scrape time
 *   mm_event_loop_stalls_total          samples of at least the stall threshold (1 s)
 *   mm_dead_man_trips_total{cause}      wallets halted by the dead-man switch (loop_stall, outage)
 *
 * Declared by DaemonMetrics (registry.ts: every registry carries them, 0 until the engine's
 * monitor is attached with `follow`). The source is structural (the engine's LoopMonitor fits) so
 * this module imports nothing of the engine. docs/metrics.md describes each one with its alert
 * threshold.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** Lag buckets in seconds: a healthy loop sits under 50 ms; seconds mean a stall. */
const LOOP_LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const DEAD_MAN_CAUSES = ["loop_stall", "outage"] as const;
export type DeadManCauseLabel = (typeof DEAD_MAN_CAUSES)[number];

export interface LoopLagSource {
  lagP99Ms(): number;
  onSample(fn: (s: { lagMs: number; stalled: boolean }) => void): () => void;
}

export class LoopMetrics {
  readonly lag: Histogram;
  readonly lagP99: Gauge;
  readonly stalls: Counter;
  readonly deadManTrips: Counter<"cause">;
  private unsubscribe: (() => void) | undefined;
  private source: LoopLagSource | undefined;

  constructor(registry: Registry) {
    const registers = [registry];
    const self = (): LoopMetrics => this;
    this.lag = new Histogram({
      name: "mm_event_loop_lag_seconds",
      help: "Event-loop lag: how late the loop monitor's timer fired, per tick.",
      buckets: LOOP_LAG_BUCKETS,
      registers,
    });
    this.lagP99 = new Gauge({
      name: "mm_event_loop_lag_p99_seconds",
      help: "99th percentile of the event-loop lag over the last minute of ticks.",
      registers,
      collect() {
        this.set((self().source?.lagP99Ms() ?? 0) / 1000);
      },
    });
    this.stalls = new Counter({
      name: "mm_event_loop_stalls_total",
      help: "Event-loop stalls: lag samples of one second or more.",
      registers,
    });
    this.deadManTrips = new Counter({
      name: "mm_dead_man_trips_total",
      help: "Wallets halted by the dead-man switch, by cause (loop_stall: the loop stalled; outage: user stream and REST both down).",
      labelNames: ["cause"],
      registers,
    });
    // Every cause shows from the first scrape (0 until it happens).
    for (const cause of DEAD_MAN_CAUSES) this.deadManTrips.inc({ cause }, 0);
  }

  /** Observe this monitor's samples (one source at a time: a new one replaces the old). */
  follow(source: LoopLagSource): void {
    this.close();
    this.source = source;
    this.unsubscribe = source.onSample((s) => {
      this.lag.observe(s.lagMs / 1000);
      if (s.stalled) this.stalls.inc();
    });
  }

  trip(cause: DeadManCauseLabel): void {
    this.deadManTrips.inc({ cause });
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}
