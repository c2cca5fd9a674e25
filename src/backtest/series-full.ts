/**
 * The full engine's SeriesProbe (series.ts): the daemon's inventory and trackers, the simulator's
 * books, lifecycle and settlements. run.ts calls `advance` after each clock step and `finish` at
 * the end of trading; the collector passes each fill event on (collector.ts).
 *
 * Mids: the simulator's book as it stands, (best bid + best ask) / 2, our own resting quotes
 * included (the simulator's book holds them); a binary market from its YES book, NO at 1 - mid,
 * as marks.ts. Markout horizons are resolved at the step ends (stepMs, 1 s by default): a markout
 * at h uses the mid at the first step end at or after fill + h.
 */
import { ONE, divRound, type Micros } from "../core/money.js";
import type { Daemon } from "../bot/engine/daemon.js";
import type { Simulator } from "../sim/simulator.js";
import { SeriesRecorder, type SeriesOptions, type SeriesProbe } from "./series.js";

function tradable(sim: Simulator, symbol: string): boolean {
  const m = sim.market(symbol);
  if (m === undefined) return false;
  const s = sim.platform.catalogue.status(m.id);
  return s === "OPEN" || s === "PRE_MARKET";
}

function bookMid(sim: Simulator, symbol: string, outcome: number): Micros | undefined {
  const b = sim.engine.book(symbol, outcome, 1);
  if (b.bestBid === null || b.bestAsk === null || b.bestBid >= b.bestAsk) return undefined;
  return (b.bestBid + b.bestAsk) / 2n;
}

export function fullSeriesProbe(sim: Simulator, daemon: Daemon, seen: ReadonlySet<string>): SeriesProbe {
  const wallets = daemon.runners.map((r) => r.wallet);
  const payout = (symbol: string, outcome: number): Micros | undefined => {
    const s = sim.settlements.get(symbol);
    if (s === undefined) return undefined;
    const den = s.payoutNumerators.reduce((a, b) => a + b, 0n);
    return den <= 0n ? undefined : divRound((s.payoutNumerators[outcome] ?? 0n) * ONE, den, "floor");
  };
  const mid = (symbol: string, outcome: number): Micros | undefined => {
    if (sim.market(symbol) === undefined) return undefined;
    const paid = payout(symbol, outcome);
    if (paid !== undefined) return paid;
    if (sim.engine.market(symbol).outcomeCount !== 2) return bookMid(sim, symbol, outcome);
    const yes = bookMid(sim, symbol, 0);
    return yes === undefined ? undefined : outcome === 0 ? yes : ONE - yes;
  };
  return {
    markets: () => {
      const set = new Set<string>(seen);
      for (const e of daemon.registry.selected()) set.add(e.row.symbol);
      return [...set].filter((m) => sim.market(m) !== undefined).sort();
    },
    labels: (symbol) => sim.market(symbol)?.outcomeLabels ?? [],
    mid,
    payout,
    pnl: () => {
      let realised = 0n;
      let unrealised = 0n;
      let fees = 0n;
      let net = 0n;
      // Per wallet and market, summed, as the report's rows round (figures.ts).
      const markets = new Set<string>();
      for (const w of wallets) for (const p of daemon.inventory.positions(w)) markets.add(p.marketId);
      for (const w of wallets) for (const m of markets) {
        const p = daemon.inventory.pnl(w, mid, m);
        realised += p.realised;
        unrealised += p.unrealised;
        fees += p.fees;
        net += p.net;
      }
      return { realised, unrealised, fees, net };
    },
    position: (symbol, outcome) => {
      let q = 0n;
      for (const w of wallets) q += daemon.inventory.summary(w, symbol, outcome).qty;
      return q;
    },
    quotes: (symbol) => daemon.runners.flatMap((r) => r.tracker.liveOrders(symbol)),
    tradable: (symbol) => tradable(sim, symbol),
  };
}

export function fullSeries(sim: Simulator, daemon: Daemon, seen: ReadonlySet<string>, o?: SeriesOptions): SeriesRecorder {
  return new SeriesRecorder(fullSeriesProbe(sim, daemon, seen), o);
}
