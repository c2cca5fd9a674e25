/**
 * Value-level secret scrubbing, for any text that may leave the process: log lines, error
 * messages, stack traces, CLI output.
 *
 * Three nets, each catching what the others miss:
 *  - shape: anything that looks like a partner API key (`<prefix>_<env>_<keyId>_<secret>`, spec
 *    5.1; each part [A-Za-z0-9]+ per docs/spec-gaps.md; the secret part 16+ characters so error
 *    codes such as `api_key_bad_format` survive), a `?key=`/`&key=` URL parameter (the WS
 *    gateway's browser form), or a 32-byte hex string (a private key);
 *  - memory: every Secret built in this process (src/core/secret.ts), whatever its shape;
 *  - key names (redactKeys): values under keys such as apiKey, privateKey, *Secret, token.
 *
 * A 32-byte hex string is also the shape of order hashes and transaction hashes. `redactSecrets`
 * blanks them all; the logger's line scrubber keeps the 0x-prefixed value of a JSON key named
 * `hash`, `*Hash` or `*Id` (orderHash, txHash, conditionId, questionId), since those are what
 * operators search logs for.
 */
import { REDACTED, isSecret, rememberedSecretValues } from "../core/secret.js";

export { REDACTED };

const API_KEY = String.raw`(?<![A-Za-z0-9])[A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9]{16,}(?![A-Za-z0-9])`;
const URL_KEY_PARAM = String.raw`(?<=[?&](?:key|apiKey|api_key|token)=)[^&#\s"'<>]+`;
const HEX32 = String.raw`(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])`;

const SHAPES_RE = new RegExp(`${API_KEY}|${URL_KEY_PARAM}|${HEX32}`, "g");
/** In a JSON line: `"orderHash":"0x…"`, `"conditionId":"0x…"` are kept, other 32-byte hex blanked. */
const JSON_HASH_FIELD = String.raw`"(?:hash|[A-Za-z0-9_]*Hash|[A-Za-z0-9_]*Id)":"0x[0-9a-fA-F]{64}"`;
const LINE_RE = new RegExp(`${JSON_HASH_FIELD}|${API_KEY}|${URL_KEY_PARAM}|${HEX32}`, "g");

function scrubRemembered(text: string): string {
  let out = text;
  for (const value of rememberedSecretValues()) {
    if (out.includes(value)) out = out.split(value).join(REDACTED);
  }
  return out;
}

/** Replace anything shaped like a secret, and every known secret value, with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return scrubRemembered(text).replace(SHAPES_RE, REDACTED);
}

/** The logger's pass over one serialized JSON line (keeps `*Hash` / `*Id` fields, see the header). */
export function redactLogLine(line: string): string {
  return scrubRemembered(line).replace(LINE_RE, (match) => (match.startsWith('"') ? match : REDACTED));
}

/** Key names whose values are secrets whatever they look like. */
const SECRET_KEY_RE =
  /^(x-api-key|api[-_]?key|private[-_]?key|[a-z0-9_-]*private[-_]?key|secret|[a-z0-9_-]*secret|token|(auth|access|admin|bearer|refresh|session|api)[-_]?token|password|[a-z0-9_-]*password|passphrase|mnemonic|authorization|cookie|set-cookie)$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY_RE.test(key);
}

const MAX_DEPTH = 10;

/** Left for their serializers: errors (pino's err serializer) and values with their own toJSON. */
function keepAsIs(value: object): boolean {
  return value instanceof Error || typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/**
 * A copy of `value` with every secret-named key's value, and every Secret, replaced by
 * `[REDACTED]`; bigints as decimal strings. Objects are walked to depth 10 (deeper: "[Truncated]",
 * cycles: "[Circular]") through their own enumerable keys, exactly what JSON.stringify would
 * write; Errors and objects with a toJSON are left to their serializers, whose output the line
 * scrubber still sees.
 */
export function redactKeys(value: unknown, depth = 0, ancestors = new Set<object>()): unknown {
  if (isSecret(value)) return REDACTED;
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  if (keepAsIs(value)) return value;
  // Cut cycles and very deep values rather than pass them on unredacted. A shared, non-cyclic
  // object is redacted at every place it appears.
  if (ancestors.has(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return "[Truncated]";
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => redactKeys(v, depth + 1, ancestors));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isSecretKey(k) && v !== undefined && v !== null ? REDACTED : redactKeys(v, depth + 1, ancestors);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
