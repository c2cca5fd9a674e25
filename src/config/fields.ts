/**
 * zod builders for the kinds of value a config holds: interpolated text, money, prices and
 * secrets. Secrets and interpolation need the environment and the config file's directory, so
 * the builders take a LoadContext; schema.ts builds the whole schema per load.
 *
 * Messages never echo the value of a secret field, only its shape ("expected ..., received
 * string") and where it was meant to come from.
 */
import { isAbsolute, resolve } from "node:path";
import { privateKeyToAddress } from "viem/accounts";
import { z } from "zod";
import { isValidPrice } from "../core/amounts.js";
import { MoneyError, formatMicros, parseMicros, type Micros } from "../core/money.js";
import { readKeyFile, tooOpenMessage } from "./key-file.js";
import { hasReference, interpolate, secretReference, type Env } from "./interpolate.js";
import { Secret } from "../core/secret.js";
import { markMoney } from "./schema-walk.js";

export interface LoadContext {
  env: Env;
  /** Directory that relative paths (key files, scenarios) are resolved against. */
  baseDir: string;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** A string with `${VAR}` / `${VAR:-default}` expanded from the environment. */
export function textField(ctx: LoadContext): z.ZodType<string, string> {
  return z.string().transform((text, c) => {
    try {
      return interpolate(text, ctx.env);
    } catch (error) {
      c.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });
}

/** A path, interpolated, resolved against the config file's directory. */
export function pathField(ctx: LoadContext): z.ZodType<string, string> {
  return textField(ctx)
    .pipe(z.string().min(1))
    .transform((p) => (isAbsolute(p) ? p : resolve(ctx.baseDir, p)));
}

/**
 * A number that reached a money field: a whole number is exact as a double up to 2^53; anything
 * else may already have lost digits in the double, so it is refused with the hint to quote it.
 * (A YAML file's plain decimals never get here: load.ts reads them from their source text.)
 */
function numberToDecimal(n: number): string | undefined {
  return Number.isSafeInteger(n) ? String(n) : undefined;
}

export interface MoneyOptions {
  /** Smallest allowed value in micros (inclusive). Default 0. */
  min?: Micros;
  /** Refuse zero (on top of `min`). */
  positive?: boolean;
}

/**
 * A money or quantity amount: a decimal string ("12.5") with at most six decimals, parsed into
 * bigint micros by src/core/money.ts. In a YAML file a plain number (12.5) is read from its source
 * text (load.ts), so it is exact too; a float that did not come from source text is refused
 * unless it is a whole number.
 */
export function moneyField(options: MoneyOptions = {}): z.ZodType<Micros, unknown> {
  const min = options.min ?? 0n;
  return markMoney(z.unknown().transform((value, c) => {
    let text: string | undefined;
    if (typeof value === "string") text = value.trim();
    else if (typeof value === "number") {
      text = numberToDecimal(value);
      if (text === undefined) {
        c.addIssue({ code: "custom", message: `money is never read from a float: write the amount as a quoted decimal string such as "12.5"` });
        return z.NEVER;
      }
    } else {
      c.addIssue({
        code: "custom",
        message: `expected a decimal amount such as "12.5", received ${describeType(value)}`,
      });
      return z.NEVER;
    }
    let micros: Micros;
    try {
      micros = parseMicros(text);
    } catch (error) {
      c.addIssue({ code: "custom", message: error instanceof MoneyError ? error.message : String(error) });
      return z.NEVER;
    }
    if (micros < min || (options.positive && micros === 0n)) {
      const bound = options.positive && min <= 0n ? "> 0" : `>= ${formatMicros(min)}`;
      c.addIssue({ code: "custom", message: `must be ${bound}` });
      return z.NEVER;
    }
    return micros;
  }));
}

/** A price on the platform grid (a multiple of 0.001 in [0.001, 0.999]). */
export function priceField(): z.ZodType<Micros, unknown> {
  return markMoney(moneyField().transform((micros, c) => {
    if (!isValidPrice(micros)) {
      c.addIssue({ code: "custom", message: "expected a price that is a multiple of 0.001 in [0.001, 0.999]" });
      return z.NEVER;
    }
    return micros;
  }));
}

export type SecretKind = "apiKey" | "privateKey" | "token";

const API_KEY_RE = /^[A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9]+$/;
const PRIVATE_KEY_RE = /^(0x)?[0-9a-fA-F]{64}$/;
const MIN_TOKEN_LENGTH = 16;

const SECRET_HINT = 'use an environment variable reference such as "${MM_SECRET}" or { file: path/to/keyfile }';

/** Check the shape of a resolved secret; returns the normalized value or an error (no value in it). */
function checkSecret(kind: SecretKind, raw: string): { value: string } | { error: string } {
  switch (kind) {
    case "apiKey":
      return API_KEY_RE.test(raw)
        ? { value: raw }
        : { error: "is not an API key of the form <prefix>_<env>_<keyId>_<secret>" };
    case "privateKey": {
      if (!PRIVATE_KEY_RE.test(raw)) return { error: "is not a 32-byte hex private key (0x + 64 hex digits)" };
      const value = (raw.startsWith("0x") ? raw : `0x${raw}`).toLowerCase();
      try {
        privateKeyToAddress(value as `0x${string}`);
      } catch {
        return { error: "is not a valid secp256k1 private key" };
      }
      return { value };
    }
    case "token":
      return raw.length >= MIN_TOKEN_LENGTH
        ? { value: raw }
        : { error: `is too short (a token needs at least ${MIN_TOKEN_LENGTH} characters)` };
  }
}

const FileRefSchema = z.strictObject({ file: z.string().min(1) });

/**
 * A secret: exactly `"${ENV_VAR}"` or `{ file: path }` (path relative to the config file; the
 * file's content with surrounding whitespace trimmed; a file open to group or others is refused,
 * see src/signing/key-file.ts). A literal value is refused.
 */
export function secretField(ctx: LoadContext, kind: SecretKind): z.ZodType<Secret, unknown> {
  return z.unknown().transform((value, c) => {
    const fail = (message: string): never => {
      c.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    let raw: string;
    let origin: string;
    if (value === undefined) return fail(`required: ${SECRET_HINT}`);
    if (typeof value === "string") {
      const name = secretReference(value);
      if (name === undefined) {
        return fail(
          hasReference(value)
            ? `a secret must be exactly one "\${ENV_VAR}" reference, without default or surrounding text`
            : `a literal secret is not allowed in a config file: ${SECRET_HINT}`,
        );
      }
      const fromEnv = ctx.env[name];
      if (fromEnv === undefined || fromEnv.trim() === "") {
        return fail(`environment variable ${name} is ${fromEnv === undefined ? "not set" : "empty"}`);
      }
      raw = fromEnv.trim();
      origin = `env ${name}`;
    } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const ref = FileRefSchema.safeParse(value);
      if (!ref.success) return fail(`expected { file: path }: ${SECRET_HINT}`);
      let path: string;
      try {
        path = interpolate(ref.data.file, ctx.env);
      } catch (error) {
        return fail((error as Error).message);
      }
      const full = isAbsolute(path) ? path : resolve(ctx.baseDir, path);
      const read = readKeyFile(full);
      if (!read.ok) {
        return fail(read.problem === "too_open" ? tooOpenMessage(path, full, read.mode) : `cannot read key file ${path}: ${read.code}`);
      }
      raw = read.content.trim();
      if (raw === "") return fail(`key file ${path} is empty`);
      origin = `file ${path}`;
    } else {
      return fail(`expected "\${ENV_VAR}" or { file: path }, received ${describeType(value)}`);
    }
    const checked = checkSecret(kind, raw);
    if ("error" in checked) return fail(`the value from ${origin} ${checked.error}`);
    return new Secret(checked.value, origin);
  });
}
