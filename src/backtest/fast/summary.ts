/** The text summary and JSON of a fast-engine run (engine.ts FastReport). */
import { labelsOf, seriesLines, textTable } from "../summary.js";
import type { FastReport } from "./engine.js";

export function formatFastSummary(r: FastReport): string {
  const label = labelsOf(r);
  const hours = r.firstTs === null || r.lastTs === null ? 0 : (r.lastTs - r.firstTs) / 3_600_000;
  const lines = [
    `fast engine: ${r.source}; queue model ${r.queueModel}; ${hours.toFixed(2)} h of data`,
    `events: ${r.events.book} books, ${r.events.trade} trades, ${r.events.market} market rows; ${r.cycles} quote cycles`,
    `orders: ${r.orders.placed} placed, ${r.orders.accepted} accepted, ${r.orders.rejected} rejected${Object.keys(r.orders.rejectCodes).length > 0 ? ` (${Object.entries(r.orders.rejectCodes).map(([c, n]) => `${c} ${n}`).join(", ")})` : ""}, ${r.orders.cancels} cancels, ${r.orders.rateDeferred} deferred by the rate buckets`,
    "",
  ];
  const rows: string[][] = [["market", "fills", "maker", "taker", "volume", "fees", "net", "position"]];
  for (const m of r.markets) {
    const pos = Object.entries(m.positions).map(([o, q]) => `${label(m.symbol, Number(o))} ${q}`).join(", ") || "flat";
    rows.push([m.symbol, String(m.fills), String(m.makerFills), String(m.takerFills), m.volume, m.fees, m.net, pos]);
  }
  const t = r.totals;
  rows.push(["total", String(t.fills), "", "", t.volume, t.fees, t.net, ""]);
  lines.push(textTable(rows, new Set([1, 2, 3, 4, 5, 6])));
  lines.push("net = realised + unrealised (marked at the last recorded mid) - fees; decimal units of the settlement token");
  lines.push(...seriesLines(r.series));
  return lines.join("\n") + "\n";
}

export function fastReportJson(r: FastReport): string {
  return JSON.stringify(r, null, 2) + "\n";
}
