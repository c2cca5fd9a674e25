/**
 * Settlement checks as metrics (src/metrics/settlement-metrics.ts), read at scrape time: payouts
 * pending per wallet (expected and overdue, not confirmed), one overdue series per (wallet, market)
 * up to 50 with the rest summed under market "_other", and the overdue amount (expected minus
 * received) in settlement-token units; nothing before the watcher is followed.
 */
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { MAX_OVERDUE_SERIES, SettlementMetrics, type SettlementMetricRow } from "../../src/metrics/settlement-metrics.js";
import { parseMicros } from "../../src/core/money.js";
import { sample, seriesOf } from "./samples.js";

const m = parseMicros;

function row(walletName: string, marketId: string, state: SettlementMetricRow["state"], expected = "0", received = "0"): SettlementMetricRow {
  return { walletName, marketId, state, expected: m(expected), received: m(received) };
}

function setup(rows: () => readonly SettlementMetricRow[]) {
  const registry = new Registry();
  const s = new SettlementMetrics(registry);
  s.follow(rows);
  return registry;
}

describe("mm_settlement_*", () => {
  it("no series before the watcher is followed", async () => {
    const registry = new Registry();
    new SettlementMetrics(registry);
    const text = await registry.metrics();
    for (const name of ["mm_settlement_pending", "mm_settlement_overdue", "mm_settlement_overdue_amount"]) expect(seriesOf(text, name)).toEqual([]);
  });

  it("pending counts expected and overdue payouts per wallet; overdue and its amount only the overdue ones", async () => {
    const registry = setup(() => [
      row("alpha", "M1", "expected", "5"),
      row("alpha", "M2", "overdue", "7", "2"),
      row("alpha", "M3", "confirmed", "3", "3"),
      row("alpha", "M4", "overdue", "1.25", "0"),
      row("beta", "M1", "confirmed", "9", "9"),
    ]);
    const text = await registry.metrics();
    expect(sample(text, 'mm_settlement_pending{wallet="alpha"}')).toBe(3);
    // Every payout of beta confirmed: no pending series for it.
    expect(sample(text, 'mm_settlement_pending{wallet="beta"}')).toBeUndefined();
    expect(seriesOf(text, "mm_settlement_overdue")).toEqual(['mm_settlement_overdue{wallet="alpha",market="M2"} 1', 'mm_settlement_overdue{wallet="alpha",market="M4"} 1']);
    // (7 - 2) + (1.25 - 0)
    expect(sample(text, 'mm_settlement_overdue_amount{wallet="alpha"}')).toBe(6.25);
    expect(sample(text, 'mm_settlement_overdue_amount{wallet="beta"}')).toBeUndefined();
  });

  it("follows the watcher: a payout shown since is gone at the next scrape", async () => {
    let rows = [row("alpha", "M2", "overdue", "7", "2")];
    const registry = setup(() => rows);
    expect(sample(await registry.metrics(), 'mm_settlement_overdue{wallet="alpha",market="M2"}')).toBe(1);
    rows = [row("alpha", "M2", "confirmed", "7", "7")];
    const text = await registry.metrics();
    expect(seriesOf(text, "mm_settlement_overdue")).toEqual([]);
    expect(seriesOf(text, "mm_settlement_overdue_amount")).toEqual([]);
    expect(seriesOf(text, "mm_settlement_pending")).toEqual([]);
  });

  it("at most 50 overdue series; the rest summed per wallet under market _other", async () => {
    expect(MAX_OVERDUE_SERIES).toBe(50);
    const rows = Array.from({ length: 53 }, (_, i) => row(i < 52 ? "alpha" : "beta", `M${i}`, "overdue", "1"));
    const text = await setup(() => rows).metrics();
    const series = seriesOf(text, "mm_settlement_overdue");
    // 50 named, then alpha's 51st and 52nd summed, and beta's one under _other.
    expect(series).toHaveLength(52);
    expect(sample(text, 'mm_settlement_overdue{wallet="alpha",market="M49"}')).toBe(1);
    expect(sample(text, 'mm_settlement_overdue{wallet="alpha",market="M50"}')).toBeUndefined();
    expect(sample(text, 'mm_settlement_overdue{wallet="alpha",market="_other"}')).toBe(2);
    expect(sample(text, 'mm_settlement_overdue{wallet="beta",market="_other"}')).toBe(1);
    // The amount and the count still cover every payout.
    expect(sample(text, 'mm_settlement_overdue_amount{wallet="alpha"}')).toBe(52);
    expect(sample(text, 'mm_settlement_pending{wallet="alpha"}')).toBe(52);
  });
});
