/**
 * Pre-signed orders: the EIP-712 signature is the largest cost between a book update and the
 * place request (about 0.15 ms per order with libsecp256k1 in WebAssembly, bench/signing). Between
 * events the engine signs orders it is likely to place next; when the book moves, the replacement
 * is often already signed and goes out without signing on the hot path.
 *
 * What to sign. A pre-signed order saves latency only if it is placed, and one thrown away costs a
 * signature for nothing, so the cache signs what is likely to be placed, as much as it pays:
 *  - where: at the offsets (ticks from a desired quote's price) where this wallet's placements
 *    have actually gone. Every `take` (an order about to be placed, hit or miss) is counted at its
 *    offset from the nearest quote desired (at the last plan) on its market, outcome and side; the
 *    counts decay (about 200 placements) so the cache follows the markets, and a placement further
 *    than 20 ticks counts but is never signed for. Signed: the offsets that took at least 10% of
 *    the placements, most frequent first, at most 6. The same price (offset 0) is often among them:
 *    a filled order is placed again where it was. Until 32 placements are seen it signs ±1..3
 *    ticks around the closest quote of each outcome and side;
 *  - how many: at most 12 orders per market (most frequent offsets first, closest levels first). A
 *    signed order no longer wanted is kept while there is room and it is within a tick past those
 *    offsets of a desired quote (the nearest first): books move back and forth;
 *  - how fast: each placement adds a quarter of a signature to a budget (16 to start, 48 at
 *    most), plus up to 5 more by the share of recent pre-signed orders that were placed. A wallet
 *    whose pre-signed orders are placed (half of them, say) signs ahead about 2.75 per placement;
 *    one whose orders are mostly thrown away (a book that jumps, fills at random prices: 10% used)
 *    signs about 0.75 per placement, so under load pre-signing costs little. When the budget is
 *    spent, the wishes wait for the next placements.
 *
 * Each pre-signed order is used at most once (its salt is unique), and one that is never used is
 * simply dropped: nothing signed ever reaches the platform unless it is placed. Only GTC orders are
 * pre-signed (a GTD order signs an expiration that depends on the send time). `counters`: hits
 * (placements served), misses, signed, dropped (signed, no longer wanted), cleared (signed, market
 * pulled), starved (the warmer stopped with wishes left for lack of budget).
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
const slotOf = (outcome: number, side: Side): string => `${outcome}|${side}`;

/** Neighbour prices pre-signed around each desired quote until placements have been seen. */
export const PRESIGN_OFFSETS: readonly bigint[] = [-3n, -2n, -1n, 1n, 2n, 3n];

export interface PresignPolicy {
  /** Placements to see before the offsets are learnt (PRESIGN_OFFSETS until then). */
  learnAfter: number;
  /** Each placement multiplies the older counts by this. */
  decay: number;
  /** Offsets signed: those that took at least this share of the placements seen... */
  minShare: number;
  /** ...at most this many, the most frequent. */
  maxOffsets: number;
  /** Placements further than this (ticks) count, but are never signed for. */
  maxOffsetTicks: number;
  /** Orders wanted per market. */
  perMarket: number;
  /** Signature budget: at the start; per placement, plus this much more times the share of recent signatures used; at most. */
  budgetStart: number;
  budgetPerPlace: number;
  budgetPerPlaceUsed: number;
  budgetMax: number;
}

export const DEFAULT_PRESIGN_POLICY: PresignPolicy = {
  learnAfter: 32,
  decay: 0.995,
  minShare: 0.1,
  maxOffsets: 6,
  maxOffsetTicks: 20,
  perMarket: 12,
  budgetStart: 16,
  budgetPerPlace: 0.25,
  budgetPerPlaceUsed: 5,
  budgetMax: 48,
};

type Quote = Omit<PresignKey, "marketId">;
const FAR = "far";
/** Memory of the used share: about a hundred signatures. */
const USED_DECAY = 0.99;

type Entry = { key: PresignKey; value: Presigned };

export class PresignCache {
  /** Signed orders by market, then key. */
  private readonly entries = new Map<string, Map<string, Entry>>();
  private entryCount = 0;
  /** Orders to sign, by market, markets in the order they were last planned. */
  private readonly wanted = new Map<string, PresignKey[]>();
  /**
   * The quotes desired now, per market (what placements are measured from), the offsets planned
   * with, and whether nothing was taken since (a plan of the same quotes then changes nothing).
   */
  private readonly planned = new Map<string, { quotes: readonly Quote[]; offsets: readonly bigint[] | undefined; untouched: boolean }>();
  /** Decayed count of placements per offset (ticks); FAR: further than maxOffsetTicks. */
  private readonly offsetWeights = new Map<bigint | typeof FAR, number>();
  private placementsSeen = 0;
  /** offsets() until the next placement is counted (null: to compute). */
  private offsetsNow: bigint[] | undefined | null = null;
  private budget: number;
  /** Recent signatures and how many of them were used (decayed): the share sets the budget. */
  private signedW = 2;
  private usedW = 1;
  private readonly policy: PresignPolicy;
  readonly counters = { hits: 0, misses: 0, signed: 0, dropped: 0, cleared: 0, starved: 0 };

  constructor(
    readonly maxEntries = 256,
    policy: Partial<PresignPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_PRESIGN_POLICY, ...policy };
    this.budget = this.policy.budgetStart;
  }

  /** A pre-signed order for exactly this quote, removed from the cache; undefined on a miss. */
  take(k: PresignKey): Presigned | undefined {
    this.learn(k);
    const market = this.entries.get(k.marketId);
    const id = keyOf(k);
    const e = market?.get(id);
    if (e === undefined) this.counters.misses += 1;
    else {
      market!.delete(id);
      this.entryCount -= 1;
      const planned = this.planned.get(k.marketId);
      if (planned !== undefined) planned.untouched = false;
      this.counters.hits += 1;
      this.usedW += 1;
    }
    const p = this.policy;
    this.budget = Math.min(p.budgetMax, this.budget + p.budgetPerPlace + p.budgetPerPlaceUsed * Math.min(1, this.usedW / this.signedW));
    return e?.value;
  }

  /**
   * The quotes now desired on `marketId`, closest levels first: replace that market's wish list.
   * Signed entries no longer wanted stay while there is room and they are within a tick past the
   * offsets signed of a desired quote (the nearest first: books move back and forth); the rest
   * are dropped. The same quotes planned again with the same offsets, nothing taken since, change nothing.
   */
  plan(marketId: string, quotes: readonly Quote[]): void {
    const offsets = this.offsets();
    const last = this.planned.get(marketId);
    if (last?.untouched === true && sameOffsets(last.offsets, offsets) && sameQuotes(last.quotes, quotes)) return;
    if (quotes.length === 0) this.planned.delete(marketId);
    else this.planned.set(marketId, { quotes, offsets, untouched: true });
    let reach = 1n;
    for (const d of offsets ?? PRESIGN_OFFSETS) if (abs(d) + 1n > reach) reach = abs(d) + 1n;
    const want = new Map<string, PresignKey>();
    const add = (q: Quote, d: bigint): void => {
      const price = q.price + d * PRICE_TICK;
      if (!isValidPrice(price)) return;
      const k = { ...q, marketId, price };
      want.set(keyOf(k), k);
    };
    if (offsets === undefined) {
      // The prior: the neighbours of the closest quote of each outcome and side (the first given).
      const seen = new Set<string>();
      for (const q of quotes) {
        const s = slotOf(q.outcome, q.side);
        if (seen.has(s)) continue;
        seen.add(s);
        for (const d of PRESIGN_OFFSETS) add(q, d);
      }
    } else {
      for (const d of offsets) for (const q of quotes) if (want.size < this.policy.perMarket) add(q, d);
    }
    const signed = this.entries.get(marketId);
    if (signed !== undefined) {
      const spare: { id: string; distance: bigint }[] = [];
      for (const [id, e] of signed) if (!want.has(id)) spare.push({ id, distance: distanceTo(e.key, quotes) });
      spare.sort((a, b) => (a.distance < b.distance ? -1 : a.distance > b.distance ? 1 : 0));
      const room = Math.max(0, this.policy.perMarket - want.size);
      for (const [i, x] of spare.entries()) {
        if (i < room && x.distance <= reach) continue;
        signed.delete(x.id);
        this.entryCount -= 1;
        this.counters.dropped += 1;
      }
    }
    this.wanted.delete(marketId);
    const todo = [...want].filter(([id]) => signed?.has(id) !== true).map(([, k]) => k);
    if (todo.length > 0) this.wanted.set(marketId, todo);
  }

  /**
   * The offsets to sign, most frequent first; undefined until enough placements are seen (the
   * prior, PRESIGN_OFFSETS, applies).
   */
  offsets(): bigint[] | undefined {
    if (this.offsetsNow !== null) return this.offsetsNow;
    const p = this.policy;
    if (this.placementsSeen < p.learnAfter) return (this.offsetsNow = undefined);
    let total = 0;
    for (const w of this.offsetWeights.values()) total += w;
    const ranked: [bigint, number][] = [];
    for (const [d, w] of this.offsetWeights) if (d !== FAR && w >= p.minShare * total) ranked.push([d, w]);
    ranked.sort((a, b) => b[1] - a[1] || Number(abs(a[0]) - abs(b[0])) || Number(a[0] - b[0]));
    return (this.offsetsNow = ranked.slice(0, p.maxOffsets).map(([d]) => d));
  }

  /** The next quote to sign, or undefined when everything wanted is signed, the cache is full or the budget spent. */
  nextWanted(): PresignKey | undefined {
    for (const [market, list] of this.wanted) {
      while (list.length > 0) {
        const k = list[0]!;
        if (this.entries.get(market)?.has(keyOf(k)) === true || this.entryCount >= this.maxEntries) {
          list.shift();
          continue;
        }
        if (this.budget < 1) {
          this.counters.starved += 1;
          return undefined;
        }
        list.shift();
        this.budget -= 1;
        return k;
      }
      this.wanted.delete(market);
    }
    return undefined;
  }

  put(k: PresignKey, value: Presigned): void {
    if (this.entryCount >= this.maxEntries) return;
    let market = this.entries.get(k.marketId);
    if (market === undefined) this.entries.set(k.marketId, (market = new Map<string, Entry>()));
    const id = keyOf(k);
    if (!market.has(id)) this.entryCount += 1;
    market.set(id, { key: k, value });
    this.counters.signed += 1;
    this.signedW = this.signedW * USED_DECAY + 1;
    this.usedW *= USED_DECAY;
  }

  /** Forget a market (deselected, pulled) or everything. */
  clear(marketId?: string): void {
    for (const [market, signed] of this.entries) {
      if (marketId !== undefined && market !== marketId) continue;
      this.counters.cleared += signed.size;
      this.entryCount -= signed.size;
      this.entries.delete(market);
    }
    if (marketId === undefined) {
      this.wanted.clear();
      this.planned.clear();
    } else {
      this.wanted.delete(marketId);
      this.planned.delete(marketId);
    }
  }

  get size(): number {
    return this.entryCount;
  }

  /** Count a placement at its offset from the nearest desired quote of its market, outcome and side. */
  private learn(k: PresignKey): void {
    let best: bigint | undefined;
    for (const q of this.planned.get(k.marketId)?.quotes ?? []) {
      if (q.outcome !== k.outcome || q.side !== k.side) continue;
      const d = (k.price - q.price) / PRICE_TICK;
      if (best === undefined || abs(d) < abs(best)) best = d;
    }
    if (best === undefined) return;
    const at = abs(best) > BigInt(this.policy.maxOffsetTicks) ? FAR : best;
    for (const [d, w] of this.offsetWeights) this.offsetWeights.set(d, w * this.policy.decay);
    this.offsetWeights.set(at, (this.offsetWeights.get(at) ?? 0) + 1);
    this.placementsSeen += 1;
    this.offsetsNow = null;
  }
}

function sameOffsets(a: readonly bigint[] | undefined, b: readonly bigint[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return a.every((d, i) => d === b[i]);
}

function sameQuotes(a: readonly Quote[], b: readonly Quote[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((q, i) => {
    const r = b[i]!;
    return q.outcome === r.outcome && q.side === r.side && q.price === r.price && q.size === r.size && q.postOnly === r.postOnly;
  });
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Ticks from a signed order to the nearest desired quote it could serve (same slot, size, postOnly). */
function distanceTo(k: PresignKey, quotes: readonly Quote[]): bigint {
  let best = BigInt(Number.MAX_SAFE_INTEGER);
  for (const q of quotes) {
    if (q.outcome !== k.outcome || q.side !== k.side || q.size !== k.size || q.postOnly !== k.postOnly) continue;
    const d = abs(k.price - q.price) / PRICE_TICK;
    if (d < best) best = d;
  }
  return best;
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
    // Closest levels first: the cache keeps the first ones when a market wants more than its share.
    const byLevel = [...desired].sort((a, b) => (a.level ?? 0) - (b.level ?? 0));
    this.cache.plan(marketId, byLevel.map((q) => ({ outcome: q.outcome, side: q.side, price: q.price, size: q.size, postOnly: q.postOnly })));
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
