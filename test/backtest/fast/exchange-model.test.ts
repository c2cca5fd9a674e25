/** The exchange model of one outcome book (src/backtest/fast/exchange-model.ts), by hand-computed cases. */
import { describe, expect, it } from "vitest";
import { OutcomeBook } from "../../../src/backtest/fast/exchange-model.js";
import { queueModelFactory } from "../../../src/backtest/models/queue.js";
import { Levels } from "../../../src/data/levels.js";

const S = 1_000_000n;
const P = (t: number): bigint => BigInt(t) * 1000n;
const book = (): OutcomeBook => {
  const b = new OutcomeBook(queueModelFactory({ kind: "risk-averse" }), 100);
  b.onBook(Levels.of([[P(450), 100n * S], [P(440), 50n * S]]), Levels.of([[P(550), 30n * S], [P(560), 100n * S]]));
  return b;
};
const order = (id: string, side: "BUY" | "SELL", t: number, size: bigint, postOnly = false) => ({ orderId: id, clientOrderId: `c${id}`, side, price: P(t), size, postOnly });

describe("OutcomeBook", () => {
  it("refuses a post-only order that would take liquidity", () => {
    expect(book().submit(order("1", "BUY", 550, 10n * S, true))).toMatchObject({ status: "REJECTED", code: "post_only_would_cross" });
  });

  it("a crossing order takes the recorded levels at their prices, pays the taker fee, and rests the rest", () => {
    const b = book();
    const r = b.submit(order("1", "BUY", 560, 150n * S));
    expect(r.status).toBe("PARTIAL");
    if (r.status === "REJECTED") throw new Error("rejected");
    expect(r.fills.map((f) => [f.price, f.qty, f.role])).toEqual([
      [P(550), 30n * S, "taker"],
      [P(560), 100n * S, "taker"],
    ]);
    // fee = ceil(100 bps * p * (1 - p) * q): 0.01 * 0.55 * 0.45 * 30 = 0.07425
    expect(r.fills[0]!.fee).toBe(74_250n);
    // The same shares are not taken twice before the next book.
    const again = b.submit(order("2", "BUY", 550, 10n * S));
    expect(again.status).toBe("OPEN");
  });

  it("a resting bid: a trade through its price fills it up to the trade, a book through it fills the rest", () => {
    const b = book();
    b.submit(order("1", "BUY", 460, 10n * S));
    expect(b.onTrade("SELL", P(450), 4n * S).map((f) => [f.qty, f.role, f.filledQty])).toEqual([[4n * S, "maker", 4n * S]]);
    const through = b.onBook(Levels.of([[P(440), 50n * S]]), Levels.of([[P(455), 10n * S]]));
    expect(through.map((f) => [f.qty, f.done])).toEqual([[6n * S, true]]);
    expect(b.restingCount()).toBe(0);
  });

  it("cancel answers CANCELLED with what filled, or NOT_FOUND once the order is gone", () => {
    const b = book();
    b.submit(order("1", "SELL", 600, 10n * S));
    b.onTrade("BUY", P(600), 3n * S);
    expect(b.cancel("1")).toEqual({ status: "CANCELLED", filledQty: 3n * S });
    expect(b.cancel("1")).toEqual({ status: "NOT_FOUND" });
  });

  it("one trade's shares are taken once across our orders: best price first, then what is left reaches the trade's price", () => {
    const b = book();
    b.submit(order("1", "BUY", 470, 6n * S));
    b.submit(order("2", "BUY", 460, 6n * S));
    b.submit(order("3", "BUY", 465, 6n * S));
    // A taker sold 10 down to 0.45: our 0.47 takes 6, our 0.465 the 4 left; 0.46 gets nothing.
    expect(b.onTrade("SELL", P(450), 10n * S).map((f) => [f.orderId, f.qty])).toEqual([
      ["1", 6n * S],
      ["3", 4n * S],
    ]);
  });
});
