import { describe, expect, it } from "vitest";
import { CapacityGuard, quotedCandidates, type CapacitySettings } from "../../../src/bot/guards/capacity-guard.js";
import type { LagSample } from "../../../src/bot/guards/loop-monitor.js";
import type { ShedCandidate } from "../../../src/bot/guards/load-shedder.js";
import { createLogger } from "../../../src/log/index.js";

const SETTINGS: CapacitySettings = { enabled: true, maxLagMs: 100, recoverySec: 10, stepSec: 5, refreshFactor: 3, shedFraction: 0.5 };

function harness(settings: CapacitySettings = SETTINGS) {
  let now = 0;
  let quoted: ShedCandidate[] = ["A", "B", "C", "D"].map((market) => ({ market, hasPosition: false, hasLiveOrders: false }));
  const calls: [string, string | null][] = [];
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  let emit: ((s: LagSample) => void) | undefined;
  const guard = new CapacityGuard({ settings, log, now: () => now, candidates: () => quoted, halt: (m, d) => void calls.push([m, d]) });
  guard.attach({ onSample: (fn) => ((emit = fn), () => (emit = undefined)) });
  /** One second: four lag samples, then an evaluation. */
  const second = (lagMs: number) => {
    for (let i = 0; i < 4; i++) emit?.({ lagMs, stalled: false, atMonotonicMs: now + i * 250 });
    now += 1000;
    return guard.evaluate();
  };
  return { guard, calls, lines, second, setQuoted: (q: ShedCandidate[]) => (quoted = q), detachTest: () => emit === undefined };
}

describe("CapacityGuard", () => {
  it("applies the shedder's steps: refresh factor, capacity halts raised per shed market, warn logs; clears them on restore", () => {
    const h = harness();
    expect(h.second(500)?.kind).toBe("widen_refresh");
    expect(h.guard.refreshFactor).toBe(3);
    for (let i = 0; i < 4; i++) expect(h.second(500)).toBeUndefined();
    expect(h.second(500)?.kind).toBe("shed");
    expect(h.guard.isShed("D") && h.guard.isShed("C")).toBe(true);
    expect(h.calls.filter(([, d]) => d !== null).map(([m]) => m)).toEqual(["D", "C"]);
    expect(h.lines.at(-1)).toMatchObject({ msg: "capacity: event loop behind, markets shed (quotes pulled)", markets: ["D", "C"], shedLevel: 2, maxLagMs: 100, marketsShed: 2 });
    // Held halts are re-asserted each evaluation (a raise of a held halt changes nothing in the risk book).
    h.calls.length = 0;
    h.second(60);
    expect(h.calls).toEqual([
      ["D", expect.stringContaining("lag")],
      ["C", expect.stringContaining("lag")],
    ]);
    // Calm: restore after recoverySec.
    h.calls.length = 0;
    let step;
    for (let i = 0; i < 15 && step === undefined; i++) step = h.second(10);
    expect(step?.kind).toBe("restore");
    expect(h.calls.filter(([, d]) => d === null).map(([m]) => m)).toEqual(["D", "C"]);
    expect(h.guard.marketsShed).toBe(0);
    expect(h.lines.at(-1)).toMatchObject({ msg: "capacity: event loop keeping up, markets restored", markets: ["D", "C"] });
  });

  it("clears the halt of a shed market that is no longer quoted", () => {
    const h = harness();
    for (let i = 0; i < 6; i++) h.second(500);
    expect(h.guard.isShed("D")).toBe(true);
    h.setQuoted(["A", "B", "C"].map((market) => ({ market, hasPosition: false, hasLiveOrders: false })));
    h.calls.length = 0;
    h.second(80);
    expect(h.calls).toContainEqual(["D", null]);
    expect(h.guard.isShed("D")).toBe(false);
  });

  it("does nothing when disabled, whatever the lag", () => {
    const h = harness({ ...SETTINGS, enabled: false });
    for (let i = 0; i < 60; i++) expect(h.second(5000)).toBeUndefined();
    expect(h.guard.level).toBe(0);
    expect(h.calls).toEqual([]);
  });

  it("stops taking samples once detached", () => {
    const h = harness();
    h.guard.detach();
    expect(h.detachTest()).toBe(true);
  });
});

describe("quotedCandidates", () => {
  it("marks markets where any wallet holds shares or live orders, in the quoted order", () => {
    const c = quotedCandidates(
      [{ symbol: "A" }, { symbol: "B" }, { symbol: "C" }],
      () => [
        { marketId: "B", qty: 5n },
        { marketId: "C", qty: 0n },
        { marketId: "Z", qty: 1n },
      ],
      (m) => (m === "C" ? 2 : 0),
    );
    expect(c).toEqual([
      { market: "A", hasPosition: false, hasLiveOrders: false },
      { market: "B", hasPosition: true, hasLiveOrders: false },
      { market: "C", hasPosition: false, hasLiveOrders: true },
    ]);
  });
});
