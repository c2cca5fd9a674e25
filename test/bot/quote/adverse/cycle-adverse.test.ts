/**
 * Issue 14 part 4, done when: "a run of toxic fills widens then pulls the toxic side and restores
 * it after the cooling period" — through the pure cycle, with the controls buildControls makes of
 * an `adverse:` block and the SignalBook fed as the shell feeds it (fills, mids, a view per cycle).
 * And a jump pulls the whole market for its cooling period.
 */
import { describe, expect, it } from "vitest";
import { adverseSectionSchema } from "../../../../src/config/adverse-section.js";
import { adverseOptionsOf } from "../../../../src/bot/quote/adverse/adverse-book.js";
import { buildControls } from "../../../../src/bot/quote/controls/index.js";
import { quoteCycle } from "../../../../src/bot/quote/cycle.js";
import { SignalBook } from "../../../../src/bot/quote/signals.js";
import { m } from "../../risk/fixtures.js";
import { NOW, SYMBOL, cyclePolicy, cycleSnapshot } from "../controls/fixtures.js";

const WALLET = "0xw";

function setup(adverse: unknown) {
  const settings = adverseSectionSchema().parse(adverse);
  const book = new SignalBook({ adverse: adverseOptionsOf(settings) });
  const policy = cyclePolicy(buildControls({ adverse: settings, risk: { maxNotionalPerWallet: m("1000") } }));
  /** One cycle at `t`: the desired quotes as [outcome, side, price, size] and why.controls. */
  const cycle = (t: number) => {
    const c = quoteCycle(policy, cycleSnapshot({ nowMs: t, signals: book.view(WALLET, SYMBOL, t) }));
    return { quotes: c.desired.map((q) => [q.outcome, q.side, q.price, q.size]), controls: Object.fromEntries(c.why.controls) };
  };
  return { book, cycle };
}

const YES_BID = [0, "BUY", m("0.45"), m("10")];
const NO_BID = [1, "BUY", m("0.45"), m("10")];

describe("adverse selection in the quote cycle", () => {
  it("a run of toxic fills widens, then pulls the toxic side, and restores it after the cooling period", () => {
    const { book, cycle } = setup({
      toxicity: { horizonSec: 1, fills: 4, minFills: 2, widenEnterTicks: 1, widenExitTicks: 0.5, pullEnterTicks: 3, coolingSec: 60, widenTicks: 2, sizeFactor: 0.5 },
    });
    const mid = (t: number, p: string) => book.onMid(SYMBOL, 0, m(p), t);
    const buy = (t: number, p: string) => book.onFill(WALLET, SYMBOL, { outcome: 0, side: "BUY", price: m(p), size: m("10"), role: "maker", ts: t });
    let t = NOW;
    mid(t, "0.500");
    expect(cycle(t)).toEqual({ quotes: [YES_BID, NO_BID], controls: {} });
    // two YES buys at 0.500, the mid 0.498 a second later: -2 ticks each -> widen (enter: -1 tick)
    buy(t + 100, "0.500");
    buy(t + 200, "0.500");
    mid(t + 300, "0.498");
    mid(t + 1_300, "0.498");
    t += 1_300;
    expect(cycle(t)).toEqual({ quotes: [[0, "BUY", m("0.448"), m("5")], NO_BID], controls: { toxicity: 1 } });
    // two more at 0.500 with the mid at 0.494 after them: -6 ticks each, average -4 -> pull (enter: -3)
    buy(t + 100, "0.500");
    buy(t + 200, "0.500");
    mid(t + 300, "0.494");
    mid(t + 1_300, "0.494");
    t += 1_300;
    const pulledAt = t;
    expect(cycle(t)).toEqual({ quotes: [NO_BID], controls: { toxicity: 1 } });
    // still pulled just before the cooling period ends; quoted again at its end (the side starts afresh)
    expect(cycle(pulledAt + 59_999).quotes).toEqual([NO_BID]);
    expect(cycle(pulledAt + 60_000)).toEqual({ quotes: [YES_BID, NO_BID], controls: {} });
    expect(book.view(WALLET, SYMBOL, pulledAt + 60_000).toxicity).toEqual([{ outcome: 0, side: "BUY", level: "normal", estimateMicros: null, fills: 0, sinceMs: pulledAt + 60_000 }]);
  });

  it("good fills change nothing", () => {
    const { book, cycle } = setup({ toxicity: { horizonSec: 1, minFills: 1 } });
    book.onMid(SYMBOL, 0, m("0.500"), NOW);
    book.onFill(WALLET, SYMBOL, { outcome: 0, side: "BUY", price: m("0.45"), size: m("10"), role: "maker", ts: NOW + 10 });
    book.onMid(SYMBOL, 0, m("0.500"), NOW + 2_000);
    expect(cycle(NOW + 2_000)).toEqual({ quotes: [YES_BID, NO_BID], controls: {} });
  });

  it("a jump pulls every quote of the market for the cooling period", () => {
    const { book, cycle } = setup({ jump: { thresholdTicks: 20, windowSec: 5, coolingSec: 30 } });
    book.onMid(SYMBOL, 0, m("0.500"), NOW);
    book.onMid(SYMBOL, 0, m("0.515"), NOW + 1_000);
    expect(cycle(NOW + 1_000)).toEqual({ quotes: [YES_BID, NO_BID], controls: {} });
    book.onMid(SYMBOL, 0, m("0.530"), NOW + 2_000); // 30 ticks within 5 s
    expect(cycle(NOW + 2_000)).toEqual({ quotes: [], controls: { jump: 2 } });
    expect(cycle(NOW + 31_999).quotes).toEqual([]);
    expect(cycle(NOW + 32_000)).toEqual({ quotes: [YES_BID, NO_BID], controls: {} });
  });

  it("without adverse: no trackers, no controls, the signals carry no adverse fields", () => {
    const settings = adverseSectionSchema().parse({ markouts: false });
    expect(adverseOptionsOf(settings)).toBeUndefined();
    expect(buildControls({ adverse: settings, risk: { maxNotionalPerWallet: m("1000") } })).toEqual([]);
    expect(new SignalBook().view(WALLET, SYMBOL, NOW)).toEqual({ lastFills: [] });
  });
});
