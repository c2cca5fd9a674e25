/**
 * Public trades of the tracked markets, for the strategies' `recentTrades`.
 *
 * RestTradeFeed: `GET /api/markets/{symbol}/trades` for every tracked market, one request at a
 * time, round-robin, like the book poller (market-data.ts). That endpoint has its own IP bucket in
 * spec 8.2 (240/60 s, shared with price history), so the feed takes a share of it
 * (`budgetPerMin`) and spreads it over the markets: one request every
 * max(60 s / budgetPerMin, minMarketIntervalMs / markets). With a rate gate it skips a turn when
 * the bucket has no room rather than queueing behind other readers (the schedule: round-robin.ts).
 *
 * Each read asks for the newest page (newest first, docs/spec-gaps.md "Market trades paging")
 * after the newest trade already held (1 ms earlier, so equal timestamps are re-read and deduped
 * by trade id whether the platform's `after` is inclusive or not), or after the window start on
 * the first read. This is a signal, not a ledger: when more than one page of trades happens
 * between two reads of a market, the older ones are never seen (our own fills come from the
 * wallets' trade pulls, fill-sync.ts, never from here).
 *
 * Rows are read one by one (`tradesPage`, each row checked with the `trade` shape): a row that does
 * not read is skipped and counted in `badRows`, the rest of the page lands. Were the page checked
 * whole, one bad row would fail every read from the same `after` and freeze the market's tape
 * until that row left the window.
 *
 * One timer chain at a time: a turn that falls due while a read is out is dropped, and that read
 * schedules the next turn when it lands, replacing any timer set meanwhile (a stop() and start()
 * during a read would otherwise leave two chains, twice the request rate).
 *
 * Kept per market: at most `maxTrades` trades per quoted outcome, none older than `windowMs`
 * (local clock against the trade's createdAt), trimmed when a read lands. Binary markets keep one
 * list in YES terms (a NO trade at p with taker side BUY is a YES trade at 1 - p with taker side
 * SELL); multi-outcome markets keep one list per outcome. `recent()` hands out the stored array
 * (replaced, never modified, on each read), so the quote cycle pays nothing per call.
 */
import type { MarketsApi } from "../../api/index.js";
import { complementPrice } from "../../core/amounts.js";
import type { Clock } from "../../core/clock.js";
import { tryParseMicros } from "../../core/money.js";
import type { Logger } from "../../log/index.js";
import { trade as tradeShape, type Trade } from "../../wire/index.js";
import type { TradeView } from "../quote/quotes.js";
import { RoundRobin } from "./round-robin.js";

/** Largest page of `GET /api/markets/{symbol}/trades` (spec 4.3). */
export const TRADES_PAGE_MAX = 200;

/** What the quote cycle reads. */
export interface TradeSource {
  /** Oldest first. Binary markets: outcome 0 in YES terms (other outcomes: none). */
  recent(symbol: string, outcome: number): readonly TradeView[];
}

export interface TradeFeedOptions {
  markets: Pick<MarketsApi, "tradesPage">;
  clock: Clock;
  log: Logger;
  /** Requests per minute this feed may make (its share of the 240/60 s IP bucket); 0 = off. */
  budgetPerMin: number;
  /** Never read one market more often than this. */
  minMarketIntervalMs: number;
  /** Trades kept per quoted outcome. */
  maxTrades: number;
  /** Trades older than this are dropped. */
  windowMs: number;
  /** Room left in the trades bucket now (a RateGate's remainingFor); absent: always room. */
  room?: () => number;
}

interface Entry {
  symbol: string;
  outcomeCount: number;
  /** One list per quoted outcome (one for binary markets), oldest first. */
  lists: (readonly TradeView[])[];
  /** Trade ids seen lately, in arrival order (bounded: see seenCap). */
  seen: Set<string>;
  seenOrder: string[];
  /** createdAt of the newest trade held, ms. */
  newestMs: number | undefined;
  /** Clock time of the last warning logged for this market. */
  warnedAt: number | undefined;
}

/** A market's read failures and unreadable rows are logged at warn at most this often. */
export const WARN_EVERY_MS = 60_000;

const NO_TRADES: readonly TradeView[] = Object.freeze([]);

/** A row's id when it has a usable one, whatever else it holds. */
function idOf(raw: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const id = (raw as { id?: unknown }).id;
  return typeof id === "string" && id.length > 0 ? id : undefined;
}

/** YES terms on binary markets (see the header); undefined for a row we cannot read. */
export function tradeViewOf(t: Trade, outcomeCount: number): { list: number; view: TradeView } | undefined {
  const price = tryParseMicros(t.price);
  const size = tryParseMicros(t.quantity);
  const ts = Date.parse(t.createdAt);
  if (price === undefined || size === undefined || Number.isNaN(ts) || t.outcome >= outcomeCount) return undefined;
  if (outcomeCount === 2 && t.outcome === 1) {
    return { list: 0, view: { price: complementPrice(price), size, side: t.side === "BUY" ? "SELL" : "BUY", ts } };
  }
  return { list: outcomeCount === 2 ? 0 : t.outcome, view: { price, size, side: t.side, ts } };
}

export class RestTradeFeed implements TradeSource {
  private readonly entries = new Map<string, Entry>();
  private readonly rotation: RoundRobin;
  /** Ids remembered per market: two pages cover any page the platform can send again. */
  private readonly seenCap = 2 * TRADES_PAGE_MAX;
  readonly counters = { requests: 0, errors: 0, skippedNoRoom: 0, trades: 0, badRows: 0 };

  constructor(private readonly o: TradeFeedOptions) {
    if (!(o.budgetPerMin >= 0)) throw new RangeError("budgetPerMin must be >= 0");
    if (!(o.maxTrades >= 1)) throw new RangeError("maxTrades must be >= 1");
    this.rotation = new RoundRobin({
      clock: o.clock,
      budgetPerMin: o.budgetPerMin,
      minKeyIntervalMs: o.minMarketIntervalMs,
      ...(o.room !== undefined ? { room: o.room } : {}),
      read: (symbol) => {
        const e = this.entries.get(symbol);
        return e === undefined ? Promise.resolve() : this.read(e);
      },
      onSkip: () => (this.counters.skippedNoRoom += 1),
    });
  }

  /** Follow a market's trades (a new outcome count starts it afresh). */
  track(symbol: string, outcomeCount: number): void {
    const had = this.entries.get(symbol);
    if (had !== undefined && had.outcomeCount === outcomeCount) return;
    const lists = Array.from({ length: outcomeCount === 2 ? 1 : outcomeCount }, () => NO_TRADES);
    this.entries.set(symbol, { symbol, outcomeCount, lists, seen: new Set(), seenOrder: [], newestMs: undefined, warnedAt: undefined });
    if (had !== undefined) return;
    // A market just selected is read next, not after a full rotation.
    this.rotation.add([symbol]);
  }

  untrack(symbol: string): void {
    if (this.entries.delete(symbol)) this.rotation.remove(symbol);
  }

  recent(symbol: string, outcome: number): readonly TradeView[] {
    const e = this.entries.get(symbol);
    if (e === undefined) return NO_TRADES;
    if (e.outcomeCount === 2 && outcome !== 0) return NO_TRADES;
    return e.lists[outcome] ?? NO_TRADES;
  }

  /** Time between two requests. */
  get tickMs(): number {
    return this.rotation.tickMs;
  }

  start(): void {
    this.rotation.start();
  }

  stop(): void {
    this.rotation.stop();
  }

  private async read(e: Entry): Promise<void> {
    this.counters.requests += 1;
    const now = this.o.clock.now();
    const cutoff = now - this.o.windowMs;
    const afterMs = Math.max(cutoff, (e.newestMs ?? cutoff) - 1);
    let rows: readonly unknown[];
    try {
      rows = (await this.o.markets.tradesPage(e.symbol, { limit: TRADES_PAGE_MAX, after: new Date(afterMs).toISOString() })).data.trades;
    } catch (err) {
      this.counters.errors += 1;
      this.note(e, { market: e.symbol, err: err instanceof Error ? err.message : String(err) }, "market trades read failed");
      return;
    }
    // Untracked (or re-tracked afresh) while the request was out.
    if (this.entries.get(e.symbol) !== e) return;
    const bad = this.counters.badRows;
    this.merge(e, rows, this.o.clock.now() - this.o.windowMs);
    if (this.counters.badRows > bad) this.note(e, { market: e.symbol, badRows: this.counters.badRows - bad }, "market trades rows skipped (unreadable)");
  }

  /** At warn once per WARN_EVERY_MS per market, at debug in between. */
  private note(e: Entry, fields: Record<string, unknown>, msg: string): void {
    const now = this.o.clock.now();
    if (e.warnedAt === undefined || now - e.warnedAt >= WARN_EVERY_MS) {
      e.warnedAt = now;
      this.o.log.warn(fields, msg);
    } else {
      this.o.log.debug(fields, msg);
    }
  }

  /** New trades of a page (newest first) into the lists, then the lists trimmed to the window and N. */
  private merge(e: Entry, page: readonly unknown[], cutoff: number): void {
    const added: TradeView[][] = e.lists.map(() => []);
    for (let i = page.length - 1; i >= 0; i--) {
      const raw = page[i];
      const id = idOf(raw);
      if (id !== undefined && e.seen.has(id)) continue;
      const parsed = tradeShape.safeParse(raw);
      const t = parsed.success ? parsed.data : undefined;
      const v = t === undefined ? undefined : tradeViewOf(t, e.outcomeCount);
      if (t === undefined || v === undefined) {
        // Remembered too (when it has an id): a row that cannot be read is counted once, not on every read.
        if (id !== undefined) this.remember(e, id);
        this.counters.badRows += 1;
        continue;
      }
      if (v.view.ts < cutoff) continue;
      this.remember(e, t.id);
      added[v.list]!.push(v.view);
      if (e.newestMs === undefined || v.view.ts > e.newestMs) e.newestMs = v.view.ts;
      this.counters.trades += 1;
    }
    for (let o = 0; o < e.lists.length; o++) {
      const fresh = added[o]!;
      const old = e.lists[o]!;
      let start = 0;
      while (start < old.length && old[start]!.ts < cutoff) start += 1;
      if (fresh.length === 0 && start === 0) continue;
      let next = start === 0 ? [...old, ...fresh] : [...old.slice(start), ...fresh];
      // A late trade stamped before the newest one held keeps the list oldest first.
      if (fresh.length > 0 && start < old.length && fresh[0]!.ts < old[old.length - 1]!.ts) next.sort((a, b) => a.ts - b.ts);
      if (next.length > this.o.maxTrades) next = next.slice(next.length - this.o.maxTrades);
      e.lists[o] = next.length === 0 ? NO_TRADES : next;
    }
  }

  private remember(e: Entry, id: string): void {
    e.seen.add(id);
    e.seenOrder.push(id);
    if (e.seenOrder.length > this.seenCap) {
      // Drop the older half at once: amortised O(1) per id.
      const drop = e.seenOrder.splice(0, e.seenOrder.length - TRADES_PAGE_MAX);
      for (const d of drop) e.seen.delete(d);
    }
  }
}
