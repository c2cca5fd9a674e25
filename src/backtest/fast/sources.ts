/**
 * Market data for a backtest, as one stream of src/data events whatever it comes from:
 *
 * - `syntheticSource`: the simulator's synthetic flow (a Simulator on a virtual clock, flow on, no
 *   daemon, no HTTP) observed every `bookIntervalMs` as a poller of the platform would see it: a
 *   `market` event per market first (the row GET /api/markets serves), then each step the trades
 *   made since the previous step (the public-trade form: outcome, taker side and price, quantity,
 *   id, tradeTs), a `market` event for each market whose status, lifecycle or trading window
 *   changed (judged on the served row, as `mm record` does), and one `book` event per listed,
 *   unsettled market and outcome (both outcomes of a binary market: the orderbook route's engine
 *   view, NO the complement of YES; serverTs = ts = the virtual time). A market that reaches
 *   RESOLVED or VOIDED gets its row and no more books (the recorder stops polling it too).
 *   Times: a book's ts is the step's time, a trade's ts its tradeTs (the instant it happened, so a
 *   latency model can place it between two books), a row change's ts the lifecycle's updatedAt
 *   (clamped into the step); within a step events are ordered by ts, then market, trade, book.
 *   Generated lazily: the clock moves one step only when the events of the last one are used up.
 *   The clock is a synchronous virtual clock (`StepClock`, the VirtualClock's order of timers
 *   without its promise flushes: `next()` is synchronous and nothing in the simulator's flow,
 *   lifecycle or expiry awaits), so the same scenario and seed give the same events.
 * - `recordedSource`: a data set directory (src/data) read in seq order, only market, book, trade
 *   and gap events (own-order events are for calibration), one segment at a time: a segment is
 *   read (synchronously: its column chunks, or its line log) when `next()` reaches it and let go
 *   when its events are used up, so memory holds about one segment's columns, not the data set's
 *   (a sealed segment the fast Parquet path would not take is decoded up front by the general
 *   reader, which is async, and counted in `stats.ahead`). Filtered by symbols and by
 *   `fromMs <= ts < toMs`. The last row of each market before `fromMs` is passed on first, so the
 *   engine knows the markets' state when the window opens. A ts that goes backwards (a real clock
 *   stepped back while recording) is raised to the previous one and counted (`clampedTs`).
 */
import { DataSetReader, Levels, type DataEvent, type EventCursor, type MarketEvent, type SegmentOpener, type TradeEvent } from "../../data/index.js";
import { BOOK_DEFAULT_DEPTH } from "../../sim/http/routes/markets.js";
import { engineQuotes } from "../../sim/http/routes/public-quotes.js";
import { isoOf, marketRowJson, type LifecycleState, type Market, type Scenario } from "../../sim/platform/index.js";
import { Simulator } from "../../sim/simulator.js";
import { DEFAULT_VIRTUAL_START_MS } from "../prepare.js";
import { StepClock } from "./step-clock.js";

export { StepClock };

/** Market data in time order: ts non-decreasing, seq increasing. */
export interface MarketDataSource {
  /** The next event, or undefined at the end. */
  next(): DataEvent | undefined;
  /** What the source is, for the report (e.g. "synthetic: default scenario, seed 42" or "recorded: DIR"). */
  readonly describe: string;
}

export const DEFAULT_BOOK_INTERVAL_MS = 250;
const MAX_DEPTH = 999;
const TERMINAL = new Set(["RESOLVED", "VOIDED"]);
const MARKET_DATA_KINDS = ["market", "book", "trade", "gap"] as const;

// ---- synthetic ------------------------------------------------------------------------------

export interface SyntheticOptions {
  scenario: Scenario;
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Virtual start; default the scenario's absolute start, else DEFAULT_VIRTUAL_START_MS. */
  startMs?: number;
  durationMs: number;
  /** Books every this many ms (default 250, like the daemon's poll). */
  bookIntervalMs?: number;
  /** Levels per side (default 50, the orderbook route's default; at most 999). */
  depth?: number;
  /** Only these markets (by symbol); default every market of the scenario. */
  symbols?: string[];
  /** The scenario's name in `describe` (default "scenario"). */
  name?: string;
}

interface Followed {
  market: Market;
  /** The lifecycle state last looked at (replaced, never mutated, on every change). */
  state: LifecycleState | undefined;
  /** status, lifecycle and trading window of the last row passed on; undefined before the first. */
  key: string | undefined;
  books: boolean;
}

/** Order of events at the same ts within a step. */
const RANK: Partial<Record<DataEvent["kind"], number>> = { market: 0, trade: 1, book: 2 };

function positiveInt(name: string, v: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max} (got ${String(v)})`);
  }
  return v;
}

export class SyntheticSource implements MarketDataSource {
  readonly describe: string;
  readonly clock: StepClock;
  readonly sim: Simulator;
  readonly startMs: number;
  readonly endMs: number;
  readonly bookIntervalMs: number;
  readonly depth: number;
  private readonly followed: Followed[];
  private readonly bySymbol = new Map<string, Followed>();
  private buf: DataEvent[] = [];
  private at = 0;
  private seq = 0;
  private lastTs: number;
  /** Trade log rows below this were looked at. */
  private tradeRow: number;
  /** Time of the next step; undefined when the last one is done. */
  private nextStep: number | undefined;

  constructor(o: SyntheticOptions) {
    const durationMs = positiveInt("durationMs", o.durationMs);
    this.bookIntervalMs = positiveInt("bookIntervalMs", o.bookIntervalMs ?? DEFAULT_BOOK_INTERVAL_MS);
    this.depth = positiveInt("depth", o.depth ?? BOOK_DEFAULT_DEPTH, MAX_DEPTH);
    if (o.seed !== undefined && !(Number.isInteger(o.seed) && o.seed >= 0 && o.seed <= 0xffffffff)) {
      throw new RangeError(`seed must be an integer from 0 to 4294967295 (got ${String(o.seed)})`);
    }
    const startMs = o.startMs ?? (o.scenario.start.kind === "absolute" ? o.scenario.start.atMs : DEFAULT_VIRTUAL_START_MS);
    if (!Number.isSafeInteger(startMs) || startMs < 0) throw new RangeError(`startMs must be a whole number of ms since the epoch (got ${String(startMs)})`);
    this.startMs = startMs;
    this.endMs = startMs + durationMs;
    this.clock = new StepClock(startMs);
    this.sim = new Simulator(o.scenario, {
      clock: this.clock,
      startMs,
      verifySignatures: false,
      pepper: new Uint8Array(32),
      recoveryCache: null,
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
    });
    const all = this.sim.platform.catalogue.markets("all", true);
    if (o.symbols !== undefined) {
      const known = new Set(all.map((m) => m.symbol));
      const unknown = o.symbols.filter((s) => !known.has(s));
      if (unknown.length > 0) throw new RangeError(`symbols: no market ${unknown.map((s) => JSON.stringify(s)).join(", ")} in the scenario (it has ${[...known].join(", ")})`);
    }
    const want = o.symbols === undefined ? undefined : new Set(o.symbols);
    this.followed = all.filter((m) => want === undefined || want.has(m.symbol)).map((market) => ({ market, state: undefined, key: undefined, books: false }));
    for (const f of this.followed) this.bySymbol.set(f.market.symbol, f);
    this.tradeRow = this.sim.engine.ledger.tradeLog.count;
    this.lastTs = startMs;
    this.nextStep = startMs;
    const seed = o.seed ?? o.scenario.seed;
    this.describe = `synthetic: ${o.name ?? "scenario"}, seed ${seed}, ${isoOf(startMs)} + ${durationMs} ms, books every ${this.bookIntervalMs} ms, depth ${this.depth}, ${this.followed.length} markets`;
    this.sim.start();
  }

  next(): DataEvent | undefined {
    while (this.at >= this.buf.length) {
      if (this.nextStep === undefined) return undefined;
      this.step(this.nextStep);
    }
    return this.buf[this.at++];
  }

  /** Advance to `t` and buffer what a poller would have seen since the previous step. */
  private step(t: number): void {
    this.clock.advanceTo(t);
    const out: DataEvent[] = [];
    this.collectTrades(out);
    this.collectRows(t, out);
    for (const f of this.followed) if (f.books) this.collectBooks(f, t, out);
    out.sort((a, b) => a.ts - b.ts || (RANK[a.kind] ?? 3) - (RANK[b.kind] ?? 3));
    for (const e of out) e.seq = ++this.seq;
    if (out.length > 0) this.lastTs = out[out.length - 1]!.ts;
    this.buf = out;
    this.at = 0;
    if (t >= this.endMs) {
      this.nextStep = undefined;
      this.sim.stop();
    } else this.nextStep = Math.min(t + this.bookIntervalMs, this.endMs);
  }

  private collectTrades(out: DataEvent[]): void {
    const log = this.sim.engine.ledger.tradeLog;
    for (; this.tradeRow < log.count; this.tradeRow++) {
      const t = log.get(this.tradeRow);
      if (!this.bySymbol.has(t.marketId)) continue;
      const e: TradeEvent = {
        kind: "trade",
        seq: 0,
        ts: Math.max(t.createdAtMs, this.lastTs),
        id: t.id,
        symbol: t.marketId,
        outcome: t.outcome,
        side: t.side,
        price: t.price,
        quantity: t.quantity,
        tradeTs: t.createdAtMs,
      };
      out.push(e);
    }
  }

  private collectRows(t: number, out: DataEvent[]): void {
    const cat = this.sim.platform.catalogue;
    let quotes: ReturnType<typeof engineQuotes> | undefined;
    for (const f of this.followed) {
      const st = cat.lifecycle(f.market.id);
      if (st === f.state) continue;
      f.state = st;
      if (st.status === "SCHEDULED") continue; // not listed: the platform serves no row, no book
      quotes ??= engineQuotes(this.sim.engine, cat, t);
      const row = marketRowJson(cat, f.market, quotes, "full", t);
      const key = JSON.stringify([row.status, row.lifecycle, row.tradingWindow]);
      if (key === f.key) continue;
      f.key = key;
      f.books = !TERMINAL.has(row.status);
      const e: MarketEvent = { kind: "market", seq: 0, ts: Math.min(t, Math.max(this.lastTs, st.updatedAtMs)), symbol: row.symbol, status: row.status, row: JSON.stringify(row) };
      out.push(e);
    }
  }

  private collectBooks(f: Followed, t: number, out: DataEvent[]): void {
    const symbol = f.market.symbol;
    for (let outcome = 0; outcome < f.market.outcomeCount; outcome++) {
      const snap = this.sim.engine.book(symbol, outcome, this.depth);
      out.push({ kind: "book", seq: 0, ts: t, symbol, outcome, serverTs: t, bids: levels(snap.bids), asks: levels(snap.asks) });
    }
  }
}

function levels(l: readonly { price: bigint; quantity: bigint }[]): Levels {
  const n = l.length;
  if (n === 0) return Levels.EMPTY;
  const p = new BigInt64Array(n);
  const q = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    p[i] = l[i]!.price;
    q[i] = l[i]!.quantity;
  }
  return new Levels(p, q, 0, n);
}

export function syntheticSource(opts: SyntheticOptions): MarketDataSource {
  return new SyntheticSource(opts);
}

// ---- recorded -------------------------------------------------------------------------------

export interface RecordedOptions {
  /** Only these markets (by symbol). */
  symbols?: string[];
  /** Events with fromMs <= ts < toMs (ts: the recording's local time). */
  fromMs?: number;
  toMs?: number;
}

/** How far a RecordedSource has read its data set. */
export interface RecordedStats {
  /** Segments in the data set. */
  segments: number;
  /** Segments opened so far (read, or handed over when decoded ahead). */
  opened: number;
  /** Segments decoded up front (the general Parquet reader, async). */
  ahead: number;
  /** Segments opened and not let go: at most 1 (0 before the first and after the last). */
  held: number;
}

export class RecordedSource implements MarketDataSource {
  readonly describe: string;
  /** Events whose ts went backwards and were raised to the previous one. */
  clampedTs = 0;
  readonly stats: RecordedStats;
  private seg = 0;
  /** The segment being read (only one at a time). */
  private cur: EventCursor | undefined;
  private lastTs = -Infinity;
  /** Rows of each market before `fromMs` (the last one of each), passed on before the first event in the window. */
  private carried: DataEvent[] | undefined;
  private readonly symbols: ReadonlySet<string> | undefined;
  private readonly fromMs: number;
  private readonly toMs: number;
  /** Openers not yet opened (each is dropped once opened, with what it held). */
  private readonly openers: (SegmentOpener | undefined)[];

  constructor(
    readonly dir: string,
    openers: readonly SegmentOpener[],
    opts: RecordedOptions,
  ) {
    this.openers = [...openers];
    this.stats = { segments: openers.length, opened: 0, ahead: openers.filter((o) => o.ahead).length, held: 0 };
    this.symbols = opts.symbols === undefined ? undefined : new Set(opts.symbols);
    this.fromMs = opts.fromMs ?? -Infinity;
    this.toMs = opts.toMs ?? Infinity;
    const parts = [`recorded: ${dir}`];
    if (opts.symbols !== undefined) parts.push(`symbols ${opts.symbols.join(",")}`);
    if (opts.fromMs !== undefined) parts.push(`from ${isoOf(opts.fromMs)}`);
    if (opts.toMs !== undefined) parts.push(`to ${isoOf(opts.toMs)}`);
    this.describe = parts.join(", ");
  }

  next(): DataEvent | undefined {
    if (this.carried !== undefined && this.carried.length > 0) return this.out(this.carried.shift()!);
    for (;;) {
      const e = this.pull();
      if (e === undefined) return undefined;
      if (e.kind !== "market" && e.kind !== "book" && e.kind !== "trade" && e.kind !== "gap") continue;
      if (this.symbols !== undefined && !this.symbols.has(e.symbol)) continue;
      if (e.ts >= this.toMs) {
        this.finish(); // seq order is the recording's time order: nothing later is in range
        return undefined;
      }
      if (e.ts < this.fromMs) {
        if (e.kind === "market") this.carry(e);
        continue;
      }
      if (this.carried !== undefined) {
        const first = this.carried.shift();
        if (first !== undefined) {
          this.carried.push(e);
          return this.out(first);
        }
        this.carried = undefined;
      }
      return this.out(e);
    }
  }

  /** The next event of the data set, opening the next segment when this one is used up. */
  private pull(): DataEvent | undefined {
    for (;;) {
      if (this.cur === undefined) {
        if (this.seg >= this.openers.length) return undefined;
        const opener = this.openers[this.seg]!;
        this.openers[this.seg] = undefined;
        this.cur = opener.open();
        this.stats.opened += 1;
        this.stats.held = 1;
      }
      const e = this.cur.next();
      if (e !== undefined) return e;
      this.cur = undefined;
      this.stats.held = 0;
      this.seg += 1;
    }
  }

  private finish(): void {
    this.cur = undefined;
    this.stats.held = 0;
    for (let i = this.seg; i < this.openers.length; i++) this.openers[i] = undefined;
    this.seg = this.openers.length;
  }

  private carry(e: MarketEvent): void {
    this.carried ??= [];
    const i = this.carried.findIndex((c) => c.kind === "market" && c.symbol === e.symbol);
    if (i >= 0) this.carried.splice(i, 1);
    this.carried.push(e);
  }

  private out(e: DataEvent): DataEvent {
    if (e.ts < this.lastTs) {
      e.ts = this.lastTs;
      this.clampedTs += 1;
    }
    this.lastTs = e.ts;
    return e;
  }
}

/**
 * A recorded data set as market data. Segments are read as `next()` reaches them (see
 * `RecordedSource`); only the footers are read here (to tell which segments the fast path takes),
 * plus any segment the general Parquet reader must decode, which is async.
 */
export async function recordedSource(dir: string, opts: RecordedOptions = {}): Promise<MarketDataSource> {
  for (const k of ["fromMs", "toMs"] as const) {
    const v = opts[k];
    if (v !== undefined && !(typeof v === "number" && Number.isFinite(v))) throw new RangeError(`${k} must be a time in ms since the epoch (got ${String(v)})`);
  }
  if (opts.fromMs !== undefined && opts.toMs !== undefined && opts.toMs < opts.fromMs) throw new RangeError(`toMs (${opts.toMs}) is before fromMs (${opts.fromMs})`);
  if (opts.symbols !== undefined && opts.symbols.some((s) => typeof s !== "string" || s === "")) throw new RangeError("symbols must be non-empty strings");
  const reader = new DataSetReader(dir, { kinds: MARKET_DATA_KINDS });
  const openers = await reader.openers();
  if (openers.length === 0) throw new Error(`${dir}: no data set here (no seg-NNNNNN files)`);
  return new RecordedSource(dir, openers, opts);
}
