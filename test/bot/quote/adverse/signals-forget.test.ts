import { describe, expect, it } from "vitest";
import { AdverseBook } from "../../../../src/bot/quote/adverse/adverse-book.js";
import { SignalBook } from "../../../../src/bot/quote/signals.js";

// The shell's forgetStates() forgets the markets signals.markets() lists that the registry no longer follows.
function forgetUnfollowed(sb: SignalBook, followed: Set<string>): void {
  for (const s of sb.markets()) if (!followed.has(s)) sb.forget(s);
}

const adverse = {
  markouts: true,
  maxPending: 1_000,
  jump: { thresholdMicros: 50_000n, windowMs: 10_000, coolingMs: 30_000 },
  toxicity: { horizonMs: 1_000, fills: 5, windowMs: 60_000, minFills: 2, widenEnterMicros: -10_000n, widenExitMicros: -5_000n, pullEnterMicros: -20_000n, coolingMs: 10_000 },
};

describe("SignalBook.markets", () => {
  it("lists a quoted market that never filled (mids only), so a dropped one leaves nothing behind", () => {
    const sb = new SignalBook({ adverse });
    const t = 1_700_000_000_000;
    sb.onMid("A", 0, 500_000n, t);
    sb.onMid("A", 1, 500_000n, t);
    sb.onMid("B", 0, 500_000n, t);
    sb.onFill("w", "B", { outcome: 0, side: "BUY", price: 490_000n, size: 1_000_000n, role: "maker", ts: t });
    expect(sb.markets().sort()).toEqual(["A", "B"]);
    forgetUnfollowed(sb, new Set(["B"]));
    expect(sb.markets()).toEqual(["B"]);
    forgetUnfollowed(sb, new Set());
    expect(sb.markets()).toEqual([]);
    expect(sb.adverse!.tracker.laneCount).toBe(0);
    expect(sb.adverse!.jump!.size).toBe(0);
  });

  it("without adverse trackers: the markets with fills", () => {
    const sb = new SignalBook();
    sb.onMid("A", 0, 500_000n, 0);
    sb.onFill("w", "B", { outcome: 0, side: "SELL", price: 510_000n, size: 1_000_000n, role: "maker", ts: 0 });
    expect(sb.markets()).toEqual(["B"]);
  });
});

describe("AdverseBook.onFill", () => {
  it("fills past maxPending waiting for the time are counted as dropped (one per horizon)", () => {
    const a = new AdverseBook({ markouts: true, maxPending: 2 });
    const f = { wallet: "w", market: "A", outcome: 0, side: "BUY" as const, price: 490_000n, qty: 1_000_000n, role: "maker", ts: 0 };
    for (let i = 0; i < 3; i++) a.onFill(f);
    expect(a.tracker.stats.dropped).toBe(a.tracker.horizonsMs.length);
  });
});
