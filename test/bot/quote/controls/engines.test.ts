/**
 * The shells feed the controls: the fast engine builds them from the config and feeds its
 * SignalBook its own fills (a filled-order delay holds the filled side back), and the daemon's
 * WalletOrders hands each NEW fill (not a duplicate) to the SignalBook's feed.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../src/config/index.js";
import type { NewEvent } from "../../../../src/data/events.js";
import { Levels } from "../../../../src/data/levels.js";
import { runFastBacktest, type FastSource } from "../../../../src/backtest/fast/engine.js";
import { constantLatency } from "../../../../src/backtest/models/latency.js";
import { VirtualClock } from "../../../../src/core/clock.js";
import { FillLedger, type Fill } from "../../../../src/bot/fills/fill-ledger.js";
import { Inventory } from "../../../../src/bot/fills/inventory.js";
import { OrderTracker } from "../../../../src/bot/orders/order-tracker.js";
import { EventSeq } from "../../../../src/bot/market/market-data.js";
import { RecordingObserver } from "../../../../src/bot/observer.js";
import { OwnOrderLog } from "../../../../src/bot/quote/own-orders.js";
import { WalletOrders } from "../../../../src/bot/engine/wallet-orders.js";
import { SignalBook } from "../../../../src/bot/quote/signals.js";
import { T0, WALLET, marketRow, silentLogger } from "../../engine/fakes.js";

const S = 1_000_000n;
const p = (x: number): bigint => BigInt(Math.round(x * 1000)) * 1000n;

function config(controls?: string) {
  return parseConfig(
    `mode: simulator
instance: { id: t }
wallets: [{ name: w0 }]
markets: { slugs: [MKT] }
strategy: { name: ladder, params: { levels: 1, size: "10", halfSpreadTicks: 1 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 0 }
risk: { maxOrderSize: "100", maxPositionPerMarket: "30", maxNotionalPerWallet: "10000", maxNotionalTotal: "10000", dailyLossLimit: "1000" }
log: { level: silent }
${controls === undefined ? "" : `controls: ${controls}\n`}`,
    "t.yaml",
    {},
  );
}

function source(events: NewEvent[]): FastSource {
  let i = 0;
  const all = events.map((e, k) => ({ ...e, seq: k + 1 }));
  return { describe: "test", next: () => all[i++] };
}
const market = (ts: number): NewEvent => ({ kind: "market", ts, symbol: "MKT", status: "OPEN", row: JSON.stringify(marketRow({ symbol: "MKT" })) });
function books(ts: number, bid: number, ask: number): NewEvent[] {
  return [
    { kind: "book", ts, symbol: "MKT", outcome: 0, serverTs: ts, bids: Levels.of([[p(bid), 100n * S]]), asks: Levels.of([[p(ask), 100n * S]]) },
    { kind: "book", ts, symbol: "MKT", outcome: 1, serverTs: ts, bids: Levels.of([[p(1 - ask), 100n * S]]), asks: Levels.of([[p(1 - bid), 100n * S]]) },
  ];
}
const trade = (ts: number, side: "BUY" | "SELL", price: number, qty: bigint, id: string): NewEvent => ({ kind: "trade", ts, id, symbol: "MKT", outcome: 0, side, price: p(price), quantity: qty, tradeTs: ts });

describe("the fast engine runs the config's controls", () => {
  // Our bid (0.499) is half filled at T0 + 1 s; the book then moves every second for 20 s.
  const events = (): NewEvent[] => {
    const ev: NewEvent[] = [market(T0), ...books(T0, 0.45, 0.55), trade(T0 + 1_000, "SELL", 0.45, 5n * S, "t1")];
    for (let k = 2; k <= 20; k++) ev.push(...books(T0 + k * 1_000, 0.45 + (k % 2) * 0.002, 0.55));
    return ev;
  };
  const run = (controls?: string) => runFastBacktest({ feed: "every", config: config(controls), source: source(events()), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });

  it("filledOrderDelay: the filled bid is not re-placed while the delay runs", () => {
    const off = run("{}");
    const on = run("{ filledOrderDelay: { sec: 60 } }");
    // Both get the one fill; off then re-quotes the bid as the book moves, on leaves it out.
    expect(on.totals.fills).toBe(1);
    expect(off.totals.fills).toBe(1);
    expect(on.orders.placed).toBeLessThan(off.orders.placed);
  });
  it("no controls: section: the same run as an empty one", () => {
    const a = run();
    const b = run("{}");
    expect(a.totals).toEqual(b.totals);
    expect(a.orders).toEqual(b.orders);
  });
});

describe("the daemon feeds its SignalBook each new fill", () => {
  it("WalletOrders.onNewFill: once per fill the ledger added, never for a duplicate", () => {
    const book = new SignalBook();
    const orders = new WalletOrders({
      wallet: WALLET,
      tracker: new OrderTracker(WALLET),
      own: new OwnOrderLog(new EventSeq()),
      ledger: new FillLedger(),
      inventory: new Inventory(),
      observer: new RecordingObserver(),
      log: silentLogger(),
      clock: new VirtualClock(T0),
      onNewFill: (f) => book.onFill(f.wallet, f.marketId, { outcome: f.outcome, side: f.side, price: f.price, size: f.qty, role: f.role, ts: f.ts }),
    });
    const fill = (tradeId: string, ts: number): Fill => ({ wallet: WALLET, tradeId, orderId: "o1", marketId: "MKT", outcome: 1, side: "BUY", price: 400_000n, qty: 5n * S, fee: 0n, role: "maker", ts, source: "trades_pull" });
    orders.applyFill(fill("a", T0));
    orders.applyFill(fill("a", T0));
    orders.applyFill(fill("b", T0 + 5));
    const v = book.view(WALLET, "MKT", T0 + 10);
    expect(v.lastFills).toEqual([{ outcome: 1, side: "BUY", price: 400_000n, size: 5n * S, role: "maker", ts: T0 + 5 }]);
  });
});
