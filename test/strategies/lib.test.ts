import { describe, expect, it } from "vitest";
import {
  clampAsk,
  clampBid,
  historyPrice,
  microPrice,
  recordHistory,
  midPrice,
  recordMid,
  referencePrice,
  realizedVariancePerMs,
  snapAskUp,
  snapBidDown,
  volatility,
} from "../../strategies/lib.js";
import type { TradeView } from "../../src/bot/quote/quotes.js";
import { BOOK, book, m } from "./helpers.js";

const trade = (price: string, ts: number): TradeView => ({ price: m(price), size: m("5"), side: "BUY", ts });

describe("grid snapping", () => {
  it("rounds bids down and asks up to the 0.001 grid", () => {
    expect(snapBidDown(0.5515)).toBe(m("0.551"));
    expect(snapAskUp(0.5515)).toBe(m("0.552"));
  });
  it("keeps on-grid floats on their tick despite binary float error", () => {
    // 0.549 * 1000 = 548.9999999999999 in IEEE doubles
    expect(snapBidDown(0.549)).toBe(m("0.549"));
    expect(snapAskUp(0.549)).toBe(m("0.549"));
    expect(snapBidDown(0.1 + 0.2)).toBe(m("0.3"));
    expect(snapAskUp(0.1 + 0.2)).toBe(m("0.3"));
  });
  it("refuses non-finite model output", () => {
    expect(snapBidDown(Number.NaN)).toBeNull();
    expect(snapAskUp(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe("clamping", () => {
  const band = { min: m("0.001"), max: m("0.999") };
  it("keeps a post-only bid one tick under the best ask and an ask one over the best bid", () => {
    expect(clampBid(m("0.7"), { band, postOnly: true, book: BOOK })).toBe(m("0.599"));
    expect(clampAsk(m("0.4"), { band, postOnly: true, book: BOOK })).toBe(m("0.501"));
  });
  it("lets a taking quote cross when not post-only", () => {
    expect(clampBid(m("0.7"), { band, postOnly: false, book: BOOK })).toBe(m("0.7"));
  });
  it("clamps into the band in the safe direction and drops what falls outside", () => {
    const narrow = { min: m("0.3"), max: m("0.6") };
    expect(clampBid(m("0.65"), { band: narrow, postOnly: false, book: BOOK })).toBe(m("0.6"));
    expect(clampBid(m("0.2"), { band: narrow, postOnly: false, book: BOOK })).toBeNull();
    expect(clampAsk(m("0.2"), { band: narrow, postOnly: false, book: BOOK })).toBe(m("0.3"));
    expect(clampAsk(m("0.7"), { band: narrow, postOnly: false, book: BOOK })).toBeNull();
  });
  it("never yields 0 or 1", () => {
    expect(clampBid(0n, { band, postOnly: false, book: BOOK })).toBeNull();
    expect(clampAsk(m("1"), { band, postOnly: false, book: BOOK })).toBeNull();
    expect(clampBid(m("1"), { band, postOnly: false, book: book([], []) })).toBe(m("0.999"));
    expect(clampAsk(0n, { band, postOnly: false, book: book([], []) })).toBe(m("0.001"));
  });
});

describe("reference prices", () => {
  it("mid of a two-sided book, null otherwise", () => {
    expect(midPrice(BOOK)).toBeCloseTo(0.55, 12);
    expect(midPrice(book([["0.5", "1"]], []))).toBeNull();
    expect(midPrice(book([["0.6", "1"]], [["0.5", "1"]]))).toBeNull();
  });
  it("microprice leans toward the thinner side", () => {
    const b = book([["0.50", "300"]], [["0.60", "100"]]);
    expect(microPrice(b)).toBeCloseTo((0.5 * 100 + 0.6 * 300) / 400, 12);
  });
  it("falls back to the last trade, then the configured price", () => {
    expect(referencePrice(book([], [], "0.42"), "mid")).toBeCloseTo(0.42, 12);
    expect(referencePrice(book([], []), "mid", [], m("0.3"))).toBeCloseTo(0.3, 12);
    expect(referencePrice(book([], []), "mid")).toBeNull();
  });
  it("uses the newest public trade after the book's last trade and before the configured price", () => {
    const tape = [trade("0.31", 1_000), trade("0.37", 2_000)];
    expect(referencePrice(book([], []), "mid", tape, m("0.3"))).toBeCloseTo(0.37, 12);
    expect(referencePrice(book([], []), "microprice", tape)).toBeCloseTo(0.37, 12);
    // The book wins over the tape: its mid, then its own last trade.
    expect(referencePrice(BOOK, "mid", tape, m("0.3"))).toBeCloseTo(0.55, 12);
    expect(referencePrice(book([], [], "0.42"), "mid", tape, m("0.3"))).toBeCloseTo(0.42, 12);
    // A one-sided book has no mid: the tape decides.
    expect(referencePrice(book([["0.2", "5"]], []), "mid", tape)).toBeCloseTo(0.37, 12);
    expect(referencePrice(book([], []), "mid", [], m("0.3"))).toBeCloseTo(0.3, 12);
  });
});

describe("mid history and volatility", () => {
  it("keeps a sliding window and does not mutate the previous state", () => {
    const s1 = recordMid(undefined, 0, 0.5, 10_000, 100);
    const s2 = recordMid(s1, 5_000, 0.51, 10_000, 100);
    const s3 = recordMid(s2, 12_000, 0.52, 10_000, 100);
    expect(s1.samples).toHaveLength(1);
    expect(s2.samples).toHaveLength(2);
    expect(s3.samples.map((s) => s.ts)).toEqual([5_000, 12_000]);
  });
  it("replaces a same-ts sample, ignores a null mid, caps the sample count", () => {
    let s = recordMid(undefined, 0, 0.5, 1e9, 3);
    s = recordMid(s, 0, 0.6, 1e9, 3);
    expect(s.samples).toEqual([{ ts: 0, mid: 0.6 }]);
    s = recordMid(s, 1, null, 1e9, 3);
    expect(s.samples).toHaveLength(1);
    for (let t = 1; t <= 5; t++) s = recordMid(s, t, 0.5, 1e9, 3);
    expect(s.samples.map((x) => x.ts)).toEqual([3, 4, 5]);
  });
  it("realized variance is sum of squared moves over elapsed time", () => {
    const samples = [
      { ts: 0, mid: 0.5 },
      { ts: 1000, mid: 0.51 },
      { ts: 2000, mid: 0.5 },
    ];
    expect(realizedVariancePerMs(samples)).toBeCloseTo((0.0001 + 0.0001) / 2000, 15);
    expect(volatility(samples, 1000)).toBeCloseTo(0.01, 12);
    expect(volatility(samples.slice(0, 1), 1000)).toBeNull();
  });
});

describe("historyPrice (what a volatility history records)", () => {
  const empty = { bids: [], asks: [], updatedAtMs: 0 };
  it("takes the book's mid when the book has one, whatever the tape says", () => {
    expect(historyPrice(BOOK, "mid", [trade("0.9", 5)], undefined)).toEqual({ price: midPrice(BOOK), tradeTs: 5 });
  });
  it("does not take a trade the book already priced once the book turns one-sided", () => {
    const empty = { bids: [], asks: [], updatedAtMs: 0 };
    const tape = [trade("0.9", 5)];
    const h = recordHistory(undefined, 1_000, historyPrice(BOOK, "mid", tape, undefined), 60_000, 100);
    expect(historyPrice(empty, "mid", tape, h)).toEqual({ price: null });
  });
  it("takes the newest public trade once: a repeat of the same trade is not sampled again", () => {
    const tape = [trade("0.4", 900), trade("0.45", 1_500)];
    const first = historyPrice(empty, "mid", tape, undefined);
    expect(first.price).toBeCloseTo(0.45, 12);
    expect(first.tradeTs).toBe(1_500);
    // The engine's clock is 10 s behind the platform's: still compared platform time to platform time.
    const h = recordHistory(undefined, -8_500, first, 60_000, 100);
    expect(h.lastTradeTs).toBe(1_500);
    expect(historyPrice(empty, "mid", tape, h)).toEqual({ price: null });
    const later = recordHistory(h, -8_000, { price: null }, 60_000, 100);
    expect(later.lastTradeTs).toBe(1_500);
    expect(historyPrice(empty, "mid", [...tape, trade("0.47", 1_600)], later).price).toBeCloseTo(0.47, 12);
    expect(historyPrice(empty, "mid", [], undefined)).toEqual({ price: null });
  });
});
