/**
 * The consistency check on its own: equal lists pass; a missing, phantom, altered or doubled fill
 * fails and is named; an unknown role is counted, not failed.
 */
import { describe, expect, it } from "vitest";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import { compareFillLists, describeConsistency, LISTED_DIFFERENCES } from "../../src/backtest/consistency.js";

const W = "0x00000000000000000000000000000000000000aa";
const V = "0x00000000000000000000000000000000000000bb";

function fill(i: number, over: Partial<Fill> = {}): Fill {
  return {
    tradeId: `t${i}`,
    wallet: W,
    orderId: `o${i}`,
    marketId: "BT-A",
    outcome: 0,
    side: i % 2 === 0 ? "BUY" : "SELL",
    price: 450_000n,
    qty: 10_000_000n,
    fee: 0n,
    role: "maker",
    ts: 1_000 + i,
    source: "trades_pull",
    ...over,
  };
}

const platform = [fill(1), fill(2), fill(3), fill(4, { wallet: V })];

describe("compareFillLists", () => {
  it("passes on equal lists whatever the order and the source", () => {
    const ledger = [...platform].reverse().map((f) => ({ ...f, source: "stream" as const, ts: f.ts + 5 }));
    const c = compareFillLists(ledger, platform, [W, V]);
    expect(c.ok).toBe(true);
    expect(c.ledgerFills).toBe(4);
    expect(c.platformFills).toBe(4);
    expect(c.perWallet).toEqual([
      { wallet: W, ledger: 3, platform: 3 },
      { wallet: V, ledger: 1, platform: 1 },
    ]);
    expect(describeConsistency(c)[0]).toMatch(/^consistency OK/);
  });

  it("reports a fill the ledger missed", () => {
    const c = compareFillLists(platform.slice(1), platform, [W, V]);
    expect(c.ok).toBe(false);
    expect(c.missingCount).toBe(1);
    expect(c.missing).toEqual([{ wallet: W, tradeId: "t1", orderId: "o1", marketId: "BT-A" }]);
    expect(c.perWallet[0]).toEqual({ wallet: W, ledger: 2, platform: 3 });
    const text = describeConsistency(c).join("\n");
    expect(text).toContain("CONSISTENCY FAILED");
    expect(text).toContain("trade t1 order o1");
  });

  it("reports a phantom fill and a fill of the right trade on the wrong order", () => {
    const c = compareFillLists([...platform, fill(9), fill(2, { orderId: "other" })], platform);
    expect(c.ok).toBe(false);
    expect(c.extraCount).toBe(2);
    expect(c.extra.map((f) => `${f.tradeId}/${f.orderId}`).sort()).toEqual(["t2/other", "t9/o9"]);
  });

  it("reports different economics field by field", () => {
    const ledger = platform.map((f) => (f.tradeId === "t3" ? { ...f, price: 451_000n, fee: 1n } : f));
    const c = compareFillLists(ledger, platform);
    expect(c.ok).toBe(false);
    expect(c.mismatched).toEqual([{ wallet: W, tradeId: "t3", orderId: "o3", marketId: "BT-A", fields: ["price", "fee"] }]);
    const roles = compareFillLists(
      platform.map((f) => (f.tradeId === "t1" ? { ...f, role: "taker" as const } : f)),
      platform,
    );
    expect(roles.mismatched[0]?.fields).toEqual(["role"]);
  });

  it("counts an unknown role without failing (spec 6: unknown is not a different role)", () => {
    const c = compareFillLists(
      platform.map((f) => (f.tradeId === "t2" ? { ...f, role: "unknown" as const } : f)),
      platform,
    );
    expect(c.ok).toBe(true);
    expect(c.unknownRoles).toBe(1);
  });

  it("fails on a fill listed twice even when every key matches", () => {
    const c = compareFillLists([...platform, platform[0]!], platform);
    expect(c.ok).toBe(false);
    expect(c.duplicateKeys).toBe(1);
    expect(describeConsistency(c).join("\n")).toContain("listed twice");
  });

  it("lists at most LISTED_DIFFERENCES examples but counts them all", () => {
    const many = Array.from({ length: LISTED_DIFFERENCES + 5 }, (_, i) => fill(100 + i));
    const c = compareFillLists([], many);
    expect(c.missingCount).toBe(LISTED_DIFFERENCES + 5);
    expect(c.missing).toHaveLength(LISTED_DIFFERENCES);
  });
});
