/**
 * The engine's id -> slot index (src/sim/engine/id-index.ts) against a Map model: hand-made cases
 * for the probing and backward-shift deletion, then seeded random churn through growth and shrink.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { IdIndex, hashId } from "../../../src/sim/engine/id-index.js";

function fixture(): { ids: (string | undefined)[]; index: IdIndex; put(s: number, id: string): void; drop(s: number): boolean } {
  const ids: (string | undefined)[] = [];
  const index = new IdIndex(ids);
  return {
    ids,
    index,
    put(s, id) {
      ids[s] = id;
      index.add(s);
    },
    drop(s) {
      const ok = index.delete(ids[s]!, s);
      ids[s] = undefined;
      return ok;
    },
  };
}

/** Ids whose hashes share their low 10 bits (the home position in a 1024-entry table). */
function colliding(n: number, home: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) if ((hashId(`c${i}`) & 1023) === home) out.push(`c${i}`);
  return out;
}

describe("hashId", () => {
  it.each([
    ["", hashId("")],
    ["o1", hashId("o1")],
  ])("is a deterministic 32-bit integer (%j)", (s, h) => {
    expect(hashId(s)).toBe(h);
    expect(Number.isInteger(h) && h >= -(2 ** 31) && h < 2 ** 31).toBe(true);
  });

  it("spreads sequential ids over the low bits", () => {
    const homes = new Set<number>();
    for (let i = 0; i < 1000; i++) homes.add(hashId(String(i)) & 1023);
    expect(homes.size).toBeGreaterThan(550);
  });
});

describe("IdIndex", () => {
  it("finds, misses and deletes single ids", () => {
    const f = fixture();
    f.put(0, "a");
    f.put(5, "b");
    expect([f.index.get("a"), f.index.get("b"), f.index.get("c"), f.index.size]).toEqual([0, 5, -1, 2]);
    expect(f.index.has("a")).toBe(true);
    expect(f.drop(0)).toBe(true);
    expect([f.index.get("a"), f.index.get("b"), f.index.size]).toEqual([-1, 5, 1]);
    expect(f.index.delete("a", 0)).toBe(false);
  });

  it("compares by content, not by string identity", () => {
    const f = fixture();
    f.put(3, ["o", "42"].join(""));
    expect(f.index.get(`o${40 + 2}`)).toBe(3);
  });

  it("treats a key that is not a string as a Map would: found only as itself", () => {
    const f = fixture();
    f.put(0, "x");
    f.put(1, "7");
    f.put(2, 7 as unknown as string);
    expect(f.index.get(undefined as unknown as string)).toBe(-1);
    expect(f.index.get("7")).toBe(1);
    expect(f.index.get(7 as unknown as string)).toBe(2);
  });

  it.each([
    ["the first of a run", 0],
    ["the middle of a run", 2],
    ["the last of a run", 4],
  ])("keeps a probe run reachable after deleting %s", (_name, victim) => {
    const f = fixture();
    const keys = colliding(5, 7);
    keys.forEach((k, s) => f.put(s, k));
    expect(f.drop(victim)).toBe(true);
    keys.forEach((k, s) => expect(f.index.get(k)).toBe(s === victim ? -1 : s));
  });

  it("keeps runs that wrap past the table's end reachable", () => {
    const f = fixture();
    const tail = colliding(3, 1023);
    const head = colliding(2, 0);
    // Three ids homed at 1023 take 1023, 0 and 1 (wrapping); the two homed at 0 land at 2 and 3.
    [...tail, ...head].forEach((k, s) => f.put(s, k));
    expect(f.drop(0)).toBe(true);
    [...tail, ...head].forEach((k, s) => expect(f.index.get(k)).toBe(s === 0 ? -1 : s));
    expect(f.drop(3)).toBe(true);
    [...tail, ...head].forEach((k, s) => expect(f.index.get(k)).toBe(s === 0 || s === 3 ? -1 : s));
  });

  it("matches a Map through seeded churn, growth and shrink", () => {
    const f = fixture();
    const model = new Map<string, number>();
    const live: string[] = [];
    const free: number[] = [];
    let top = 0;
    let next = 0;
    const rng = new Rng(11);
    for (let step = 0; step < 60_000; step++) {
      // Grow to ~6000 live ids, then drain to a few, so both resizes run.
      const target = step < 30_000 ? 6000 : 20;
      const add = model.size === 0 || (model.size < target ? rng.float() < 0.7 : rng.float() < 0.3);
      if (add) {
        const s = free.length !== 0 ? free.pop()! : top++;
        const id = `o${next++}`;
        f.put(s, id);
        model.set(id, s);
        live.push(id);
      } else {
        const k = Math.floor(rng.float() * live.length);
        const id = live[k]!;
        live[k] = live[live.length - 1]!;
        live.pop();
        const s = model.get(id)!;
        expect(f.drop(s)).toBe(true);
        model.delete(id);
        free.push(s);
      }
      if (step % 997 === 0) {
        expect(f.index.size).toBe(model.size);
        const wrong = [...model].filter(([id, s]) => f.index.get(id) !== s);
        expect(wrong).toEqual([]);
        expect([...f.index.slots()].sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
        expect(f.index.get(`o${next}`)).toBe(-1);
      }
    }
  });
});
