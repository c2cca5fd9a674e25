/**
 * The short human summary `mm backtest` prints: run facts, one row per market (all our wallets
 * together) and a total row, then orders, halts and drift, the checks (each passed, failed or
 * skipped with its reason), warnings and problems. Money at two decimals for reading; the JSON
 * report has the exact figures.
 */
import { formatFixed, parseMicros } from "../core/money.js";
import { describeConsistency } from "./consistency.js";
import { formatDuration } from "./duration.js";
import { eventLines } from "./events.js";
import type { BacktestReport, MarketFigures, MarketReport, OutcomeInventory, TotalFigures } from "./types.js";

const money = (s: string): string => formatFixed(parseMicros(s), 2);
const signed = (s: string): string => {
  const v = parseMicros(s);
  return (v > 0n ? "+" : "") + formatFixed(v, 2);
};

function inventoryText(inv: readonly OutcomeInventory[]): string {
  const held = inv.filter((i) => parseMicros(i.final) !== 0n);
  if (held.length === 0) return "flat";
  return held.map((i) => `o${i.outcome} ${signed(i.final)}`).join(" ");
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

function table(rows: Row[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const numeric = new Set([1, 2, 3, 4, 5, 6, 7, 9]);
  return rows.map((r) => r.map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join("  ").trimEnd()).join("\n");
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
  for (const m of r.markets) rows.push(row(m.marketId, m.figures, inventoryText(m.figures.inventory), uptimeText(m.figures.quoteUptime), markText(m)));
  rows.push(row("TOTAL", r.totals, `${money(r.totals.grossFinalShares)} shares`, "", ""));
  const orders = r.totals.orders;
  const rejected = Object.entries(orders.rejected).map(([code, n]) => `${code} ${n}`).join(", ");
  const stale = r.markets.filter((m) => m.mark.stale);
  const tail = [
    "",
    ...(stale.length > 0 ? ["(N old) after a mark: that price was N old at the end of trading (mark.asOf), e.g. the book of a market that stopped trading", ""] : []),
    `at the simulator's hidden fair value (not a market price): unrealised ${signed(r.atFairValue.unrealised)}, net ${signed(r.atFairValue.net)}`,
    `orders: ${orders.placed} placed, ${orders.cancelled} cancelled, ${orders.cancelledBySettlement} cancelled by settlement, ${orders.rejectedTotal} rejected${rejected === "" ? "" : ` (${rejected})`}, ${orders.unknown} unknown`,
    ...eventLines(r.events),
    ...describeConsistency(r.consistency),
    ...checkLines(r),
    ...r.warnings.map((w) => `WARNING: ${w}`),
    ...r.problems.map((p) => `PROBLEM: ${p}`),
  ];
  return [...head, table(rows), ...tail].join("\n") + "\n";
}
