/**
 * reconciliation_drift (wallet scope): the daemon's inventory of one wallet stops matching the
 * platform's positions (a fill the platform never made). The drift check sees it, confirms it
 * after a full sync, and halts that wallet - its quotes cancelled, nothing placed - while the
 * other wallet quotes on. Once a later check is clean again, the halt clears.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMicros } from "../../src/core/money.js";
import { cleared, clearedAt, raised, raisedAt, run, sample, startOps, until, walletAddress, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: reconciliation drift", () => {
  it("halts the drifted wallet until a clean reconciliation", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"] },
      { driftCheckMs: 10_000 },
    ));
    await run(o.h.clock, 8_000);
    const w0 = walletAddress(0);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);
    expect(o.observer.of("reconciliation").filter((e) => e.positions > 0)).toEqual([]);

    // Our books gain 7 shares the platform never traded.
    const ghost = { tradeId: "ghost-1", wallet: w0, orderId: "ghost-order", marketId: "A", outcome: 0, side: "BUY" as const, price: parseMicros("0.5"), qty: parseMicros("7"), fee: 0n, ts: o.h.clock.now() };
    expect(o.daemon.inventory.applyFill(ghost)).toBe(true);
    await until(o.h, "drift halt", () => raised(o, "reconciliation_drift", "w0"), 30_000);
    const tRaise = raisedAt(o, "reconciliation_drift", "w0")!;
    await run(o.h.clock, 4_000);

    expect(await o.openOn(0)).toEqual([]);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);
    const text = await o.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "wallet", target: "w0", reason: "reconciliation_drift" })).toBe(1);
    // One position and the cash it would have cost.
    expect(sample(text, "mm_reconciliation_drift", { wallet: "w0" })).toBe(2);
    expect(sample(text, "mm_reconciliations_total", { wallet: "w0", result: "drift" })).toBe(1);
    expect(o.logs.withMsg("inventory drift").length).toBeGreaterThan(0);
    expect(o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "reconciliation_drift")).toMatchObject({ haltScope: "wallet", target: "w0" });

    // The books agree again: the next reconciliation is clean and clears the halt.
    o.daemon.inventory.removeFill(ghost);
    await until(o.h, "drift cleared", () => cleared(o, "reconciliation_drift", "w0"), 30_000);
    const tClear = clearedAt(o, "reconciliation_drift", "w0")!;
    expect(tClear.at - tRaise.at).toBeGreaterThanOrEqual(4_000);
    expect(o.wire.places({ from: tRaise, to: tClear, wallet: w0 })).toEqual([]);
    await until(o.h, "w0 quoting again", async () => (await o.openOn(0)).length > 0, 15_000);
    const after = await o.scrape();
    expect(sample(after, "mm_reconciliation_drift", { wallet: "w0" })).toBe(0);
    expect(sample(after, "mm_reconciliations_total", { wallet: "w0", result: "clean" })).toBeGreaterThan(0);
  });
});
