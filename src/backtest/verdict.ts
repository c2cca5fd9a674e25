/**
 * The report's verdict: `problems` (the numbers must not be trusted: report.ok false, exit 1) and
 * `warnings` (a check that could not run and why, positions left out of unrealised PnL, positions
 * valued at an old mark). Every check either passes, fails as a problem, or says it was skipped.
 */
import { parseMicros } from "../core/money.js";
import type { ConsistencyReport, MarketReport, RunFacts, WalletReport } from "./types.js";

export interface VerdictInputs {
  run: RunFacts;
  consistency: ConsistencyReport;
  wallets: readonly WalletReport[];
  markets: readonly MarketReport[];
}

const age = (ms: number): string => (ms >= 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} h` : `${Math.round(ms / 60_000)} min`);

export function problemsAndWarnings(v: VerdictInputs): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  const c = v.consistency;
  if (!c.ok) {
    problems.push(
      `consistency check failed: the daemon's ledger has ${c.ledgerFills} fills, the simulator ${c.platformFills} ` +
        `(${c.missingCount} missing, ${c.extraCount} extra, ${c.mismatchedCount} different)`,
    );
  }
  if (v.run.startup.error !== undefined) problems.push(`daemon start-up: ${v.run.startup.error}`);
  for (const w of v.run.startup.wallets) if (!w.ready) problems.push(`wallet ${w.name} never became ready${w.error === undefined ? "" : `: ${w.error}`}`);
  for (const w of v.wallets) {
    const ic = w.inventoryCheck;
    if (parseMicros(ic.cashDifference) !== 0n) {
      problems.push(`wallet ${w.name}: the daemon's inventory moved ${ic.inventoryCashDelta} of cash, the simulator ${ic.platformCashDelta} (difference ${ic.cashDifference})`);
    }
    if (ic.positionDifferenceCount > 0) {
      const e = ic.positionDifferences
        .slice(0, 3)
        .map((d) => `${d.marketId} outcome ${d.outcome}: inventory ${d.inventory}, simulator ${d.platform}`)
        .join("; ");
      problems.push(`wallet ${w.name}: ${ic.positionDifferenceCount} position(s) differ from the simulator's, e.g. ${e}`);
    }
    if (!ic.ok && parseMicros(ic.cashDifference) === 0n && ic.positionDifferenceCount === 0) problems.push(`wallet ${w.name}: inventory check failed (no starting balance)`);
    if (w.platformCheck !== null && !w.platformCheck.ok) {
      problems.push(`wallet ${w.name}: PnL ${w.totals.pnl.net} differs from the simulator's cash and positions (${w.platformCheck.net}) by ${w.platformCheck.difference}`);
    }
    if (w.platformCheckSkipped !== undefined) warnings.push(`wallet ${w.name}: PnL cross-check skipped: ${w.platformCheckSkipped}`);
  }
  for (const w of v.run.shutdown.wallets) {
    if (w.leftover + w.unresolved > 0) problems.push(`wallet ${w.name}: ${w.leftover} order(s) left open and ${w.unresolved} unresolved after shutdown`);
    if (!w.finalWalkOk) problems.push(`wallet ${w.name}: the last open-orders walk of the shutdown failed`);
    if (w.platformOpenOrders > 0) problems.push(`wallet ${w.name}: the simulator still has ${w.platformOpenOrders} open order(s) of the wallet after shutdown`);
  }
  for (const m of v.markets) {
    if (m.figures.pnl.unmarked > 0) {
      const which = m.figures.inventory.filter((i) => parseMicros(i.final) !== 0n && m.mark.prices[i.outcome] === null).map((i) => `outcome ${i.outcome}`);
      warnings.push(`market ${m.marketId}: ${m.figures.pnl.unmarked} position(s) without a mark (${which.join(", ")}): unrealised PnL leaves them out`);
    }
    const held = m.figures.inventory.some((i) => parseMicros(i.final) !== 0n);
    if (m.mark.stale && held && m.mark.ageMs !== null) {
      warnings.push(`market ${m.marketId} (${m.status}): held position(s) valued at a ${m.mark.source} mark ${age(m.mark.ageMs)} old at the end of trading (as of ${m.mark.asOf})`);
    }
  }
  return { problems, warnings };
}
