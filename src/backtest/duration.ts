/**
 * Durations of virtual time as people write them: `90m`, `6h`, `2d`, `1h30m`, `45s`, `500ms`.
 * Whole numbers only (a fraction of a unit is written in the next unit down), so a duration is
 * always an exact number of milliseconds; each unit at most once (`5m5m` is refused, not 10m).
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest backtest accepted: a year of virtual time. */
export const MAX_DURATION_MS = 366 * 86_400_000;

/** Milliseconds, or the reason the text is not a duration. */
export function parseDuration(text: string): number | string {
  const t = text.trim();
  if (t === "") return "expected a duration such as 90m, 6h or 2d (got an empty value)";
  const part = /(\d+)(ms|s|m|h|d)/y;
  let total = 0;
  let at = 0;
  const units = new Set<string>();
  while (at < t.length) {
    part.lastIndex = at;
    const m = part.exec(t);
    if (m === null) return `expected a duration such as 90m, 6h, 2d or 1h30m (got ${JSON.stringify(text)})`;
    if (units.has(m[2]!)) return `unit ${m[2]} given twice (got ${JSON.stringify(text)})`;
    units.add(m[2]!);
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = part.lastIndex;
  }
  if (!Number.isSafeInteger(total) || total > MAX_DURATION_MS) return `at most 366d (got ${JSON.stringify(text)})`;
  if (total <= 0) return `must be longer than zero (got ${JSON.stringify(text)})`;
  return total;
}

/** `1h30m`, `6h`, `2d`, `45s`, `250ms`: the shortest form parseDuration reads back. */
export function formatDuration(ms: number): string {
  if (ms <= 0) return "0s";
  let rest = Math.round(ms);
  let out = "";
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1_000], ["ms", 1]] as const) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return out;
}
