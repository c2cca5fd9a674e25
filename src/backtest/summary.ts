/**
 * The short human summary `mm backtest` prints: run facts, one row per market (all our wallets
 * together) and a total row, then orders, halts and drift, the checks (each passed, failed or
 * skipped with its reason), warnings and problems. Money at two decimals for reading; the JSON
 * report has the exact figures.
 */
import { SingleBar } from "cli-progress";
import Table from "cli-table3";
import { formatFixed, parseMicros } from "../core/money.js";
import { describeConsistency } from "./consistency.js";
import { formatDuration } from "./duration.js";
import { eventLines } from "./events.js";
import type { SeriesReport } from "./series.js";
import type { BacktestReport, MarketFigures, MarketReport, OutcomeInventory, TotalFigures } from "./types.js";

const money = (s: string): string => formatFixed(parseMicros(s), 2);
const signed = (s: string): string => {
  const v = parseMicros(s);
  return (v > 0n ? "+" : "") + formatFixed(v, 2);
};

/** Outcome labels per market, from the report's series (the market rows); "outcome N" when unknown. */
export function labelsOf(r: { series?: { markets: { marketId: string; labels: string[] }[] } | undefined }): (marketId: string, outcome: number) => string {
  const m = new Map((r.series?.markets ?? []).map((x) => [x.marketId, x.labels]));
  return (marketId, outcome) => m.get(marketId)?.[outcome] ?? `outcome ${outcome}`;
}

function inventoryText(inv: readonly OutcomeInventory[], label: (outcome: number) => string): string {
  const held = inv.filter((i) => parseMicros(i.final) !== 0n);
  if (held.length === 0) return "flat";
  return held.map((i) => `${label(i.outcome)} ${signed(i.final)}`).join(", ");
}

/** Rounded down, as the JSON's four places are (0.9995 is 99.9%, not 100.0%). */
function uptimeText(u: string | null): string {
  if (u === null) return "-";
  const pct = parseMicros(u) * 100n;
  const step = 100_000n;
  return `${formatFixed((pct / step) * step, 1)}%`;
}

function markText(m: MarketReport): string {
  if (!m.mark.stale || m.mark.ageMs === null) return m.mark.source;
  return `${m.mark.source} (${formatDuration(m.mark.ageMs - (m.mark.ageMs % 60_000))} old)`;
}

function checkLines(r: BacktestReport): string[] {
  const lines: string[] = [];
  const bad = r.wallets.filter((w) => !w.inventoryCheck.ok);
  if (bad.length === 0) lines.push(`inventory check OK: the daemon's cash and positions equal the simulator's exactly (${r.wallets.length} wallet(s))`);
  else for (const w of bad) lines.push(`INVENTORY CHECK FAILED: wallet ${w.name}: cash difference ${w.inventoryCheck.cashDifference}, ${w.inventoryCheck.positionDifferenceCount} position(s) differ`);
  for (const w of r.wallets) {
    if (w.platformCheck !== null) {
      lines.push(`PnL cross-check ${w.platformCheck.ok ? "OK" : "FAILED"}: wallet ${w.name}: difference ${w.platformCheck.difference} (tolerance ${w.platformCheck.tolerance})`);
    } else lines.push(`PnL cross-check SKIPPED: wallet ${w.name}: ${w.platformCheckSkipped ?? "not checkable"}`);
  }
  return lines;
}

type Row = string[];

const horizonText = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

/** Drawdown, the PnL decomposition and the markouts of all fills, from the time series. */
export function seriesLines(s: SeriesReport | undefined): string[] {
  if (s === undefined) return [];
  const d = s.pnlDecomposition;
  const all = s.horizonsMs.map((h) => {
    const g = s.markouts.find((x) => x.side === "all" && x.horizonMs === h);
    return `${horizonText(h)} ${g?.perShare == null ? "-" : signed(g.perShare)}`;
  });
  return [
    `max drawdown ${money(s.drawdown.max)}; PnL = spread captured ${signed(d.spreadCaptured)} + inventory mark-to-market ${signed(d.inventoryMarkToMarket)} - fees ${money(d.fees)} + settlement ${signed(d.settlement)} = ${signed(d.net)} (to the end of trading, at the mids)`,
    `markout per share, all fills (mid after the fill against its price, + good for us): ${all.join(", ")}`,
  ];
}

function row(name: string, f: TotalFigures | MarketFigures, inventory: string, uptime: string, mark: string): Row {
  return [
    name,
    String(f.fills.count),
    `${f.fills.maker}/${f.fills.taker}`,
    money(f.fills.volume),
    money(f.pnl.fees),
    signed(f.pnl.realised),
    signed(f.pnl.unrealised),
    signed(f.pnl.net),
    inventory,
    uptime,
    mark,
  ];
}

/** cli-table3 without borders or colours: columns two spaces apart, each line starting at its first cell. */
const PLAIN = { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "" };

/** A table (first row the head); `numeric` columns right-aligned. Lines trimmed at the end. */
export function textTable(rows: Row[], numeric: ReadonlySet<number>): string {
  const [head, ...body] = rows;
  const t = new Table({
    head: head!,
    chars: PLAIN,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 2, compact: true },
    colAligns: head!.map((_, c) => (numeric.has(c) ? "right" : "left")),
  });
  for (const r of body) t.push(r);
  return t
    .toString()
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l !== "")
    .join("\n");
}

function table(rows: Row[]): string {
  return textTable(rows, new Set([1, 2, 3, 4, 5, 6, 7, 9]));
}

export function formatSummary(r: BacktestReport): string {
  const head = [
    `backtest ${r.run.duration} of virtual time (${r.run.virtualStart} .. ${r.run.virtualEnd}), seed ${r.run.seed}`,
    `  config ${r.run.config} (strategy ${r.run.strategy.name}), scenario ${r.run.scenario}`,
    ...(r.run.signatures === "off" ? ["  signatures OFF: orders neither signed nor verified (backtest only; same matching, fills and PnL)"] : []),
    `  wall ${(r.timing.wallMs / 1000).toFixed(1)} s, ${r.timing.speed}x real time`,
    "",
  ];
  const rows: Row[] = [["market", "fills", "mk/tk", "volume", "fees", "realised", "unrealised", "net", "final inventory", "uptime", "mark"]];
  const label = labelsOf(r);
  for (const m of r.markets) rows.push(row(m.marketId, m.figures, inventoryText(m.figures.inventory, (o) => label(m.marketId, o)), uptimeText(m.figures.quoteUptime), markText(m)));
  rows.push(row("TOTAL", r.totals, `${money(r.totals.grossFinalShares)} shares`, "", ""));
  const orders = r.totals.orders;
  const rejected = Object.entries(orders.rejected).map(([code, n]) => `${code} ${n}`).join(", ");
  const stale = r.markets.filter((m) => m.mark.stale);
  const tail = [
    "",
    ...(stale.length > 0 ? ["(N old) after a mark: that price was N old at the end of trading (mark.asOf), e.g. the book of a market that stopped trading", ""] : []),
    `at the simulator's hidden fair value (not a market price): unrealised ${signed(r.atFairValue.unrealised)}, net ${signed(r.atFairValue.net)}`,
    `orders: ${orders.placed} placed, ${orders.cancelled} cancelled, ${orders.cancelledBySettlement} cancelled by settlement, ${orders.rejectedTotal} rejected${rejected === "" ? "" : ` (${rejected})`}, ${orders.unknown} unknown`,
    ...seriesLines(r.series),
    ...eventLines(r.events),
    ...describeConsistency(r.consistency),
    ...checkLines(r),
    ...r.warnings.map((w) => `WARNING: ${w}`),
    ...r.problems.map((p) => `PROBLEM: ${p}`),
  ];
  return [...head, table(rows), ...tail].join("\n") + "\n";
}

/** What a progress report carries (run.ts BacktestProgress). */
export interface ProgressPoint {
  virtualMs: number;
  durationMs: number;
  wallMs: number;
  fills: number;
}

export interface ProgressReporter {
  update(p: ProgressPoint): void;
  stop(): void;
  /** How often to report (virtual ms): often for a bar, a tenth of the run for lines. */
  everyMs(durationMs: number, stepMs: number): number;
}

/** "about 1m30s left" from the virtual time done and the wall time it took; "" before any progress. */
export function remainingText(p: ProgressPoint): string {
  if (p.virtualMs <= 0 || p.wallMs <= 0) return "";
  const left = (p.wallMs * (p.durationMs - p.virtualMs)) / p.virtualMs;
  return formatDuration(Math.max(0, Math.round(left / 1000) * 1000)) || "0s";
}

/**
 * Progress of a run on stderr: on a terminal a bar (cli-progress: percent, virtual time, speed as
 * virtual seconds per wall second, fills per wall second, time remaining); otherwise one plain line
 * per report (logs and pipes stay readable).
 */
export function progressReporter(o: { tty: boolean; write: (text: string) => void; stream?: NodeJS.WriteStream }): ProgressReporter {
  if (!o.tty) {
    return {
      update: (p) => {
        const pct = p.durationMs > 0 ? Math.floor((p.virtualMs / p.durationMs) * 100) : 100;
        const left = remainingText(p);
        o.write(`mm backtest: ${formatDuration(p.virtualMs)} / ${formatDuration(p.durationMs)} virtual (${pct}%), ${(p.wallMs / 1000).toFixed(1)} s wall, ${p.fills} fills${left === "" ? "" : `, about ${left} left`}\n`);
      },
      stop: () => {},
      everyMs: (d, step) => Math.max(step, Math.floor(d / 10)),
    };
  }
  const bar = new SingleBar({
    format: "mm backtest [{bar}] {percentage}% | {virtual} / {total_virtual} virtual | {speed}x | {fills} fills ({fillRate}/s) | {left} left",
    hideCursor: true,
    clearOnComplete: false,
    stream: o.stream ?? process.stderr,
    etaBuffer: 20,
  });
  let started = false;
  return {
    update: (p) => {
      const payload = {
        virtual: formatDuration(p.virtualMs) || "0s",
        total_virtual: formatDuration(p.durationMs),
        speed: p.wallMs > 0 ? Math.round(p.virtualMs / p.wallMs) : 0,
        fills: p.fills,
        fillRate: p.wallMs > 0 ? Math.round((p.fills * 1000) / p.wallMs) : 0,
        left: remainingText(p) || "?",
      };
      if (!started) {
        bar.start(p.durationMs, p.virtualMs, payload);
        started = true;
      } else bar.update(p.virtualMs, payload);
    },
    stop: () => {
      if (started) bar.stop();
    },
    everyMs: (d, step) => Math.max(step, Math.floor(d / 200)),
  };
}
