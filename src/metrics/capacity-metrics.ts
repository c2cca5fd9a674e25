/**
 * The load shedder's state as metrics, read at scrape time (src/bot/guards/capacity-guard.ts):
 *
 *   mm_load_shed_level     0 normal, 1 quote refresh widened, 1 + n with n batches of markets shed
 *   mm_load_shed_markets   markets shed now (each also holds a market-scope `capacity` halt)
 *
 * Declared by every DaemonMetrics (0 until the engine attaches its guard with `follow`). The
 * quote-cycle time is mm_quote_cycle_duration_seconds and the event-loop lag loop-metrics.ts';
 * docs/metrics.md gives the alert thresholds.
 */
import { Gauge, type Registry } from "prom-client";

export interface LoadShedSource {
  readonly level: number;
  readonly marketsShed: number;
}

const NONE: LoadShedSource = { level: 0, marketsShed: 0 };

export class LoadShedMetrics {
  private source: () => LoadShedSource = () => NONE;

  constructor(registry: Registry) {
    const read = (): LoadShedSource => this.source();
    new Gauge({
      name: "mm_load_shed_level",
      help: "Load shedding level: 0 normal, 1 quote refresh widened, 1 + n with n batches of markets shed.",
      registers: [registry],
      collect() {
        this.set(read().level);
      },
    });
    new Gauge({
      name: "mm_load_shed_markets",
      help: "Markets shed for capacity now (quotes pulled, capacity halt held).",
      registers: [registry],
      collect() {
        this.set(read().marketsShed);
      },
    });
  }

  /** Read the guard's state at each scrape from now on. */
  follow(source: () => LoadShedSource): void {
    this.source = source;
  }
}
