/**
 * The fast engine (`mm backtest --engine fast`): an event loop in virtual time that drives the
 * daemon's pure decision core against an exchange model, with no HTTP, no JSON and no signing.
 *
 * Strategy side (one wallet, the config's first): the same code as live for every decision and
 * every fact: `quoteCycle` (strategy -> risk limits -> reconciler -> risk), the order state table
 * (`OrderTracker`), the fill ledger and the inventory, the rate buckets (`RateGate` and the spec's
 * table, as live). Exchange side: `OutcomeBook` per market outcome (exchange-model.ts): the
 * recorded L2 book, our virtual orders and a queue-position model per resting order.
 *
 * Time: market data events arrive at their recorded `ts` (the local receive time when recorded);
 * a request reaches the exchange `entry` ms after it is sent and its answer comes back `response`
 * ms after the exchange handled it (models/latency.ts); a maker fill reaches us `response` ms after
 * it happened. The strategy sees books as the daemon's REST poller reads them (feed "poll", the
 * default: round-robin turns, a changed book marks its market) or every recorded book as it comes
 * (feed "every": marked, cycled once every event of that instant is in); the quote refresh timer
 * marks every market each quoting.refreshMs, as live. Like the daemon's pump, one quote cycle at a
 * time per wallet: a fill marks its market at once; the next cycle runs when the previous execution
 * has its answers.
 * An execution sends the plan's cancels first and its places when the cancels are answered, and
 * not for a slot whose cancelled order did not end (the executor's rule).
 *
 * Not modelled (docs/backtest.md): halts other than the limits (stale data, stream down, drift),
 * the public-trade poller (trades reach the strategy as recorded), other wallets, order expiry,
 * settlement payouts.
 */
import type { Config } from "../../config/index.js";
import { complementPrice } from "../../core/amounts.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import { formatMicros, type Micros } from "../../core/money.js";
import { MinHeap } from "../../core/min-heap.js";
import { Rng } from "../../core/rng.js";
import type { BookEvent, DataEvent, MarketEvent, TradeEvent } from "../../data/events.js";
import type { Levels } from "../../data/levels.js";
import { RateGate, platformGateOptions } from "../../ratelimit/index.js";
import { marketSummary, type MarketSummary } from "../../wire/markets.js";
import { createStrategyRunner } from "../../../strategies/registry.js";
import { FillLedger } from "../../bot/fills/fill-ledger.js";
import { Inventory } from "../../bot/fills/inventory.js";
import { marketPhase } from "../../bot/market/market-phase.js";
import type { BookSnapshot } from "../../bot/market/market-data.js";
import { OrderTracker, isTerminal } from "../../bot/orders/order-tracker.js";
import { enginePhase, phaseQuotes, quoteCycle, type CyclePolicy, type CycleSnapshot, type QuotedBook, type StrategyState } from "../../bot/quote/cycle.js";
import { cycleEvent } from "../../bot/risk/event-group-view.js";
import { midsOf, quotedOutcomes } from "../../bot/quote/quote-cycle.js";
import { buildControls } from "../../bot/quote/controls/index.js";
import { SignalBook } from "../../bot/quote/signals.js";
import { adverseOptionsOf } from "../../bot/quote/adverse/adverse-book.js";
import { slotKey, type BookLevel, type DesiredQuote, type LiveOrder, type TradeView } from "../../bot/quote/quotes.js";
import { ExposureBook, trackerVersion } from "../../bot/risk/exposure-book.js";
import { MAX_PLACE_BATCH, rateBudget } from "../../bot/engine/executor.js";
import { DEFAULT_TUNING } from "../../bot/engine/tuning.js";
import { riskTuningOf } from "../../bot/risk/core-risk.js";
import type { EngineView } from "../../bot/risk/risk-hook.js";
import type { LatencyModel } from "../models/latency.js";
import { queueModelFactory, type QueueModelFactory, type QueueModelSpec } from "../models/queue.js";
import { OutcomeBook, type ExchangeFill } from "./exchange-model.js";
import type { OwnOrderView } from "../../bot/quote/own-orders.js";
import { fastSeries } from "../series-fast.js";
import { addToTotals, emptyTotals, type FillTotals } from "../../bot/fills/fill-totals.js";
import { marketFigures, type FastMarketFigures, type FigureTotals, type MarketFigureInput } from "../market-figures.js";

export type { FastMarketFigures };
import type { SeriesRecorder, SeriesReport } from "../series.js";

/** What the fast engine reads: market events in time order (sources.ts builds them). */
export interface FastSource {
  next(): DataEvent | undefined;
  readonly describe: string;
}

export interface FastOptions {
  config: Config;
  source: FastSource;
  latency: LatencyModel;
  queue: QueueModelSpec;
  /** Seeds the latency draws. */
  seed: number;
  /** Book levels the strategy sees per side (default 20). */
  depth?: number;
  /** Public trades the strategy sees per market (default 200, oldest dropped). */
  tradeHistory?: number;
  /** Keep time series for the report (series.ts): sampled per time step, each fill, markouts. */
  series?: boolean;
  /** How books reach the strategy (default "poll", as live; see FeedModel). */
  feed?: FeedModel;
  /** Called at each quote cycle with the engine's time (tests, tracing). */
  onCycle?: (nowMs: number) => void;
}

/**
 * How the recorded books reach the strategy. The exchange model always sees every book event.
 *   poll   as the daemon's REST book poller reads them (market-data.ts, round-robin.ts): one
 *          (market, outcome) book per turn, round-robin, a turn every max(60 s / budget,
 *          minBookIntervalMs / books) with the daemon's budget (its share of the 600/60 s IP bucket
 *          after the safety margin); the read reaches the exchange after the entry latency and
 *          comes back after the response latency; a book that changed marks its market to cycle.
 *   every  each recorded book the instant it is recorded (the most a strategy could see; live
 *          never sees more than its poller reads).
 */
export type FeedModel = "poll" | "every";
export const FEED_MODELS: readonly FeedModel[] = ["poll", "every"];

export interface FastReport {
  engine: "fast";
  source: string;
  queueModel: QueueModelSpec["kind"];
  events: { market: number; book: number; trade: number; other: number };
  cycles: number;
  orders: { placed: number; accepted: number; rejected: number; rejectCodes: Record<string, number>; cancels: number; rateDeferred: number };
  markets: FastMarketFigures[];
  totals: FigureTotals;
  firstTs: number | null;
  lastTs: number | null;
  /** With `series: true`: equity, inventory, quotes, fills and markouts over time (series.ts). */
  series?: SeriesReport;
}

interface BookState {
  bids: Levels;
  asks: Levels;
  ts: number;
  seq: number;
  /**
   * The strategy's view of this book, built the first time a cycle reads it and kept while the
   * book is the one seen (as the daemon's market data keeps one snapshot per read): a book is
   * read by many cycles (refresh, fills) and its levels never change.
   */
  quoted: QuotedBook | undefined;
}

function sameLevels(a: Levels, b: Levels): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a.price(i) !== b.price(i) || a.quantity(i) !== b.quantity(i)) return false;
  return true;
}

interface MarketState {
  row: MarketSummary;
  outcomeCount: number;
  feeTakerBps: number;
  /** The latest recorded book per outcome: what the exchange holds (marks and series read it). */
  books: Map<number, BookState>;
  /** The books as the strategy last saw them (the same as `books` with feed "every"). */
  seen: Map<number, BookState>;
  trades: TradeView[];
  strategy: StrategyState | undefined;
  exchange: Map<number, OutcomeBook>;
  /** Our fills' sums (the report's row). */
  sums: FillTotals;
}

const WALLET = "0x000000000000000000000000000000000000fa57";
const NO_OWN: readonly OwnOrderView[] = [];
/** The daemon's rule (wallet-runner.ts): terminal, settled orders go this long after their last event. */
const PRUNE_AFTER_MS = 60_000;
const PRUNE_EVERY_MS = 1_000;

/**
 * The engine's time as a Clock for the rate gate, which only reads it: the engine never lets a
 * request wait in the gate (it asks for room first), so nothing arms a timer on it.
 */
class EngineTime implements Clock {
  t = 0;
  now(): number {
    return this.t;
  }
  setTimeout(): TimerHandle {
    throw new Error("fast engine: the rate gate armed a timer (a request was let wait)");
  }
  clearTimeout(): void {}
  setInterval(): TimerHandle {
    throw new Error("fast engine: no intervals");
  }
  clearInterval(): void {}
  sleep(): Promise<void> {
    return Promise.reject(new Error("fast engine: no sleeping"));
  }
}

function levelsView(l: Levels, depth: number): BookLevel[] {
  const out: BookLevel[] = [];
  for (let i = 0; i < l.length && i < depth; i++) out.push({ price: l.price(i), size: l.quantity(i) });
  return out;
}

/**
 * The strategy's view of a seen book, built once per book (see BookState.quoted). Recorded books
 * hold no order of ours: nothing to take out. `trades` is the market's list itself (as the daemon's
 * trade feed hands its stored list), so a kept view stays current.
 */
function quotedOf(symbol: string, m: MarketState, outcome: number, b: BookState, depth: number): QuotedBook {
  return (b.quoted ??= {
    snapshot: { symbol, outcome, view: { bids: levelsView(b.bids, depth), asks: levelsView(b.asks, depth), updatedAtMs: b.ts }, fetchedAtMs: b.ts, sentSeq: b.seq },
    own: NO_OWN,
    trades: m.trades,
  });
}

/**
 * The exchange's phase check, with the platform's code (as the simulator answers, spec 7.3): OPEN
 * takes everything, PRE_MARKET post-only orders only, any other status nothing: market_not_open.
 */
function exchangeRefusal(row: MarketSummary, postOnly: boolean): string | undefined {
  if (row.status === "OPEN" || (row.status === "PRE_MARKET" && postOnly)) return undefined;
  return "market_not_open";
}

export class FastEngine {
  private readonly o: FastOptions;
  /** Timed actions; ties run in the order they were scheduled. */
  private readonly agenda = new MinHeap<() => void>();
  private readonly clock = new EngineTime();
  private readonly gate: RateGate;
  private readonly rng: Rng;
  private readonly markets = new Map<string, MarketState>();
  private readonly tracker = new OrderTracker(WALLET);
  private readonly ledger = new FillLedger();
  private readonly inventory = new Inventory();
  private readonly policy: CyclePolicy;
  /** What the quote controls read between cycles (signals.ts), fed as the daemon feeds it: new fills, each cycle's mids. */
  private readonly signals: SignalBook;
  private readonly queue: QueueModelFactory;
  /** Exposure of every market kept between cycles, as the daemon's risk keeps it (exposure-book.ts). */
  private readonly exposure: ExposureBook;
  private readonly walletName: string;
  private marketList: readonly string[] = [];
  private readonly dirty = new Set<string>();
  private readonly feed: FeedModel;
  /** The poller's rotation of (market, outcome) books, its cursor, and whether its turns are scheduled. */
  private readonly pollKeys: { symbol: string; outcome: number }[] = [];
  private pollCursor = 0;
  private polling = false;
  private refreshing = false;
  private readonly bookBudgetPerMin: number;
  private readonly minBookIntervalMs = DEFAULT_TUNING.minBookIntervalMs;
  private busy = false;
  private now = 0;
  /** budget()'s answer at `budgetAt`, until a request takes room. */
  private budgetNow: { cancels: number; places: number } | undefined;
  private budgetAt = -1;
  private bookSeq = 0;
  private prunedAt = 0;
  private ended = false;
  private nextOrder = 0;
  private nextTrade = 0;
  private readonly report: FastReport;
  private readonly series: SeriesRecorder | undefined;
  /**
   * What a risk hook reads of the rest of the engine (RiskContext.engine), as the daemon's
   * engineViewOf gives it: the one wallet, the markets, and marks at the books the strategy has seen.
   */
  private readonly engineView: EngineView = {
    wallets: () => [WALLET],
    markets: () => this.marketList,
    liveOrders: (wallet, marketId) => (wallet.toLowerCase() === WALLET ? this.tracker.liveOrders(marketId) : []),
    positions: (wallet, marketId) => this.inventory.positions(wallet, marketId),
    pnl: (wallet) => this.inventory.pnl(wallet, this.seenMark),
    mark: (marketId, outcome) => this.seenMark(marketId, outcome),
    outcomeCount: (marketId) => this.markets.get(marketId)?.outcomeCount,
  };
  /** Mid of an outcome's book as the strategy last saw it; undefined without a two-sided book. */
  private readonly seenMark = (marketId: string, outcome: number): Micros | undefined => {
    const b = this.markets.get(marketId)?.seen.get(outcome);
    if (b === undefined || b.bids.length === 0 || b.asks.length === 0) return undefined;
    return (b.bids.price(0) + b.asks.price(0)) / 2n;
  };

  constructor(o: FastOptions) {
    this.o = o;
    this.gate = new RateGate({ clock: this.clock, ...platformGateOptions(o.config.platform) });
    this.rng = new Rng(o.seed);
    this.queue = queueModelFactory(o.queue);
    this.series = o.series === true ? fastSeries({ wallet: WALLET, inventory: this.inventory, tracker: this.tracker, markets: this.markets }) : undefined;
    const c = o.config;
    this.feed = o.feed ?? "poll";
    // The daemon's book poller budget (daemon-platform.ts): its share of the markets IP bucket.
    this.bookBudgetPerMin = Math.max(1, Math.floor(600 * (1 - c.platform.rateSafetyMargin) * DEFAULT_TUNING.bookBudgetShare));
    this.walletName = c.wallets[0]?.name ?? "w0";
    // Exposure is keyed by wallet name, as the daemon's risk keys it.
    this.exposure = new ExposureBook({
      wallets: [{ name: this.walletName, address: WALLET }],
      markets: () => this.marketList,
      outcomeCount: (s) => this.markets.get(s)?.outcomeCount,
      // Positions always carry an average cost here: no figure is valued at a mark.
      mark: () => undefined,
      liveOrders: (_w, s) => this.tracker.liveOrders(s),
      ordersVersion: () => trackerVersion(this.tracker.counters),
      liveVersion: (_w, s) => this.tracker.liveVersion(s),
      positions: (_w, s) => this.inventory.positionViews(WALLET, s),
      positionMarkets: () => [],
    });
    this.inventory.onPositionChange((w, s) => this.exposure.positionChanged(w, s));
    this.policy = {
      strategy: createStrategyRunner(c.strategy.name, c.strategy.params),
      quoting: { priceToleranceTicks: c.quoting.priceToleranceTicks, sizeTolerance: c.quoting.sizeTolerance, maxOrderAgeMs: c.quoting.maxOrderAgeSec * 1000, orderExpirySec: c.quoting.orderExpirySec },
      limits: c.risk,
      tuning: { minQuoteSize: riskTuningOf(c.risk).minQuoteSize ?? 0n },
      controls: buildControls(c),
    };
    this.signals = new SignalBook({ adverse: adverseOptionsOf(c.adverse) });
    this.report = {
      engine: "fast",
      source: o.source.describe,
      queueModel: o.queue.kind,
      events: { market: 0, book: 0, trade: 0, other: 0 },
      cycles: 0,
      orders: { placed: 0, accepted: 0, rejected: 0, rejectCodes: {}, cancels: 0, rateDeferred: 0 },
      markets: [],
      totals: { fills: 0, volume: "0", fees: "0", realised: "0", unrealised: "0", net: "0" },
      firstTs: null,
      lastTs: null,
    };
  }

  run(): FastReport {
    for (let ev = this.o.source.next(); ev !== undefined; ev = this.o.source.next()) {
      // Markets the previous instant's data moved are cycled once all of it is in (both
      // outcomes' books of one poll, a row change with its books), before time moves on.
      if (ev.ts > this.now) {
        this.pump();
        // As the daemon's maintenance does: settled orders are forgotten a minute after their last event.
        if (ev.ts - this.prunedAt >= PRUNE_EVERY_MS) {
          this.tracker.prune(ev.ts - PRUNE_AFTER_MS);
          this.prunedAt = ev.ts;
        }
      }
      this.runDue(ev.ts);
      this.setNow(ev.ts);
      this.report.firstTs ??= ev.ts;
      this.report.lastTs = ev.ts;
      this.onData(ev);
    }
    // The last instant is cycled; then answers still travelling arrive, and nothing new is
    // decided after the data ends.
    this.pump();
    this.ended = true;
    this.dirty.clear();
    this.runDue(Infinity);
    return this.finish();
  }

  // ---- time -----------------------------------------------------------------------------------

  private setNow(t: number): void {
    if (t > this.now) {
      this.series?.advance(t);
      this.now = t;
      this.clock.t = t;
    }
  }

  private runDue(t: number): void {
    while (this.agenda.size > 0 && this.agenda.peekKey() <= t) {
      this.setNow(this.agenda.peekKey());
      this.agenda.pop()!();
    }
  }

  private at(delayMs: number, fn: () => void): void {
    this.agenda.push(this.now + Math.max(0, Math.round(delayMs)), fn);
  }

  // ---- market data: the exchange sees it first, then the strategy ------------------------------

  private onData(ev: DataEvent): void {
    switch (ev.kind) {
      case "market":
        this.report.events.market++;
        return this.onMarket(ev);
      case "book":
        this.report.events.book++;
        return this.onBook(ev);
      case "trade":
        this.report.events.trade++;
        return this.onTrade(ev);
      default:
        this.report.events.other++;
    }
  }

  private onMarket(ev: MarketEvent): void {
    const parsed = marketSummary.safeParse(JSON.parse(ev.row));
    if (!parsed.success) throw new Error(`market event ${ev.seq} (${ev.symbol}): not a market row: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    const row = parsed.data;
    const known = this.markets.get(ev.symbol);
    if (known !== undefined) {
      known.row = row;
    } else {
      const outcomeCount = row.outcomeCount ?? 2;
      this.markets.set(ev.symbol, {
        row,
        outcomeCount,
        feeTakerBps: row.feeTakerBps ?? 0,
        books: new Map(),
        seen: new Map(),
        trades: [],
        strategy: undefined,
        exchange: new Map(),
        sums: emptyTotals(),
      });
      this.marketList = [...this.markets.keys()];
      this.follow(ev.symbol, outcomeCount);
    }
    this.dirty.add(ev.symbol);
  }

  private outcomeBook(m: MarketState, outcome: number): OutcomeBook {
    let b = m.exchange.get(outcome);
    if (b === undefined) m.exchange.set(outcome, (b = new OutcomeBook(this.queue, m.feeTakerBps)));
    return b;
  }

  private onBook(ev: BookEvent): void {
    const m = this.markets.get(ev.symbol);
    if (m === undefined) return;
    this.deliverFills(ev.symbol, this.outcomeBook(m, ev.outcome).onBook(ev.bids, ev.asks));
    const b: BookState = { bids: ev.bids, asks: ev.asks, ts: ev.ts, seq: ++this.bookSeq, quoted: undefined };
    m.books.set(ev.outcome, b);
    if (this.feed === "every") {
      m.seen.set(ev.outcome, b);
      this.dirty.add(ev.symbol);
    }
  }

  // ---- what the strategy sees: the book poller and the quote refresh timer ----------------------

  /** A new market: its quoted books join the poller's rotation (read next), the refresh timer starts. */
  private follow(symbol: string, outcomeCount: number): void {
    if (this.feed === "poll") {
      const keys = quotedOutcomes(outcomeCount).map((outcome) => ({ symbol, outcome }));
      this.pollKeys.splice(this.pollCursor, 0, ...keys);
      if (!this.polling) {
        this.polling = true;
        this.at(0, () => this.pollTurn());
      }
    }
    if (!this.refreshing) {
      this.refreshing = true;
      this.at(this.o.config.quoting.refreshMs, () => this.refreshTurn());
    }
  }

  /** One turn of the round-robin book poller (round-robin.ts's schedule). */
  private pollTurn(): void {
    if (this.ended) return;
    if (this.pollCursor >= this.pollKeys.length) this.pollCursor = 0;
    const { symbol, outcome } = this.pollKeys[this.pollCursor++]!;
    const m = this.markets.get(symbol)!;
    const entry = this.o.latency.entry(this.now, this.rng);
    const response = this.o.latency.response(this.now, this.rng);
    this.at(entry, () => {
      const read = m.books.get(outcome);
      this.at(response, () => this.seeBook(symbol, m, outcome, read));
    });
    // The next turn a tick after this one started, or when this read lands if that is later.
    const tickMs = Math.max(60_000 / this.bookBudgetPerMin, this.minBookIntervalMs / this.pollKeys.length);
    this.at(Math.max(tickMs, entry + response), () => this.pollTurn());
  }

  /** A book read lands: a change marks its market (the poller emits changed books only). */
  private seeBook(symbol: string, m: MarketState, outcome: number, read: BookState | undefined): void {
    if (read === undefined || this.ended) return;
    const prev = m.seen.get(outcome);
    if (prev !== undefined && sameLevels(prev.bids, read.bids) && sameLevels(prev.asks, read.asks)) return;
    m.seen.set(outcome, read);
    this.mark(symbol);
  }

  /** The daemon's quote refresh (quoting.refreshMs): every market is cycled. */
  private refreshTurn(): void {
    if (this.ended) return;
    for (const symbol of this.marketList) this.dirty.add(symbol);
    if (!this.busy) this.pump();
    this.at(this.o.config.quoting.refreshMs, () => this.refreshTurn());
  }

  private onTrade(ev: TradeEvent): void {
    const m = this.markets.get(ev.symbol);
    if (m === undefined) return;
    const own = this.outcomeBook(m, ev.outcome).onTrade(ev.side, ev.price, ev.quantity);
    this.deliverFills(ev.symbol, own);
    if (m.outcomeCount === 2) {
      // The same trade on the other outcome's book (a YES ask is a NO bid): only the shares our
      // orders on the first book did not take are left for ours there, never the whole trade twice.
      const left = ev.quantity - own.reduce((n, f) => n + f.qty, 0n);
      const other = 1 - ev.outcome;
      if (left > 0n) this.deliverFills(ev.symbol, this.outcomeBook(m, other).onTrade(ev.side === "BUY" ? "SELL" : "BUY", complementPrice(ev.price), left));
    }
    // The strategy sees trades in YES terms on binary markets.
    const yes = m.outcomeCount === 2 && ev.outcome === 1;
    m.trades.push({ price: yes ? complementPrice(ev.price) : ev.price, size: ev.quantity, side: yes ? (ev.side === "BUY" ? "SELL" : "BUY") : ev.side, ts: ev.tradeTs });
    const keep = this.o.tradeHistory ?? 200;
    if (m.trades.length > keep * 2) m.trades.splice(0, m.trades.length - keep);
  }

  // ---- the pump: one cycle at a time ------------------------------------------------------------

  /** A market to cycle now (a fill reached us): at once unless a cycle's execution is under way. */
  private mark(symbol: string): void {
    this.dirty.add(symbol);
    if (!this.busy) this.pump();
  }

  private pump(): void {
    if (this.ended) return;
    while (!this.busy && this.dirty.size > 0) {
      const symbol = this.dirty.values().next().value as string;
      this.dirty.delete(symbol);
      this.cycle(symbol);
    }
  }

  private cycle(symbol: string): void {
    const m = this.markets.get(symbol);
    if (m === undefined) return;
    this.report.cycles++;
    this.o.onCycle?.(this.now);
    const snapshot = this.snapshot(symbol, m);
    const c = quoteCycle(this.policy, snapshot, m.strategy);
    m.strategy = c.nextStrategyState;
    const cancels = c.plan.cancels.filter((o) => o.orderId !== undefined);
    if (cancels.length === 0 && c.plan.places.length === 0) return;
    this.busy = true;
    this.execute(symbol, m, cancels, c.plan.places);
  }

  private snapshot(symbol: string, m: MarketState): CycleSnapshot {
    const nowMs = this.now;
    const c = this.o.config;
    const lifecycle = marketPhase(m.row, nowMs, { pullBeforeCloseMs: c.quoting.pullBeforeCloseSec * 1000 });
    const phase = enginePhase({ nowMs, market: { selected: true, wallet: 0 }, lifecycle, walletIndex: 0, pausedUntilMs: 0, stale: false });
    const depth = this.o.depth ?? 20;
    const raw = new Map<number, BookSnapshot | undefined>();
    const books = new Map<number, QuotedBook>();
    for (const o of quotedOutcomes(m.outcomeCount)) {
      const b = m.seen.get(o);
      if (b === undefined) {
        raw.set(o, undefined);
        continue;
      }
      // Recorded books hold no order of ours: nothing to take out. `trades` is the market's list
      // itself (as the daemon's trade feed hands its stored list), so a kept view stays current.
      const q = quotedOf(symbol, m, o, b, depth);
      raw.set(o, q.snapshot);
      books.set(o, q);
    }
    const live = this.tracker.liveOrders(symbol);
    const inventory = this.inventory.positionViews(WALLET, symbol);
    const walletName = this.walletName;
    const exposure = this.exposure.snapshot([{ wallet: walletName, market: symbol, outcomeCount: m.outcomeCount, positions: inventory, openOrders: live }]);
    const mids = midsOf(raw, m.outcomeCount);
    for (let o = 0; o < m.outcomeCount; o++) {
      const mid = mids[o];
      if (mid !== undefined) this.signals.onMid(symbol, o, mid, nowMs);
    }
    return {
      symbol,
      nowMs,
      market: { outcomeCount: m.outcomeCount, feeTakerBps: m.feeTakerBps },
      phase,
      books,
      mids,
      live,
      inventory,
      budget: this.budget(),
      gate: { quote: true },
      exposure,
      risk: {
        wallet: WALLET,
        walletName,
        marketId: symbol,
        outcomeCount: m.outcomeCount,
        nowMs,
        phase: phase.phase,
        phaseReason: phase.reason,
        book: raw.get(0)?.view,
        dataAgeMs: 0,
        inventory,
        live,
        stream: { subscribed: true, downSinceMs: undefined },
        engine: this.engineView,
      },
      signals: this.signals.view(WALLET, symbol, nowMs),
      // The neg-risk event group, as the daemon's shell gathers it (risk.maxEventLoss, StrategyInput.eventGroup).
      event: m.row.negRiskEligible && phaseQuotes(phase.phase) ? this.eventOf(symbol, depth) : undefined,
    };
  }

  private eventOf(symbol: string, depth: number): CycleSnapshot["event"] {
    return cycleEvent(
      [...this.markets.values()].map((x) => x.row),
      symbol,
      {
        book: (s) => {
          const x = this.markets.get(s);
          const b = x?.seen.get(0);
          return x === undefined || b === undefined ? undefined : quotedOf(s, x, 0, b, depth).snapshot.view;
        },
        positions: (s) => this.inventory.positionViews(WALLET, s),
      },
    );
  }

  private room(path: string): number {
    return this.gate.remainingFor("POST", path, WALLET);
  }

  /**
   * The executor's budget: orders that fit in the rate windows now. The windows change only as
   * time moves or a request takes room, so the answer is kept for the instant until one does
   * (several markets cycled at one instant, a refresh, read the same budget).
   */
  private budget(): { cancels: number; places: number } {
    if (this.budgetAt !== this.now || this.budgetNow === undefined) {
      this.budgetNow = rateBudget((path) => this.room(path));
      this.budgetAt = this.now;
    }
    return { ...this.budgetNow };
  }

  /** Take one request's room in the rate windows (as the client's gate does); false: no room now. */
  private takeRoom(path: string): boolean {
    if (this.room(path) < 1) return false;
    this.budgetNow = undefined;
    void this.gate.acquire({ method: "POST", path, wallet: WALLET });
    return true;
  }

  // ---- execution ------------------------------------------------------------------------------

  private execute(symbol: string, m: MarketState, cancels: readonly LiveOrder[], places: readonly DesiredQuote[]): void {
    if (cancels.length === 0) {
      this.place(symbol, m, places);
      return;
    }
    const path = cancels.length === 1 ? "/api/orders/cancel" : "/api/orders/cancel-batch";
    if (!this.takeRoom(path)) {
      this.report.orders.rateDeferred += cancels.length;
      this.done();
      return;
    }
    for (const o of cancels) this.tracker.apply({ kind: "cancel_requested", clientOrderId: o.clientOrderId, nowMs: this.now });
    this.report.orders.cancels += cancels.length;
    const entry = this.o.latency.entry(this.now, this.rng);
    this.at(entry, () => {
      const answers = cancels.map((o) => ({ o, a: this.outcomeBook(m, o.outcome).cancel(o.orderId!) }));
      this.at(this.o.latency.response(this.now, this.rng), () => {
        for (const { o, a } of answers) {
          const result = a.status === "NOT_FOUND" ? { kind: "not_found" as const } : { kind: "done" as const, status: a.status, filledQty: a.filledQty };
          this.tracker.apply({ kind: "cancel_result", clientOrderId: o.clientOrderId, result, serverTimeMs: this.now, nowMs: this.now });
        }
        // The executor's rule: no place on a slot whose cancelled order has not ended, or filled meanwhile.
        const held = new Set<string>();
        for (const o of cancels) {
          const t = this.tracker.peek(o.clientOrderId);
          if (t !== undefined && (!isTerminal(t.state) || t.size - t.filledQty < o.remaining)) held.add(slotKey(o));
        }
        const open = held.size === 0 ? places : places.filter((q) => !held.has(slotKey(q)));
        if (held.size > 0) this.dirty.add(symbol);
        this.place(symbol, m, open);
      });
    });
  }

  private place(symbol: string, m: MarketState, places: readonly DesiredQuote[]): void {
    if (places.length === 0) return this.done();
    const sent: { q: DesiredQuote; clientOrderId: string }[] = [];
    for (let i = 0; i < places.length; i += MAX_PLACE_BATCH) {
      const chunk = places.slice(i, i + MAX_PLACE_BATCH);
      if (!this.takeRoom(chunk.length === 1 ? "/api/orders/place" : "/api/orders/place-batch")) {
        this.report.orders.rateDeferred += places.length - i;
        break;
      }
      for (const q of chunk) {
        const clientOrderId = `fast-${++this.nextOrder}`;
        // No signing here: a unique stand-in for the order hash the tracker indexes by.
        const orderHash = "0x" + this.nextOrder.toString(16).padStart(64, "0");
        this.tracker.apply({ kind: "sent", clientOrderId, orderHash, intent: { marketId: symbol, outcome: q.outcome, side: q.side, price: q.price, size: q.size, postOnly: q.postOnly }, nowMs: this.now });
        sent.push({ q, clientOrderId });
      }
    }
    if (sent.length === 0) return this.done();
    this.report.orders.placed += sent.length;
    this.at(this.o.latency.entry(this.now, this.rng), () => {
      const answers = sent.map(({ q, clientOrderId }) => {
        const orderId = `x${clientOrderId.slice(5)}`;
        const refusal = exchangeRefusal(m.row, q.postOnly);
        if (refusal !== undefined) return { clientOrderId, orderId, q, r: { status: "REJECTED" as const, code: refusal, fills: [] as readonly ExchangeFill[] } };
        const r = this.outcomeBook(m, q.outcome).submit({ orderId, clientOrderId, side: q.side, price: q.price, size: q.size, postOnly: q.postOnly });
        return { clientOrderId, orderId, q, r };
      });
      this.at(this.o.latency.response(this.now, this.rng), () => {
        for (const { clientOrderId, orderId, q, r } of answers) {
          if (r.status === "REJECTED") {
            this.report.orders.rejected++;
            this.report.orders.rejectCodes[r.code] = (this.report.orders.rejectCodes[r.code] ?? 0) + 1;
            this.tracker.apply({ kind: "ack", clientOrderId, result: { orderId: null, status: "REJECTED", code: r.code, message: r.code }, serverTimeMs: this.now });
            continue;
          }
          this.report.orders.accepted++;
          const filled = r.filledQty;
          this.tracker.apply({
            kind: "ack",
            clientOrderId,
            result: { orderId, status: r.status, filledQty: formatMicros(filled), remainingQty: formatMicros(q.size - filled), trades: [] },
            serverTimeMs: this.now,
          });
          for (const f of r.fills) this.applyFill(symbol, q.outcome, f);
        }
        this.done();
      });
    });
  }

  private done(): void {
    this.busy = false;
    this.pump();
  }

  // ---- fills ----------------------------------------------------------------------------------

  /** Maker fills found by the exchange reach us after the response latency. */
  private deliverFills(symbol: string, fills: readonly ExchangeFill[]): void {
    if (fills.length === 0) return;
    const outcomeOf = (clientOrderId: string): number => this.tracker.peek(clientOrderId)?.outcome ?? 0;
    const withOutcome = fills.map((f) => ({ f, outcome: outcomeOf(f.clientOrderId) }));
    this.at(this.o.latency.response(this.now, this.rng), () => {
      for (const { f, outcome } of withOutcome) this.applyFill(symbol, outcome, f);
      this.mark(symbol);
    });
  }

  private applyFill(symbol: string, outcome: number, f: ExchangeFill): void {
    const tradeId = `ft${++this.nextTrade}`;
    const r = this.ledger.add({ tradeId, wallet: WALLET, orderId: f.orderId, clientOrderId: f.clientOrderId, marketId: symbol, outcome, side: f.side, price: f.price, qty: f.qty, fee: f.fee, role: f.role, ts: this.now, source: "stream" });
    this.inventory.applyLedgerResult(r);
    if (r.status === "added") this.signals.onFill(WALLET, symbol, { outcome, side: f.side, price: f.price, size: f.qty, role: f.role, ts: this.now });
    this.tracker.apply({ kind: "trade", fill: { tradeId, orderId: f.orderId, clientOrderId: f.clientOrderId, qty: f.qty, ts: this.now } });
    addToTotals(this.markets.get(symbol)!.sums, f);
    this.series?.fill({ ts: this.now, marketId: symbol, outcome, side: f.side, role: f.role, price: f.price, qty: f.qty, fee: f.fee });
  }

  // ---- the report -----------------------------------------------------------------------------

  private finish(): FastReport {
    const marks = (marketId: string, outcome: number): Micros | undefined => {
      const m = this.markets.get(marketId);
      const b = m?.books.get(outcome);
      if (b === undefined || b.bids.length === 0 || b.asks.length === 0) return undefined;
      return (b.bids.price(0) + b.asks.price(0)) / 2n;
    };
    const rows: MarketFigureInput[] = [];
    for (const [symbol, m] of [...this.markets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const positions: Record<string, string> = {};
      for (const p of this.inventory.positions(WALLET, symbol)) if (p.qty !== 0n) positions[String(p.outcome)] = formatMicros(p.qty);
      rows.push({ symbol, sums: m.sums, pnl: this.inventory.pnl(WALLET, marks, symbol), positions });
    }
    const { markets, totals } = marketFigures(rows);
    this.report.markets.push(...markets);
    this.report.totals = totals;
    if (this.series !== undefined) this.report.series = this.series.finish(this.now);
    return this.report;
  }
}

/** Run the fast engine over a source to its end. */
export function runFastBacktest(o: FastOptions): FastReport {
  return new FastEngine(o).run();
}
