/**
 * Pre-signed orders: the EIP-712 signature is the largest cost between a book update and the
 * place request (about 0.15 ms per order with libsecp256k1 in WebAssembly, bench/signing). Between events the engine signs,
 * for each quote it rests, the same quote one to three ticks either side; when the book moves a few
 * ticks, the replacement is already signed and goes out without signing on the hot path.
 *
 * Each pre-signed order is used at most once (its salt is unique), and one that is never used is
 * simply dropped: nothing signed ever reaches the platform unless it is placed. Only GTC orders are
 * pre-signed (a GTD order signs an expiration that depends on the send time).
 */
import { PRICE_TICK, isValidPrice, type Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { BuiltOrder, Hex } from "../../signing/index.js";
import type { DesiredQuote, MarketPhase } from "../quote/quotes.js";

export interface PresignKey {
  marketId: string;
  outcome: number;
  side: Side;
  price: Micros;
  size: Micros;
  postOnly: boolean;
}

export interface Presigned {
  built: BuiltOrder;
  signature: Hex;
}

const keyOf = (k: PresignKey): string => `${k.marketId}|${k.outcome}|${k.side}|${k.price}|${k.size}|${k.postOnly ? 1 : 0}`;

/** Neighbour prices pre-signed around each resting quote. */
export const PRESIGN_OFFSETS: readonly bigint[] = [-3n, -2n, -1n, 1n, 2n, 3n];

export class PresignCache {
  private readonly entries = new Map<string, { market: string; value: Presigned }>();
  private wanted: PresignKey[] = [];
  readonly counters = { hits: 0, misses: 0, signed: 0, dropped: 0 };

  constructor(readonly maxEntries = 256) {}

  /** A pre-signed order for exactly this quote, removed from the cache; undefined on a miss. */
  take(k: PresignKey): Presigned | undefined {
    const id = keyOf(k);
    const e = this.entries.get(id);
    if (e === undefined) {
      this.counters.misses += 1;
      return undefined;
    }
    this.entries.delete(id);
    this.counters.hits += 1;
    return e.value;
  }

  /**
   * The quotes of `marketId` now resting: replace that market's wish list by their neighbours
   * (entries no longer wanted are dropped).
   */
  plan(marketId: string, quotes: readonly Omit<PresignKey, "marketId">[]): void {
    const want = new Map<string, PresignKey>();
    for (const q of quotes) {
      for (const d of PRESIGN_OFFSETS) {
        const price = q.price + d * PRICE_TICK;
        if (!isValidPrice(price)) continue;
        const k = { ...q, marketId, price };
        want.set(keyOf(k), k);
      }
    }
    for (const [id, e] of this.entries) {
      if (e.market === marketId && !want.has(id)) {
        this.entries.delete(id);
        this.counters.dropped += 1;
      }
    }
    this.wanted = [...this.wanted.filter((k) => k.marketId !== marketId), ...[...want.values()].filter((k) => !this.entries.has(keyOf(k)))];
  }

  /** The next quote to sign, or undefined when everything wanted is signed (or the cache is full). */
  nextWanted(): PresignKey | undefined {
    while (this.wanted.length > 0) {
      const k = this.wanted.shift()!;
      if (!this.entries.has(keyOf(k)) && this.entries.size < this.maxEntries) return k;
    }
    return undefined;
  }

  put(k: PresignKey, value: Presigned): void {
    if (this.entries.size >= this.maxEntries) return;
    this.entries.set(keyOf(k), { market: k.marketId, value });
    this.counters.signed += 1;
  }

  /** Forget a market (deselected, pulled) or everything. */
  clear(marketId?: string): void {
    for (const [id, e] of this.entries) if (marketId === undefined || e.market === marketId) this.entries.delete(id);
    this.wanted = marketId === undefined ? [] : this.wanted.filter((k) => k.marketId !== marketId);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Keeps the cache warm from idle time: one signature per clock turn, never while a quote cycle
 * runs (`busy`), so a cycle that becomes due never waits behind a queue of signatures.
 */
export class PresignWarmer {
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(
    readonly cache: PresignCache,
    private readonly clock: Clock,
    /** Sign the next wanted order; false when nothing was left to sign. */
    private readonly signNext: () => boolean,
    /** A quote cycle is running: wait for `idle` instead of signing. */
    private readonly busy: () => boolean,
    private readonly idle: () => Promise<void>,
  ) {}

  /** The quotes now wanted on a market (in a quoting phase), or a pull (anything else). */
  plan(marketId: string, phase: MarketPhase, desired: readonly DesiredQuote[]): void {
    if (phase !== "open" && phase !== "pre_market") {
      this.cache.clear(marketId);
      return;
    }
    // The top of the ladder is what moves with the book; deeper levels are left to the hot path.
    const top = desired.filter((q) => (q.level ?? 0) === 0);
    this.cache.plan(marketId, top.map((q) => ({ outcome: q.outcome, side: q.side, price: q.price, size: q.size, postOnly: q.postOnly })));
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer === undefined && !this.stopped) this.timer = this.clock.setTimeout(() => this.step(), 0);
  }

  private step(): void {
    this.timer = undefined;
    if (this.stopped) return;
    if (this.busy()) {
      // Never spin on a zero-delay timer (it would starve a virtual clock): resume when idle.
      void this.idle().then(() => this.schedule());
      return;
    }
    if (this.signNext()) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.cache.clear();
  }
}
