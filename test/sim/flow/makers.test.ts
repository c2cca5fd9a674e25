/**
 * Other makers: post-only bids and asks around the public fair value on every book, re-posted
 * when filled or when the fair value moves, otherwise left in place so they keep their queue
 * position; between them the book keeps liquidity on both sides while takers of every kind trade.
 */
import { describe, expect, it } from "vitest";
import { flowSim, flowWallet, rest, take, tradesOf, US } from "./helpers.js";

const SYM = "MAKERS";

describe("other makers", () => {
  it("keep liquidity on both sides while informed, noise and fair-anchored takers trade and news moves the value", async () => {
    const flow = `volPerSqrtMin: 0.006
jumpProbPerMin: 0.02
jumpSize: 0.03
takerArrivalPerMin: 6
liquidity: { levels: 0 }
makers: { count: 4, refreshPerMin: 12, size: { dist: lognormal, min: "5", max: "120", mean: "40" }, minOffset: "0.002", maxOffset: "0.01" }
noise: { arrivalPerMin: 6 }
informed: { arrivalPerMin: 10, edge: "0.004" }
news: { ratePerMin: 0.2, headStartMs: 3s }`;
    for (const [symbol, fairValue, outcomes] of [
      [SYM, "0.35", undefined],
      ["MAKERS-M", ["0.5", "0.3", "0.2"], ["A", "B", "C"]],
    ] as const) {
      const { sim, clock } = flowSim([{ symbol, fairValue: fairValue as string | string[], ...(outcomes ? { outcomes: [...outcomes] } : {}), flow }], { seed: 12 });
      const books = outcomes ? outcomes.length : 1;
      let samples = 0;
      let twoSided = 0;
      for (let s = 0; s < 1_800; s++) {
        await clock.advance(1_000);
        for (let o = 0; o < books; o++) {
          const b = sim.engine.book(symbol, o, 1);
          samples++;
          if (b.bestBid !== null && b.bestAsk !== null) twoSided++;
        }
      }
      sim.stop();
      // only the makers rest liquidity here: both sides are quoted nearly all the time
      expect(twoSided / samples, symbol).toBeGreaterThan(0.97);
      const stats = sim.flow.stats(symbol)!;
      expect(stats.makers).toHaveLength(4);
      for (const m of stats.makers) {
        expect(m.posts).toBeGreaterThan(50);
        expect(m.kept).toBeGreaterThan(0);
      }
      expect(stats.newsJumps).toBeGreaterThan(0);
      expect(tradesOf(sim, symbol).length).toBeGreaterThan(200);
      const makerWallets = new Set([1, 2, 3, 4].map((i) => flowWallet(symbol, `maker${i}`)));
      const trades = tradesOf(sim, symbol);
      // makers never take
      expect(trades.some((t) => makerWallets.has(t.takerWallet.toLowerCase()))).toBe(false);
      expect(trades.filter((t) => makerWallets.has(t.makerWallet.toLowerCase())).length).toBeGreaterThan(100);
    }
  });

  it("keep their queue place while the public value stays on its tick: a later order at the same price waits behind them", async () => {
    const flow = `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 0 }
makers: { count: 1, refreshPerMin: 60, size: { dist: fixed, mean: "30" }, minOffset: "0.004", maxOffset: "0.004" }`;
    const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", flow }]);
    const maker = flowWallet(SYM, "maker1");
    const first = sim.engine.openOrders(maker, SYM).map((o) => [o.id, o.side, o.price]);
    expect(first).toHaveLength(2);
    expect(new Set(first.map((o) => o[2]))).toEqual(new Set([496_000n, 504_000n]));
    await clock.advance(10 * 60_000);
    expect(sim.engine.openOrders(maker, SYM).map((o) => [o.id, o.side, o.price])).toEqual(first);
    expect(sim.flow.stats(SYM)!.makers[0]!.kept).toBeGreaterThan(100);

    // our bid joins the maker's level: a seller at that price fills the maker first
    rest(sim, SYM, 0, "BUY", "0.496", "30");
    const seller = flowWallet(SYM, "test-seller");
    expect(take(sim, SYM, 0, "SELL", "0.496", "40", { wallet: seller })).toBe(40_000_000n);
    const fills = tradesOf(sim, SYM).map((t) => [t.makerWallet.toLowerCase(), t.quantity]);
    expect(fills).toEqual([
      [maker, 30_000_000n],
      [US, 10_000_000n],
    ]);
    // filled, the maker re-posts at its next refresh, now behind our remaining 20
    await clock.advance(5 * 60_000);
    const bid = sim.engine.book(SYM, 0).bids[0]!;
    expect(bid).toMatchObject({ price: 496_000n, quantity: 50_000_000n, orders: 2 });
    sim.stop();
  });

  it("follow the public fair value: a move re-posts them around the new value", async () => {
    const flow = `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 0 }
makers: { count: 3, refreshPerMin: 60, minOffset: "0.002", maxOffset: "0.006" }`;
    const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", flow }]);
    sim.flow.setFairValue(SYM, [620_000n, 380_000n]);
    await clock.advance(60_000);
    for (let i = 1; i <= 3; i++) {
      for (const o of sim.engine.openOrders(flowWallet(SYM, `maker${i}`), SYM)) {
        if (o.side === "BUY") expect(o.price >= 614_000n && o.price <= 618_000n).toBe(true);
        else expect(o.price >= 622_000n && o.price <= 626_000n).toBe(true);
      }
    }
    sim.stop();
  });
});
