/**
 * Order latency models for the fast engine: how long an order (or cancel) takes to reach the
 * exchange model after the strategy sends it (`entry`), and how long the exchange's answer, or a
 * fill notice, takes to come back (`response`). Feed latency (market data reaching the strategy)
 * is the data's business: recorded events carry both the server's and the local time.
 *
 * Times are virtual-clock milliseconds. The virtual clock counts whole milliseconds, so every
 * model answers a whole number of ms, rounded UP from its inputs (a recorded 12.3 ms is 13 ms): a
 * modelled order never arrives earlier than the recording says.
 *
 *   constant      entry = ceil(entryMs), response = ceil(responseMs).
 *   empirical     each call draws one recorded latency uniformly from a sorted sample (the empirical
 *                 distribution): sample[rng.int(length)], rounded up. The sample must be sorted so that
 *                 the draws depend only on the set of latencies, not on the order they were recorded
 *                 in. The model owns two streams forked from its seed ("entry", "response"), so the
 *                 number of response draws never shifts the entry draws; an Rng passed to a call is
 *                 used instead (the caller then owns the stream).
 *   interpolated  hftbacktest's IntpOrderLatency: recorded requests (reqMs sent locally, exchMs
 *                 stamped by the server, respMs answer received locally; clock skew already
 *                 removed). entry(t) interpolates exchMs - reqMs linearly in reqMs between the last
 *                 request sent at or before t and the first one after it; response(t) interpolates
 *                 respMs - exchMs the same way in exchMs (t is then the time the exchange handled the
 *                 order). Before the first / after the last record: that record's latency. Times are
 *                 whole ms, so the interpolation is exact bigint arithmetic, rounded up.
 *
 * Rejections by an overloaded exchange (hftbacktest's negative latencies) are not modelled.
 */
import { Rng } from "../../core/rng.js";

export interface LatencyModel {
  /** ms from sending a request at `nowMs` to the exchange handling it (whole ms, >= 0). */
  entry(nowMs: number, rng?: Rng): number;
  /** ms from the exchange answering at `nowMs` to the answer arriving (whole ms, >= 0). */
  response(nowMs: number, rng?: Rng): number;
}

/** One recorded request, in whole ms of the same clock (reqMs <= exchMs <= respMs). */
export interface LatencyRecord {
  readonly reqMs: number;
  readonly exchMs: number;
  readonly respMs: number;
}

export type LatencySpec =
  | { readonly kind: "constant"; readonly entryMs: number; readonly responseMs: number }
  | {
      readonly kind: "empirical";
      /** Recorded entry latencies, ascending. */
      readonly entryMs: readonly number[];
      /** Recorded response latencies, ascending. */
      readonly responseMs: readonly number[];
      readonly seed: number;
    }
  | { readonly kind: "interpolated"; readonly records: readonly LatencyRecord[] };

function fail(message: string): never {
  throw new RangeError(`latency model: ${message}`);
}

/** Array.isArray without narrowing a readonly array to any[] (inputs may come from unchecked JSON). */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}

function checkMs(what: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    fail(`${what} must be a finite number of ms >= 0 (got ${String(value)})`);
  }
  return value;
}

export function constantLatency(entryMs: number, responseMs: number): LatencyModel {
  const entry = Math.ceil(checkMs("entryMs", entryMs));
  const response = Math.ceil(checkMs("responseMs", responseMs));
  return { entry: () => entry, response: () => response };
}

function checkSample(what: string, sample: readonly number[]): number[] {
  if (!isList(sample) || sample.length === 0) fail(`${what} must be a non-empty array of recorded latencies`);
  const out = new Array<number>(sample.length);
  let previous = 0;
  for (let i = 0; i < sample.length; i++) {
    const v = checkMs(`${what}[${i}]`, sample[i]);
    if (i > 0 && v < previous) fail(`${what} must be sorted ascending (${what}[${i}] = ${v} < ${what}[${i - 1}] = ${previous})`);
    previous = v;
    out[i] = Math.ceil(v);
  }
  return out;
}

export function empiricalLatency(entryMs: readonly number[], responseMs: readonly number[], seed: number): LatencyModel {
  const entries = checkSample("entryMs", entryMs);
  const responses = checkSample("responseMs", responseMs);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffff_ffff) fail(`seed must be an integer 0..4294967295 (got ${String(seed)})`);
  const root = new Rng(seed);
  const entryRng = root.fork("entry");
  const responseRng = root.fork("response");
  return {
    entry: (_nowMs, rng) => entries[(rng ?? entryRng).int(entries.length)]!,
    response: (_nowMs, rng) => responses[(rng ?? responseRng).int(responses.length)]!,
  };
}

/** Points (x ascending, y latency) of one interpolated curve. */
interface Curve {
  readonly x: readonly number[];
  readonly y: readonly number[];
}

/** Index of the last x <= t, or -1 when t is before every x. */
function lastAtOrBefore(x: readonly number[], t: number): number {
  let lo = 0;
  let hi = x.length; // first index with x > t lies in [lo, hi]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * y at t on the curve: linear between the last point at or before t and the next one (whose x is
 * then > t, so equal times never divide by zero), held flat outside; rounded up, exact in bigint.
 */
function interpolate(curve: Curve, t: number): number {
  const { x, y } = curve;
  const i = lastAtOrBefore(x, t);
  if (i < 0) return y[0]!;
  if (i >= x.length - 1) return y[x.length - 1]!;
  const x1 = x[i]!;
  const y1 = y[i]!;
  const x2 = x[i + 1]!;
  const y2 = y[i + 1]!;
  if (y1 === y2) return y1;
  // t may be fractional; the clock's whole ms is floor(t). y1 + (y2 - y1)(t - x1)/(x2 - x1), ceil.
  const dx = BigInt(x2 - x1);
  const num = BigInt(y1) * dx + BigInt(y2 - y1) * BigInt(Math.floor(t) - x1);
  const q = num / dx; // num >= 0: both latencies >= 0 and 0 <= t - x1 < dx
  return Number(q * dx === num ? q : q + 1n);
}

function checkRecords(records: readonly LatencyRecord[]): { entry: Curve; response: Curve } {
  if (!isList(records) || records.length === 0) fail("records must be a non-empty array of {reqMs, exchMs, respMs}");
  const entryX: number[] = [];
  const entryY: number[] = [];
  const byExch: { exch: number; lat: number; i: number }[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const at = `records[${i}]`;
    for (const key of ["reqMs", "exchMs", "respMs"] as const) {
      const v = (r as unknown as Record<string, unknown>)[key];
      if (typeof v !== "number" || !Number.isSafeInteger(v)) fail(`${at}.${key} must be a whole number of ms (got ${String(v)})`);
    }
    if (r.exchMs < r.reqMs) fail(`${at}: exchMs ${r.exchMs} is before reqMs ${r.reqMs} (negative entry latency: remove clock skew first)`);
    if (r.respMs < r.exchMs) fail(`${at}: respMs ${r.respMs} is before exchMs ${r.exchMs} (negative response latency: remove clock skew first)`);
    if (i > 0 && r.reqMs < records[i - 1]!.reqMs) fail(`records must be sorted by reqMs (${at}.reqMs ${r.reqMs} < records[${i - 1}].reqMs ${records[i - 1]!.reqMs})`);
    entryX.push(r.reqMs);
    entryY.push(r.exchMs - r.reqMs);
    byExch.push({ exch: r.exchMs, lat: r.respMs - r.exchMs, i });
  }
  // Response latency is read on the exchange's time axis, which need not follow the send order.
  byExch.sort((a, b) => a.exch - b.exch || a.i - b.i);
  return {
    entry: { x: entryX, y: entryY },
    response: { x: byExch.map((p) => p.exch), y: byExch.map((p) => p.lat) },
  };
}

export function interpolatedLatency(records: readonly LatencyRecord[]): LatencyModel {
  const { entry, response } = checkRecords(records);
  return {
    entry: (nowMs) => interpolate(entry, checkMs("nowMs", nowMs)),
    response: (nowMs) => interpolate(response, checkMs("nowMs", nowMs)),
  };
}

export function latencyModel(spec: LatencySpec): LatencyModel {
  switch (spec.kind) {
    case "constant":
      return constantLatency(spec.entryMs, spec.responseMs);
    case "empirical":
      return empiricalLatency(spec.entryMs, spec.responseMs, spec.seed);
    case "interpolated":
      return interpolatedLatency(spec.records);
    default:
      return fail(`unknown kind ${JSON.stringify((spec as { kind?: unknown }).kind)} (constant, empirical, interpolated)`);
  }
}
