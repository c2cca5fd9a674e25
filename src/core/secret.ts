/**
 * A resolved secret (API key, wallet private key, admin token).
 *
 * The raw value lives in an ES private field, so JSON.stringify, util.inspect, template strings,
 * Object.keys, structuredClone and pino all see `[REDACTED]` or nothing: a config object can be
 * logged whole without leaking. The only way to the value is an explicit `.reveal()`, which is
 * easy to grep for.
 *
 * Every secret built here is also remembered (value only, in-process) so that the log scrubber
 * (src/log/redact.ts) can blank it out of any text, even after someone revealed it into an error
 * message by mistake.
 */
import { inspect } from "node:util";

export const REDACTED = "[REDACTED]";

/** Shorter values would make the scrubber blank out innocent text; real secrets are longer. */
const MIN_REMEMBERED_LENGTH = 8;
const remembered = new Set<string>();

export class Secret {
  readonly #value: string;
  /** Where the value came from (`env MM_API_KEY`, `file keys/a.key`, `derived`): safe to print. */
  readonly #origin: string;

  constructor(value: string, origin = "inline") {
    this.#value = value;
    this.#origin = origin;
    if (value.length >= MIN_REMEMBERED_LENGTH) remembered.add(value);
  }

  /** The raw value. Call only where the secret is used (a request header, a signer). */
  reveal(): string {
    return this.#value;
  }

  /** Where the value came from, for messages (`env MM_API_KEY`): never the value. */
  get origin(): string {
    return this.#origin;
  }

  /** Constant-shape comparison helper for tests and key rotation checks. */
  equals(other: Secret): boolean {
    return this.#value === other.#value;
  }

  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [Symbol.toPrimitive](): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}

/** Every secret value built in this process (for the log scrubber). */
export function rememberedSecretValues(): ReadonlySet<string> {
  return remembered;
}
