import { describe, expect, it } from "vitest";
import { bucketsFor, DEFAULT_RATE_TABLE, type BucketStats } from "../../src/ratelimit/index.js";
import { roomBeyond } from "../../src/record/index.js";

const BOOK = "/api/markets/x/orderbook";
const ipId = bucketsFor("GET", BOOK).find((r) => r.scope === "ip")!.id;

/** A gate whose orderbook ip bucket has `remaining` room and ends its 60 s window in `resetInMs`. */
const gate = (remaining: number, resetInMs: number) => ({
  remainingFor: () => remaining,
  table: DEFAULT_RATE_TABLE,
  stats: (): BucketStats[] => [{ bucket: ipId, resetInMs } as BucketStats],
});

describe("roomBeyond: the recorder's room after what the daemon's poller will still take this window", () => {
  it.each([
    // remaining, ms left in the window, daemon poller per minute -> room for the recorder
    [100, 60_000, 432, 100 - 432],
    [100, 10_000, 432, 100 - 72],
    [100, 1_000, 432, 100 - 8], // ceil(432 * 1/60) = 8
    [10, 30_000, 0, 10], // no daemon poller on this bucket: all of it
    [0, 0, 432, 0],
  ])("remaining %i, %i ms left, daemon at %i/min -> %i", (remaining, left, perMin, room) => {
    expect(roomBeyond(gate(remaining, left), { [BOOK]: perMin })("GET", BOOK)).toBe(room);
  });

  it("a path no daemon poller reads gets the gate's own answer", () => {
    expect(roomBeyond(gate(7, 5_000), { [BOOK]: 432 })("GET", "/api/markets/x/trades")).toBe(7);
  });
});
