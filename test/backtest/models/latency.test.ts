/**
 * Latency models: constant, empirical (seeded draws from a sorted sample) and interpolated from
 * recorded requests, against hand-computed values; input checks; determinism given the seed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import {
  constantLatency,
  empiricalLatency,
  interpolatedLatency,
  latencyModel,
  type LatencyRecord,
  type LatencySpec,
} from "../../../src/backtest/models/latency.js";

describe("constant", () => {
  it("answers its two latencies, rounded up to whole ms", () => {
    const m = constantLatency(5, 7);
    expect([m.entry(0), m.response(123_456)]).toEqual([5, 7]);
    const f = constantLatency(2.5, 0);
    expect([f.entry(0), f.response(0)]).toEqual([3, 0]);
  });

  it.each([
    [-1, 0, /entryMs must be a finite number of ms >= 0 \(got -1\)/],
    [0, Number.NaN, /responseMs must be a finite number of ms >= 0 \(got NaN\)/],
    [Number.POSITIVE_INFINITY, 0, /entryMs .*got Infinity/],
  ])("refuses %s / %s", (e, r, message) => {
    expect(() => constantLatency(e, r)).toThrow(message);
  });
});

describe("empirical", () => {
  const entries = [3, 5, 5, 8.2, 40];
  const responses = [1, 2];

  it("draws sample[rng.int(n)] from the seed's entry and response streams, rounded up", () => {
    const m = empiricalLatency(entries, responses, 42);
    const root = new Rng(42);
    const e = root.fork("entry");
    const r = root.fork("response");
    const rounded = [3, 5, 5, 9, 40];
    for (let i = 0; i < 50; i++) {
      expect(m.entry(i)).toBe(rounded[e.int(5)]);
      expect(m.response(i)).toBe(responses[r.int(2)]);
    }
  });

  it("is deterministic given the seed, and response draws never shift entry draws", () => {
    const a = empiricalLatency(entries, responses, 7);
    const b = empiricalLatency(entries, responses, 7);
    const seqA: number[] = [];
    const seqB: number[] = [];
    for (let i = 0; i < 100; i++) {
      seqA.push(a.entry(i));
      seqB.push(b.entry(i));
      for (let k = 0; k < i % 3; k++) b.response(i); // interleaved on b only
    }
    expect(seqB).toEqual(seqA);
    const c = empiricalLatency(entries, responses, 8);
    expect(Array.from({ length: 100 }, (_, i) => c.entry(i))).not.toEqual(seqA);
  });

  it("uses an Rng passed to the call instead of its own", () => {
    const m = empiricalLatency(entries, responses, 1);
    const mine = new Rng(99);
    const copy = new Rng(99);
    expect(m.entry(0, mine)).toBe([3, 5, 5, 9, 40][copy.int(5)]);
    expect(m.response(0, mine)).toBe(responses[copy.int(2)]);
  });

  it("follows the sample's distribution", () => {
    const m = empiricalLatency([10, 20, 30, 40], [0], 3);
    const counts = new Map<number, number>();
    for (let i = 0; i < 40_000; i++) {
      const v = m.entry(i);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((x, y) => x - y)).toEqual([10, 20, 30, 40]);
    for (const n of counts.values()) expect(Math.abs(n - 10_000)).toBeLessThan(400);
    expect(empiricalLatency([12], [4], 0).entry(5)).toBe(12);
  });

  it.each([
    [[], [1], 0, /entryMs must be a non-empty array/],
    [[1, 3, 2], [1], 0, /entryMs must be sorted ascending \(entryMs\[2\] = 2 < entryMs\[1\] = 3\)/],
    [[1], [-4], 0, /responseMs\[0\] must be a finite number of ms >= 0 \(got -4\)/],
    [[1], [1], -1, /seed must be an integer 0..4294967295 \(got -1\)/],
    [[1], [1], 1.5, /seed must be an integer/],
  ] as [number[], number[], number, RegExp][])("refuses %j %j seed %s", (e, r, seed, message) => {
    expect(() => empiricalLatency(e, r, seed)).toThrow(message);
  });
});

describe("interpolated", () => {
  const rec = (reqMs: number, exchMs: number, respMs: number): LatencyRecord => ({ reqMs, exchMs, respMs });
  // entry latencies 10 at 1000, 30 at 2000; response latencies 20 at exch 1010, 10 at exch 2030
  const two = [rec(1000, 1010, 1030), rec(2000, 2030, 2040)];

  it.each([
    [500, 10], // before the first record: its latency
    [1000, 10],
    [1500, 20], // 10 + 20 * 500/1000
    [1501, 21], // 20.02, rounded up
    [1500.7, 20], // the clock's whole ms is floor(t)
    [1999, 30], // 29.98 -> 30
    [2000, 30],
    [5000, 30], // after the last: its latency
  ])("entry(%s) = %s", (t, ms) => {
    expect(interpolatedLatency(two).entry(t)).toBe(ms);
  });

  it.each([
    [0, 20],
    [1010, 20],
    [1520, 15], // 20 - 10 * 510/1020 = 15 exactly
    [1521, 15], // 14.990..., rounded up
    [2029, 11], // 10.0098 -> 11
    [3000, 10],
  ])("response(%s) = %s", (t, ms) => {
    expect(interpolatedLatency(two).response(t)).toBe(ms);
  });

  it("equal request times: the last of them anchors the segment to the right", () => {
    const m = interpolatedLatency([rec(1000, 1010, 1010), rec(1000, 1020, 1020), rec(2000, 2030, 2030)]);
    expect([m.entry(999), m.entry(1000), m.entry(1500)]).toEqual([10, 20, 25]);
  });

  it("response is read on the exchange's time axis, whatever order the requests were sent in", () => {
    // sent first, handled last (entry 500); sent second, handled first (entry 100)
    const m = interpolatedLatency([rec(1000, 1500, 1600), rec(1100, 1200, 1250)]);
    // exch axis: (1200, 50), (1500, 100): 50 + 50 * 150/300 = 75
    expect(m.response(1350)).toBe(75);
    expect(m.entry(1050)).toBe(300); // 500 + (100 - 500) * 50/100
  });

  it.each([
    [[], /records must be a non-empty array/],
    [[rec(2000, 2001, 2002), rec(1000, 1001, 1002)], /records must be sorted by reqMs \(records\[1\].reqMs 1000 < records\[0\].reqMs 2000\)/],
    [[rec(1000, 999, 1002)], /records\[0\]: exchMs 999 is before reqMs 1000 \(negative entry latency/],
    [[rec(1000, 1005, 1002)], /records\[0\]: respMs 1002 is before exchMs 1005/],
    [[rec(1000, 1000.5, 1002)], /records\[0\].exchMs must be a whole number of ms \(got 1000.5\)/],
  ] as [LatencyRecord[], RegExp][])("refuses %j", (records, message) => {
    expect(() => interpolatedLatency(records)).toThrow(message);
  });

  it("answers whole ms between the smallest and largest recorded latency", () => {
    const recordArb = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 })), {
        minLength: 1,
        maxLength: 20,
      })
      .map((rows) => {
        let t = 1_700_000_000_000;
        return rows.map(([gap, entry, response]) => {
          t += gap;
          return rec(t, t + entry, t + entry + response);
        });
      });
    fc.assert(
      fc.property(recordArb, fc.integer({ min: 0, max: 30_000 }), (records, offset) => {
        const m = interpolatedLatency(records);
        const t = 1_700_000_000_000 - 1_000 + offset;
        const entries = records.map((r) => r.exchMs - r.reqMs);
        const responses = records.map((r) => r.respMs - r.exchMs);
        const e = m.entry(t);
        const r = m.response(t);
        expect(Number.isInteger(e) && Number.isInteger(r)).toBe(true);
        expect(e).toBeGreaterThanOrEqual(Math.min(...entries));
        expect(e).toBeLessThanOrEqual(Math.max(...entries));
        expect(r).toBeGreaterThanOrEqual(Math.min(...responses));
        expect(r).toBeLessThanOrEqual(Math.max(...responses));
      }),
    );
  });
});

describe("latencyModel(spec)", () => {
  it("builds each kind and refuses an unknown one", () => {
    expect(latencyModel({ kind: "constant", entryMs: 4, responseMs: 6 }).response(0)).toBe(6);
    expect(latencyModel({ kind: "empirical", entryMs: [9], responseMs: [1], seed: 0 }).entry(0)).toBe(9);
    expect(latencyModel({ kind: "interpolated", records: [{ reqMs: 0, exchMs: 3, respMs: 5 }] }).response(0)).toBe(2);
    expect(() => latencyModel({ kind: "gauss" } as unknown as LatencySpec)).toThrow(/unknown kind "gauss" \(constant, empirical, interpolated\)/);
  });
});
