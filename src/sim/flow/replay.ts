/**
 * Replay of a recorded data set (src/data) as the simulator's other participants, for the full
 * backtest engine (docs/backtest.md, "Replaying a recording with the full engine").
 *
 * - The markets: `replayScenario` turns the recorded market rows (the first row of each symbol)
 *   into scenario markets, flow off, with their trading windows, fees and outcome labels, so the
 *   simulator lists the recorded markets under the recorded symbols and slugs (ids, token ids and
 *   event ids are the simulator's own). Events are grouped by the rows' `eventSlug`.
 * - Status: each later recorded row whose status differs from the simulator's moves the
 *   simulator's lifecycle there at its `ts` (set_status; resolve with the row's payout numerators;
 *   void). Changes of the trading window in later rows are not applied (the first row's window
 *   drives the simulator's own time moves).
 * - Books: at each recorded `book` event the replay's liquidity wallet (`sim:replay:<symbol>:lp`)
 *   makes its own orders on that book equal the recorded levels: at each price it cancels its
 *   newest orders while it shows more than recorded, then posts the missing size at the back of
 *   the level (so unchanged levels keep their queue places, and new size queues behind ours). A
 *   binary market has one book: its YES (outcome 0) snapshots are replayed, the NO snapshots (the
 *   complement) are skipped. Our daemon's orders stay where they are.
 * - Trades: each recorded `trade` becomes an IOC order of the replay taker
 *   (`sim:replay:<symbol>:taker`) of the trade's outcome, side, price and quantity: it trades
 *   with whatever rests at that price or better, the replay's liquidity or our orders, by the
 *   engine's price-time priority.
 *
 * Approximations (documented in docs/backtest.md): posted size that crosses one of our orders
 * trades with it (the market traded through our price), so that level then shows less than
 * recorded until the next book; a trade can find less (or more) than the recorded quantity at its
 * price, since our orders and the books between snapshots change what rests; books and trades are
 * only replayed while the market takes orders (OPEN, and PRE_MARKET with post-only liquidity);
 * while it is halted the last replayed book stays, as the engine keeps resting orders.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { BookEvent, DataEvent, Levels, MarketEvent, TradeEvent } from "../../data/index.js";
import { marketSummary, type MarketSummary } from "../../wire/markets.js";
import type { MatchingEngine } from "../engine/index.js";
import { addressFromLabel } from "../platform/derive.js";
import { flowSchema } from "../platform/flow-schema.js";
import type { LifecycleStatus, MarketStatus, TransitionArgs } from "../platform/lifecycle.js";
import type { Scenario, ScenarioEvent, ScenarioMarket } from "../platform/scenario.js";
import { FlowAccount } from "./trading.js";

// ---- the markets ------------------------------------------------------------------------------

/** A recorded market row, parsed (the MarketSummary of spec 2.6). */
export function parseRecordedRow(e: MarketEvent): MarketSummary {
  let json: unknown;
  try {
    json = JSON.parse(e.row);
  } catch {
    throw new Error(`market event ${e.seq} (${e.symbol}): the row is not JSON`);
  }
  const r = marketSummary.safeParse(json);
  if (!r.success) throw new Error(`market event ${e.seq} (${e.symbol}): not a market row: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return r.data;
}

const abs = (iso: string | null | undefined): { kind: "absolute"; atMs: number } | null => {
  if (iso === null || iso === undefined) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? { kind: "absolute", atMs: ms } : null;
};

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * `base` (platform, partners, wallets, faults) with its events replaced by the recorded markets.
 * `rows`: the first recorded row of each market, in the order first seen; `startMs`: the replay's
 * start (a market without `opensAt` opens then). Wallet positions in markets that are not replayed
 * are dropped.
 */
export function replayScenario(base: Scenario, rows: readonly MarketSummary[], startMs: number): Scenario {
  const flow = flowSchema.parse({ enabled: false });
  const events = new Map<string, ScenarioEvent>();
  const refs = new Set<string>();
  for (const r of rows) {
    refs.add(r.symbol);
    refs.add(r.slug);
    const opensAt = abs(r.tradingWindow.opensAt) ?? { kind: "absolute" as const, atMs: startMs };
    const m: ScenarioMarket = {
      title: r.title,
      groupItemTitle: r.groupItemTitle,
      slug: r.slug,
      symbol: r.symbol,
      outcomeLabels: r.outcomeLabels.length >= 2 ? [...r.outcomeLabels] : Array.from({ length: Math.max(2, r.outcomeCount) }, (_, i) => `Outcome ${i}`),
      feeTakerBps: r.feeTakerBps,
      negRiskEligible: r.negRiskEligible,
      marketType: r.marketType,
      resolutionWindowHours: r.resolutionWindowHours,
      officialDataSource: r.officialDataSource,
      sourceMatchId: r.sourceMatchId,
      resolutionCriteria: r.resolutionCriteria ?? null,
      crypto: null,
      cryptoWindow: null,
      kickoff: abs(r.kickoff),
      tradingWindow: { preMarketStartsAt: abs(r.tradingWindow.preMarketStartsAt), opensAt, closesAt: abs(r.tradingWindow.closesAt) },
      flow,
      actions: [],
    };
    const slug = r.eventSlug ?? `replay-${r.symbol}`;
    let ev = events.get(slug);
    if (ev === undefined) {
      ev = {
        slug,
        title: slug,
        vertical: r.vertical,
        sport: text(r.sport),
        tags: [],
        stage: null,
        group: null,
        homeCountry: text(r.homeCountry),
        awayCountry: text(r.awayCountry),
        kickoff: abs(r.kickoff),
        resolutionCriteriaUrl: null,
        match: null,
        cryptoSeries: null,
        cryptoLongSeries: null,
        markets: [],
      };
      events.set(slug, ev);
    }
    ev.markets.push(m);
  }
  const wallets = base.wallets.map((w) => ({ ...w, balances: { ...w.balances, positions: w.balances.positions.filter((p) => refs.has(p.market)) } }));
  return { ...base, start: { kind: "absolute", atMs: startMs }, wallets, events: [...events.values()] };
}

// ---- the flow ---------------------------------------------------------------------------------

export interface ReplayStats {
  events: number;
  /** Status moves applied / refused by the lifecycle. */
  statusMoves: number;
  statusRefused: number;
  /** Book snapshots replayed; skipped as a binary market's NO side; skipped while the market took no orders. */
  books: number;
  booksComplement: number;
  booksHeld: number;
  /** Liquidity orders posted / cancelled; posted size that traded at once (it crossed one of our orders). */
  liquidityPosted: number;
  liquidityCancelled: number;
  liquidityCrossedQty: Micros;
  /** Recorded trades sent as IOC orders; skipped while the market was not OPEN; their recorded and filled quantity. */
  trades: number;
  tradesSkipped: number;
  tradeQty: Micros;
  tradeFilledQty: Micros;
  /** Events of symbols the simulator does not list, and books of an outcome the market does not have. */
  unknownSymbol: number;
}

export interface ReplayFlowOptions {
  clock: Clock;
  engine: MatchingEngine;
  /** Recorded market events in time order (market, book, trade; other kinds are ignored). */
  source: { next(): DataEvent | undefined };
  /** The market's lifecycle status now (by symbol); undefined for a market the simulator does not list. */
  status: (symbol: string) => LifecycleStatus | undefined;
  /** Move a market's lifecycle (the simulator's setMarketStatus); false when refused. */
  move: (symbol: string, trigger: "set_status" | "resolve" | "void", args: TransitionArgs) => boolean;
  /** Wallets the replay must never use (the scenario's). */
  reserved: ReadonlySet<string>;
  /** Sees each event once it has been applied (tests). */
  onApplied?: (e: DataEvent) => void;
}

function replayWallet(symbol: string, role: string, reserved: ReadonlySet<string>): string {
  for (let n = 0; ; n++) {
    const w = addressFromLabel(`sim:replay:${symbol}:${role}${n === 0 ? "" : `:${n}`}`).toLowerCase();
    if (!reserved.has(w)) return w;
  }
}

interface Accounts {
  lp: FlowAccount;
  taker: FlowAccount;
}

export class ReplayFlow {
  readonly stats: ReplayStats = {
    events: 0,
    statusMoves: 0,
    statusRefused: 0,
    books: 0,
    booksComplement: 0,
    booksHeld: 0,
    liquidityPosted: 0,
    liquidityCancelled: 0,
    liquidityCrossedQty: 0n,
    trades: 0,
    tradesSkipped: 0,
    tradeQty: 0n,
    tradeFilledQty: 0n,
    unknownSymbol: 0,
  };
  private readonly accounts = new Map<string, Accounts>();
  private readonly walletSet = new Set<string>();
  private pending: DataEvent | undefined;
  private timer: TimerHandle | undefined;
  private running = false;

  constructor(private readonly o: ReplayFlowOptions) {}

  /** Apply every event due now, then follow the clock. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.pending ??= this.o.source.next();
    this.pump();
  }

  stop(): void {
    this.running = false;
    this.o.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The replay's wallets (lower-case): liquidity and taker of each market it touched. */
  wallets(): string[] {
    return [...this.walletSet];
  }

  isReplayWallet(wallet: string): boolean {
    return this.walletSet.has(wallet.toLowerCase());
  }

  /** The liquidity wallet of a market. */
  liquidityWallet(symbol: string): string {
    return this.account(symbol).lp.wallet;
  }

  private pump(): void {
    const now = this.o.clock.now();
    while (this.pending !== undefined && this.pending.ts <= now) {
      const e = this.pending;
      this.apply(e);
      this.o.onApplied?.(e);
      this.pending = this.o.source.next();
    }
    if (this.running && this.pending !== undefined) {
      this.timer = this.o.clock.setTimeout(() => {
        this.timer = undefined;
        if (this.running) this.pump();
      }, this.pending.ts - now);
    }
  }

  private apply(e: DataEvent): void {
    if (e.kind !== "market" && e.kind !== "book" && e.kind !== "trade") return;
    this.stats.events++;
    const status = this.o.status(e.symbol);
    if (status === undefined || !this.o.engine.markets.has(e.symbol)) {
      this.stats.unknownSymbol++;
      return;
    }
    if (e.kind === "market") this.applyRow(e, status);
    else if (e.kind === "book") this.applyBook(e, status);
    else this.applyTrade(e, status);
  }

  private applyRow(e: MarketEvent, status: LifecycleStatus): void {
    if (e.status === status || status === "RESOLVED" || status === "VOIDED") return;
    let ok: boolean;
    if (e.status === "RESOLVED") {
      const row = parseRecordedRow(e);
      const nums = (row.payoutNumerators ?? []).map((n) => Number(n));
      ok = this.o.move(e.symbol, "resolve", { payoutNumerators: nums });
    } else if (e.status === "VOIDED") ok = this.o.move(e.symbol, "void", {});
    else ok = this.o.move(e.symbol, "set_status", { status: e.status as MarketStatus });
    if (ok) this.stats.statusMoves++;
    else this.stats.statusRefused++;
  }

  private account(symbol: string): Accounts {
    let a = this.accounts.get(symbol);
    if (a === undefined) {
      const mk = (role: string): FlowAccount => {
        const w = replayWallet(symbol, role, this.o.reserved);
        this.walletSet.add(w);
        return new FlowAccount(this.o.engine, symbol, w);
      };
      a = { lp: mk("lp"), taker: mk("taker") };
      this.accounts.set(symbol, a);
    }
    return a;
  }

  private applyBook(e: BookEvent, status: LifecycleStatus): void {
    const { engine } = this.o;
    const m = engine.market(e.symbol);
    if (m.binary && e.outcome === 1) {
      this.stats.booksComplement++;
      return;
    }
    if (status !== "OPEN" && status !== "PRE_MARKET") {
      this.stats.booksHeld++;
      return;
    }
    if (!Number.isInteger(e.outcome) || e.outcome < 0 || e.outcome >= m.outcomeCount) {
      this.stats.unknownSymbol++;
      return;
    }
    this.stats.books++;
    const { lp } = this.account(e.symbol);
    const target = new Map<string, Micros>();
    const addLevels = (side: Side, l: Levels): void => {
      for (let i = 0; i < l.length; i++) target.set(`${side}|${l.price(i)}`, l.quantity(i));
    };
    addLevels("BUY", e.bids);
    addLevels("SELL", e.asks);
    // Our (the replay's) orders on this book, per level, newest first (openOrders' order).
    const held = new Map<string, { id: string; remaining: Micros }[]>();
    for (const o of engine.openOrders(lp.wallet, e.symbol)) {
      if (o.outcome !== e.outcome) continue;
      const k = `${o.side}|${o.price}`;
      let list = held.get(k);
      if (list === undefined) held.set(k, (list = []));
      list.push({ id: o.id, remaining: o.remainingQty });
    }
    // First take away what is too much (so nothing posted below can meet an order of our own).
    const have = new Map<string, Micros>();
    for (const [k, list] of held) {
      const want = target.get(k) ?? 0n;
      let total = list.reduce((s, x) => s + x.remaining, 0n);
      for (const x of list) {
        if (total <= want) break;
        if (engine.cancel(x.id, lp.wallet).ok) {
          total -= x.remaining;
          this.stats.liquidityCancelled++;
        }
      }
      have.set(k, total);
    }
    // Then post what is missing, best prices first.
    const postOnly = status === "PRE_MARKET";
    const post = (side: Side, l: Levels): void => {
      for (let i = 0; i < l.length; i++) {
        const price = l.price(i);
        const missing = l.quantity(i) - (have.get(`${side}|${price}`) ?? 0n);
        if (missing <= 0n || !lp.fund(e.outcome, side, price, missing)) continue;
        const r = engine.place({ wallet: lp.wallet, marketId: e.symbol, outcome: e.outcome, side, price, quantity: missing, postOnly });
        if (r.status === "REJECTED") continue;
        this.stats.liquidityPosted++;
        this.stats.liquidityCrossedQty += r.filledQty;
      }
    };
    post("BUY", e.bids);
    post("SELL", e.asks);
  }

  private applyTrade(e: TradeEvent, status: LifecycleStatus): void {
    if (status !== "OPEN") {
      this.stats.tradesSkipped++;
      return;
    }
    const { taker } = this.account(e.symbol);
    this.stats.trades++;
    this.stats.tradeQty += e.quantity;
    if (!taker.fund(e.outcome, e.side, e.price, e.quantity)) return;
    const r = this.o.engine.place({ wallet: taker.wallet, marketId: e.symbol, outcome: e.outcome, side: e.side, price: e.price, quantity: e.quantity, timeInForce: "IOC" });
    this.stats.tradeFilledQty += r.filledQty;
  }
}

