/**
 * The engine's state as the metrics read it at scrape time (src/bot/engine/engine-state.ts): live
 * quotes per side counting only resting orders, unknown orders, non-zero positions, PnL per
 * (wallet, market) held, daily PnL, every series labelled with the wallet's NAME. Runners and the
 * inventory are small fakes holding what the source reads.
 */
import { describe, expect, it } from "vitest";
import { engineStateSource } from "../../../src/bot/engine/engine-state.js";
import type { WalletRunner } from "../../../src/bot/engine/wallet-runner.js";
import type { Inventory, Marks, PnlSummary } from "../../../src/bot/fills/inventory.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";

const m = parseMicros;

function runner(name: string, wallet: string, markets: string[], orders: Record<string, { state: string; side: "BUY" | "SELL" }[]>, unknown = 0): WalletRunner {
  return {
    name,
    wallet,
    marketsToCycle: () => markets,
    tracker: { liveOrders: (mk: string) => orders[mk] ?? [], unknownOrders: () => new Array<unknown>(unknown) },
  } as unknown as WalletRunner;
}

function inventory(positions: Record<string, { marketId: string; outcome: number; qty: Micros }[]>) {
  const calls: { wallet: string; market: string | undefined; marks: Marks }[] = [];
  const inv = {
    positions: (w: string) => positions[w] ?? [],
    pnl: (wallet: string, marks: Marks, market?: string): PnlSummary => {
      calls.push({ wallet, market, marks });
      return { realised: market === "A" ? m("1") : m("-2"), unrealised: m("0.5"), fees: 0n, net: 0n, unmarked: [] };
    },
  } as unknown as Inventory;
  return { inv, calls };
}

describe("engineStateSource", () => {
  it("live quotes: per wallet and market it cycles, buys and sells resting (open or partial) only", () => {
    const r = runner("maker-1", "0xa", ["A", "B"], {
      A: [
        { state: "open", side: "BUY" },
        { state: "partial", side: "BUY" },
        { state: "open", side: "SELL" },
        { state: "cancel_requested", side: "SELL" },
        { state: "sent", side: "BUY" },
        { state: "unknown", side: "BUY" },
      ],
    });
    const src = engineStateSource({ runners: [r], inventory: inventory({}).inv, marks: () => () => undefined, dailyPnl: () => new Map() });
    expect([...src.liveQuotes()]).toEqual([
      { wallet: "maker-1", market: "A", buy: 2, sell: 1 },
      // A market cycled with nothing resting still reports zeros (the gauge goes back to 0).
      { wallet: "maker-1", market: "B", buy: 0, sell: 0 },
    ]);
  });

  it("unknown orders per wallet name", () => {
    const src = engineStateSource({
      runners: [runner("maker-1", "0xa", [], {}, 3), runner("maker-2", "0xb", [], {}, 0)],
      inventory: inventory({}).inv,
      marks: () => () => undefined,
      dailyPnl: () => new Map(),
    });
    expect([...src.unknownOrders()]).toEqual([
      { wallet: "maker-1", count: 3 },
      { wallet: "maker-2", count: 0 },
    ]);
  });

  it("positions: non-zero only, labelled with the wallet's name, read by its address", () => {
    const { inv } = inventory({
      "0xa": [
        { marketId: "A", outcome: 0, qty: m("5") },
        { marketId: "A", outcome: 1, qty: 0n },
      ],
      "0xb": [{ marketId: "B", outcome: 1, qty: m("-1") }],
    });
    const src = engineStateSource({ runners: [runner("maker-1", "0xa", [], {}), runner("maker-2", "0xb", [], {})], inventory: inv, marks: () => () => undefined, dailyPnl: () => new Map() });
    expect([...src.positions()]).toEqual([
      { wallet: "maker-1", market: "A", outcome: 0, qty: m("5") },
      { wallet: "maker-2", market: "B", outcome: 1, qty: m("-1") },
    ]);
  });

  it("PnL: once per market the wallet has a position row in (flat ones too: realised stays), with marks read once per scrape", () => {
    const { inv, calls } = inventory({
      "0xa": [
        { marketId: "A", outcome: 0, qty: m("5") },
        { marketId: "A", outcome: 1, qty: m("1") },
        { marketId: "B", outcome: 0, qty: 0n },
      ],
    });
    let marksRead = 0;
    const marks: Marks = () => undefined;
    const src = engineStateSource({
      runners: [runner("maker-1", "0xa", [], {})],
      inventory: inv,
      marks: () => {
        marksRead += 1;
        return marks;
      },
      dailyPnl: () => new Map(),
    });
    expect([...src.pnl()]).toEqual([
      { wallet: "maker-1", market: "A", realised: m("1"), unrealised: m("0.5") },
      { wallet: "maker-1", market: "B", realised: m("-2"), unrealised: m("0.5") },
    ]);
    expect(marksRead).toBe(1);
    expect(calls.map((c) => [c.wallet, c.market, c.marks === marks])).toEqual([
      ["0xa", "A", true],
      ["0xa", "B", true],
    ]);
  });

  it("daily PnL as the risk watch has it, per wallet name", () => {
    const daily = new Map<string, Micros>([
      ["maker-1", m("-3")],
      ["maker-2", m("4.5")],
    ]);
    const src = engineStateSource({ runners: [], inventory: inventory({}).inv, marks: () => () => undefined, dailyPnl: () => daily });
    expect([...src.dailyPnl()]).toEqual([
      { wallet: "maker-1", pnl: m("-3") },
      { wallet: "maker-2", pnl: m("4.5") },
    ]);
  });

  it("reads at scrape time: a second read sees what changed since the first", () => {
    const orders: Record<string, { state: string; side: "BUY" | "SELL" }[]> = { A: [] };
    const src = engineStateSource({ runners: [runner("maker-1", "0xa", ["A"], orders)], inventory: inventory({}).inv, marks: () => () => undefined, dailyPnl: () => new Map() });
    expect([...src.liveQuotes()]).toEqual([{ wallet: "maker-1", market: "A", buy: 0, sell: 0 }]);
    orders.A!.push({ state: "open", side: "SELL" });
    expect([...src.liveQuotes()]).toEqual([{ wallet: "maker-1", market: "A", buy: 0, sell: 1 }]);
  });
});
