/**
 * Scalar wire types shared by every resource: decimal strings, uint256 strings, addresses,
 * timestamps, ids, and the two enum flavours (closed and open).
 *
 * Amounts stay strings in the schemas (input type = output type) so the simulator can build
 * bodies from the same types the client parses; callers convert with parseMicros at the edge.
 */
import { z } from "zod";
import { tryParseMicros } from "../core/money.js";

const DECIMAL_RE = /^-?\d+(?:\.\d+)?$/;
const UINT_RE = /^(?:0|[1-9]\d*)$/;
const MAX_UINT256 = (1n << 256n) - 1n;

/** Any decimal number written as a string ("-1.5", "0.3333333333"); computed values such as chances or pnl. */
export const decimalString = z.string().regex(DECIMAL_RE, { error: 'expected a decimal string such as "0.55"' });

/**
 * A micros string refined by `accept`: first the money.ts parse rules (exact mode, at most 6
 * significant decimals: every amount the platform moves has 6 decimals, spec 2.1), then the
 * range check, so a bad value gets exactly one message.
 */
export function micros(accept: (v: bigint) => boolean, rangeMessage: string) {
  return z.string().superRefine((s, ctx) => {
    const v = tryParseMicros(s, "exact");
    if (v === undefined) {
      ctx.addIssue({ code: "custom", message: 'expected a decimal string with at most 6 decimals, such as "12.5"' });
    } else if (!accept(v)) {
      ctx.addIssue({ code: "custom", message: rangeMessage });
    }
  });
}

/** Any micros amount, sign allowed. */
export const microsString = micros(() => true, "");

/** Non-negative micros amount (quantities, fees, balances). */
export const amountString = micros((v) => v >= 0n, "expected a non-negative amount");

/** Strictly positive micros amount. */
export const positiveAmountString = micros((v) => v > 0n, "expected an amount greater than 0");

/** A price in [0, 1] (response rows; request bodies add the 0.001 grid, see requests.ts). */
export const priceString = micros((v) => v >= 0n && v <= 1_000_000n, "expected a price between 0 and 1");

/** Within uint256, for a string that is already an unsigned decimal integer. */
const fitsUint256 = (s: string): boolean => s.length <= 78 && BigInt(s) <= MAX_UINT256;

/** uint256 as a decimal string without leading zeros (token ids, salts, signed amounts). */
export const uint256String = z
  .string()
  .regex(UINT_RE, { error: "expected an unsigned integer as a decimal string" })
  .refine((s) => !UINT_RE.test(s) || fitsUint256(s), { error: "exceeds uint256" });

/** What uint256String accepts, as a predicate (quick checks, quick.ts). */
export function isUint256String(v: unknown): v is string {
  return typeof v === "string" && UINT_RE.test(v) && fitsUint256(v);
}

/** 0x + 40 hex digits, either case (spec 2.1: compare case-insensitively). */
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
export const address = z.string().regex(ADDRESS_RE, { error: "expected a 0x-prefixed 20-byte hex address" });

/** 0x + whole bytes of hex (signatures, tx hashes). */
export const HEX_BYTES_RE = /^0x(?:[0-9a-fA-F]{2})+$/;
export const hexString = z.string().regex(HEX_BYTES_RE, { error: "expected 0x-prefixed hex bytes" });

/** 0x + 32 bytes (condition ids, question ids, order hashes, tx hashes). */
export const bytes32Hex = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: "expected 0x-prefixed 32-byte hex" });

/** ISO-8601 date-time; `Z` or an explicit offset (the spec says UTC but does not fix the suffix). */
export const isoDateTime = z.iso.datetime({ offset: true, error: "expected an ISO-8601 date-time" });

/**
 * 8-4-4-4-12 hex id. zod's `z.uuid()` also checks the RFC version/variant nibbles; the spec only
 * says "uuid", so any well-formed id is accepted rather than failing a whole page on one row.
 */
export const uuid = z.guid({ error: "expected a uuid" });

export const int = z.number().int({ error: "expected an integer" });
export const nonNegativeInt = int.min(0, { error: "expected an integer >= 0" });

/** Millisecond epoch stamped by the server (`serverTs`, spec 6). */
export const epochMillis = nonNegativeInt;

/** Opaque paging cursor; null on the last page. */
export const nextCursor = z.string().nullable();

/**
 * Open vocabulary (spec 2.7 "clients must tolerate new values"): the known values type the
 * field for completion, but any string parses. Use `isKnown` to branch safely.
 */
export type OpenEnum<T extends string> = T | (string & {});
export function openEnum<const T extends readonly [string, ...string[]]>(
  _known: T,
): z.ZodType<OpenEnum<T[number]>, string> {
  return z.string();
}

export function isKnown<const T extends readonly string[]>(known: T, value: string): value is T[number] {
  return (known as readonly string[]).includes(value);
}

/** Closed enum matched case-insensitively and normalised to the listed spelling (query strings). */
export function caseInsensitiveEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const byLower = new Map<string, T[number]>(values.map((v) => [v.toLowerCase(), v]));
  return z
    .string()
    .transform((s, ctx) => {
      const hit = byLower.get(s.toLowerCase());
      if (hit === undefined) {
        ctx.issues.push({ code: "custom", input: s, message: `expected one of ${values.join(", ")} (any case)` });
        return z.NEVER;
      }
      return hit;
    });
}
