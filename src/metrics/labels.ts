/**
 * Label values, bounded and secret-free. Every value a metric is labelled with goes through one
 * of these guards:
 *
 * - wallet: the configured wallet NAME (an address given instead is mapped to its name); a
 *   wallet not in the config is "other". Never the address, never a key.
 * - market: a symbol-shaped value (not 0x-hex), at most `maxMarkets` at once; slots follow the
 *   markets quoted (then those holding shares) and are recycled once a market is left
 *   (market-labels.ts); past the cap or malformed: "other".
 * - code: an error code of the catalogue (src/wire/codes.ts) or one of the client's local codes
 *   (LOCAL_CODES of src/api/errors.ts: `withdrawn`, `circuit_open`, `transport_*`...);
 *   `too_many_<field>` is "too_many"; anything else is "other".
 * - status: the HTTP status as digits, "error" when no answer arrived.
 *
 * And every guard refuses a value in which the log scrubber finds a secret (a Secret value built
 * in this process, or anything shaped like an API key or a private key): "other".
 */
import { LOCAL_CODES } from "../api/errors.js";
import { redactSecrets } from "../log/redact.js";
import { TOO_MANY_PATTERN, lookupCode } from "../wire/codes.js";
import { MarketLabels, OTHER } from "./market-labels.js";

export { OTHER };

function secretFree(value: string): boolean {
  return redactSecrets(value) === value;
}

/** Symbol-shaped, and not 0x-hex: an address or a hash is never a market label. */
const MARKET_RE = /^(?!0x[0-9a-fA-F]*$)[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** First-come set of at most `cap` values matching `pattern`; the rest are "other". */
export class BoundedValues {
  private readonly seen = new Set<string>();

  constructor(
    private readonly cap: number,
    private readonly pattern: RegExp,
  ) {}

  value(raw: string | undefined): string {
    if (raw === undefined || raw === OTHER) return OTHER;
    if (this.seen.has(raw)) return raw;
    if (this.seen.size >= this.cap || !this.pattern.test(raw) || !secretFree(raw)) return OTHER;
    this.seen.add(raw);
    return raw;
  }

  get size(): number {
    return this.seen.size;
  }
}

export interface WalletLabelSource {
  name: string;
  /** 0x address; lets callers that only know the address still label by name. */
  address?: string;
}

export interface LabelGuardOptions {
  wallets: readonly WalletLabelSource[];
  /** Market labels held at once (default 200). */
  maxMarkets?: number;
  /** How long a market out of use keeps its label and gauges when no other market needs it (default 5 min). */
  marketGraceMs?: number;
  /** Time source for that grace period. */
  now?: () => number;
}

export class LabelGuard {
  private readonly walletNames = new Map<string, string>();
  /** The market label's slots (recycled once DaemonMetrics tracks the markets in use). */
  readonly markets: MarketLabels;
  private readonly buckets = new BoundedValues(64, /^[a-z0-9][a-z0-9-]{0,47}$/);

  constructor(opts: LabelGuardOptions) {
    for (const w of opts.wallets) {
      if (!secretFree(w.name)) continue;
      this.walletNames.set(w.name, w.name);
      if (w.address !== undefined) this.walletNames.set(w.address.toLowerCase(), w.name);
    }
    this.markets = new MarketLabels({
      cap: opts.maxMarkets ?? 200,
      accept: (raw) => MARKET_RE.test(raw) && secretFree(raw),
      graceMs: opts.marketGraceMs,
      now: opts.now,
    });
  }

  wallet(idOrAddress: string | undefined): string {
    if (idOrAddress === undefined) return OTHER;
    return this.walletNames.get(idOrAddress) ?? this.walletNames.get(idOrAddress.toLowerCase()) ?? OTHER;
  }

  /** Names of the configured wallets (each gets its series even before its first event). */
  walletList(): string[] {
    return [...new Set(this.walletNames.values())].sort();
  }

  /**
   * A market's label, taking a slot for it when one is free or can be freed. `counter`: a counter
   * is updated with it (false for gauges set from state).
   */
  market(symbol: string | undefined, counter = true): string {
    return this.markets.label(symbol, counter);
  }

  /** A market's label if it holds one (live or idle), else "other"; never takes a slot. */
  marketIfLabelled(symbol: string | undefined): string {
    return this.markets.peek(symbol);
  }

  /** A rate-table bucket id (ids are code constants; bounded anyway). */
  bucket(id: string | undefined): string {
    return this.buckets.value(id);
  }

  code(code: string | undefined): string {
    return codeLabel(code);
  }
}

/** The client's own codes (no platform answer behind them): a fixed set, kept as they are. */
const LOCAL_CODE_SET: ReadonlySet<string> = new Set(Object.values(LOCAL_CODES));

export function codeLabel(code: string | undefined): string {
  if (code === undefined || code === "") return OTHER;
  if (TOO_MANY_PATTERN.test(code)) return "too_many";
  return lookupCode(code) !== undefined || LOCAL_CODE_SET.has(code) ? code : OTHER;
}

export function statusLabel(status: number | undefined): string {
  if (status === undefined) return "error";
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : OTHER;
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export function methodLabel(method: string): string {
  const m = method.toUpperCase();
  return METHODS.has(m) ? m : OTHER;
}

/** One of a fixed list, else "other". */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | typeof OTHER {
  return value !== undefined && (allowed as readonly string[]).includes(value) ? (value as T) : OTHER;
}
