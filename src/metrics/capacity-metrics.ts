/**
 * The load shedder's state as metrics, read at scrape time (src/bot/engine/capacity-guard.ts):
 *
 *   mm_load_shed_level     0 normal, 1 quote refresh widened, 1 + n with n batches of markets shed
 *   mm_load_shed_markets   markets shed now (each also holds a market-scope `capacity` halt)
 *
 * The quote-cycle time is mm_quote_cycle_duration_seconds (registry.ts) and the event-loop lag is the
 * loop monitor's; docs/metrics.md gives the alert thresholds.
 */
import { Gauge } from "prom-client";
import type { DaemonMetrics } from "./registry.js";

export interface LoadShedSource {
  level: number;
  marketsShed: number;
}

/** Register both gauges on the daemon's registry, reading `source` at each scrape. */
export function trackLoadShedding(metrics: Pick<DaemonMetrics, "registry">, source: () => LoadShedSource): void {
  new Gauge({
    name: "mm_load_shed_level",
    help: "Load shedding level: 0 normal, 1 quote refresh widened, 1 + n with n batches of markets shed.",
    registers: [metrics.registry],
    collect() {
      this.set(source().level);
    },
  });
  new Gauge({
    name: "mm_load_shed_markets",
    help: "Markets shed for capacity now (quotes pulled, capacity halt held).",
    registers: [metrics.registry],
    collect() {
      this.set(source().marketsShed);
    },
  });
}
