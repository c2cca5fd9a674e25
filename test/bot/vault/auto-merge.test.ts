/** The auto-merge policy as a table (src/bot/vault/auto-merge.ts), the lock view, and the `autoMerge:` config section. */
import { describe, expect, it } from "vitest";
import { parseMicros } from "../../../src/core/money.js";
import { decideMerge, MergeLocks, type MergeCandidate } from "../../../src/bot/vault/auto-merge.js";
import { autoMergeSectionSchema } from "../../../src/config/auto-merge-section.js";

const P = { threshold: parseMicros("10"), minSize: parseMicros("5") };
const base: MergeCandidate = { marketId: "M", outcomeCount: 2, yes: 0n, no: 0n, liveOrders: 0, pending: 0n };
const c = (o: Partial<Omit<MergeCandidate, "yes" | "no" | "pending">> & { yes?: string; no?: string; pending?: string }): MergeCandidate => ({
  ...base,
  ...o,
  yes: parseMicros(o.yes ?? "0"),
  no: parseMicros(o.no ?? "0"),
  pending: parseMicros(o.pending ?? "0"),
});

describe("decideMerge", () => {
  const table: [string, MergeCandidate, string][] = [
    ["the whole pair when it reaches the threshold", c({ yes: "30", no: "12" }), "merge 12"],
    ["exactly at the threshold", c({ yes: "10", no: "10" }), "merge 10"],
    ["whole shares only (12.9 -> 12)", c({ yes: "12.9", no: "40" }), "merge 12"],
    ["below the threshold", c({ yes: "9.99", no: "50" }), "skip below_threshold"],
    ["no NO at all", c({ yes: "50" }), "skip below_threshold"],
    ["an order open in the market", c({ yes: "30", no: "30", liveOrders: 1 }), "skip orders_open"],
    ["a merge already pending", c({ yes: "30", no: "30", pending: "10" }), "skip pending"],
    ["pending wins over open orders", c({ yes: "30", no: "30", pending: "10", liveOrders: 2 }), "skip pending"],
    ["not a binary market", c({ yes: "30", no: "30", outcomeCount: 4 }), "skip not_binary"],
    ["a short position never merges", c({ yes: "-5", no: "30" }), "skip below_threshold"],
  ];
  for (const [name, cand, want] of table) {
    it(name, () => {
      const d = decideMerge(P, cand);
      expect(d.action === "merge" ? `merge ${Number(d.amount) / 1e6}` : `skip ${d.reason}`).toBe(want);
    });
  }

  it("minSize binds when it is above the threshold's whole-share floor", () => {
    const d = decideMerge({ threshold: parseMicros("4.5"), minSize: parseMicros("5") }, c({ yes: "4.9", no: "4.9" }));
    expect(d).toMatchObject({ action: "skip", reason: "below_threshold" });
    const e = decideMerge({ threshold: parseMicros("4"), minSize: parseMicros("5") }, c({ yes: "4.9", no: "4.9" }));
    expect(e).toMatchObject({ action: "skip", reason: "below_min_size" });
  });
});

describe("MergeLocks", () => {
  it("the cycle sees each outcome less what pending merges lock; released, the position is whole again", () => {
    const l = new MergeLocks();
    const held = [
      { outcome: 0, qty: parseMicros("30"), avgCost: parseMicros("0.5") },
      { outcome: 1, qty: parseMicros("20"), avgCost: parseMicros("0.4") },
    ];
    expect(l.view("0xA", "M", held)).toBe(held);
    l.lock("0xa", "M", parseMicros("20"));
    expect(l.view("0xA", "M", held).map((p) => p.qty)).toEqual([parseMicros("10"), 0n]);
    expect(l.view("0xA", "OTHER", held)).toBe(held);
    l.release("0xA", "M", parseMicros("20"));
    expect(l.locked("0xa", "M")).toBe(0n);
    expect(l.view("0xA", "M", held)).toBe(held);
  });
});

describe("autoMerge: config section", () => {
  const s = autoMergeSectionSchema();
  it("defaults: off, threshold 50, minSize 5, every 15 s", () => {
    expect(s.parse(undefined)).toEqual({ enabled: false, threshold: 50_000_000n, minSize: 5_000_000n, checkIntervalSec: 15 });
  });
  it("refuses minSize above threshold, amounts below one share, unknown keys and a zero interval", () => {
    const issues = (v: unknown): string[] => {
      const r = s.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues({ threshold: "10", minSize: "20" })).toEqual([expect.stringMatching(/^minSize: minSize must not exceed threshold/)]);
    expect(issues({ threshold: "0.5" })[0]).toMatch(/^threshold: must be >= 1/);
    expect(issues({ tresholds: 1 })[0]).toMatch(/tresholds/);
    expect(issues({ checkIntervalSec: 0 })[0]).toMatch(/^checkIntervalSec/);
  });
});
