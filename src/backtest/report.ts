/**
 * Assembling the backtest report once the daemon has shut down: marks from the simulator
 * (marks.ts), figures per wallet and market from the daemon's ledger and inventory (figures.ts),
 * the consistency check of the ledger against the simulator's trade list (consistency.ts), the
 * exact check of the inventory against the simulator's cash and positions (inventory-check.ts),
 * the PnL cross-check (platform-check.ts), halts and drift (events.ts), and the run facts. Rows
 * are in a fixed order (wallets as configured, markets by id) so the JSON is byte-identical
 * between identical runs.
 */
import type { Daemon, ShutdownReport, StartReport } from "../bot/engine/daemon.js";
import { describeUnconfirmed } from "../bot/engine/shutdown.js";
import { formatMicros, type Micros } from "../core/money.js";
import type { Simulator } from "../sim/simulator.js";
import type { BacktestCollector } from "./collector.js";
import { formatUptime } from "./collector.js";
import { compareFillLists, platformFills } from "./consistency.js";
import { formatDuration } from "./duration.js";
import { haltSummary } from "./events.js";
import { addRaw, emptyRaw, formatMarketFigures, formatTotals, walletMarketRow, type RawFigures } from "./figures.js";
import { inventoryCheck } from "./inventory-check.js";
import { MARK_METHOD, formatMark, lastTradeTimes, marketMark, marksOf, type MarketMark } from "./marks.js";
import { platformCheck, type StartingBalance } from "./platform-check.js";
import type { PreparedBacktest } from "./prepare.js";
import { problemsAndWarnings } from "./verdict.js";
import { REPORT_VERSION, type BacktestReport, type MarketReport, type OutcomeInventory, type RunFacts, type WalletReport } from "./types.js";

/** Labels the sensitivity figure so nobody reads it as a price. */
export const FAIR_VALUE_NOTE =
  "unsettled positions valued at the simulator's HIDDEN fair value (the synthetic flow's truth, not a market price: nobody could trade there); settled markets at their payout";

export interface ReportInputs {
  prepared: PreparedBacktest;
  daemon: Daemon;
  sim: Simulator;
  collector: BacktestCollector;
  start: StartReport | undefined;
  startError: string | undefined;
  readyAt: number | undefined;
  shutdown: ShutdownReport;
  shutdownEnd: number;
  wallMs: number;
  /** Each wallet's holdings on the simulator before the daemon started (by lower-cased address). */
  startBalances: ReadonlyMap<string, StartingBalance>;
}

/** Our orders the platform cancelled when it settled a market, into the collector's counts. */
function noteSettlementCancels(r: ReportInputs): void {
  const ours = new Set(r.daemon.runners.map((w) => w.wallet.toLowerCase()));
  for (const [symbol, s] of r.sim.settlements) {
    for (const o of s.cancelled) if (ours.has(o.wallet.toLowerCase())) r.collector.noteSettlementCancels(o.wallet, symbol, 1);
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Every market the run touched: selected at start-up, ordered on, filled on, or held. */
function reportedMarkets(r: ReportInputs): string[] {
  const set = new Set<string>(r.start?.markets ?? []);
  for (const m of r.collector.markets) set.add(m);
  for (const f of r.daemon.ledger.fills()) set.add(f.marketId);
  for (const w of r.daemon.runners) for (const p of r.daemon.inventory.positions(w.wallet)) set.add(p.marketId);
  return [...set].filter((m) => r.sim.market(m) !== undefined).sort();
}

function runFacts(r: ReportInputs): RunFacts {
  const p = r.prepared;
  const startup: RunFacts["startup"] = {
    readyAt: r.readyAt === undefined ? null : iso(r.readyAt),
    markets: r.start?.markets ?? [],
    wallets: r.start?.wallets ?? r.daemon.runners.map((w) => ({ name: w.name, ready: false })),
  };
  if (r.startError !== undefined) startup.error = r.startError;
  return {
    config: p.configPath,
    scenario: p.scenarioPath,
    scenarioSource: p.scenarioSource,
    seed: p.seed,
    seedSource: p.seedSource,
    instance: p.config.instance.id,
    strategy: { name: p.config.strategy.name, params: p.config.strategy.params },
    walletNames: p.config.wallets.map((w) => ({ name: w.name, address: w.address.toLowerCase() })),
    virtualStart: iso(p.startMs),
    virtualEnd: iso(p.startMs + p.durationMs),
    shutdownEnd: iso(r.shutdownEnd),
    durationMs: p.durationMs,
    duration: formatDuration(p.durationMs),
    stepMs: p.stepMs,
    signatures: p.signatures,
    startup,
    shutdown: {
      reason: r.shutdown.reason,
      exitCode: r.shutdown.exitCode,
      wallets: r.shutdown.wallets.map((w) => {
        const address = r.daemon.runners.find((x) => x.name === w.name)?.wallet;
        const platformOpenOrders = address === undefined ? 0 : r.sim.engine.openOrders(address).length;
        return {
          name: w.name,
          cancelled: w.cancelled,
          leftover: w.leftover.length,
          unresolved: w.unresolved.length,
          unconfirmed: w.unconfirmed.map(describeUnconfirmed),
          finalWalkOk: w.finalWalk.ok,
          errors: w.errors,
          platformOpenOrders,
        };
      }),
    },
  };
}

export function buildReport(r: ReportInputs): BacktestReport {
  const { daemon, sim, collector } = r;
  const endMs = r.prepared.startMs + r.prepared.durationMs;
  noteSettlementCancels(r);
  const markets = reportedMarkets(r);
  const ctx = { sim, reportAtMs: r.shutdownEnd, lastTradeAt: lastTradeTimes(sim) };
  const marks = new Map<string, MarketMark>(markets.map((m) => [m, marketMark(ctx, m)]));
  const fairValues = new Map<string, Micros[] | undefined>(markets.map((m) => [m, sim.flow.fairValue(m)]));
  const markFn = marksOf(marks);
  const wallets = daemon.runners.map((w) => ({ name: w.name, address: w.wallet }));

  const marketRaw = new Map<string, RawFigures>(markets.map((m) => [m, emptyRaw()]));
  const marketNet = new Map<string, Map<number, bigint>>(markets.map((m) => [m, new Map()]));
  const grand = emptyRaw();
  const walletReports: WalletReport[] = [];
  let fillsAfterSettlement = 0;
  for (const w of wallets) {
    const fills = daemon.ledger.fills(w.address);
    const total = emptyRaw();
    const rows = [];
    for (const m of markets) {
      const mine = fills.filter((f) => f.marketId === m);
      const orders = collector.ordersOf(w.address, m);
      const positions = daemon.inventory.positions(w.address, m);
      const uptime = collector.uptimeOf(w.address, m);
      const active = mine.length > 0 || orders.placed + orders.rejected.size + orders.unknown > 0 || positions.length > 0 || (uptime?.live ?? 0) > 0;
      if (!active) continue;
      const row = walletMarketRow({ wallet: w.address, marketId: m, fills: mine, inventory: daemon.inventory, mark: marks.get(m), fairValue: fairValues.get(m), collector });
      rows.push(formatMarketFigures(m, row.raw, row.inventory, row.uptime));
      addRaw(total, row.raw);
      addRaw(marketRaw.get(m)!, row.raw);
      for (const s of positions) {
        const net = marketNet.get(m)!;
        net.set(s.outcome, (net.get(s.outcome) ?? 0n) + s.qty);
        fillsAfterSettlement += s.fillsAfterSettlement;
      }
    }
    addRaw(grand, total);
    const totals = formatTotals(total);
    const start = r.startBalances.get(w.address);
    const pc = platformCheck(sim, w.address, start, markFn, totals);
    walletReports.push({
      name: w.name,
      address: w.address,
      markets: rows,
      totals,
      inventoryCheck: inventoryCheck(sim, daemon.inventory, w.address, start?.cash),
      platformCheck: pc.check,
      ...(pc.skipped === undefined ? {} : { platformCheckSkipped: pc.skipped }),
    });
  }

  const marketReports: MarketReport[] = markets.map((m) => {
    const raw = marketRaw.get(m)!;
    const net = marketNet.get(m)!;
    const inventory: OutcomeInventory[] = [...net.keys()]
      .sort((a, b) => a - b)
      .map((o) => {
        const qty = net.get(o)!;
        collector.noteQty(`*|${m}|${o}`, qty);
        return { outcome: o, final: formatMicros(qty), maxAbs: formatMicros(collector.maxAbsOf("*", m, o)), avgCost: null };
      });
    const sm = sim.market(m);
    const fair = fairValues.get(m);
    const mark = marks.get(m)!;
    return {
      marketId: m,
      outcomeCount: sim.engine.market(m).outcomeCount,
      status: sm === undefined ? "UNKNOWN" : sim.platform.catalogue.status(sm.id),
      mark: formatMark(mark, endMs),
      fairValue: fair === undefined ? null : fair.map(formatMicros),
      atFairValue:
        fair === undefined && mark.settlement === undefined
          ? null
          : { unrealised: formatMicros(raw.pnl.unrealisedFv), net: formatMicros(raw.pnl.realised + raw.pnl.unrealisedFv - raw.pnl.fees) },
      figures: formatMarketFigures(m, raw, inventory, formatUptime(collector.uptimeOf("*", m))),
    };
  });

  const consistency = compareFillLists(
    daemon.ledger.fills(),
    platformFills(
      sim,
      wallets.map((w) => w.address),
    ),
    wallets.map((w) => w.address),
  );

  const run = runFacts(r);
  const c = daemon.inventory.counters;
  const events: BacktestReport["events"] = {
    halts: collector.halts.map((h) => ({ at: iso(h.at), action: h.action, scope: h.scope, target: h.target, reason: h.reason })),
    haltSummary: haltSummary(collector.halts, endMs),
    trackerAnomalies: collector.trackerAnomalies,
    drift: Object.fromEntries([...collector.drift.entries()].sort(([a], [b]) => (a < b ? -1 : 1))),
    reconciliation: { ...collector.reconciliation },
    // Inventory.counters.duplicates: records of a fill already applied, delivered again (the stream
    // and the trade pull both report each fill, so about one per fill is the normal case).
    inventory: { fills: c.fills, preAnchor: c.preAnchor, corrected: c.corrected, repeatDeliveries: c.duplicates },
    fillsAfterSettlement,
  };
  const { problems, warnings } = problemsAndWarnings({ run, consistency, wallets: walletReports, markets: marketReports });

  const virtualMs = r.shutdownEnd - r.prepared.startMs;
  const wallMs = Math.max(r.wallMs, 1e-3);
  return {
    version: REPORT_VERSION,
    ok: problems.length === 0,
    problems,
    warnings,
    run,
    markMethod: MARK_METHOD,
    markets: marketReports,
    wallets: walletReports,
    totals: formatTotals(grand),
    consistency,
    atFairValue: {
      note: FAIR_VALUE_NOTE,
      unrealised: formatMicros(grand.pnl.unrealisedFv),
      net: formatMicros(grand.pnl.realised + grand.pnl.unrealisedFv - grand.pnl.fees),
      unmarked: grand.pnl.unmarkedFv,
    },
    events,
    ...(collector.series !== undefined ? { series: collector.series.finish(r.shutdownEnd) } : {}),
    timing: {
      wallMs: Math.round(r.wallMs),
      speed: Math.round(virtualMs / wallMs),
      virtualHoursPerWallSecond: Math.round((virtualMs / 3_600_000 / (wallMs / 1000)) * 1000) / 1000,
    },
  };
}

/** The report without its wall-clock part: what two identical runs must agree on byte for byte. */
export function comparablePart(report: BacktestReport): Omit<BacktestReport, "timing"> {
  const { timing: _timing, ...rest } = report;
  return rest;
}

/** The report as written by `--out`: two-space JSON, one trailing newline. */
export function reportJson(report: BacktestReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
