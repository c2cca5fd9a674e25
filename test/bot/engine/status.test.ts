/**
 * The daemon's status snapshot and its one-line summary (src/bot/engine/status.ts): marks from the
 * polled books (binary: NO at 1 - the YES mid), PnL summed over wallets, what counts as a quoted
 * market and a held position, and the line the demo prints. The registry, book source, inventory
 * and runners are small fakes holding only what the status reads.
 */
import { describe, expect, it } from "vitest";
import { formatStatusLine, marksFrom, pnlOf, statusOf, type DaemonStatus, type StatusParts } from "../../../src/bot/engine/status.js";
import type { WalletStatus } from "../../../src/bot/engine/wallet-types.js";
import type { FillLedger } from "../../../src/bot/fills/fill-ledger.js";
import type { Inventory, Marks, PnlSummary } from "../../../src/bot/fills/inventory.js";
import type { MarketDataSource } from "../../../src/bot/market/market-data.js";
import type { MarketRegistry } from "../../../src/bot/market/market-registry.js";
import { parseMicros } from "../../../src/core/money.js";

const m = parseMicros;
const T = 1_750_000_000_000;

function registry(markets: { symbol: string; outcomeCount: number; selected?: boolean }[]): MarketRegistry {
  const entries = markets.map((x) => ({ row: { symbol: x.symbol, outcomeCount: x.outcomeCount }, selected: x.selected ?? true }));
  return {
    get: (s: string) => entries.find((e) => e.row.symbol === s),
    selected: () => entries.filter((e) => e.selected),
  } as unknown as MarketRegistry;
}

/** Books as "bid/ask" per symbol/outcome. */
function books(levels: Record<string, string>): MarketDataSource {
  return {
    book: (symbol: string, outcome: number) => {
      const l = levels[`${symbol}/${outcome}`];
      if (l === undefined) return undefined;
      const [bid, ask] = l.split("/");
      return { view: { bids: bid ? [{ price: m(bid), size: m("1") }] : [], asks: ask ? [{ price: m(ask), size: m("1") }] : [], updatedAtMs: T } };
    },
  } as unknown as MarketDataSource;
}

function inventory(positions: Record<string, { marketId: string; outcome: number; qty: bigint }[]>, pnl: Record<string, Partial<PnlSummary>> = {}) {
  const marksSeen: Marks[] = [];
  const inv = {
    positions: (w: string) => positions[w] ?? [],
    pnl: (w: string, marks: Marks): PnlSummary => {
      marksSeen.push(marks);
      return { realised: 0n, unrealised: 0n, fees: 0n, net: 0n, unmarked: [], ...pnl[w] };
    },
  } as unknown as Inventory;
  return { inv, marksSeen };
}

function walletStatus(over: Partial<WalletStatus> = {}): WalletStatus {
  return { name: "maker-1", wallet: "0xa", state: "ready", vault: undefined, liveOrders: 0, unknownOrders: 0, streamSubscribed: true, markets: [], ...over };
}

describe("marksFrom", () => {
  it("a binary market is marked at the YES mid, its NO at 1 - that mid; no YES book, no mark", () => {
    const marks = marksFrom(registry([{ symbol: "BIN", outcomeCount: 2 }]), books({ "BIN/0": "0.40/0.44", "BIN/1": "0.10/0.20" }));
    expect(marks("BIN", 0)).toBe(m("0.42"));
    // The NO book is not used: NO is the complement of the YES mid.
    expect(marks("BIN", 1)).toBe(m("0.58"));
    expect(marks("BIN", 2)).toBeUndefined();
    expect(marksFrom(registry([{ symbol: "BIN", outcomeCount: 2 }]), books({ "BIN/1": "0.1/0.2" }))("BIN", 1)).toBeUndefined();
  });

  it("a multi-outcome market is marked per outcome from its own book", () => {
    const marks = marksFrom(registry([{ symbol: "MULTI", outcomeCount: 3 }]), books({ "MULTI/0": "0.2/0.3", "MULTI/2": "0.5/0.6" }));
    expect(marks("MULTI", 0)).toBe(m("0.25"));
    expect(marks("MULTI", 1)).toBeUndefined();
    expect(marks("MULTI", 2)).toBe(m("0.55"));
  });

  it("a one-sided or crossed book, or a market not followed, gives no mark", () => {
    const reg = registry([{ symbol: "A", outcomeCount: 3 }, { symbol: "B", outcomeCount: 3 }]);
    const marks = marksFrom(reg, books({ "A/0": "0.3/", "B/0": "0.5/0.5" }));
    expect(marks("A", 0)).toBeUndefined();
    expect(marks("B", 0)).toBeUndefined();
    expect(marks("ZZZ", 0)).toBeUndefined();
  });
});

describe("pnlOf", () => {
  it("sums every wallet's figures, each valued with the marks given", () => {
    const { inv, marksSeen } = inventory({}, { a: { realised: m("1"), unrealised: m("-0.5"), fees: m("0.1"), net: m("0.4") }, b: { realised: m("2"), unrealised: m("0.25"), fees: m("0.05"), net: m("2.2") } });
    const marks: Marks = () => undefined;
    expect(pnlOf(inv, ["a", "b"], marks)).toEqual({ realised: m("3"), unrealised: m("-0.25"), fees: m("0.15"), net: m("2.6") });
    expect(marksSeen).toEqual([marks, marks]);
    expect(pnlOf(inv, [], marks)).toEqual({ realised: 0n, unrealised: 0n, fees: 0n, net: 0n });
  });
});

describe("statusOf", () => {
  it("counts a selected market as quoted when any wallet has a live order there; sums orders, positions and shares", () => {
    const live: Record<string, Record<string, number>> = { "0xa": { A: 2 }, "0xb": { C: 1 } };
    const runners = ["0xa", "0xb"].map((wallet, i) => ({
      wallet,
      tracker: { liveOrders: (mk: string) => new Array<unknown>(live[wallet]![mk] ?? 0) },
      status: () => walletStatus({ name: `maker-${i + 1}`, wallet, liveOrders: i === 0 ? 2 : 1, unknownOrders: i }),
    }));
    const { inv } = inventory({
      "0xa": [
        { marketId: "A", outcome: 0, qty: m("10") },
        { marketId: "A", outcome: 1, qty: 0n },
      ],
      "0xb": [{ marketId: "C", outcome: 0, qty: m("-2.5") }],
    });
    const parts: StatusParts = {
      nowMs: T,
      running: true,
      runners,
      // C was deselected: still followed (its orders are being pulled) but not counted.
      registry: registry([{ symbol: "A", outcomeCount: 2 }, { symbol: "B", outcomeCount: 2 }, { symbol: "C", outcomeCount: 2, selected: false }]),
      data: books({}),
      ledger: { total: 7 } as unknown as FillLedger,
      inventory: inv,
      halts: ["global kill_switch"],
    };
    const s = statusOf(parts);
    expect(s).toMatchObject({
      at: T,
      running: true,
      markets: { selected: 2, quoted: 1 },
      openOrders: 3,
      unknownOrders: 1,
      fills: 7,
      positions: 2,
      sharesHeld: m("12.5"),
      halts: ["global kill_switch"],
    });
    expect(s.wallets.map((w) => w.name)).toEqual(["maker-1", "maker-2"]);
  });
});

describe("formatStatusLine", () => {
  const base: DaemonStatus = {
    at: T,
    running: true,
    markets: { selected: 4, quoted: 3 },
    wallets: [walletStatus(), walletStatus({ name: "maker-2", state: "onboarding", streamSubscribed: false })],
    openOrders: 12,
    unknownOrders: 0,
    fills: 40,
    positions: 2,
    sharesHeld: m("15.6"),
    pnl: { realised: m("1.234"), unrealised: m("-0.5"), fees: m("0.1"), net: m("0.634") },
    halts: [],
  };

  it("says the time (UTC), wallets ready, markets quoted, orders, fills, inventory, signed PnL and halts, in that order, in one short line", () => {
    const line = formatStatusLine(base);
    expect(line).toBe(
      `${new Date(T).toISOString().slice(11, 19)} | wallets 1/2 ready (1 stream down) | markets 3/4 quoted | orders 12 | fills 40 | positions 2 (16 sh) | pnl +0.63 (fees 0.10) | halts none`,
    );
    const healthy = formatStatusLine({ ...base, wallets: [walletStatus()] });
    expect(healthy).toContain("| wallets 1/1 ready | markets");
    expect(healthy.length).toBeLessThan(132);
  });

  it("names unknown orders and the halts when there are some", () => {
    const line = formatStatusLine({ ...base, unknownOrders: 2, halts: ["wallet maker-1 stream_down", "market A stale_market_data"] });
    expect(line).toContain("| orders 12 (2 unknown) |");
    expect(line.endsWith("halts wallet maker-1 stream_down; market A stale_market_data")).toBe(true);
  });

  it("a zero PnL is shown with a plus sign", () => {
    expect(formatStatusLine({ ...base, pnl: { realised: 0n, unrealised: 0n, fees: 0n, net: 0n } })).toContain("pnl +0.00 (fees 0.00)");
  });
});
