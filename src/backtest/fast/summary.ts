/** The text summary and JSON of a fast-engine run (engine.ts FastReport). */
import type { FastReport } from "./engine.js";

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

function padLeft(s: string, n: number): string {
  return s.length >= n ? s : " ".repeat(n - s.length) + s;
}

export function formatFastSummary(r: FastReport): string {
  const hours = r.firstTs === null || r.lastTs === null ? 0 : (r.lastTs - r.firstTs) / 3_600_000;
  const lines = [
    `fast engine: ${r.source}; queue model ${r.queueModel}; ${hours.toFixed(2)} h of data`,
    `events: ${r.events.book} books, ${r.events.trade} trades, ${r.events.market} market rows; ${r.cycles} quote cycles`,
    `orders: ${r.orders.placed} placed, ${r.orders.accepted} accepted, ${r.orders.rejected} rejected${Object.keys(r.orders.rejectCodes).length > 0 ? ` (${Object.entries(r.orders.rejectCodes).map(([c, n]) => `${c} ${n}`).join(", ")})` : ""}, ${r.orders.cancels} cancels, ${r.orders.rateDeferred} deferred by the rate buckets`,
    "",
    `${pad("market", 18)} ${padLeft("fills", 6)} ${padLeft("maker", 6)} ${padLeft("taker", 6)} ${padLeft("volume", 12)} ${padLeft("fees", 10)} ${padLeft("net", 12)}  position`,
  ];
  for (const m of r.markets) {
    const pos = Object.entries(m.positions).map(([o, q]) => `o${o} ${q}`).join(" ") || "flat";
    lines.push(`${pad(m.symbol, 18)} ${padLeft(String(m.fills), 6)} ${padLeft(String(m.makerFills), 6)} ${padLeft(String(m.takerFills), 6)} ${padLeft(m.volume, 12)} ${padLeft(m.fees, 10)} ${padLeft(m.net, 12)}  ${pos}`);
  }
  const t = r.totals;
  lines.push(`${pad("total", 18)} ${padLeft(String(t.fills), 6)} ${padLeft("", 6)} ${padLeft("", 6)} ${padLeft(t.volume, 12)} ${padLeft(t.fees, 10)} ${padLeft(t.net, 12)}`);
  lines.push("net = realised + unrealised (marked at the last recorded mid) - fees; decimal units of the settlement token");
  return lines.join("\n") + "\n";
}

export function fastReportJson(r: FastReport): string {
  return JSON.stringify(r, null, 2) + "\n";
}
