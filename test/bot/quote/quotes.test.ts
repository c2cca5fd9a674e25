/**
 * The daemon's quote vocabulary (src/bot/quote/quotes.ts): the slot key that makes orders of one
 * outcome and side interchangeable for reconciling, and the strategy contract it re-exports (the
 * same bindings the strategies read, not copies).
 */
import { describe, expect, it } from "vitest";
import * as contract from "../../../strategies/contract.js";
import { NO, YES, complementBook, netExposure, positionQty, slotKey } from "../../../src/bot/quote/quotes.js";
import { m } from "../risk/fixtures.js";
import { liveOrder } from "./fixtures.js";

describe("slotKey", () => {
  it("is outcome:side, the same for a quote and an order of that outcome and side whatever their price or size", () => {
    expect(slotKey({ outcome: 0, side: "BUY" })).toBe("0:BUY");
    expect(slotKey({ outcome: 1, side: "SELL" })).toBe("1:SELL");
    const order = liveOrder("c1", "BUY", "0.45", { outcome: 0, size: m("3") });
    expect(slotKey(order)).toBe(slotKey({ outcome: 0, side: "BUY" }));
  });

  it("tells outcome and side apart (no two slots share a key)", () => {
    const keys = [0, 1, 2, 10].flatMap((outcome) => (["BUY", "SELL"] as const).map((side) => slotKey({ outcome, side })));
    expect(new Set(keys).size).toBe(8);
    // 1:... and 10:... do not run together
    expect(keys).toContain("1:BUY");
    expect(keys).toContain("10:BUY");
  });
});

describe("the strategy contract, re-exported", () => {
  it("YES and NO are outcomes 0 and 1", () => {
    expect([YES, NO]).toEqual([0, 1]);
  });

  it("the helpers are the contract's own functions", () => {
    expect(positionQty).toBe(contract.positionQty);
    expect(netExposure).toBe(contract.netExposure);
    expect(complementBook).toBe(contract.complementBook);
  });
});
