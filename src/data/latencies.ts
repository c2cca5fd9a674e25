/**
 * The daemon's order-entry round trips in a data set (`latency` rows written with `record:` in the
 * daemon config): every answered request of the place and cancel classes, in ms, ascending. What
 * a latency model makes of them (the fast engine's `--latency recorded`) is the model's business.
 */
import { DataSetReader } from "./reader.js";

export interface RecordedRoundTrips {
  /** send -> answer, ms, ascending. */
  roundTripsMs: number[];
  /** Latency rows read (every class and status). */
  rows: number;
}

const ORDER_CLASSES = new Set(["place", "cancel"]);

export async function readOrderRoundTrips(dir: string): Promise<RecordedRoundTrips> {
  const r = new DataSetReader(dir, { kinds: ["latency"] });
  const out: number[] = [];
  let rows = 0;
  for await (const e of r.events()) {
    if (e.kind !== "latency") continue;
    rows += 1;
    if (ORDER_CLASSES.has(e.routeClass ?? "") && e.status >= 200 && e.status < 300) out.push(e.latencyMs);
  }
  out.sort((a, b) => a - b);
  return { roundTripsMs: out, rows };
}
