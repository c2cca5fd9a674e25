import { describe, expect, it } from "vitest";
import { EventSeq } from "../../../src/bot/market/market-data.js";
import { OwnOrderLog } from "../../../src/bot/quote/own-orders.js";

describe("OwnOrderLog", () => {
  it("counts an order only if it rested before the book read was sent and had not ended before it", () => {
    const seq = new EventSeq();
    const log = new OwnOrderLog(seq);
    log.rested("a", "MKT", { outcome: 0, side: "BUY", price: 1n, remaining: 1n });
    const readAfterA = seq.next();
    log.rested("b", "MKT", { outcome: 0, side: "BUY", price: 2n, remaining: 1n });
    log.ended("a", 0);
    const readAfterEndA = seq.next();
    expect(log.restingAt("MKT", readAfterA).map((o) => o.price)).toEqual([1n]); // b not yet in that book
    expect(log.restingAt("MKT", readAfterEndA).map((o) => o.price)).toEqual([2n]); // a gone, b in
    expect(log.restingAt("OTHER", readAfterEndA)).toEqual([]);
    // a ended before the newest read: forgotten.
    expect(log.size).toBe(1);
  });
});
