/**
 * Market data behind one interface, so a WebSocket market feed can replace the REST poller later
 * without touching the engine.
 *
 * RestBookPoller: `GET /api/markets/{symbol}/orderbook?outcome=N` for every tracked (market,
 * outcome), one request at a time, round-robin. The order-book row of spec 8.2 is an IP bucket
 * (600/60 s) shared with the markets list and detail, so the poller takes a share of it
 * (`budgetPerMin`) and spreads that share evenly over the books: one request every
 * max(60 s / budgetPerMin, minBookIntervalMs / books). With a rate gate it also skips a turn when the
 * bucket has no room, rather than queueing behind other readers (the schedule: round-robin.ts).
 *
 * Staleness: a book not refreshed for `staleAfterMs` (or never read that long after being tracked)
 * is stale; listeners hear it once when it goes stale and again (as an update) when it recovers.
 * Updates are emitted only when the book changed, or on the first read, or on recovery.
 */
import type { MarketsApi } from "../../api/index.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import { RoundRobin } from "./round-robin.js";
import { parseMicros } from "../../core/money.js";
import type { Logger } from "../../log/index.js";
import type { Orderbook } from "../../wire/index.js";
import type { BookLevel, BookView } from "../quote/quotes.js";

export interface BookSnapshot {
  symbol: string;
  outcome: number;
  view: BookView;
  /** Local clock time of the read. */
  fetchedAtMs: number;
  /** The engine sequence number taken just before the request left (see EventSeq). */
  sentSeq: number;
}

/**
 * One counter shared by the book source and the wallets: an order that rested before a book
 * request was sent is in that book; one that ended before it is not. Sequence numbers order these
 * events exactly, where timestamps tie (virtual time) or drift (clocks).
 */
export class EventSeq {
  private n = 0;
  next(): number {
    return ++this.n;
  }
}

export type BookListener = (symbol: string, outcome: number, snap: BookSnapshot) => void;
export type StaleListener = (symbol: string, outcome: number) => void;

export interface MarketDataSource {
  /** Start following these outcomes' books of a market (replaces the previous set). */
  track(symbol: string, outcomes: readonly number[]): void;
  untrack(symbol: string): void;
  book(symbol: string, outcome: number): BookSnapshot | undefined;
  /** ms since the book was read; undefined when never read. */
  ageMs(symbol: string, outcome: number): number | undefined;
  isStale(symbol: string, outcome: number): boolean;
  onUpdate(listener: BookListener): () => void;
  onStale(listener: StaleListener): () => void;
  start(): void;
  stop(): void;
}

export interface RestPollerOptions {
  markets: Pick<MarketsApi, "orderbook">;
  clock: Clock;
  log: Logger;
  /** Requests per minute this poller may make (its share of the 600/60 s IP bucket). */
  budgetPerMin: number;
  /** Never read one book more often than this. */
  minBookIntervalMs: number;
  staleAfterMs: number;
  /** Room left in the orderbook bucket now (a RateGate's remainingFor); absent: always room. */
  room?: () => number;
  /** Period of the staleness check. Default 1 s. */
  staleCheckMs?: number;
  /** Shared with the wallets (own orders are taken out of the books by it). */
  seq?: EventSeq;
}

interface Entry {
  symbol: string;
  outcome: number;
  trackedAtMs: number;
  snap?: BookSnapshot;
  stale: boolean;
}

const keyOf = (symbol: string, outcome: number): string => `${symbol}#${outcome}`;

/** The wire book as the strategies see it (micros, best first). */
export function bookViewOf(ob: Orderbook, fetchedAtMs: number): BookView {
  const level = (l: { price: string; quantity: string }): BookLevel => ({ price: parseMicros(l.price), size: parseMicros(l.quantity) });
  const updated = ob.updatedAt !== undefined ? Date.parse(ob.updatedAt) : NaN;
  return { bids: ob.bids.map(level), asks: ob.asks.map(level), updatedAtMs: Number.isNaN(updated) ? fetchedAtMs : updated };
}

function sameLevels(a: readonly BookLevel[], b: readonly BookLevel[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.price !== b[i]!.price || a[i]!.size !== b[i]!.size) return false;
  return true;
}

export class RestBookPoller implements MarketDataSource {
  private readonly entries = new Map<string, Entry>();
  private readonly rotation: RoundRobin;
  private staleTimer: TimerHandle | undefined;
  private readonly updateListeners = new Set<BookListener>();
  private readonly staleListeners = new Set<StaleListener>();
  readonly counters = { requests: 0, errors: 0, skippedNoRoom: 0, updates: 0 };
  private readonly seq: EventSeq;

  constructor(private readonly o: RestPollerOptions) {
    if (!(o.budgetPerMin > 0)) throw new RangeError("budgetPerMin must be positive");
    this.seq = o.seq ?? new EventSeq();
    this.rotation = new RoundRobin({
      clock: o.clock,
      budgetPerMin: o.budgetPerMin,
      minKeyIntervalMs: o.minBookIntervalMs,
      ...(o.room !== undefined ? { room: o.room } : {}),
      read: (k) => {
        const e = this.entries.get(k);
        return e === undefined ? Promise.resolve() : this.read(e);
      },
      onSkip: () => (this.counters.skippedNoRoom += 1),
    });
  }

  track(symbol: string, outcomes: readonly number[]): void {
    const want = new Set(outcomes.map((x) => keyOf(symbol, x)));
    for (const [k, e] of this.entries) if (e.symbol === symbol && !want.has(k)) this.remove(k);
    const now = this.o.clock.now();
    const fresh: string[] = [];
    for (const x of outcomes) {
      const k = keyOf(symbol, x);
      if (this.entries.has(k)) continue;
      this.entries.set(k, { symbol, outcome: x, trackedAtMs: now, stale: false });
      fresh.push(k);
    }
    // New books are read next: a market just selected should not wait a full rotation.
    this.rotation.add(fresh);
  }

  untrack(symbol: string): void {
    for (const [k, e] of this.entries) if (e.symbol === symbol) this.remove(k);
  }

  private remove(k: string): void {
    this.entries.delete(k);
    this.rotation.remove(k);
  }

  book(symbol: string, outcome: number): BookSnapshot | undefined {
    return this.entries.get(keyOf(symbol, outcome))?.snap;
  }

  ageMs(symbol: string, outcome: number): number | undefined {
    const s = this.book(symbol, outcome);
    return s === undefined ? undefined : this.o.clock.now() - s.fetchedAtMs;
  }

  isStale(symbol: string, outcome: number): boolean {
    const e = this.entries.get(keyOf(symbol, outcome));
    if (e === undefined) return true;
    return this.staleNow(e, this.o.clock.now());
  }

  private staleNow(e: Entry, now: number): boolean {
    const since = e.snap?.fetchedAtMs ?? e.trackedAtMs;
    return now - since > this.o.staleAfterMs;
  }

  onUpdate(listener: BookListener): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  onStale(listener: StaleListener): () => void {
    this.staleListeners.add(listener);
    return () => this.staleListeners.delete(listener);
  }

  /** Time between two requests. */
  get tickMs(): number {
    return this.rotation.tickMs;
  }

  start(): void {
    if (this.staleTimer !== undefined) return;
    this.rotation.start();
    this.staleTimer = this.o.clock.setInterval(() => this.checkStale(), this.o.staleCheckMs ?? 1_000);
  }

  stop(): void {
    this.rotation.stop();
    this.o.clock.clearInterval(this.staleTimer);
    this.staleTimer = undefined;
  }

  private async read(e: Entry): Promise<void> {
    this.counters.requests += 1;
    const sentSeq = this.seq.next();
    let ob: Orderbook;
    try {
      ob = (await this.o.markets.orderbook(e.symbol, e.outcome)).data;
    } catch (err) {
      this.counters.errors += 1;
      this.o.log.debug({ market: e.symbol, outcome: e.outcome, err: err instanceof Error ? err.message : String(err) }, "order book read failed");
      return;
    }
    // Untracked while the request was out.
    if (this.entries.get(keyOf(e.symbol, e.outcome)) !== e) return;
    const now = this.o.clock.now();
    const view = bookViewOf(ob, now);
    const prev = e.snap;
    const recovered = e.stale;
    e.snap = { symbol: e.symbol, outcome: e.outcome, view, fetchedAtMs: now, sentSeq };
    e.stale = false;
    const changed = prev === undefined || !sameLevels(prev.view.bids, view.bids) || !sameLevels(prev.view.asks, view.asks);
    if (changed || recovered) {
      this.counters.updates += 1;
      for (const l of [...this.updateListeners]) l(e.symbol, e.outcome, e.snap);
    }
  }

  private checkStale(): void {
    const now = this.o.clock.now();
    for (const e of this.entries.values()) {
      if (e.stale || !this.staleNow(e, now)) continue;
      e.stale = true;
      for (const l of [...this.staleListeners]) l(e.symbol, e.outcome);
    }
  }
}
