/** The quote-cycle tests' shared fixtures (./fixtures.ts) hold what the tests assume of them. */
import { describe, expect, it } from "vitest";
import { NOW, OPEN_PHASE, SYMBOL, cycleSnapshot, liveOrder, quotedBook } from "./fixtures.js";
import { m } from "../risk/fixtures.js";

describe("quote-cycle fixtures", () => {
  it("quotedBook: the levels as given, read at NOW, with our own orders", () => {
    const own = [{ side: "BUY" as const, price: m("0.44"), remaining: m("3") }] as never;
    const b = quotedBook(1, [["0.44", "5"], ["0.43", "7"]], [["0.56", "9"]], own);
    expect(b.snapshot).toMatchObject({ symbol: SYMBOL, outcome: 1, fetchedAtMs: NOW, sentSeq: 1 });
    expect(b.snapshot.view.bids).toEqual([{ price: 440_000n, size: 5_000_000n }, { price: 430_000n, size: 7_000_000n }]);
    expect(b.snapshot.view.asks).toEqual([{ price: 560_000n, size: 9_000_000n }]);
    expect(b.snapshot.view.updatedAtMs).toBe(NOW);
    expect(b.own).toBe(own);
    expect(quotedBook(0, [], []).own).toEqual([]);
  });

  it("liveOrder: 10 YES shares post-only, 10 s old, overridable", () => {
    expect(liveOrder("a", "SELL", "0.55")).toEqual({ clientOrderId: "a", orderId: "o-a", outcome: 0, side: "SELL", price: 550_000n, size: 10_000_000n, remaining: 10_000_000n, postOnly: true, createdAtMs: NOW - 10_000, state: "open" });
    expect(liveOrder("b", "BUY", "0.4", { createdAtMs: NOW, outcome: 1 })).toMatchObject({ createdAtMs: NOW, outcome: 1 });
  });

  it("cycleSnapshot: open MKT with the 0.45 / 0.55 YES book; fields replaced whole; the wallet's name", () => {
    const s = cycleSnapshot();
    expect(s.phase).toBe(OPEN_PHASE);
    expect(OPEN_PHASE.closesAtMs).toBe(NOW + 86_400_000);
    expect(s.books.get(0)!.snapshot.view.bids[0]!.price).toBe(450_000n);
    expect(s.books.get(0)!.snapshot.view.asks[0]!.price).toBe(550_000n);
    expect(s.gate).toEqual({ quote: true });
    expect(s.risk.walletName).toBe("w0");
    expect(cycleSnapshot({}, "w").risk.walletName).toBe("w");
    const live = [liveOrder("x", "BUY", "0.45")];
    expect(cycleSnapshot({ live, nowMs: NOW + 5 })).toMatchObject({ live, nowMs: NOW + 5, symbol: SYMBOL });
    // Each call builds its own book map (a test may change one snapshot's books).
    expect(cycleSnapshot().books).not.toBe(s.books);
  });
});
