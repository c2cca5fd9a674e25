/**
 * Exposure figures on hand-made inputs: how a (wallet, market) is valued (exposure.ts header) and
 * how a RiskSnapshot sums the pairs per wallet and in total as quotes are committed.
 */
import { describe, expect, it } from "vitest";
import { figuresOf, heldQty, notionalOf, RiskSnapshot, type MarketExposure } from "../../../src/bot/risk/exposure.js";
import type { LiveOrder, PositionView } from "../../../src/bot/quote/quotes.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";

const m = (s: string): Micros => parseMicros(s);

let seq = 0;
function order(o: Partial<LiveOrder>): LiveOrder {
  seq += 1;
  return { clientOrderId: `c${seq}`, outcome: 0, side: "BUY", price: m("0.5"), size: m("10"), remaining: m("10"), postOnly: true, createdAtMs: 0, state: "open", ...o };
}
const pos = (outcome: number, qty: string, avgCost: string | null = null): PositionView => ({ outcome, qty: m(qty), avgCost: avgCost === null ? null : m(avgCost) });
const exposure = (e: Partial<MarketExposure>): MarketExposure => ({ wallet: "w1", market: "M", outcomeCount: 2, positions: [], openOrders: [], ...e });

describe("figuresOf", () => {
  it("values positions at their average cost, else the mark, else 1 per share; shorts by their size", () => {
    const f = figuresOf(
      exposure({
        outcomeCount: 3,
        positions: [pos(0, "10", "0.4"), pos(1, "5"), pos(2, "2"), pos(0, "0", "0.9")],
        marks: { 1: m("0.3"), 0: m("0.99") },
      }),
    );
    // 10 x 0.4 (avg cost wins over the mark) + 5 x 0.3 (mark) + 2 x 1 (unpriced)
    expect(f.positionNotional).toBe(m("4") + m("1.5") + m("2"));
    expect(figuresOf(exposure({ positions: [pos(1, "-3", "0.2")] })).positionNotional).toBe(m("0.6"));
  });

  it("rounds each notional up to the micro, never down", () => {
    // 0.000001 share at 0.5 is half a micro: counted as one.
    expect(figuresOf(exposure({ positions: [pos(0, "0.000001", "0.5")] })).positionNotional).toBe(1n);
    expect(figuresOf(exposure({ openOrders: [order({ price: m("0.333"), remaining: 1n })] })).openBuyNotional).toBe(1n);
  });

  it("counts every live BUY's remaining notional; SELLs and filled-out orders add nothing", () => {
    const f = figuresOf(
      exposure({
        openOrders: [
          order({ price: m("0.45"), remaining: m("10") }),
          order({ state: "pending", outcome: 1, price: m("0.2"), remaining: m("5") }),
          order({ side: "SELL", price: m("0.6"), remaining: m("8") }),
          order({ remaining: 0n }),
        ],
      }),
    );
    expect(f.openBuyNotional).toBe(m("4.5") + m("1"));
    expect(f.cancellingBuyNotional).toBe(0n);
    expect(f.cancellingBuy.size).toBe(0);
    expect(f.cancellingSell.size).toBe(0);
  });

  it("keeps the orders whose cancel is in flight apart, BUY notional and shares per outcome", () => {
    const f = figuresOf(
      exposure({
        outcomeCount: 3,
        openOrders: [
          order({ state: "cancelling", outcome: 1, price: m("0.5"), remaining: m("2") }),
          order({ state: "cancelling", outcome: 1, price: m("0.4"), remaining: m("3") }),
          order({ state: "cancelling", outcome: 2, side: "SELL", remaining: m("7") }),
          order({ state: "open", outcome: 2, price: m("0.1"), remaining: m("10") }),
        ],
      }),
    );
    expect(f.openBuyNotional).toBe(m("1") + m("1.2") + m("1"));
    expect(f.cancellingBuyNotional).toBe(m("2.2"));
    expect([...f.cancellingBuy]).toEqual([[1, m("5")]]);
    expect([...f.cancellingSell]).toEqual([[2, m("7")]]);
    expect(notionalOf(f)).toBe(f.positionNotional + f.openBuyNotional);
  });
});

describe("heldQty", () => {
  it("sums the positions of one outcome", () => {
    const e = { positions: [pos(0, "3"), pos(1, "4"), pos(0, "-1")] };
    expect(heldQty(e, 0)).toBe(m("2"));
    expect(heldQty(e, 1)).toBe(m("4"));
    expect(heldQty(e, 2)).toBe(0n);
  });
});

describe("RiskSnapshot", () => {
  const a = exposure({ wallet: "w1", market: "A", positions: [pos(0, "10", "0.5")] }); // 5
  const b = exposure({ wallet: "w1", market: "B", openOrders: [order({ price: m("0.2"), remaining: m("10") })] }); // 2
  const c = exposure({ wallet: "w2", market: "A", positions: [pos(1, "4", "0.25")] }); // 1

  it("sums the pairs per wallet and in total", () => {
    const s = new RiskSnapshot([a, b, c]);
    expect(s.walletNotional("w1")).toBe(m("7"));
    expect(s.walletNotional("w2")).toBe(m("1"));
    expect(s.walletNotional("nobody")).toBe(0n);
    expect(s.totalNotional()).toBe(m("8"));
    expect(s.market("w2", "A")?.positionNotional).toBe(m("1"));
    expect(s.market("w2", "B")).toBeUndefined();
  });

  it("a pair given twice counts once, as the last one given", () => {
    const again = exposure({ wallet: "w1", market: "A", positions: [pos(0, "2", "0.5")] }); // 1
    const s = new RiskSnapshot([a, b, again]);
    expect(s.walletNotional("w1")).toBe(m("3"));
    expect(s.totalNotional()).toBe(m("3"));
  });

  it("commit replaces a pair's open BUY notional and moves the sums with it; positions stay", () => {
    const s = new RiskSnapshot([a, b, c]);
    s.commit("w1", "B", m("0.5"));
    expect(s.market("w1", "B")?.openBuyNotional).toBe(m("0.5"));
    expect(s.walletNotional("w1")).toBe(m("5.5"));
    expect(s.totalNotional()).toBe(m("6.5"));
    s.commit("w1", "A", m("1"));
    expect(s.market("w1", "A")?.positionNotional).toBe(m("5"));
    expect(s.walletNotional("w1")).toBe(m("6.5"));
    expect(s.walletNotional("w2")).toBe(m("1"));
  });

  it("commit on a pair it has not seen starts it from nothing", () => {
    const s = new RiskSnapshot([c]);
    s.commit("w3", "Z", m("2"));
    expect(s.market("w3", "Z")).toMatchObject({ positionNotional: 0n, openBuyNotional: m("2") });
    expect(s.walletNotional("w3")).toBe(m("2"));
    expect(s.totalNotional()).toBe(m("3"));
  });
});
