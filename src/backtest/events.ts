/**
 * The run's halts, drift and anomalies, from the engine's event stream (collector.ts): not
 * failures of the backtest (the daemon reacting to what it saw is what is being measured), but
 * things a reader of the PnL must see, so the report and the summary state them.
 */
import type { HaltRecord } from "./collector.js";
import type { EventFigures, HaltKindFigures } from "./types.js";

/**
 * Per halt reason: how many were raised and how long they lasted. A halt is one (scope, target,
 * reason) from `raised` to `cleared`; one never cleared lasts to `endMs` (the end of trading).
 * Time after `endMs` (the shutdown) is not counted.
 */
export function haltSummary(halts: readonly HaltRecord[], endMs: number): HaltKindFigures[] {
  const open = new Map<string, number>();
  const by = new Map<string, HaltKindFigures>();
  const kind = (reason: string): HaltKindFigures => {
    let k = by.get(reason);
    if (k === undefined) by.set(reason, (k = { reason, raised: 0, haltedMs: 0, openAtEnd: 0 }));
    return k;
  };
  const span = (from: number, to: number): number => Math.max(0, Math.min(to, endMs) - from);
  for (const h of halts) {
    const key = `${h.scope}|${h.target}|${h.reason}`;
    if (h.action === "raised") {
      kind(h.reason).raised++;
      if (!open.has(key)) open.set(key, h.at);
    } else {
      const since = open.get(key);
      if (since === undefined) continue;
      open.delete(key);
      kind(h.reason).haltedMs += span(since, h.at);
    }
  }
  for (const [key, since] of open) {
    const k = kind(key.slice(key.lastIndexOf("|") + 1));
    k.haltedMs += span(since, endMs);
    if (since <= endMs) k.openAtEnd++;
  }
  return [...by.values()].sort((a, b) => (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
}

const minutes = (ms: number): string => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${Math.round(ms / 1000)} s`);

/** The summary's lines about halts, drift and anomalies (always printed, "none" included). */
export function eventLines(e: EventFigures): string[] {
  const halts =
    e.haltSummary.length === 0
      ? "none"
      : e.haltSummary.map((h) => `${h.reason} ${h.raised} raised, ${minutes(h.haltedMs)} halted${h.openAtEnd > 0 ? `, ${h.openAtEnd} still raised at the end` : ""}`).join("; ");
  const drift = Object.entries(e.drift);
  const r = e.reconciliation;
  return [
    `halts: ${halts}`,
    `drift: ${drift.length === 0 ? "none" : drift.map(([k, n]) => `${k} ${n}`).join(", ")}; ` +
      `reconciliation ${r.checks} check(s), ${r.differing} with a difference (${r.positions} position, ${r.cash} cash record(s)); ` +
      `tracker anomalies ${e.trackerAnomalies}; fills after settlement ${e.fillsAfterSettlement}; fills before the anchor ${e.inventory.preAnchor}`,
  ];
}
