/** The engine's event stream (src/bot/observer.ts): fan-out that survives a throwing observer, and the recording observer. */
import { describe, expect, it } from "vitest";
import { NOOP_OBSERVER, RecordingObserver, combineObservers, type EngineEvent, type EngineObserver } from "../../src/bot/observer.js";

const ev = (n: number): EngineEvent => ({ type: "quotes_live", wallet: "w", marketId: `M${n}`, count: n });
const halt: EngineEvent = { type: "halt", action: "raised", scope: "global", target: "all", reason: "r", detail: "d", at: 0 };
const thrower = (log: string[], name: string): EngineObserver => ({
  onEvent: () => {
    log.push(name);
    throw new Error(name);
  },
});

describe("combineObservers", () => {
  it.each([
    { name: "nothing", list: [] as EngineObserver[] },
    { name: "only no-op observers", list: [NOOP_OBSERVER, NOOP_OBSERVER] },
  ])("$name: the no-op observer itself", ({ list }) => {
    expect(combineObservers(list)).toBe(NOOP_OBSERVER);
  });

  it("every observer sees every event, in the order given, no-op observers left out", () => {
    const a = new RecordingObserver();
    const b = new RecordingObserver();
    const both = combineObservers([a, NOOP_OBSERVER, b]);
    both.onEvent(ev(1));
    both.onEvent(ev(2));
    expect(a.events).toEqual([ev(1), ev(2)]);
    expect(b.events).toEqual([ev(1), ev(2)]);
  });

  it("a throwing observer does not stop the ones after it; each throw goes to onError", () => {
    const order: string[] = [];
    const errors: unknown[] = [];
    const after = new RecordingObserver();
    const combined = combineObservers([thrower(order, "first"), { onEvent: () => void order.push("second") }, thrower(order, "third"), after], (e) => errors.push(e));
    combined.onEvent(ev(1));
    expect(order).toEqual(["first", "second", "third"]);
    expect(after.events).toEqual([ev(1)]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["first", "third"]);
  });

  it("without onError a throw is swallowed", () => {
    const after = new RecordingObserver();
    const combined = combineObservers([thrower([], "x"), after]);
    expect(() => combined.onEvent(ev(3))).not.toThrow();
    expect(after.events).toEqual([ev(3)]);
  });
});

describe("RecordingObserver", () => {
  it("keeps every event in order and filters by type", () => {
    const r = new RecordingObserver();
    for (const e of [ev(1), halt, ev(2)]) r.onEvent(e);
    expect(r.events).toEqual([ev(1), halt, ev(2)]);
    expect(r.of("quotes_live").map((e) => e.count)).toEqual([1, 2]);
    expect(r.of("halt")).toEqual([halt]);
    expect(r.of("fill")).toEqual([]);
  });
});
