import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import type { UserOrderFrame } from "../../src/stream/index.js";
import { DEFAULT_BACKOFF, TypedEmitter, frameKey, reconnectDelay } from "../../src/stream/index.js";
import { parseServerFrame } from "../../src/wire/frames.js";
import { T0, orderEnded, orderPlaced, userFill } from "./helpers.js";

describe("reconnectDelay", () => {
  it("full jitter stays in [0, cap] and the cap doubles up to maxMs", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer(), (level, seed) => {
        const { delayMs, capMs } = reconnectDelay(level, DEFAULT_BACKOFF, new Rng(seed));
        expect(capMs).toBe(Math.min(30_000, 500 * 2 ** (level - 1)));
        expect(delayMs).toBeGreaterThanOrEqual(0);
        expect(delayMs).toBeLessThanOrEqual(capMs);
      }),
      { seed: 3 },
    );
  });

  it("equal jitter stays in [cap/2, cap]; none is the cap", () => {
    const rng = new Rng(5);
    for (let level = 1; level < 10; level++) {
      const eq = reconnectDelay(level, { ...DEFAULT_BACKOFF, jitter: "equal" }, rng);
      expect(eq.delayMs).toBeGreaterThanOrEqual(eq.capMs / 2);
      expect(eq.delayMs).toBeLessThanOrEqual(eq.capMs);
      expect(reconnectDelay(level, { ...DEFAULT_BACKOFF, jitter: "none" }, rng).delayMs).toBe(eq.capMs);
    }
  });

  it("spreads a crowd: 1000 clients at the same level do not all pick the same wait", () => {
    const rng = new Rng(11);
    const waits = new Set(Array.from({ length: 1000 }, () => reconnectDelay(4, DEFAULT_BACKOFF, rng).delayMs));
    expect(waits.size).toBeGreaterThan(500);
  });
});

describe("TypedEmitter", () => {
  it("isolates a throwing listener, supports once and unsubscribe", () => {
    const errors: string[] = [];
    const e = new TypedEmitter<{ tick: number }>((event, err) => errors.push(`${String(event)}:${String(err)}`));
    const seen: number[] = [];
    e.on("tick", () => {
      throw new Error("x");
    });
    const off = e.on("tick", (n) => seen.push(n));
    e.once("tick", (n) => seen.push(n * 100));
    e.emit("tick", 1);
    e.emit("tick", 2);
    off();
    e.emit("tick", 3);
    expect(seen).toEqual([1, 100, 2]);
    expect(errors).toEqual(["tick:Error: x", "tick:Error: x", "tick:Error: x"]);
    expect(e.listenerCount("tick")).toBe(1);
  });
});

describe("frameKey", () => {
  const parse = (raw: Record<string, unknown>): UserOrderFrame => {
    const r = parseServerFrame(raw);
    if (r.kind !== "frame") throw new Error(`not a frame: ${JSON.stringify(r)}`);
    return r.frame as UserOrderFrame;
  };

  it("names the same report the same way and different reports differently", () => {
    const placed = parse(orderPlaced(T0));
    expect(frameKey(placed)).toBe(frameKey(parse(orderPlaced(T0 + 5))));
    const fill = parse(userFill(T0));
    expect(frameKey(fill)).toBe(frameKey(parse(userFill(T0 + 1))));
    expect(frameKey(fill)).not.toBe(frameKey(parse(userFill(T0, { tradeId: "trd_2" }))));
    // A self-trade: one trade, two of our orders.
    expect(frameKey(fill)).not.toBe(frameKey(parse(userFill(T0, { orderId: "other-order" }))));
    const keys = new Set([placed, fill, parse(orderEnded("order_cancelled", T0)), parse(orderEnded("order_expired", T0))].map(frameKey));
    expect(keys.size).toBe(4);
  });
});
