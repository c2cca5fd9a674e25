/**
 * The full engine's series probe (series-full.ts) over a hand-made simulator and daemon: a
 * settled market's payout per share (numerator over their sum, rounded down), a binary market's
 * mids from its YES book (NO at 1 - mid), other markets from each outcome's book, none for a
 * crossed or one-sided book; the markets seen or selected that the simulator knows, sorted; PnL
 * per wallet and market at those mids, summed; positions and quotes over all our wallets; tradable
 * only while OPEN or PRE_MARKET.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros as m, type Micros } from "../../src/core/money.js";
import { Inventory } from "../../src/bot/fills/inventory.js";
import type { Daemon } from "../../src/bot/engine/daemon.js";
import type { Simulator } from "../../src/sim/simulator.js";
import { fullSeries, fullSeriesProbe } from "../../src/backtest/series-full.js";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

interface SimMarket {
  outcomeCount: number;
  labels: string[];
  status: string;
  books: ([string | null, string | null] | undefined)[];
}

function simulator(markets: Record<string, SimMarket>, settlements: Record<string, bigint[]>): Simulator {
  const p = (s: string | null | undefined): Micros | null => (s === null || s === undefined ? null : m(s));
  return {
    market: (s: string) => (markets[s] === undefined ? undefined : { id: `id-${s}`, outcomeLabels: markets[s].labels }),
    platform: { catalogue: { status: (id: string) => markets[id.slice(3)]!.status } },
    engine: {
      market: (s: string) => ({ outcomeCount: markets[s]!.outcomeCount }),
      book: (s: string, o: number) => ({ bestBid: p(markets[s]!.books[o]?.[0]), bestAsk: p(markets[s]!.books[o]?.[1]) }),
    },
    settlements: new Map(Object.entries(settlements).map(([s, payoutNumerators]) => [s, { payoutNumerators }])),
  } as unknown as Simulator;
}

const MARKETS: Record<string, SimMarket> = {
  BIN: { outcomeCount: 2, labels: ["Yes", "No"], status: "OPEN", books: [["0.4", "0.44"], ["0.9", "0.1"]] },
  CROSS: { outcomeCount: 2, labels: ["Yes", "No"], status: "PRE_MARKET", books: [["0.5", "0.5"]] },
  TRI: { outcomeCount: 3, labels: ["a", "b", "c"], status: "CLOSED", books: [["0.2", "0.3"], [null, "0.5"], undefined] },
  WON: { outcomeCount: 2, labels: ["Yes", "No"], status: "RESOLVED", books: [["0.1", "0.2"]] },
  VOID3: { outcomeCount: 3, labels: ["a", "b", "c"], status: "VOIDED", books: [] },
  ZERO: { outcomeCount: 2, labels: ["Yes", "No"], status: "OPEN", books: [["0.6", "0.7"]] },
};
const SETTLED = { WON: [0n, 1n], VOID3: [1n, 1n, 1n], ZERO: [0n, 0n] };

function daemon(): Daemon {
  const inventory = new Inventory();
  const fill = (tradeId: string, wallet: string, marketId: string, outcome: number, price: string, qty: bigint, fee = 0n) =>
    inventory.applyFill({ tradeId, wallet, orderId: tradeId, marketId, outcome, side: "BUY", price: m(price), qty, fee, ts: 1 });
  fill("t1", A, "BIN", 0, "0.4", 10n * ONE, m("0.02")); // at 0.42: +0.2
  fill("t2", B, "BIN", 0, "0.5", 2n * ONE); // at 0.42: -0.16
  fill("t3", B, "WON", 1, "0.3", 5n * ONE); // paid 1: +3.5
  const live = { BIN: [{ outcome: 0, side: "BUY", price: m("0.41") }] } as Record<string, unknown[]>;
  return {
    runners: [
      { wallet: A, tracker: { liveOrders: (s: string) => live[s] ?? [] } },
      { wallet: B, tracker: { liveOrders: (s: string) => (s === "BIN" ? [{ outcome: 1, side: "SELL", price: m("0.6") }] : []) } },
    ],
    registry: { selected: () => [{ row: { symbol: "TRI" } }, { row: { symbol: "GONE" } }] },
    inventory,
  } as unknown as Daemon;
}

describe("the full engine's series probe", () => {
  const sim = simulator(MARKETS, SETTLED);

  it("pays a settled market's outcomes their share of the numerators, rounded down", () => {
    const p = fullSeriesProbe(sim, daemon(), new Set());
    expect([p.payout!("WON", 0), p.payout!("WON", 1)]).toEqual([0n, ONE]);
    expect(p.payout!("VOID3", 2)).toBe(333_333n);
    // numerators summing to zero are no payout; an unsettled market has none
    expect(p.payout!("ZERO", 0)).toBeUndefined();
    expect(p.payout!("BIN", 0)).toBeUndefined();
    // a settled market's mid is its payout
    expect(p.mid("WON", 1)).toBe(ONE);
  });

  it("marks a binary market from its YES book, others per outcome, none without a two-sided book", () => {
    const p = fullSeriesProbe(sim, daemon(), new Set());
    expect(p.mid("BIN", 0)).toBe(m("0.42"));
    // the NO book (crossed here) is not read: 1 - 0.42
    expect(p.mid("BIN", 1)).toBe(m("0.58"));
    expect(p.mid("CROSS", 0)).toBeUndefined();
    expect(p.mid("CROSS", 1)).toBeUndefined();
    expect(p.mid("TRI", 0)).toBe(m("0.25"));
    expect(p.mid("TRI", 1)).toBeUndefined();
    expect(p.mid("TRI", 2)).toBeUndefined();
    expect(p.mid("ZERO", 1)).toBe(m("0.35"));
    expect(p.mid("GONE", 0)).toBeUndefined();
  });

  it("lists the markets seen and selected that the simulator knows, sorted, with their labels", () => {
    const p = fullSeriesProbe(sim, daemon(), new Set(["WON", "BIN", "NOT-THERE"]));
    expect(p.markets()).toEqual(["BIN", "TRI", "WON"]);
    expect(p.labels("TRI")).toEqual(["a", "b", "c"]);
    expect(p.labels("GONE")).toEqual([]);
  });

  it("sums the PnL per wallet and market at the mids, and positions and quotes over the wallets", () => {
    const p = fullSeriesProbe(sim, daemon(), new Set());
    // BIN: 0.2 - 0.16 = 0.04; WON: 5 x 1 - 1.5 = 3.5; fees 0.02.
    expect(p.pnl()).toEqual({ realised: 0n, unrealised: m("3.54"), fees: m("0.02"), net: m("3.52") });
    expect(p.position("BIN", 0)).toBe(12n * ONE);
    expect(p.position("WON", 1)).toBe(5n * ONE);
    expect(p.position("TRI", 0)).toBe(0n);
    expect([...p.quotes("BIN")]).toEqual([
      { outcome: 0, side: "BUY", price: m("0.41") },
      { outcome: 1, side: "SELL", price: m("0.6") },
    ]);
    expect([...p.quotes("TRI")]).toEqual([]);
  });

  it("counts a market tradable only while OPEN or PRE_MARKET, and one the simulator lacks as not", () => {
    const p = fullSeriesProbe(sim, daemon(), new Set());
    expect(["BIN", "CROSS", "TRI", "WON", "GONE"].map((s) => p.tradable(s))).toEqual([true, true, false, false, false]);
  });

  it("feeds a series recorder", () => {
    const r = fullSeries(sim, daemon(), new Set(["BIN"]), { stepMs: 500 });
    r.advance(1_000);
    const out = r.finish(2_000);
    expect(out.samples.t).toEqual([1_000, 1_500, 2_000]);
    expect(out.samples.netPnl).toEqual(["3.52", "3.52", "3.52"]);
    expect(out.markets.map((x) => x.marketId)).toEqual(["BIN", "TRI"]);
    expect(out.samples.mid.find((l) => l.marketId === "BIN" && l.outcome === 1)!.values).toEqual(["0.58", "0.58", "0.58"]);
  });
});
