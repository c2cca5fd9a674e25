/**
 * Synthetic market data for the report's tests and bench (bench/report.bench.ts): a few binary
 * markets with outcome labels of their own, both outcomes' books (3 levels a side) every `bookEveryMs`
 * around a seeded random walk of the mid, and a public trade at the best now and then. With the
 * ladder strategy and the risk-averse queue the fast engine fills on both sides, makes and takes.
 */
import { parseConfig, type Config } from "../../../src/config/index.js";
import { Rng } from "../../../src/core/rng.js";
import type { DataEvent } from "../../../src/data/events.js";
import { Levels } from "../../../src/data/levels.js";
import type { FastSource } from "../../../src/backtest/fast/engine.js";
import { marketRow } from "../../bot/engine/fakes.js";

export const DAY_T0 = Date.UTC(2026, 5, 1, 0, 0, 0);

const MARKETS: { symbol: string; labels: [string, string] }[] = [
  { symbol: "RAIN-LDN", labels: ["Rain", "Dry"] },
  { symbol: "CUP-FINAL", labels: ["Home", "Away"] },
  { symbol: "RATE-CUT", labels: ["Cut", "Hold"] },
  { symbol: "LAUNCH-Q3", labels: ["Yes", "No"] },
];

export interface DayDataOptions {
  durationMs: number;
  bookEveryMs?: number;
  markets?: number;
  seed?: number;
}

export function dayEvents(o: DayDataOptions): DataEvent[] {
  const rng = new Rng(o.seed ?? 7);
  const every = o.bookEveryMs ?? 10_000;
  const markets = MARKETS.slice(0, o.markets ?? MARKETS.length);
  const out: DataEvent[] = [];
  let seq = 0;
  for (const m of markets) {
    const row = marketRow({ symbol: m.symbol, outcomeLabels: m.labels, tradingWindow: { preMarketStartsAt: null, opensAt: new Date(DAY_T0 - 3_600_000).toISOString(), closesAt: new Date(DAY_T0 + 30 * 86_400_000).toISOString() } });
    out.push({ kind: "market", seq: ++seq, ts: DAY_T0, symbol: m.symbol, status: "OPEN", row: JSON.stringify(row) });
  }
  const mids = markets.map(() => 500);
  const lv = (ticks: number[]): Levels => Levels.of(ticks.map((t) => [BigInt(t) * 1000n, BigInt(rng.range(20, 200)) * 1_000_000n] as const));
  let tid = 0;
  for (let ts = DAY_T0 + every; ts <= DAY_T0 + o.durationMs; ts += every) {
    markets.forEach((m, i) => {
      mids[i] = Math.min(880, Math.max(120, mids[i]! + (rng.bool() ? 1 : -1) * rng.range(0, 3)));
      const mid = mids[i];
      out.push({ kind: "book", seq: ++seq, ts, symbol: m.symbol, outcome: 0, serverTs: ts, bids: lv([mid - 5, mid - 6, mid - 7]), asks: lv([mid + 5, mid + 6, mid + 7]) });
      out.push({ kind: "book", seq: ++seq, ts, symbol: m.symbol, outcome: 1, serverTs: ts, bids: lv([1000 - mid - 5, 1000 - mid - 6, 1000 - mid - 7]), asks: lv([1000 - mid + 5, 1000 - mid + 6, 1000 - mid + 7]) });
      if (rng.range(0, 1) === 0) {
        const buy = rng.bool();
        const at = ts + 1 + rng.range(0, every - 2);
        out.push({ kind: "trade", seq: ++seq, ts: at, id: `t${++tid}`, symbol: m.symbol, outcome: 0, side: buy ? "BUY" : "SELL", price: BigInt(buy ? mid + 5 : mid - 5) * 1000n, quantity: BigInt(rng.range(1, 40)) * 1_000_000n, tradeTs: at });
      }
    });
  }
  // Trades were stamped inside the next book interval: the source is in time order.
  return out.sort((a, b) => a.ts - b.ts || a.seq - b.seq);
}

export function daySource(events: readonly DataEvent[], name = "synthetic day"): FastSource {
  let i = 0;
  return { describe: name, next: () => events[i++] };
}

export function dayConfig(): Config {
  return parseConfig(
    `mode: simulator
instance: { id: report }
wallets: [{ name: w0 }]
markets: { maxMarkets: 4 }
strategy: { name: ladder, params: { levels: 2, size: "10", halfSpreadTicks: 3 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 1 }
risk: { maxOrderSize: "50", maxPositionPerMarket: "200", maxNotionalPerWallet: "2000", maxNotionalTotal: "5000", dailyLossLimit: "500" }
log: { level: silent }
`,
    "report.yaml",
    {},
  );
}
