/**
 * The engine's default timings and policies (src/bot/engine/tuning.ts), pinned to the values typed
 * here; and the ones the docs state, read from the docs themselves: the trade feed's share, interval
 * and window (docs/architecture.md), the book poller's 80 % (docs/operations.md), the 1 s grace
 * before an unknown placement is looked up (docs/spec-gaps.md), the 60 s inventory check and the
 * one-second risk tick (docs/metrics.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_TUNING } from "../../../src/bot/engine/tuning.js";

const doc = (name: string): string => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), "utf8");

/** The capture groups of `re` in `text` (failing the test, naming the pattern, when it is not there). */
function find(text: string, re: RegExp): string[] {
  const m = re.exec(text);
  expect(m, String(re)).not.toBeNull();
  return m!.slice(1);
}

describe("DEFAULT_TUNING against the docs", () => {
  it("docs/architecture.md: the trade feed takes half its bucket, each market at most every N s, the last N trades of N minutes", () => {
    const text = doc("architecture.md").replace(/\s+/g, " ");
    const [half, every] = find(text, /`GET \/api\/markets\/\{symbol\}\/trades`, (half) of the 240\/60 s bucket less the safety margin, each market at most every (\d+) s\)/);
    expect(half).toBe("half");
    expect(DEFAULT_TUNING.tradeBudgetShare).toBe(0.5);
    expect(DEFAULT_TUNING.minTradeIntervalMs).toBe(Number(every) * 1_000);
    const [count, minutes] = find(text, /The trade feed keeps per market the last (\d+) trades of the last (\d+) minutes/);
    expect(DEFAULT_TUNING.maxRecentTrades).toBe(Number(count));
    expect(DEFAULT_TUNING.recentTradesWindowMs).toBe(Number(minutes) * 60_000);
  });

  it("docs/operations.md: the order books take N % of the market-reads bucket", () => {
    const [pct] = find(doc("operations.md"), /^\| `GET \/api\/markets\*`, order books \| 600 \/ 60 s \| (\d+) % less the margin/m);
    expect(DEFAULT_TUNING.bookBudgetShare * 100).toBe(Number(pct));
  });

  it("docs/spec-gaps.md: an unknown placement is looked up after an N s grace", () => {
    const [grace] = find(doc("spec-gaps.md"), /^\| An unknown placement \| Looked up by `clientOrderId` after a (\d+) s grace/m);
    expect(DEFAULT_TUNING.unknownGraceMs).toBe(Number(grace) * 1_000);
  });

  it("docs/metrics.md: the inventory check every N s, the halts evaluated every second by a timer", () => {
    const text = doc("metrics.md").replace(/\s+/g, " ");
    const [drift] = find(text, /the inventory check \(every (\d+) s\)/);
    expect(DEFAULT_TUNING.driftCheckMs).toBe(Number(drift) * 1_000);
    find(text, /Halts are evaluated at the start of every quote cycle \([^)]*\) and (every second) by a timer/);
    expect(DEFAULT_TUNING.riskEvaluateMs).toBe(1_000);
  });
});

describe("DEFAULT_TUNING", () => {
  it("public trades: half the trades bucket, each market at most every 2 s, the last 200 trades of 15 minutes", () => {
    expect(DEFAULT_TUNING.tradeBudgetShare).toBe(0.5);
    expect(DEFAULT_TUNING.minTradeIntervalMs).toBe(2_000);
    expect(DEFAULT_TUNING.maxRecentTrades).toBe(200);
    expect(DEFAULT_TUNING.recentTradesWindowMs).toBe(900_000);
  });

  it("order books: 80 % of the market-reads bucket, one book at most every 500 ms", () => {
    expect(DEFAULT_TUNING.bookBudgetShare).toBe(0.8);
    expect(DEFAULT_TUNING.minBookIntervalMs).toBe(500);
  });

  it("an unknown placement waits 1 s before its lookup; maintenance runs every second", () => {
    expect(DEFAULT_TUNING.unknownGraceMs).toBe(1_000);
    expect(DEFAULT_TUNING.maintenanceMs).toBe(1_000);
  });

  it("the inventory check every 60 s, the fill sync every 30 s, market rows every 5 s, the risk tick every second", () => {
    expect(DEFAULT_TUNING.driftCheckMs).toBe(60_000);
    expect(DEFAULT_TUNING.fillSyncMs).toBe(30_000);
    expect(DEFAULT_TUNING.statusRefreshMs).toBe(5_000);
    expect(DEFAULT_TUNING.riskEvaluateMs).toBe(1_000);
  });

  it("start-up: retries from 1 s to 10 s, waits 2 minutes for the wallets and 10 s for a stream", () => {
    expect(DEFAULT_TUNING.startupRetry).toEqual({ initialMs: 1_000, maxMs: 10_000 });
    expect(DEFAULT_TUNING.startupWaitMs).toBe(120_000);
    expect(DEFAULT_TUNING.streamReadyWaitMs).toBe(10_000);
  });

  it("foreign orders are cancelled, fills older than an hour compacted, quotes presigned, no status line", () => {
    expect(DEFAULT_TUNING.foreignOrders).toBe("cancel");
    expect(DEFAULT_TUNING.fillRetentionMs).toBe(3_600_000);
    expect(DEFAULT_TUNING.tradePullMarginMs).toBe(5_000);
    expect(DEFAULT_TUNING.presign).toBe(true);
    expect(DEFAULT_TUNING.statusEveryMs).toBe(0);
    expect(DEFAULT_TUNING.streamHeartbeat).toBeUndefined();
  });
});
