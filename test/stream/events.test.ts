import { describe, expect, it } from "vitest";
import type { UserOrderFrame } from "../../src/stream/index.js";
import { frameKey } from "../../src/stream/index.js";
import { parseServerFrame } from "../../src/wire/frames.js";
import { T0, orderEnded, orderPlaced, userFill } from "./helpers.js";

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
