/**
 * The short human summary `mm backtest` prints: run facts, one row per market (all our wallets
 * together) and a total row, then the consistency verdict. Money at two decimals for reading;
 * the JSON report has the exact figures.
 */
import { formatFixed, parseMicros } from "../core/money.js";
import { describeConsistency } from "./consistency.js";
import type { BacktestReport, MarketFigures, OutcomeInventory, TotalFigures } from "./types.js";

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

function uptimeText(u: string | null): string {
  if (u === null) return "-";
  return `${formatFixed(parseMicros(u) * 100n, 1)}%`;
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
    `  wall ${(r.timing.wallMs / 1000).toFixed(1)} s, ${r.timing.speed}x real time`,
    "",
  ];
  const rows: Row[] = [["market", "fills", "mk/tk", "volume", "fees", "realised", "unrealised", "net", "final inventory", "uptime", "mark"]];
  for (const m of r.markets) rows.push(row(m.marketId, m.figures, inventoryText(m.figures.inventory), uptimeText(m.figures.quoteUptime), m.mark.source));
  rows.push(row("TOTAL", r.totals, `${money(r.totals.grossFinalShares)} shares`, "", ""));
  const orders = r.totals.orders;
  const rejected = Object.entries(orders.rejected).map(([code, n]) => `${code} ${n}`).join(", ");
  const tail = [
    "",
    `orders: ${orders.placed} placed, ${orders.cancelled} cancelled, ${orders.rejectedTotal} rejected${rejected === "" ? "" : ` (${rejected})`}, ${orders.unknown} unknown`,
    ...describeConsistency(r.consistency),
    ...r.problems.map((p) => `PROBLEM: ${p}`),
  ];
  return [...head, table(rows), ...tail].join("\n") + "\n";
}
