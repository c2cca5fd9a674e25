import { describe, expect, it } from "vitest";
import {
  HaltBook,
  breakerVerdict,
  dailyLossVerdict,
  driftVerdict,
  rejectStormVerdict,
  staleDataVerdict,
  streamVerdict,
} from "../../../src/bot/risk/index.js";
import { m } from "./fixtures.js";

describe("evaluators (pure)", () => {
  it("breaker: raise unless closed", () => {
    expect(breakerVerdict("closed")).toEqual({ action: "clear" });
    expect(breakerVerdict("open")).toMatchObject({ action: "raise", detail: "circuit breaker open" });
    expect(breakerVerdict("half_open").action).toBe("raise");
  });

  it("stale data: strictly older than the limit", () => {
    expect(staleDataVerdict({ market: "A", lastUpdateMs: 0 }, 30_000, 30_000).action).toBe("clear");
    expect(staleDataVerdict({ market: "A", lastUpdateMs: 0 }, 30_001, 30_000)).toMatchObject({
      action: "raise",
      detail: "market data 30.0s old (limit 30.0s)",
    });
  });

  it("stream: holds while connected and not reconciled, or down without a start time", () => {
    expect(streamVerdict({ connected: false }, 1e9, 1, true).action).toBe("hold");
    expect(streamVerdict({ connected: true, connectedSinceMs: 10 }, 20, 1, true).action).toBe("hold");
    expect(streamVerdict({ connected: true, connectedSinceMs: 10, reconciledAtMs: 10 }, 20, 1, true).action).toBe("clear");
    expect(streamVerdict({ connected: true, connectedSinceMs: 10, reconciledAtMs: 10 }, 20, 1, false).action).toBe("hold");
  });

  it("drift: over tolerance raises, within clears", () => {
    expect(driftVerdict({ wallet: "w", drifted: 1, atMs: 0 }, 0).action).toBe("raise");
    expect(driftVerdict({ wallet: "w", drifted: 1, atMs: 0 }, 1).action).toBe("clear");
  });

  it("reject storm: counts within the window, clears only after the quiet period, using `last` when pruned", () => {
    const opts = { maxPerWindow: 2, windowMs: 1_000, quietMs: 5_000 };
    expect(rejectStormVerdict({ times: [100, 200, 300] }, 1_000, opts, false).action).toBe("raise");
    expect(rejectStormVerdict({ times: [100, 200, 300] }, 1_100, opts, false).action).toBe("hold");
    expect(rejectStormVerdict({ times: [], last: 300 }, 5_299, opts, true).action).toBe("hold");
    expect(rejectStormVerdict({ times: [], last: 300 }, 5_300, opts, true).action).toBe("clear");
  });

  it("daily loss: at limit plus acknowledged, never clears", () => {
    expect(dailyLossVerdict(m("-10"), m("10"), 0n)).toMatchObject({ action: "raise", detail: "daily loss 10.00 reached limit 10.00" });
    expect(dailyLossVerdict(m("-15"), m("10"), m("10")).action).toBe("hold");
    expect(dailyLossVerdict(m("-20"), m("10"), m("10")).action).toBe("raise");
    expect(dailyLossVerdict(m("100"), m("10"), 0n).action).toBe("hold");
  });
});

describe("HaltBook", () => {
  it("keys halts by scope and reason; a wallet halt gates its markets, a market halt only itself", () => {
    const book = new HaltBook();
    expect(book.raise({ kind: "wallet", wallet: "w1" }, "manual", "x", 1)?.type).toBe("raised");
    expect(book.raise({ kind: "wallet", wallet: "w1" }, "manual", "y", 2)).toBeUndefined();
    expect(book.get({ kind: "wallet", wallet: "w1" }, "manual")).toMatchObject({ sinceMs: 1, detail: "x" });
    book.raise({ kind: "market", market: "M" }, "stale_market_data", "old", 3);
    expect(book.gate("w1", "Z").quote).toBe(false);
    expect(book.gate("w2", "Z").quote).toBe(true);
    expect(book.gate("w2", "M")).toMatchObject({ quote: false, reason: "stale_market_data" });
    expect(book.globallyHalted()).toBe(false);
    expect(book.clear({ kind: "wallet", wallet: "w1" }, "manual", 4, "operator")).toMatchObject({ type: "cleared", by: "operator" });
    expect(book.clear({ kind: "wallet", wallet: "w1" }, "manual", 5, "operator")).toBeUndefined();
    expect(book.size).toBe(1);
  });
});
