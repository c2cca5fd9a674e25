/**
 * Money: decimal strings on the wire, bigint micro-units (6 decimals) inside.
 *
 * Every amount the platform moves (settlement token, outcome shares, prices) has six
 * decimals (spec 2.1: "Wei amounts in signed orders use 6 decimals"). A float never
 * touches an amount: strings are parsed digit by digit into bigint, arithmetic is on
 * bigint with an explicit rounding direction, and formatting goes back to strings.
 *
 * Names: a `Micros` is a bigint count of 1e-6 units. A price in micros is the price of
 * one whole share in settlement-token micro-units (0.55 -> 550_000n).
 */

export type Micros = bigint;

export const DECIMALS = 6;
export const SCALE: Micros = 1_000_000n;
/** One whole unit (1 settlement token, 1 share, price 1.0) in micros. */
export const ONE: Micros = SCALE;

export type Rounding = "floor" | "ceil" | "exact";

export class MoneyError extends Error {
  override readonly name = "MoneyError";
}

const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Parse a decimal string ("12", "0.55", "-3.000001") into micros.
 *
 * `rounding` says what to do with digits past the sixth: "exact" (the default) refuses them,
 * "floor"/"ceil" round toward -inf/+inf. Exponents, signs other than a leading "-", spaces,
 * empty strings, "NaN" and "Infinity" are refused with a MoneyError naming the input.
 */
export function parseMicros(text: string, rounding: Rounding = "exact"): Micros {
  if (typeof text !== "string") throw new MoneyError(`expected a decimal string, got ${typeof text}`);
  const fast = plainMicros(text);
  if (fast !== undefined) return fast;
  const m = DECIMAL_RE.exec(text);
  if (!m) throw new MoneyError(`not a decimal number: ${JSON.stringify(text.slice(0, 40))}`);
  const negative = m[1] === "-";
  const whole = m[2] ?? "0";
  const frac = m[3] ?? "";
  const kept = frac.slice(0, DECIMALS).padEnd(DECIMALS, "0");
  const dropped = frac.slice(DECIMALS);
  let value = BigInt(whole) * SCALE + BigInt(kept);
  const hasRemainder = /[1-9]/.test(dropped);
  if (hasRemainder) {
    if (rounding === "exact") {
      throw new MoneyError(`more than ${DECIMALS} decimals: ${JSON.stringify(text.slice(0, 40))}`);
    }
    // Magnitude rounding toward +inf for ceil on positives / floor on negatives.
    const awayFromZero = negative ? rounding === "floor" : rounding === "ceil";
    if (awayFromZero) value += 1n;
  }
  return negative ? -value : value;
}

const DIGIT_0 = 48;
/** 2^53: below it in magnitude, a micros count is exact as a double. */
const MAX_EXACT = 2n ** 53n;
const DOT = 46;
const MINUS = 45;

/**
 * The common case of parseMicros, without a regex, substrings or two BigInt parses: an optional
 * "-", 1 to 9 digits, then optionally "." and 1 to 6 digits; the value fits a double exactly
 * (below 10^15 micros). Anything else (longer, more decimals, malformed) is undefined and goes
 * through the general parse, which also makes every error message.
 */
function plainMicros(s: string): Micros | undefined {
  const n = s.length;
  let i = s.charCodeAt(0) === MINUS ? 1 : 0;
  const start = i;
  let whole = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) break;
    whole = whole * 10 + d;
  }
  const wholeDigits = i - start;
  if (wholeDigits === 0 || wholeDigits > 9) return undefined;
  let frac = 0;
  let fracDigits = 0;
  if (i < n) {
    if (s.charCodeAt(i) !== DOT || i + 1 === n) return undefined;
    for (i++; i < n; i++) {
      const d = s.charCodeAt(i) - DIGIT_0;
      if (d < 0 || d > 9 || fracDigits === DECIMALS) return undefined;
      frac = frac * 10 + d;
      fracDigits++;
    }
  }
  for (; fracDigits < DECIMALS; fracDigits++) frac *= 10;
  const value = BigInt(whole * 1_000_000 + frac);
  return start === 1 ? -value : value;
}

/** Like parseMicros but returns undefined instead of throwing. */
export function tryParseMicros(text: unknown, rounding: Rounding = "exact"): Micros | undefined {
  if (typeof text !== "string") return undefined;
  try {
    return parseMicros(text, rounding);
  } catch {
    return undefined;
  }
}

/**
 * Format micros as the canonical decimal string: no exponent, no trailing zeros in the
 * fraction, no fraction at all for whole numbers, "-" for negatives, "0" for zero.
 * parseMicros(formatMicros(x)) === x for every bigint x.
 */
export function formatMicros(value: Micros): string {
  // The common case in doubles (exact below 2^53 micros), without bigint division or a regex.
  if (value > -MAX_EXACT && value < MAX_EXACT) {
    const n = Number(value);
    const abs = n < 0 ? -n : n;
    const frac = abs % 1_000_000;
    let out = String((abs - frac) / 1_000_000);
    if (frac !== 0) {
      let f = String(frac).padStart(DECIMALS, "0");
      let end = f.length;
      while (f.charCodeAt(end - 1) === DIGIT_0) end--;
      if (end !== f.length) f = f.slice(0, end);
      out += "." + f;
    }
    return n < 0 ? "-" + out : out;
  }
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / SCALE;
  const frac = abs % SCALE;
  let out = whole.toString();
  if (frac !== 0n) out += "." + frac.toString().padStart(DECIMALS, "0").replace(/0+$/, "");
  return negative && abs !== 0n ? "-" + out : out;
}

/** Format with exactly `dp` decimals (rounded half away from zero), for display only. */
export function formatFixed(value: Micros, dp = 2): string {
  if (dp < 0 || dp > DECIMALS) throw new MoneyError(`dp must be 0..${DECIMALS}`);
  const step = 10n ** BigInt(DECIMALS - dp);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const rounded = ((abs + step / 2n) / step) * step;
  const whole = rounded / SCALE;
  const frac = (rounded % SCALE) / step;
  const s = dp === 0 ? whole.toString() : `${whole}.${frac.toString().padStart(dp, "0")}`;
  return negative && rounded !== 0n ? "-" + s : s;
}

/** a / b rounded in the given direction (b > 0). Exact division throws when inexact. */
export function divRound(a: bigint, b: bigint, rounding: Rounding): bigint {
  if (b <= 0n) throw new MoneyError("divisor must be positive");
  const q = a / b; // truncates toward zero
  const r = a % b;
  if (r === 0n) return q;
  if (rounding === "exact") throw new MoneyError(`inexact division ${a}/${b}`);
  if (rounding === "floor") return a < 0n ? q - 1n : q;
  return a > 0n ? q + 1n : q;
}

/** price (micros per share) x quantity (micro-shares) -> settlement micros, rounded. */
export function notional(priceMicros: Micros, qtyMicros: Micros, rounding: Rounding): Micros {
  return divRound(priceMicros * qtyMicros, SCALE, rounding);
}

export function minMicros(a: Micros, b: Micros): Micros {
  return a < b ? a : b;
}
export function maxMicros(a: Micros, b: Micros): Micros {
  return a > b ? a : b;
}
export function absMicros(a: Micros): Micros {
  return a < 0n ? -a : a;
}

/** Convert micros to a JS number for display, gauges and strategy math (never for amounts). */
export function microsToNumber(value: Micros): number {
  return Number(value) / 1e6;
}
