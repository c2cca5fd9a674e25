/**
 * Time series of a backtest, for the JSON report and the HTML report (report-html/), the same for
 * both engines. The engine gives a `SeriesProbe` (what it holds now: mids, PnL, positions, our live
 * orders) and calls three hooks:
 *
 *   advance(ts)  before it applies anything stamped ts > the previous call (the full engine: after
 *                each clock step; the fast engine: when its data moves on). Samples are taken at
 *                the grid points passed, markouts whose horizon has passed are resolved, day
 *                boundaries are closed: all with the state as it was just before ts.
 *   fill(f)      each of our fills, once, after the inventory applied it.
 *   finish(ts)   at the end of the data / trading: a last sample, the day closed, the summaries.
 *
 * Sampling grid: every `stepMs` of virtual time (1 s to start with) on multiples of the step. When
 * more than `maxPoints` samples are held, every other one is dropped and the step doubles, so a
 * one-day run keeps between maxPoints/2 and maxPoints samples and a sample costs O(1) amortised.
 *
 * Money stays bigint micros until `finish` formats it as decimal strings (formatMicros).
 * Definitions (docs/backtest.md "Time series"):
 *   equity:     realised, unrealised (at the mids) and fees from the engine's own inventory;
 *               net = realised + unrealised - fees; drawdown = running peak of net - net;
 *   spread captured: per fill (mid at the fill - price) x qty for a buy, (price - mid) x qty for a
 *               sell, rounded down once over the sum;
 *   settlement: per market settled during the run, position held x (payout - last mid seen);
 *   inventory mark-to-market: net - spread captured + fees - settlement: what the held shares
 *               gained or lost as the mid moved (the identity holds to the micro by construction).
 */
import { divRound, formatMicros, type Micros } from "../core/money.js";
import { MARKOUT_HORIZONS_MS, MarkoutSums, markoutPerShare, type FillSide, type MarkoutGroup } from "./markouts.js";

const DAY_MS = 86_400_000;

export interface SeriesProbe {
  /** The markets to show, in order (called at each sample: markets may appear during the run). */
  markets(): readonly string[];
  /** Outcome labels of a market (from its market row). */
  labels(marketId: string): readonly string[];
  /** The mid now, micros per share; undefined when the book lacks a side. */
  mid(marketId: string, outcome: number): Micros | undefined;
  /** A settled market's payout per share per outcome; undefined while unsettled. */
  payout?(marketId: string, outcome: number): Micros | undefined;
  /** Our PnL now over all our wallets, positions at the mids; `net` when it is rounded apart (else realised + unrealised - fees). */
  pnl(): { realised: Micros; unrealised: Micros; fees: Micros; net?: Micros };
  /** Our position now (all wallets) in a market outcome. */
  position(marketId: string, outcome: number): Micros;
  /** Our live orders now on a market. */
  quotes(marketId: string): Iterable<{ outcome: number; side: FillSide; price: Micros }>;
  /** Open for orders now (quote uptime counts only then). */
  tradable(marketId: string): boolean;
}

export interface SeriesFill {
  ts: number;
  marketId: string;
  outcome: number;
  side: FillSide;
  role: string;
  price: Micros;
  qty: Micros;
  fee: Micros;
}

export interface SeriesOptions {
  /** First sampling step (default 1000 ms). */
  stepMs?: number;
  /** Samples held before the step doubles (default 2000). */
  maxPoints?: number;
  horizonsMs?: readonly number[];
}

/** One line of a per-outcome series. */
export interface OutcomeLine<T> {
  marketId: string;
  outcome: number;
  label: string;
  values: T[];
}

export interface DayRow {
  /** UTC date, YYYY-MM-DD. */
  day: string;
  /** Virtual time covered that day, ms (the first and last day may be partial). */
  coveredMs: number;
  /** Net equity at the day's end - at its start. */
  pnl: string;
  /** Notional traded (sum of price x qty, rounded down). */
  volume: string;
  fills: number;
  fees: string;
  /** Largest fall of net equity from its running peak within the day (the peak starts at the day's opening equity). */
  maxDrawdown: string;
}

export interface SeriesReport {
  /** The step of the samples kept (ms). */
  stepMs: number;
  horizonsMs: number[];
  markets: { marketId: string; labels: string[] }[];
  samples: {
    /** Epoch ms. */
    t: number[];
    /** Equity at each sample (column names apart from the report's single figures). */
    realisedPnl: string[];
    unrealisedPnl: string[];
    feesPaid: string[];
    netPnl: string[];
    drawdown: string[];
    /** Our position per market outcome (shares). */
    inventory: OutcomeLine<string>[];
    /** The mid; null when the book lacked a side. */
    mid: OutcomeLine<string | null>[];
    /** Our best live bid / ask; null when none. */
    bid: OutcomeLine<string | null>[];
    ask: OutcomeLine<string | null>[];
    /** Per market: 1 we had a live order, 0 none, null the market was not open for orders. */
    quoting: { marketId: string; values: (0 | 1 | null)[] }[];
  };
  /** Every fill, column-wise. */
  fills: {
    t: number[];
    marketId: string[];
    outcome: number[];
    label: string[];
    side: FillSide[];
    role: string[];
    price: string[];
    qty: string[];
    fee: string[];
    /** The mid when the fill happened (null: none). */
    mid: (string | null)[];
    /** Per horizon (horizonsMs order), the signed markout per share of each fill; null when not known. */
    markouts: (string | null)[][];
  };
  markouts: MarkoutGroup[];
  /** Markouts not computed: horizon past the end of the data, or no mid then. */
  markoutsMissing: number;
  pnlDecomposition: {
    spreadCaptured: string;
    inventoryMarkToMarket: string;
    /** Fees paid, as a positive figure (net subtracts it). */
    fees: string;
    settlement: string;
    /** spreadCaptured + inventoryMarkToMarket - fees + settlement. */
    net: string;
    /** Fills without a mid when they happened (their spread is left in mark-to-market). */
    fillsWithoutMid: number;
  };
  drawdown: { max: string; at: number | null; peakAt: number | null };
  /** Per market over the samples while it was open: samples with a live order of ours / samples. */
  uptime: { marketId: string; samples: number; live: number; fraction: string | null }[];
  days: DayRow[];
  /** Over whole and partial days alike; stdev the sample standard deviation (n - 1); null with fewer than 2 days. */
  daily: { days: number; meanPnl: string | null; stdevPnl: string | null; meanOverStdev: string | null };
}

interface Pending {
  due: number;
  fill: number;
  marketId: string;
  outcome: number;
  side: FillSide;
  role: string;
  price: Micros;
  qty: Micros;
}

interface Day {
  start: number;
  from: number;
  to: number;
  open: Micros;
  close: Micros;
  volume2: bigint;
  fills: number;
  fees: Micros;
  peak: Micros;
  maxDd: Micros;
}

const key = (m: string, o: number): string => `${m}|${o}`;
const fmtOpt = (v: Micros | undefined | null): string | null => (v === undefined || v === null ? null : formatMicros(v));

/** Integer square root (floor) of a non-negative bigint. */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new Error("isqrt of a negative number");
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

export class SeriesRecorder {
  private readonly probe: SeriesProbe;
  private readonly maxPoints: number;
  readonly horizonsMs: readonly number[];
  private stepMs: number;
  private nextAt: number | undefined;
  private lastTs: number | undefined;

  // samples, bigint until finish
  private readonly t: number[] = [];
  private readonly realised: Micros[] = [];
  private readonly unrealised: Micros[] = [];
  private readonly fees: Micros[] = [];
  private readonly net: Micros[] = [];
  private readonly lines = new Map<string, { marketId: string; outcome: number; inv: Micros[]; mid: (Micros | undefined)[]; bid: (Micros | undefined)[]; ask: (Micros | undefined)[] }>();
  private readonly quoting = new Map<string, (0 | 1 | null)[]>();
  private readonly uptime = new Map<string, { samples: number; live: number }>();
  private peak: Micros | undefined;
  private peakAt: number | null = null;
  private maxDd: Micros = 0n;
  private maxDdAt: number | null = null;
  private ddPeakAt: number | null = null;

  // fills
  private readonly fillRows: SeriesFill[] = [];
  private readonly fillMid: (Micros | undefined)[] = [];
  private readonly fillMarkouts: (Micros | undefined)[][] = [];
  private readonly pending: Pending[][];
  private readonly pendingHead: number[];
  private readonly sums = new MarkoutSums();
  private missing = 0;
  private spread2 = 0n;
  private fillsWithoutMid = 0;

  // mids seen last (for settlement), settled markets
  private readonly lastMid = new Map<string, Micros>();
  private readonly settled = new Set<string>();
  private settlement2 = 0n;

  private readonly days: Day[] = [];
  private day: Day | undefined;
  private finished: SeriesReport | undefined;

  constructor(probe: SeriesProbe, o: SeriesOptions = {}) {
    this.probe = probe;
    this.stepMs = o.stepMs ?? 1_000;
    this.maxPoints = o.maxPoints ?? 2_000;
    this.horizonsMs = o.horizonsMs ?? MARKOUT_HORIZONS_MS;
    if (!(this.stepMs >= 1 && Number.isInteger(this.stepMs))) throw new Error(`series: stepMs must be a whole number of ms >= 1 (got ${this.stepMs})`);
    if (!(this.maxPoints >= 4 && Number.isInteger(this.maxPoints))) throw new Error(`series: maxPoints must be a whole number >= 4 (got ${this.maxPoints})`);
    this.pending = this.horizonsMs.map(() => []);
    this.pendingHead = this.horizonsMs.map(() => 0);
  }

  /** The state is as it was just before `ts`: sample the grid points, markouts and day ends before it. */
  advance(ts: number): void {
    if (this.lastTs === undefined) {
      this.lastTs = ts;
      this.nextAt = Math.ceil(ts / this.stepMs) * this.stepMs;
      this.openDay(Math.floor(ts / DAY_MS) * DAY_MS, ts, this.netNow());
      return;
    }
    if (ts <= this.lastTs) return;
    this.resolveMarkouts(ts);
    // The state is constant over (lastTs, ts): samples and day ends in that span all read it.
    for (;;) {
      const end = this.day!.start + DAY_MS;
      const until = Math.min(ts, end);
      while (this.nextAt! < until) {
        this.sample(this.nextAt!);
        this.nextAt! += this.stepMs;
        if (this.t.length > this.maxPoints) this.decimate();
      }
      if (end > ts) break;
      const net = this.netNow();
      this.noteDay(this.day!, end, net);
      this.openDay(end, end, net);
    }
    this.lastTs = ts;
  }

  private netNow(): Micros {
    const p = this.probe.pnl();
    return p.net ?? p.realised + p.unrealised - p.fees;
  }

  private openDay(start: number, from: number, open: Micros): void {
    const d: Day = { start, from, to: from, open, close: open, volume2: 0n, fills: 0, fees: 0n, peak: open, maxDd: 0n };
    this.days.push(d);
    this.day = d;
  }

  private noteDay(d: Day, at: number, net: Micros): void {
    d.close = net;
    d.to = at;
    if (net > d.peak) d.peak = net;
    if (d.peak - net > d.maxDd) d.maxDd = d.peak - net;
  }

  fill(f: SeriesFill): void {
    const i = this.fillRows.length;
    this.fillRows.push(f);
    const mid = this.midOf(f.marketId, f.outcome);
    this.fillMid.push(mid);
    this.fillMarkouts.push(this.horizonsMs.map(() => undefined));
    if (mid === undefined) this.fillsWithoutMid++;
    else this.spread2 += markoutPerShare(f.side, f.price, mid) * f.qty;
    this.horizonsMs.forEach((h, hi) => this.pending[hi]!.push({ due: f.ts + h, fill: i, marketId: f.marketId, outcome: f.outcome, side: f.side, role: f.role, price: f.price, qty: f.qty }));
    const d = this.dayAt(f.ts);
    d.fills++;
    d.fees += f.fee;
    d.volume2 += f.price * f.qty;
  }

  private midOf(marketId: string, outcome: number): Micros | undefined {
    const k = key(marketId, outcome);
    if (this.settled.has(marketId)) return this.lastMid.get(k);
    const payout = this.probe.payout?.(marketId, outcome);
    if (payout !== undefined) {
      this.settle(marketId);
      return this.lastMid.get(k);
    }
    const m = this.probe.mid(marketId, outcome);
    if (m !== undefined) this.lastMid.set(k, m);
    return m;
  }

  /** A market seen settled: its held positions move from the last mid to the payout. */
  private settle(marketId: string): void {
    if (this.settled.has(marketId)) return;
    this.settled.add(marketId);
    const n = this.probe.labels(marketId).length;
    for (let o = 0; o < n; o++) {
      const payout = this.probe.payout!(marketId, o);
      if (payout === undefined) continue;
      const k = key(marketId, o);
      const before = this.lastMid.get(k);
      // Held before the payout (the inventory may show it redeemed already: use our own fills' sum).
      const held = this.heldFromFills(marketId, o);
      if (before !== undefined) this.settlement2 += held * (payout - before);
      this.lastMid.set(k, payout);
    }
  }

  private heldFromFills(marketId: string, outcome: number): Micros {
    let q = 0n;
    for (const f of this.fillRows) if (f.marketId === marketId && f.outcome === outcome) q += f.side === "BUY" ? f.qty : -f.qty;
    return q;
  }

  private resolveMarkouts(before: number): void {
    for (let hi = 0; hi < this.pending.length; hi++) {
      const q = this.pending[hi]!;
      let head = this.pendingHead[hi]!;
      while (head < q.length && q[head]!.due < before) {
        const p = q[head++]!;
        const mid = this.midOf(p.marketId, p.outcome);
        if (mid === undefined) {
          this.missing++;
          continue;
        }
        const per = markoutPerShare(p.side, p.price, mid);
        this.fillMarkouts[p.fill]![hi] = per;
        this.sums.add(p.side, p.role, hi, per, p.qty);
      }
      if (head > 1024 && head * 2 > q.length) {
        q.splice(0, head);
        head = 0;
      }
      this.pendingHead[hi] = head;
    }
  }

  private line(marketId: string, outcome: number): { marketId: string; outcome: number; inv: Micros[]; mid: (Micros | undefined)[]; bid: (Micros | undefined)[]; ask: (Micros | undefined)[] } {
    const k = key(marketId, outcome);
    let l = this.lines.get(k);
    if (l === undefined) {
      // A line that appears late is padded back to the first sample (the current one is pushed next).
      const n = this.t.length - 1;
      this.lines.set(k, (l = { marketId, outcome, inv: new Array<Micros>(n).fill(0n), mid: new Array<Micros | undefined>(n).fill(undefined), bid: new Array<Micros | undefined>(n).fill(undefined), ask: new Array<Micros | undefined>(n).fill(undefined) }));
    }
    return l;
  }

  private sample(at: number): void {
    const pnl = this.probe.pnl();
    const net = pnl.net ?? pnl.realised + pnl.unrealised - pnl.fees;
    this.t.push(at);
    this.realised.push(pnl.realised);
    this.unrealised.push(pnl.unrealised);
    this.fees.push(pnl.fees);
    this.net.push(net);
    if (this.peak === undefined || net > this.peak) {
      this.peak = net;
      this.peakAt = at;
    }
    const dd = this.peak - net;
    if (dd > this.maxDd) {
      this.maxDd = dd;
      this.maxDdAt = at;
      this.ddPeakAt = this.peakAt;
    }
    this.noteDay(this.day!, at, net);

    const n = this.t.length;
    for (const m of this.probe.markets()) {
      const labels = this.probe.labels(m);
      const best = new Map<string, Micros>();
      for (const q of this.probe.quotes(m)) {
        const k = `${q.outcome}|${q.side}`;
        const b = best.get(k);
        if (b === undefined || (q.side === "BUY" ? q.price > b : q.price < b)) best.set(k, q.price);
      }
      for (let o = 0; o < labels.length; o++) {
        const l = this.line(m, o);
        l.inv.push(this.probe.position(m, o));
        l.mid.push(this.midOf(m, o));
        l.bid.push(best.get(`${o}|BUY`));
        l.ask.push(best.get(`${o}|SELL`));
      }
      let qs = this.quoting.get(m);
      if (qs === undefined) this.quoting.set(m, (qs = new Array<0 | 1 | null>(n - 1).fill(null)));
      const open = this.probe.tradable(m);
      const live = best.size > 0;
      qs.push(open ? (live ? 1 : 0) : null);
      if (open) {
        let u = this.uptime.get(m);
        if (u === undefined) this.uptime.set(m, (u = { samples: 0, live: 0 }));
        u.samples++;
        if (live) u.live++;
      }
    }
    // Lines of markets no longer listed keep their length.
    for (const l of this.lines.values()) {
      while (l.inv.length < n) {
        l.inv.push(l.inv[l.inv.length - 1] ?? 0n);
        l.mid.push(undefined);
        l.bid.push(undefined);
        l.ask.push(undefined);
      }
    }
    for (const qs of this.quoting.values()) while (qs.length < n) qs.push(null);
  }

  /** Keep every other sample (the even indexes, on the doubled grid) and double the step. */
  private decimate(): void {
    const keep = <T>(a: T[]): void => {
      let j = 0;
      for (let i = 0; i < a.length; i += 2) a[j++] = a[i]!;
      a.length = j;
    };
    // Align to the doubled grid: drop the first sample when it is not on it.
    const step2 = this.stepMs * 2;
    const off = this.t[0]! % step2 === 0 ? 0 : 1;
    const all: unknown[][] = [this.t, this.realised, this.unrealised, this.fees, this.net];
    for (const l of this.lines.values()) all.push(l.inv, l.mid, l.bid, l.ask);
    for (const q of this.quoting.values()) all.push(q);
    for (const a of all) {
      if (off === 1) a.shift();
      keep(a);
    }
    this.stepMs = step2;
    this.nextAt = Math.ceil(this.nextAt! / step2) * step2;
  }

  /** The day a fill stamped `ts` counts in: the current one (a stamp before it, from a late report, counts there too). */
  private dayAt(ts: number): Day {
    if (this.day === undefined) this.advance(ts);
    let d = this.day!;
    for (let i = this.days.length - 1; i >= 0 && this.days[i]!.start > ts; i--) d = this.days[i - 1] ?? d;
    return d;
  }

  /** The last sample at `ts` (the end), the summaries; the recorder takes nothing after this. */
  finish(ts: number): SeriesReport {
    if (this.finished !== undefined) return this.finished;
    this.advance(ts);
    this.resolveMarkouts(ts + 1);
    if (this.t[this.t.length - 1] !== ts) this.sample(ts);
    this.pending.forEach((q, hi) => (this.missing += q.length - this.pendingHead[hi]!));
    this.finished = this.build();
    return this.finished;
  }

  private build(): SeriesReport {
    const f = formatMicros;
    const lines = [...this.lines.values()].sort((a, b) => (a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : a.outcome - b.outcome));
    const label = (m: string, o: number): string => this.probe.labels(m)[o] ?? `outcome ${o}`;
    const lineOf = <T>(pick: (l: (typeof lines)[number]) => T[]): OutcomeLine<T>[] => lines.map((l) => ({ marketId: l.marketId, outcome: l.outcome, label: label(l.marketId, l.outcome), values: pick(l) }));
    const marketIds = [...new Set([...lines.map((l) => l.marketId), ...this.fillRows.map((r) => r.marketId)])].sort();
    const n = this.net.length;
    const last = n > 0 ? this.net[n - 1]! : 0n;
    const fees = n > 0 ? this.fees[n - 1]! : 0n;
    const spread = divRound(this.spread2, 1_000_000n, "floor");
    const settlement = divRound(this.settlement2, 1_000_000n, "floor");
    // drawdown series from the kept samples
    let peak: Micros | undefined;
    const drawdown = this.net.map((v) => {
      if (peak === undefined || v > peak) peak = v;
      return f(peak - v);
    });
    const dayRows: DayRow[] = this.days.map((d) => ({
      day: new Date(d.start).toISOString().slice(0, 10),
      coveredMs: Math.max(0, d.to - d.from),
      pnl: f(d.close - d.open),
      volume: f(divRound(d.volume2, 1_000_000n, "floor")),
      fills: d.fills,
      fees: f(d.fees),
      maxDrawdown: f(d.maxDd),
    }));
    return {
      stepMs: this.stepMs,
      horizonsMs: [...this.horizonsMs],
      markets: marketIds.map((m) => ({ marketId: m, labels: [...this.probe.labels(m)] })),
      samples: {
        t: [...this.t],
        realisedPnl: this.realised.map(f),
        unrealisedPnl: this.unrealised.map(f),
        feesPaid: this.fees.map(f),
        netPnl: this.net.map(f),
        drawdown,
        inventory: lineOf((l) => l.inv.map(f)),
        mid: lineOf((l) => l.mid.map(fmtOpt)),
        bid: lineOf((l) => l.bid.map(fmtOpt)),
        ask: lineOf((l) => l.ask.map(fmtOpt)),
        quoting: [...this.quoting.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([marketId, values]) => ({ marketId, values })),
      },
      fills: {
        t: this.fillRows.map((r) => r.ts),
        marketId: this.fillRows.map((r) => r.marketId),
        outcome: this.fillRows.map((r) => r.outcome),
        label: this.fillRows.map((r) => label(r.marketId, r.outcome)),
        side: this.fillRows.map((r) => r.side),
        role: this.fillRows.map((r) => r.role),
        price: this.fillRows.map((r) => f(r.price)),
        qty: this.fillRows.map((r) => f(r.qty)),
        fee: this.fillRows.map((r) => f(r.fee)),
        mid: this.fillMid.map(fmtOpt),
        markouts: this.horizonsMs.map((_, hi) => this.fillMarkouts.map((row) => fmtOpt(row[hi]))),
      },
      markouts: this.sums.groups(this.horizonsMs),
      markoutsMissing: this.missing,
      pnlDecomposition: {
        spreadCaptured: f(spread),
        inventoryMarkToMarket: f(last - spread + fees - settlement),
        fees: f(fees),
        settlement: f(settlement),
        net: f(last),
        fillsWithoutMid: this.fillsWithoutMid,
      },
      drawdown: { max: f(this.maxDd), at: this.maxDdAt, peakAt: this.ddPeakAt },
      uptime: [...this.uptime.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([marketId, u]) => ({ marketId, samples: u.samples, live: u.live, fraction: u.samples === 0 ? null : (Math.floor((u.live / u.samples) * 10_000) / 10_000).toFixed(4) })),
      days: dayRows,
      daily: dailyStats(this.days.map((d) => d.close - d.open)),
    };
  }
}

/** Mean, sample stdev and their ratio of daily PnL (micros): exact sums, floor at the end. */
export function dailyStats(pnl: readonly Micros[]): SeriesReport["daily"] {
  const n = BigInt(pnl.length);
  if (n === 0n) return { days: 0, meanPnl: null, stdevPnl: null, meanOverStdev: null };
  const sum = pnl.reduce((a, b) => a + b, 0n);
  const mean = divRound(sum, n, "floor");
  if (n < 2n) return { days: pnl.length, meanPnl: formatMicros(mean), stdevPnl: null, meanOverStdev: null };
  // variance = sum((n x_i - S)^2) / (n^2 (n - 1)), exact; stdev its floor square root (micros).
  let ss = 0n;
  for (const x of pnl) ss += (n * x - sum) ** 2n;
  const stdev = isqrt(ss / (n * n * (n - 1n)));
  // mean / stdev to four places, rounded down: S / n / stdev.
  const ratio = stdev === 0n ? null : divRound(sum * 10_000n, n * stdev, "floor");
  return {
    days: pnl.length,
    meanPnl: formatMicros(mean),
    stdevPnl: formatMicros(stdev),
    meanOverStdev: ratio === null ? null : formatRatio(ratio),
  };
}

function formatRatio(tenThousandths: bigint): string {
  const neg = tenThousandths < 0n;
  const a = neg ? -tenThousandths : tenThousandths;
  return `${neg ? "-" : ""}${a / 10_000n}.${(a % 10_000n).toString().padStart(4, "0")}`;
}
