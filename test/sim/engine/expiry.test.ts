/**
 * The simulator's GTD expiry heap against a sorted list: entries surface by expiration, ties in
 * insertion order; compaction keeps exactly the live entries (lazy deletion by generation) and
 * the order of what is left; it only compacts when the dead outnumber the live.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { ExpiryHeap } from "../../../src/sim/engine/expiry.js";

interface Ref {
  secs: number;
  seq: number;
  slot: number;
  gen: number;
}

function drain(h: ExpiryHeap): [number, number, number][] {
  const out: [number, number, number][] = [];
  while (h.size > 0) {
    out.push([h.peekSecs(), h.peekSlot(), h.peekGen()]);
    h.pop();
  }
  return out;
}

const sorted = (xs: Ref[]): [number, number, number][] => [...xs].sort((a, b) => a.secs - b.secs || a.seq - b.seq).map((r) => [r.secs, r.slot, r.gen]);

describe("ExpiryHeap", () => {
  it("is empty at first: Infinity on top, pop does nothing", () => {
    const h = new ExpiryHeap();
    expect(h.peekSecs()).toBe(Infinity);
    h.pop();
    expect(h.size).toBe(0);
  });

  it("surfaces the earliest expiration first, equal ones in insertion order", () => {
    const h = new ExpiryHeap();
    h.push(1, 0, 300);
    h.push(2, 0, 100);
    h.push(3, 0, 200);
    h.push(4, 0, 100);
    h.push(5, 0, 100);
    expect(drain(h)).toEqual([
      [100, 2, 0],
      [100, 4, 0],
      [100, 5, 0],
      [200, 3, 0],
      [300, 1, 0],
    ]);
  });

  it("agrees with a sorted list under random pushes and pops (40 seeded runs)", () => {
    for (let run = 0; run < 40; run++) {
      const rng = new Rng(1000 + run);
      const h = new ExpiryHeap();
      const ref: Ref[] = [];
      let seq = 0;
      for (let i = 0; i < 400; i++) {
        if (ref.length > 0 && rng.bool(0.35)) {
          const top = [...ref].sort((a, b) => a.secs - b.secs || a.seq - b.seq)[0]!;
          expect([h.peekSecs(), h.peekSlot(), h.peekGen()]).toEqual([top.secs, top.slot, top.gen]);
          h.pop();
          ref.splice(ref.indexOf(top), 1);
        } else {
          const r = { secs: 1_800_000_000 + rng.int(50), seq: seq++, slot: rng.int(1000), gen: rng.int(4) };
          h.push(r.slot, r.gen, r.secs);
          ref.push(r);
        }
        expect(h.size).toBe(ref.length);
      }
      expect(drain(h)).toEqual(sorted(ref));
    }
  });

  it("compacts to the live entries, in the same order, once the dead outnumber them", () => {
    const rng = new Rng(7);
    const h = new ExpiryHeap();
    const all: Ref[] = [];
    for (let i = 0; i < 200; i++) {
      const r = { secs: 1_000 + rng.int(30), seq: i, slot: i, gen: rng.int(3) };
      h.push(r.slot, r.gen, r.secs);
      all.push(r);
    }
    // Live: the slots whose generation is still 0 (the rest were cancelled, filled or reused).
    const isLive = (slot: number, gen: number): boolean => all[slot]!.gen === 0 && gen === 0;
    const live = all.filter((r) => isLive(r.slot, r.gen));
    expect(live.length * 2).toBeLessThan(all.length);
    h.compactIfSparse(live.length, isLive);
    expect(h.size).toBe(live.length);
    expect(drain(h)).toEqual(sorted(live));
  });

  it("leaves a heap alone while the live are at least half, or it is small", () => {
    const h = new ExpiryHeap();
    for (let i = 0; i < 100; i++) h.push(i, 0, 1_000 + i);
    h.compactIfSparse(50, (slot) => slot < 50);
    expect(h.size).toBe(100);
    const small = new ExpiryHeap();
    for (let i = 0; i < 63; i++) small.push(i, 0, 1_000);
    small.compactIfSparse(0, () => false);
    expect(small.size).toBe(63);
  });
});
