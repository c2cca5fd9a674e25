/**
 * The fast engine (src/backtest/fast/engine.ts) over hand-made market data: our quotes follow the
 * recorded book, a recorded trade fills a resting order only past the queue in front of it
 * (risk-averse), latency moves when things happen, post-only orders that would cross are refused,
 * and the same inputs give the same report.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/index.js";
import type { NewEvent } from "../../../src/data/events.js";
import { Levels } from "../../../src/data/levels.js";
import { runFastBacktest, type FastSource } from "../../../src/backtest/fast/engine.js";
import { constantLatency } from "../../../src/backtest/models/latency.js";
import { T0, marketRow } from "../../bot/engine/fakes.js";

const S = 1_000_000n;
const p = (x: number): bigint => BigInt(Math.round(x * 1000)) * 1000n;

/** A one-market config: ladder, one level of 10 shares a side, 1 tick from the book's best. */
function config(params = "{ levels: 1, size: \"10\", halfSpreadTicks: 1 }") {
  return parseConfig(
    `mode: simulator
instance: { id: t }
wallets: [{ name: w0 }]
markets: { slugs: [MKT] }
strategy: { name: ladder, params: ${params} }
quoting: { refreshMs: 1000, priceToleranceTicks: 0 }
risk: { maxOrderSize: "100", maxPositionPerMarket: "30", maxNotionalPerWallet: "10000", maxNotionalTotal: "10000", dailyLossLimit: "1000" }
log: { level: silent }
`,
    "t.yaml",
    {},
  );
}

function source(events: NewEvent[]): FastSource {
  let i = 0;
  const all = events.map((e, k) => ({ ...e, seq: k + 1 }));
  return { describe: "test", next: () => all[i++] };
}

const market = (ts: number, over: Record<string, unknown> = {}): NewEvent => ({ kind: "market", ts, symbol: "MKT", status: "OPEN", row: JSON.stringify(marketRow({ symbol: "MKT", ...over })) });

/** YES book bid/ask (100 shares each) and the NO book as its complement. */
function books(ts: number, bid: number, ask: number, size = 100n * S): NewEvent[] {
  return [
    { kind: "book", ts, symbol: "MKT", outcome: 0, serverTs: ts, bids: Levels.of([[p(bid), size]]), asks: Levels.of([[p(ask), size]]) },
    { kind: "book", ts, symbol: "MKT", outcome: 1, serverTs: ts, bids: Levels.of([[p(1 - ask), size]]), asks: Levels.of([[p(1 - bid), size]]) },
  ];
}

const trade = (ts: number, side: "BUY" | "SELL", price: number, qty: bigint, id: string): NewEvent => ({ kind: "trade", ts, id, symbol: "MKT", outcome: 0, side, price: p(price), quantity: qty, tradeTs: ts });

describe("the fast engine", () => {
  it("quotes around the recorded book and fills only past the queue ahead (risk-averse)", () => {
    const ev: NewEvent[] = [market(T0), ...books(T0, 0.45, 0.55)];
    // Sellers hit 0.45, where the ladder's bid sits behind the displayed 100 shares only if it
    // joins the best; with halfSpreadTicks 1 around the mid 0.50 it bids 0.499 (alone at its price).
    ev.push(trade(T0 + 1_000, "SELL", 0.45, 5n * S, "t1"));
    ev.push(...books(T0 + 2_000, 0.45, 0.55));
    const r = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    expect(r.events).toEqual({ market: 1, book: 4, trade: 1, other: 0 });
    expect(r.orders.placed).toBeGreaterThan(0);
    // The SELL at 0.45 went through every bid above 0.45: ours at 0.499 filled up to the 5 traded.
    const m = r.markets.find((x) => x.symbol === "MKT")!;
    expect(m.makerFills).toBeGreaterThan(0);
    expect(m.volume).toBe("5");
    expect(m.positions).toEqual({ "0": "5" });
  });

  it("an order resting behind 100 shares at its price fills only after 100 shares traded there", () => {
    // Join the best bid (halfSpreadTicks large enough that the ladder sits at the best is not
    // guaranteed), so place the book's best where the ladder quotes: mid 0.50, 1 tick -> 0.499.
    const ev: NewEvent[] = [market(T0)];
    const at = (ts: number): NewEvent[] => [
      { kind: "book", ts, symbol: "MKT", outcome: 0, serverTs: ts, bids: Levels.of([[p(0.499), 100n * S]]), asks: Levels.of([[p(0.501), 100n * S]]) },
      { kind: "book", ts, symbol: "MKT", outcome: 1, serverTs: ts, bids: Levels.of([[p(0.499), 100n * S]]), asks: Levels.of([[p(0.501), 100n * S]]) },
    ];
    ev.push(...at(T0));
    ev.push(trade(T0 + 1_000, "SELL", 0.499, 60n * S, "a"));
    ev.push(trade(T0 + 1_100, "SELL", 0.499, 30n * S, "b"));
    const before = runFastBacktest({ feed: "every", config: config(), source: source(ev.slice()), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    expect(before.markets[0]!.fills).toBe(0);
    ev.push(trade(T0 + 1_200, "SELL", 0.499, 15n * S, "c"));
    const after = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    // 60 + 30 + 15 = 105 traded at 0.499: 100 were ahead, 5 filled ours.
    expect(after.markets[0]!.volume).toBe("5");
    expect(after.markets[0]!.makerFills).toBe(1);
  });

  it("latency: a trade that comes before our order reaches the exchange does not fill it", () => {
    const ev: NewEvent[] = [market(T0), ...books(T0, 0.45, 0.55), trade(T0 + 50, "SELL", 0.45, 5n * S, "t1"), ...books(T0 + 1_000, 0.45, 0.55)];
    const fast = runFastBacktest({ feed: "every", config: config(), source: source(ev.slice()), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    const slow = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(100, 10), queue: { kind: "risk-averse" }, seed: 1 });
    expect(fast.markets[0]!.volume).toBe("5");
    expect(slow.markets[0]!.volume).toBe("0");
  });

  it("pulls nothing onto a market that is not open: the exchange refuses, the strategy does not quote", () => {
    const ev: NewEvent[] = [market(T0, { status: "PAUSED" }), ...books(T0, 0.45, 0.55)];
    const r = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    expect(r.orders.placed).toBe(0);
  });

  it("the risk limits bind: a position never grows past maxPositionPerMarket however much is sold to us", () => {
    const ev: NewEvent[] = [market(T0)];
    for (let i = 0; i < 100; i++) {
      ev.push(...books(T0 + i * 500, 0.45, 0.55));
      ev.push(trade(T0 + i * 500 + 250, "SELL", 0.45, 10n * S, `s${i}`));
    }
    const cfg = config().risk.maxPositionPerMarket;
    const r = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    const held = BigInt(Math.round(Number(r.markets[0]!.positions["0"] ?? "0"))) * S;
    expect(held).toBeGreaterThan(0n);
    expect(held).toBeLessThanOrEqual(cfg);
  });

  it("cycles a market once per instant, when every event of it is in (both outcomes' books of one poll)", () => {
    const ev: NewEvent[] = [market(T0), ...books(T0, 0.45, 0.55), ...books(T0 + 250, 0.46, 0.56)];
    const r = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1 });
    // T0: row + two books -> one cycle; T0 + 250: two books -> one more (its orders were answered by then).
    expect(r.cycles).toBe(2);
  });

  it("feed poll: the strategy sees a book when the poller's read of it lands, and changed books only", () => {
    // One binary market: one book in rotation, so a turn every max(60 s / budget, 500 ms / 1) = 500 ms.
    const ev: NewEvent[] = [market(T0), ...books(T0, 0.45, 0.55), ...books(T0 + 100, 0.4, 0.5), ...books(T0 + 300, 0.4, 0.5), ...books(T0 + 900, 0.4, 0.5)];
    const seen: number[] = [];
    const every = runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1, onCycle: (t) => seen.push(t - T0) });
    expect(seen).toEqual([0, 100, 300, 900]);
    seen.length = 0;
    const poll = runFastBacktest({ feed: "poll", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1, onCycle: (t) => seen.push(t - T0) });
    // T0: the row (the market is new); T0 + 20: the first read (sent at T0, 10 ms each way) shows
    // the T0 book; T0 + 520: the read sent at T0 + 500 shows the T0 + 100 book. The T0 + 300 and
    // T0 + 900 books are the same levels: no cycle for them. No refresh within the first second.
    expect(seen).toEqual([0, 20, 520]);
    expect(poll.cycles).toBeLessThan(every.cycles);
  });

  it("the quote refresh timer cycles every market each quoting.refreshMs, with nothing new", () => {
    const ev: NewEvent[] = [market(T0), ...books(T0, 0.45, 0.55), ...books(T0 + 3_500, 0.45, 0.55)];
    const seen: number[] = [];
    runFastBacktest({ feed: "every", config: config(), source: source(ev), latency: constantLatency(10, 10), queue: { kind: "risk-averse" }, seed: 1, onCycle: (t) => seen.push(t - T0) });
    expect(seen).toEqual([0, 1_000, 2_000, 3_000, 3_500]);
  });

  it("same inputs, same report", () => {
    const mk = (): NewEvent[] => {
      const ev: NewEvent[] = [market(T0)];
      for (let i = 0; i < 200; i++) {
        const mid = 0.5 + 0.01 * Math.sin(i / 7);
        ev.push(...books(T0 + i * 250, Math.round((mid - 0.01) * 1000) / 1000, Math.round((mid + 0.01) * 1000) / 1000));
        if (i % 3 === 0) ev.push(trade(T0 + i * 250 + 100, i % 2 === 0 ? "SELL" : "BUY", Math.round((mid + (i % 2 === 0 ? -0.01 : 0.01)) * 1000) / 1000, 7n * S, `t${i}`));
      }
      return ev;
    };
    const a = runFastBacktest({ feed: "every", config: config(), source: source(mk()), latency: constantLatency(20, 20), queue: { kind: "prob-power", n: 2 }, seed: 7 });
    const b = runFastBacktest({ feed: "every", config: config(), source: source(mk()), latency: constantLatency(20, 20), queue: { kind: "prob-power", n: 2 }, seed: 7 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.totals.fills).toBeGreaterThan(0);
    // The rate windows roll with the engine's time: quoting goes on past the first second's room.
    expect(a.orders.placed).toBeGreaterThan(100);
    expect(a.orders.rateDeferred).toBe(0);
  });
});
