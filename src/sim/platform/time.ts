/**
 * Durations and scenario times. Scenario files state lifecycle times relative to the
 * scenario start (`+2m`, `-1h`, `+1h30m`, `now`) so one file works on any day; absolute
 * ISO-8601 times are accepted too. Parsing is exact integer arithmetic on milliseconds.
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION_RE = /^(?:\d+(?:ms|s|m|h|d))+$/;
const PART_RE = /(\d+)(ms|s|m|h|d)/g;
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** "10s", "250ms", "1h30m", "2d" -> milliseconds; undefined when malformed. "0" is 0. */
export function parseDurationMs(text: string): number | undefined {
  const t = text.trim();
  if (t === "0") return 0;
  if (!DURATION_RE.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(PART_RE)) total += Number(m[1]) * (UNIT_MS[m[2]!] ?? 0);
  return Number.isSafeInteger(total) ? total : undefined;
}

export type TimeSpec =
  | { readonly kind: "relative"; readonly offsetMs: number }
  | { readonly kind: "absolute"; readonly atMs: number }
  /** `day`, `day+1`, `day-1+15m`: midnight UTC of the start's day, plus days, plus a duration. */
  | { readonly kind: "day"; readonly days: number; readonly offsetMs: number };

const DAY_RE = /^day([+-]\d+)?(?:\+(\S+))?$/;
const DAY_MS = 86_400_000;

/** "+2m", "-1h", "now", "0" (relative to the scenario start), "day+1+15m" (UTC day of the start) or an ISO-8601 date-time. */
export function parseTimeSpec(text: string): TimeSpec | undefined {
  const t = text.trim();
  if (t === "now" || t === "0") return { kind: "relative", offsetMs: 0 };
  const day = DAY_RE.exec(t);
  if (day) {
    const offsetMs = day[2] === undefined ? 0 : parseDurationMs(day[2]);
    if (offsetMs === undefined) return undefined;
    return { kind: "day", days: day[1] === undefined ? 0 : Number(day[1]), offsetMs };
  }
  const sign = t[0];
  if (sign === "+" || sign === "-") {
    const ms = parseDurationMs(t.slice(1));
    if (ms === undefined) return undefined;
    return { kind: "relative", offsetMs: sign === "-" ? -ms : ms };
  }
  if (ISO_RE.test(t)) {
    const ms = Date.parse(t);
    if (Number.isFinite(ms)) return { kind: "absolute", atMs: ms };
  }
  return undefined;
}

export function resolveTimeSpec(spec: TimeSpec, startMs: number): number {
  if (spec.kind === "day") return Math.floor(startMs / DAY_MS) * DAY_MS + spec.days * DAY_MS + spec.offsetMs;
  return spec.kind === "relative" ? startMs + spec.offsetMs : spec.atMs;
}

/** The last time written (the simulator writes the same instant many times: every row of an answer, every answer of a tick). */
let lastIsoMs = Number.NaN;
let lastIso = "";

/** ISO-8601 UTC with milliseconds; throws RangeError for a time no Date can hold, as Date does. */
export function isoOf(ms: number): string {
  if (ms === lastIsoMs) return lastIso;
  const text = new Date(ms).toISOString();
  lastIsoMs = ms;
  lastIso = text;
  return text;
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : isoOf(ms);
}
