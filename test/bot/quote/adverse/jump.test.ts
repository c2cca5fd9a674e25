import { describe, expect, it } from "vitest";
import { JumpDetector, NO_JUMP } from "../../../../src/bot/quote/adverse/jump.js";

const params = { thresholdMicros: 10_000n, windowMs: 5_000, coolingMs: 20_000 };

describe("JumpDetector", () => {
  it.each<{ name: string; mids: [number, bigint, number][]; jumps: boolean[]; params?: typeof params }>([
    { name: "small moves: no jump", mids: [[0, 500_000n, 0], [0, 505_000n, 1_000], [0, 498_000n, 2_000]], jumps: [false, false, false] },
    { name: "exactly the threshold is not more than it", mids: [[0, 500_000n, 0], [0, 510_000n, 1_000]], jumps: [false, false] },
    { name: "more than the threshold within the window: jump", mids: [[0, 500_000n, 0], [0, 510_001n, 4_999]], jumps: [false, true] },
    { name: "down moves count too", mids: [[0, 500_000n, 0], [0, 505_000n, 1_000], [0, 494_000n, 2_000]], jumps: [false, false, true] },
    {
      name: "a slow drift spread over more than the window is no jump",
      mids: [[0, 500_000n, 0], [0, 506_000n, 5_001], [0, 512_000n, 10_002], [0, 518_000n, 15_003]],
      jumps: [false, false, false, false],
    },
    {
      name: "the mid in effect at the window's start counts (a quiet book, then a move)",
      mids: [[0, 500_000n, 0], [0, 515_000n, 60_000]],
      jumps: [false, true],
    },
    {
      name: "one move is one jump: the window starts afresh from the mid that jumped",
      mids: [[0, 500_000n, 0], [0, 520_000n, 1_000], [0, 521_000n, 2_000]],
      jumps: [false, true, false],
    },
    {
      // review /tmp/rv2/jump-evict.ts: window [2 s, 12 s] holds 0.40 (in effect at 2 s), 0.60, 0.30: range 0.30
      name: "a maximum gone before the window's start does not count (0.70 then 0.40 in effect at the start)",
      mids: [[0, 700_000n, 0], [0, 400_000n, 1_000], [0, 600_000n, 8_000], [0, 300_000n, 12_000]],
      jumps: [false, false, false, false],
      params: { thresholdMicros: 350_000n, windowMs: 10_000, coolingMs: 60_000 },
    },
    {
      name: "the mid in effect at the window's start counts against a later one (0.40 at the start, 0.80 now)",
      mids: [[0, 700_000n, 0], [0, 400_000n, 1_000], [0, 600_000n, 8_000], [0, 800_000n, 12_000]],
      jumps: [false, false, false, true],
      params: { thresholdMicros: 350_000n, windowMs: 10_000, coolingMs: 60_000 },
    },
    { name: "outcomes are separate lanes", mids: [[0, 500_000n, 0], [1, 515_000n, 1_000]], jumps: [false, false] },
  ])("$name", ({ mids, jumps, params: p }) => {
    const d = new JumpDetector(p ?? params);
    expect(mids.map(([o, mid, t]) => d.onMid("M", o, mid, t))).toEqual(jumps);
  });

  it("pulls the market for the cooling period, a later jump extends it", () => {
    const d = new JumpDetector(params);
    expect(d.view("M", 0)).toBe(NO_JUMP);
    d.onMid("M", 0, 500_000n, 0);
    d.onMid("M", 0, 520_000n, 1_000);
    expect(d.view("M", 1_000)).toEqual({ coolingUntilMs: 21_000, lastMoveMicros: 20_000n, lastJumpMs: 1_000 });
    expect(d.view("M", 20_999).coolingUntilMs).toBe(21_000);
    expect(d.view("M", 21_000).coolingUntilMs).toBeNull();
    expect(d.view("N", 1_000)).toBe(NO_JUMP);
    d.onMid("M", 0, 540_000n, 10_000);
    expect(d.view("M", 21_000).coolingUntilMs).toBe(30_000);
    expect(d.cooling(25_000)).toEqual([{ market: "M", untilMs: 30_000 }]);
    expect(d.jumps("M")).toBe(2);
  });

  it("bounded: a long run of mids keeps at most the window's points", () => {
    const d = new JumpDetector({ ...params, maxPoints: 64 });
    for (let i = 0; i < 10_000; i++) d.onMid("M", 0, 500_000n + BigInt(i % 2) * 1_000n, i * 10);
    expect(d.jumps("M")).toBe(0);
  });
});
