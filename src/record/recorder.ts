/**
 * `mm record`'s poller: what the platform publishes for the selected markets, into a data set
 * (src/data). Three loops on one Clock, each inside its share of its 8.2 IP bucket and skipping a
 * turn when the client's RateGate has no room (it never goes around the gate: every request is the
 * typed client's, admitted by its gate):
 *
 * - market rows (`GET /api/markets` walk, then details for followed markets gone from it) every
 *   `marketsEveryMs`: a `market` event on first sight and whenever status, lifecycle or trading
 *   window changed; a market that reached RESOLVED or VOIDED is no longer polled for books/trades;
 * - order books, round-robin over (market, outcome): a `book` event per answer with its
 *   X-Server-Time and the local receive time;
 * - public trades, round-robin over markets: each read asks for the trades after the newest seen
 *   (1 ms earlier, so a trade at the same instant is re-read and dropped by id) and walks older
 *   pages with the page's cursor, at most `maxTradePages` pages. Trades are written oldest first,
 *   each id once. When the walk stops with older trades still unread (every page full), a `gap`
 *   event says trades between the newest seen before and the oldest read now may be missing.
 */
import type { PartnerClient } from "../api/index.js";
import type { MarketSummary } from "../wire/index.js";
import type { Clock } from "../core/clock.js";
import { parseMicros } from "../core/money.js";
import type { NewEvent } from "../data/index.js";
import { Levels } from "../data/index.js";
import type { Logger } from "../log/index.js";
import { discoverCandidates, refreshRows, type DiscoveryConfig } from "../bot/market/market-discovery.js";
import { RoundRobin } from "../bot/market/round-robin.js";

export const TRADES_PAGE = 200;
const TERMINAL = new Set(["RESOLVED", "VOIDED"]);
const BOOK_PATH = "/api/markets/x/orderbook";
const TRADES_PATH = "/api/markets/x/trades";

export interface RecorderOptions {
  client: Pick<PartnerClient, "markets" | "events">;
  /** Room left in a bucket (the client's RateGate); absent: always room. */
  room?: (method: string, path: string) => number;
  clock: Clock;
  sink: { append(e: NewEvent): unknown };
  log: Logger;
  selection: DiscoveryConfig & { walletMarkets?: readonly string[] };
  /** Market rows re-read this often. Default 30 s. */
  marketsEveryMs?: number;
  /** Order-book requests per minute (of the 600/60 s bucket). Default 300. */
  bookBudgetPerMin?: number;
  /** Trade requests per minute (of the 240/60 s bucket). Default 180. */
  tradeBudgetPerMin?: number;
  /** Never read one book / one market's trades more often than this. Defaults 1 s / 2 s. */
  minBookIntervalMs?: number;
  minTradeIntervalMs?: number;
  /** Pages walked back per trade read before a gap is declared. Default 3. */
  maxTradePages?: number;
}

interface Followed {
  row: MarketSummary;
  /** What a change is judged on. */
  key: string;
  newestTradeMs: number | undefined;
  seen: Set<string>;
  seenOrder: string[];
}

const changeKey = (m: MarketSummary): string => JSON.stringify([m.status, m.lifecycle, m.tradingWindow]);

export class Recorder {
  readonly counters = { books: 0, trades: 0, duplicates: 0, gaps: 0, marketEvents: 0, errors: 0, skippedNoRoom: 0 };
  private readonly followed = new Map<string, Followed>();
  private readonly books: RoundRobin;
  private readonly trades: RoundRobin;
  private marketsTimer: ReturnType<Clock["setTimeout"]> | undefined;
  private running = false;
  private startedAt = 0;

  constructor(private readonly o: RecorderOptions) {
    const room = o.room;
    this.books = new RoundRobin({
      clock: o.clock,
      budgetPerMin: o.bookBudgetPerMin ?? 300,
      minKeyIntervalMs: o.minBookIntervalMs ?? 1000,
      ...(room ? { room: () => room("GET", BOOK_PATH) } : {}),
      read: (key) => this.readBook(key),
      onSkip: () => (this.counters.skippedNoRoom += 1),
    });
    this.trades = new RoundRobin({
      clock: o.clock,
      budgetPerMin: o.tradeBudgetPerMin ?? 180,
      minKeyIntervalMs: o.minTradeIntervalMs ?? 2000,
      ...(room ? { room: () => room("GET", TRADES_PATH) } : {}),
      read: (symbol) => this.readTrades(symbol),
      onSkip: () => (this.counters.skippedNoRoom += 1),
    });
  }

  /** Markets followed now, by symbol. */
  get symbols(): string[] {
    return [...this.followed.keys()];
  }

  /** Select the markets, write their rows, start polling. */
  async start(): Promise<void> {
    this.running = true;
    this.startedAt = this.o.clock.now();
    const s = this.o.selection;
    const found = await discoverCandidates(this.o.client, s, s.walletMarkets ?? []);
    for (const p of found.problems) this.o.log.warn({ name: p.name, err: p.message }, "market not found for recording");
    const seen = new Set<string>();
    let n = 0;
    for (const c of found.candidates) {
      if (seen.has(c.market.id) || TERMINAL.has(c.market.status)) continue;
      if (c.source !== "wallet" && n >= s.maxMarkets) continue;
      seen.add(c.market.id);
      n += 1;
      this.onRow(c.market);
    }
    if (this.followed.size === 0) throw new Error("no market to record: the selection found none that is not settled");
    this.o.log.info({ markets: this.symbols }, "recording");
    this.books.start();
    this.trades.start();
    this.scheduleMarkets();
  }

  stop(): void {
    this.running = false;
    this.books.stop();
    this.trades.stop();
    this.o.clock.clearTimeout(this.marketsTimer);
  }

  private scheduleMarkets(): void {
    if (!this.running) return;
    this.marketsTimer = this.o.clock.setTimeout(() => void this.refreshMarkets(), this.o.marketsEveryMs ?? 30_000);
  }

  private async refreshMarkets(): Promise<void> {
    try {
      const { rows, failed } = await refreshRows(this.o.client, [...this.followed.values()].map((f) => f.row));
      if (!this.running) return;
      for (const r of rows) this.onRow(r);
      if (failed.length > 0) this.o.log.warn({ markets: failed }, "market rows not re-read");
    } catch (e) {
      this.counters.errors += 1;
      this.o.log.warn({ err: e instanceof Error ? e.message : String(e) }, "market rows read failed");
    }
    this.scheduleMarkets();
  }

  private onRow(m: MarketSummary): void {
    const key = changeKey(m);
    const had = this.followed.get(m.symbol);
    if (had !== undefined && had.key === key) {
      had.row = m;
      return;
    }
    this.o.sink.append({ kind: "market", ts: this.o.clock.now(), symbol: m.symbol, status: m.status, row: JSON.stringify(m) });
    this.counters.marketEvents += 1;
    if (had === undefined) {
      this.followed.set(m.symbol, { row: m, key, newestTradeMs: undefined, seen: new Set(), seenOrder: [] });
      this.books.add(Array.from({ length: m.outcomeCount }, (_, i) => `${m.symbol}\u0000${i}`));
      this.trades.add([m.symbol]);
    } else {
      had.row = m;
      had.key = key;
    }
    if (TERMINAL.has(m.status)) {
      for (let i = 0; i < m.outcomeCount; i++) this.books.remove(`${m.symbol}\u0000${i}`);
      this.trades.remove(m.symbol);
    }
  }

  private async readBook(key: string): Promise<void> {
    const [symbol, outcomeText] = key.split("\u0000") as [string, string];
    try {
      const res = await this.o.client.markets.orderbook(symbol, Number(outcomeText));
      if (!this.running) return;
      const lv = (l: readonly { price: string; quantity: string }[]) =>
        l.length === 0 ? Levels.EMPTY : Levels.of(l.map((x) => [parseMicros(x.price), parseMicros(x.quantity)] as const));
      this.o.sink.append({
        kind: "book",
        ts: this.o.clock.now(),
        symbol,
        outcome: res.data.outcome,
        serverTs: res.meta.serverTime ?? 0,
        bids: lv(res.data.bids),
        asks: lv(res.data.asks),
      });
      this.counters.books += 1;
    } catch (e) {
      this.counters.errors += 1;
      this.o.log.warn({ market: symbol, err: e instanceof Error ? e.message : String(e) }, "order book read failed");
    }
  }

  private async readTrades(symbol: string): Promise<void> {
    const f = this.followed.get(symbol);
    if (f === undefined) return;
    const since = f.newestTradeMs ?? this.startedAt;
    const after = String(since - 1);
    const maxPages = this.o.maxTradePages ?? 3;
    const got: { id: string; outcome: number; side: "BUY" | "SELL"; price: string; quantity: string; createdAt: string }[] = [];
    let more = false;
    try {
      let before: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const res = await this.o.client.markets.trades(symbol, { limit: TRADES_PAGE, after, ...(before !== undefined ? { before } : {}) });
        got.push(...res.data.trades);
        const cursor = res.data.nextCursor;
        more = res.data.trades.length >= TRADES_PAGE && typeof cursor === "string" && cursor !== "";
        if (!more) break;
        before = cursor as string;
      }
    } catch (e) {
      this.counters.errors += 1;
      this.o.log.warn({ market: symbol, err: e instanceof Error ? e.message : String(e) }, "trades read failed");
      if (got.length === 0) return;
      more = true;
    }
    if (!this.running) return;
    const now = this.o.clock.now();
    // Newest first on the wire: the oldest read is the last row.
    const oldest = got.length > 0 ? Date.parse(got[got.length - 1]!.createdAt) : since;
    if (more) {
      this.o.sink.append({ kind: "gap", ts: now, symbol, fromTs: since, toTs: oldest, reason: "trade pages full: older trades not reached" });
      this.counters.gaps += 1;
    }
    for (let i = got.length - 1; i >= 0; i--) {
      const t = got[i]!;
      if (f.seen.has(t.id)) {
        this.counters.duplicates += 1;
        continue;
      }
      this.remember(f, t.id);
      const tradeTs = Date.parse(t.createdAt);
      this.o.sink.append({ kind: "trade", ts: now, id: t.id, symbol, outcome: t.outcome, side: t.side, price: parseMicros(t.price), quantity: parseMicros(t.quantity), tradeTs });
      this.counters.trades += 1;
      if (f.newestTradeMs === undefined || tradeTs > f.newestTradeMs) f.newestTradeMs = tradeTs;
    }
  }

  /** Ids remembered per market: a few pages' worth covers any re-read. */
  private remember(f: Followed, id: string): void {
    f.seen.add(id);
    f.seenOrder.push(id);
    if (f.seenOrder.length > 4 * TRADES_PAGE) f.seen.delete(f.seenOrder.shift()!);
  }
}
