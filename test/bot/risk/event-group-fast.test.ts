/**
 * The fast backtest engine runs the same event cap as the daemon (it builds CycleSnapshot.event from
 * the recorded market rows): three neg-risk markets whose YES bids are hit again and again. Without
 * risk.maxEventLoss the wallet ends up holding YES in all three (lost if none of them wins); with it
 * the worst case over every winner, at the prices paid, stays within the cap.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/index.js";
import type { NewEvent } from "../../../src/data/events.js";
import { Levels } from "../../../src/data/levels.js";
import { parseMicros } from "../../../src/core/money.js";
import { runFastBacktest, type FastSource } from "../../../src/backtest/fast/engine.js";
import { constantLatency } from "../../../src/backtest/models/latency.js";
import { scenarioPnl, worstCase } from "../../../src/bot/risk/event-group.js";
import { T0, marketRow } from "../engine/fakes.js";

const S = 1_000_000n;
const p = (x: number): bigint => BigInt(Math.round(x * 1000)) * 1000n;
const MARKETS = ["EV-A", "EV-B", "EV-C"];

function config(maxEventLoss: string | undefined) {
  const cap = maxEventLoss === undefined ? "" : `, maxEventLoss: "${maxEventLoss}"`;
  return parseConfig(
    `mode: simulator
instance: { id: t }
wallets: [{ name: w0 }]
markets: { slugs: ${JSON.stringify(MARKETS)} }
strategy: { name: ladder, params: { levels: 1, size: "10", halfSpreadTicks: 1 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 0 }
risk: { maxOrderSize: "100", maxPositionPerMarket: "200", maxNotionalPerWallet: "10000", maxNotionalTotal: "10000", dailyLossLimit: "1000"${cap} }
log: { level: silent }
`,
    "t.yaml",
    {},
  );
}

function events(): FastSource {
  const ev: NewEvent[] = [];
  for (const symbol of MARKETS) ev.push({ kind: "market", ts: T0, symbol, status: "OPEN", row: JSON.stringify(marketRow({ symbol, negRiskEligible: true })) });
  for (let i = 0; i < 60; i++) {
    const ts = T0 + i * 500;
    for (const symbol of MARKETS) {
      ev.push({ kind: "book", ts, symbol, outcome: 0, serverTs: ts, bids: Levels.of([[p(0.3), 100n * S]]), asks: Levels.of([[p(0.36), 100n * S]]) });
      ev.push({ kind: "book", ts, symbol, outcome: 1, serverTs: ts, bids: Levels.of([[p(0.64), 100n * S]]), asks: Levels.of([[p(0.7), 100n * S]]) });
      ev.push({ kind: "trade", ts: ts + 250, id: `${symbol}-${i}`, symbol, outcome: 0, side: "SELL", price: p(0.3), quantity: 10n * S, tradeTs: ts + 250 });
    }
  }
  const all = ev.map((e, k) => ({ ...e, seq: k + 1 }));
  let i = 0;
  return { describe: "event-group", next: () => all[i++] };
}

function worst(maxEventLoss: string | undefined): bigint {
  const r = runFastBacktest({ feed: "every", config: config(maxEventLoss), source: events(), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
  const legs = new Map(
    r.markets.map((m) => [
      m.symbol,
      {
        positions: Object.entries(m.positions).map(([o, q]) => ({ outcome: Number(o), qty: parseMicros(q), avgCost: 0n })),
        // Costed apart: the cash paid and received.
        orders: [],
        cash: parseMicros(m.sellNotional) - parseMicros(m.buyNotional),
      },
    ]),
  );
  const pnl = scenarioPnl({ eventId: "E", markets: MARKETS }, (mk) => legs.get(mk));
  let cash = 0n;
  for (const l of legs.values()) cash += l.cash;
  return worstCase(pnl) + cash;
}

describe("event-group risk in the fast backtest engine", () => {
  it("the worst case stays within maxEventLoss; without it the same data goes beyond", () => {
    const free = worst(undefined);
    const capped = worst("25");
    expect(free).toBeLessThan(-parseMicros("25"));
    // A micro of rounding per fill at most.
    expect(capped).toBeGreaterThanOrEqual(-parseMicros("25") - 1_000n);
    expect(capped).toBeLessThan(0n);
  });
});
