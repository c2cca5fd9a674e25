/**
 * Queue-model updates per second (src/backtest/models/queue.ts): one resting order of ours fed a
 * recorded-like stream of trades and book changes at its price (about 1 trade in 4); when it fills
 * a new one joins the back of the level, as the fast engine would requeue a quote. The event array
 * is built once (seeded) and the same array is walked by a bare loop that reads and dispatches
 * each event without a model: ratio = model time / bare-loop time (the cost the model adds per
 * event, in units of walking the data).
 *
 * `queue_model_updates_per_sec` is the probabilistic power model with n = 2; the other models
 * print under their own names.
 */
import { Rng } from "../src/core/rng.js";
import { queueModelFactory, type QueueModelSpec } from "../src/backtest/models/queue.js";

const S = 1_000_000n;
const TRADE = 0;
const BOOK = 1;

interface Events {
  kind: Uint8Array;
  a: bigint[]; // trade: quantity; book: from
  b: bigint[]; // book: to
}

/** A level that wanders around 300 shares: cancels, joins and trades in whole 0.1 shares. */
function makeEvents(n: number, seed: number): Events {
  const rng = new Rng(seed);
  const kind = new Uint8Array(n);
  const a = new Array<bigint>(n);
  const b = new Array<bigint>(n);
  let shown = 300n * S; // last displayed size
  let level = shown; // after trades since then
  for (let i = 0; i < n; i++) {
    if (rng.float() < 0.25 && level > 0n) {
      const q = (BigInt(rng.int(200)) * S) / 10n + S / 10n;
      kind[i] = TRADE;
      a[i] = q;
      b[i] = 0n;
      level = level > q ? level - q : 0n;
    } else {
      const delta = (BigInt(rng.int(400)) - 180n) * (S / 10n); // joins a little more than cancels
      let to = level + delta;
      if (to < 0n) to = 0n;
      if (to > 2_000n * S) to = 2_000n * S;
      kind[i] = BOOK;
      a[i] = shown;
      b[i] = to;
      shown = to;
      level = to;
    }
  }
  return { kind, a, b };
}

function bare(ev: Events): number {
  const { kind, a, b } = ev;
  let sink = 0;
  let level = 0n;
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] === TRADE) {
      if (a[i]! > level) sink++;
    } else {
      level = b[i]!;
      if (a[i]! > level) sink++;
    }
  }
  return sink;
}

function withModel(ev: Events, spec: QueueModelSpec): number {
  const open = queueModelFactory(spec);
  const { kind, a, b } = ev;
  const ours = 5n * S;
  let level = a[0] ?? 0n;
  let q = open(level, ours);
  let fills = 0;
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] === TRADE) {
      const qty = a[i]!;
      if (q.trade(qty) > 0n) fills++;
      level = level > qty ? level - qty : 0n;
    } else {
      level = b[i]!;
      q.book(a[i]!, level);
    }
    if (q.remaining === 0n) q = open(level, ours);
  }
  return fills;
}

/** Best of `reps` timings of each, the two interleaved so both see the same machine load. */
function bestOfInterleaved(reps: number, base: () => number, model: () => number): { baseMs: number; modelMs: number; out: number } {
  let baseMs = Number.POSITIVE_INFINITY;
  let modelMs = Number.POSITIVE_INFINITY;
  let out = 0;
  for (let r = 0; r < reps; r++) {
    let t0 = process.hrtime.bigint();
    base();
    baseMs = Math.min(baseMs, Number(process.hrtime.bigint() - t0) / 1e6);
    t0 = process.hrtime.bigint();
    out = model();
    modelMs = Math.min(modelMs, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { baseMs, modelMs, out };
}

export async function run(): Promise<void> {
  const n = 1_000_000;
  const ev = makeEvents(n, 12);
  const models: [string, QueueModelSpec][] = [
    ["queue_model_updates_per_sec", { kind: "prob-power", n: 2 }],
    ["queue_model_risk_averse_updates_per_sec", { kind: "risk-averse" }],
    ["queue_model_prob_log_updates_per_sec", { kind: "prob-log" }],
    ["queue_model_prob_power_fraction_updates_per_sec", { kind: "prob-power-fraction", n: 3 }],
  ];
  for (const [, spec] of models) withModel(makeEvents(50_000, 1), spec); // warm-up
  bare(ev);
  for (const [name, spec] of models) {
    const t = bestOfInterleaved(7, () => bare(ev), () => withModel(ev, spec));
    const perSec = Math.round(n / (t.modelMs / 1000));
    console.log(`BENCH ${name} ${perSec} updates/s ratio=${(t.modelMs / t.baseMs).toFixed(2)}`);
    console.log(`#   ${spec.kind}: ${t.out} trades filled some of ours over ${n} events; bare loop ${Math.round(n / (t.baseMs / 1000))} events/s`);
  }
  await Promise.resolve();
}
