/**
 * The full engine's per wallet and market figures (figures.ts), on a hand-made ledger and
 * inventory: fills tallied (notionals rounded down), the collector's order counts with rejections
 * by code in code order, PnL at the mark and at the hidden fair value (a settled market at its
 * payout either way, an unmarked one counted as such), the final positions with their largest
 * size and average cost, and raw figures that add up field by field before being formatted.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros as m } from "../../src/core/money.js";
import { Inventory } from "../../src/bot/fills/inventory.js";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import { BacktestCollector } from "../../src/backtest/collector.js";
import { addRaw, emptyRaw, formatMarketFigures, formatTotals, walletMarketRow, type RowInputs } from "../../src/backtest/figures.js";
import type { MarketMark } from "../../src/backtest/marks.js";

const W = "0x00000000000000000000000000000000000000aa";

/** A two-outcome market's mark from the book, or its settlement. */
function mark(prices: bigint[], settlement?: MarketMark["settlement"]): MarketMark {
  return { sources: prices.map(() => (settlement === undefined ? "book_mid" : "resolution")), prices, asOfMs: prices.map(() => 1_000), ...(settlement === undefined ? {} : { settlement }) };
}

function fill(over: Partial<Fill>): Fill {
  return { tradeId: "t1", wallet: W, orderId: "o1", marketId: "M", outcome: 0, side: "BUY", price: m("0.4"), qty: 10n * ONE, fee: 0n, role: "maker", ts: 1_000, source: "stream", ...over };
}

/** Bought 10 at 0.4 (maker), sold 4 at 0.5 (taker, fee 0.01): 6 held at 0.4, 0.4 realised. */
function ledger(): { fills: Fill[]; inventory: Inventory; collector: BacktestCollector } {
  const fills = [fill({}), fill({ tradeId: "t2", orderId: "o2", side: "SELL", price: m("0.5"), qty: 4n * ONE, fee: m("0.01"), role: "taker", ts: 2_000 })];
  const inventory = new Inventory();
  for (const f of fills) inventory.applyFill(f);
  const collector = new BacktestCollector();
  return { fills, inventory, collector };
}

function row(over: Partial<RowInputs> = {}) {
  const l = ledger();
  return walletMarketRow({ wallet: W, marketId: "M", fills: l.fills, inventory: l.inventory, mark: mark([m("0.45"), m("0.55")]), fairValue: [m("0.5"), m("0.5")], collector: l.collector, ...over });
}

describe("a wallet's row on one market", () => {
  it("tallies the fills, the orders and the PnL at the mark and at the fair value", () => {
    const l = ledger();
    const c = l.collector;
    c.onEvent({ type: "order_placed", wallet: W, marketId: "M", clientOrderId: "c", orderId: "o", outcome: 0, side: "BUY", price: 1n, size: 1n, postOnly: true, status: "OPEN" });
    for (const code of ["rate_limited", "insufficient_funds", "rate_limited"]) c.onEvent({ type: "order_rejected", wallet: W, marketId: "M", clientOrderId: "c", code, handling: "business_reject" });
    c.noteQty(`${W}|M|0`, 10n * ONE); // the largest position seen while trading
    c.sample([{ wallet: W, tracker: { liveOrders: () => [1] } }], ["M"], () => true);
    c.sample([{ wallet: W, tracker: { liveOrders: () => [] } }], ["M"], () => true);
    const r = walletMarketRow({ wallet: W, marketId: "M", fills: l.fills, inventory: l.inventory, mark: mark([m("0.45"), m("0.55")]), fairValue: [m("0.5"), m("0.5")], collector: c });
    // 6 x 0.45 - 2.4 = 0.3 at the mark; 6 x 0.5 - 2.4 = 0.6 at the fair value.
    expect(r.raw.pnl).toEqual({ fees: m("0.01"), realised: m("0.4"), unrealised: m("0.3"), unmarked: 0, unrealisedFv: m("0.6"), unmarkedFv: 0 });
    expect(r.raw.gross).toBe(6n * ONE);
    expect(r.inventory).toEqual([{ outcome: 0, final: "6", maxAbs: "10", avgCost: "0.4" }]);
    expect(r.uptime).toBe("0.5000");
    const f = formatTotals(r.raw);
    expect(f).toEqual({
      fills: { count: 2, maker: 1, taker: 1, unknownRole: 0, boughtShares: "10", soldShares: "4", buyNotional: "4", sellNotional: "2", volume: "6" },
      orders: { placed: 1, cancelled: 0, cancelTooLate: 0, cancelledBySettlement: 0, rejected: { insufficient_funds: 1, rate_limited: 2 }, rejectedTotal: 3, unknown: 0 },
      pnl: { fees: "0.01", realised: "0.4", unrealised: "0.3", net: "0.69", unmarked: 0 },
      grossFinalShares: "6",
    });
    expect(Object.keys(f.orders.rejected)).toEqual(["insufficient_funds", "rate_limited"]);
    expect(formatMarketFigures("M", r.raw, r.inventory, r.uptime)).toEqual({ marketId: "M", ...f, inventory: r.inventory, quoteUptime: "0.5000" });
  });

  it("notes the final position as the largest when nothing larger was seen", () => {
    const r = row();
    expect(r.inventory).toEqual([{ outcome: 0, final: "6", maxAbs: "6", avgCost: "0.4" }]);
    expect(r.uptime).toBeNull();
  });

  it("values a settled market at its payout, at the mark and at the fair value alike", () => {
    // YES paid 1: the 6 held shares pay 6; 6 - 2.4 = 3.6 either way.
    const r = row({ mark: mark([ONE, 0n], { nums: [1n, 0n], den: 1n }) });
    expect(r.raw.pnl).toMatchObject({ unrealised: m("3.6"), unrealisedFv: m("3.6"), unmarked: 0, unmarkedFv: 0 });
  });

  it("counts a held position without a mark, or without a fair value, as unmarked", () => {
    const r = row({ mark: undefined, fairValue: undefined });
    expect(r.raw.pnl).toMatchObject({ realised: m("0.4"), unrealised: 0n, unmarked: 1, unrealisedFv: 0n, unmarkedFv: 1 });
    expect(formatTotals(r.raw).pnl).toEqual({ fees: "0.01", realised: "0.4", unrealised: "0", net: "0.39", unmarked: 1 });
    // No fair value: the sensitivity figure falls back to the mark.
    expect(row({ fairValue: undefined }).raw.pnl).toMatchObject({ unrealisedFv: m("0.3"), unmarkedFv: 0 });
  });
});

describe("raw figures", () => {
  it("start at zero and add up field by field", () => {
    const zero = formatTotals(emptyRaw());
    expect(zero).toEqual({
      fills: { count: 0, maker: 0, taker: 0, unknownRole: 0, boughtShares: "0", soldShares: "0", buyNotional: "0", sellNotional: "0", volume: "0" },
      orders: { placed: 0, cancelled: 0, cancelTooLate: 0, cancelledBySettlement: 0, rejected: {}, rejectedTotal: 0, unknown: 0 },
      pnl: { fees: "0", realised: "0", unrealised: "0", net: "0", unmarked: 0 },
      grossFinalShares: "0",
    });
    const a = row().raw;
    a.orders.rejected.set("x", 2);
    a.orders.unknown = 1;
    const b = row({ mark: undefined }).raw;
    b.orders.rejected.set("x", 1);
    b.orders.rejected.set("y", 4);
    b.orders.cancelTooLate = 3;
    const sum = emptyRaw();
    addRaw(sum, a);
    addRaw(sum, b);
    const f = formatTotals(sum);
    expect(f.fills).toMatchObject({ count: 4, maker: 2, taker: 2, boughtShares: "20", soldShares: "8", volume: "12" });
    expect(f.orders).toEqual({ placed: 0, cancelled: 0, cancelTooLate: 3, cancelledBySettlement: 0, rejected: { x: 3, y: 4 }, rejectedTotal: 7, unknown: 1 });
    // fees 0.02, realised 0.8, unrealised 0.3 + 0 (one unmarked): net 1.08
    expect(f.pnl).toEqual({ fees: "0.02", realised: "0.8", unrealised: "0.3", net: "1.08", unmarked: 1 });
    expect(sum.pnl.unrealisedFv).toBe(m("0.6") + m("0.6"));
    expect(f.grossFinalShares).toBe("12");
    // The rows added are left as they were.
    expect(a.orders.rejected.get("x")).toBe(2);
    expect(a.fills.fills).toBe(2);
  });
});
