/**
 * Auto-merge metrics (src/metrics/vault-metrics.ts): mm_vault_merges_total counts each result per
 * wallet; mm_vault_merged_shares_total adds the pairs of confirmed merges only, in shares; one
 * instance per registry however often it is asked for.
 */
import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { VAULT_MERGE_RESULTS, VaultMergeMetrics, vaultMergeMetrics } from "../../src/metrics/vault-metrics.js";
import { parseMicros } from "../../src/core/money.js";
import { sample, seriesOf } from "./samples.js";

describe("VaultMergeMetrics", () => {
  it("counts merges by result and adds confirmed pairs in shares", async () => {
    const registry = new Registry();
    const v = new VaultMergeMetrics(registry);
    v.record("w1", "started", parseMicros("20"));
    v.record("w1", "confirmed", parseMicros("20"));
    v.record("w1", "started", parseMicros("2.5"));
    v.record("w1", "confirmed", parseMicros("2.5"));
    v.record("w2", "started", parseMicros("7"));
    v.record("w2", "failed", parseMicros("7"));
    const text = await registry.metrics();
    expect(sample(text, 'mm_vault_merges_total{wallet="w1",result="started"}')).toBe(2);
    expect(sample(text, 'mm_vault_merges_total{wallet="w1",result="confirmed"}')).toBe(2);
    expect(sample(text, 'mm_vault_merges_total{wallet="w2",result="failed"}')).toBe(1);
    expect(sample(text, 'mm_vault_merged_shares_total{wallet="w1"}')).toBe(22.5);
    // Started and failed merges turned nothing into cash.
    expect(sample(text, 'mm_vault_merged_shares_total{wallet="w2"}')).toBeUndefined();
  });

  it("has the three results docs/metrics.md names for mm_vault_merges_total, in its order", () => {
    const doc = readFileSync(new URL("../../docs/metrics.md", import.meta.url), "utf8");
    const row = /^\| `mm_vault_merges_total` \| counter \| wallet, result \| Auto-merges by `result`: ([^.]*)\./m.exec(doc);
    expect(row).not.toBeNull();
    const named = [...row![1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect(named).toEqual(["started", "confirmed", "failed"]);
    expect([...VAULT_MERGE_RESULTS]).toEqual(named);
  });
});

describe("vaultMergeMetrics", () => {
  it("registers once per registry (a second call gives the same metrics, no duplicate registration)", async () => {
    const a = new Registry();
    const b = new Registry();
    const first = vaultMergeMetrics(a);
    expect(vaultMergeMetrics(a)).toBe(first);
    const other = vaultMergeMetrics(b);
    expect(other).not.toBe(first);
    first.record("w", "confirmed", parseMicros("1"));
    expect(sample(await a.metrics(), 'mm_vault_merged_shares_total{wallet="w"}')).toBe(1);
    expect(seriesOf(await b.metrics(), "mm_vault_merged_shares_total")).toEqual([]);
  });
});
