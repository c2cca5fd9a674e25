/**
 * reject_storm (wallet scope): the platform starts refusing one wallet's placements with a code
 * nobody explained (400 invalid_amounts). Past risk.maxRejectsPerMin within a minute the wallet is
 * halted - quotes cancelled, no place request sent - while the other wallet quotes on; after
 * risk.rejectQuietSec without an unexplained reject it clears and the wallet quotes again.
 * Explained codes (post_only_would_cross by default) never count.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleared, clearedAt, jsonError, raised, raisedAt, run, sample, startOps, until, walletAddress, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: reject storm", () => {
  it("halts the rejected wallet, sends it nothing while halted, clears after the quiet period", async () => {
    const o = (ops = await startOps(
      {
        wallets: 2,
        markets: [
          { symbol: "A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 40 },
          { symbol: "B", opensAt: "-10m", closesAt: "+1d" },
        ],
      },
      { wallets: 2, slugs: ["A", "B"], risk: { maxRejectsPerMin: 5, rejectQuietSec: 10 } },
    ));
    await run(o.h.clock, 8_000);
    const w0 = walletAddress(0);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);

    // Explained rejects never make a storm.
    const quiet = o.h.clock.now();
    for (let i = 0; i < 20; i++) o.daemon.observer.onEvent({ type: "order_rejected", wallet: w0, marketId: "A", clientOrderId: `x${i}`, code: "post_only_would_cross", handling: "business_reject" });
    await run(o.h.clock, 2_000);
    expect(raised(o, "reject_storm")).toBe(false);
    expect(o.h.clock.now()).toBeGreaterThan(quiet);

    o.wire.intercept = (req, wallet) =>
      wallet === w0 && req.method === "POST" && req.path.startsWith("/api/orders/place") ? jsonError(400, "invalid_amounts", "refused") : undefined;
    await until(o.h, "reject_storm halt", () => raised(o, "reject_storm", "w0"), 60_000);
    const tRaise = raisedAt(o, "reject_storm", "w0")!;
    o.wire.intercept = undefined;
    await run(o.h.clock, 4_000);

    expect(await o.openOn(0)).toEqual([]);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);
    const text = await o.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "wallet", target: "w0", reason: "reject_storm" })).toBe(1);
    expect(sample(text, "mm_orders_rejected_total", { wallet: "w0", market: "A", code: "invalid_amounts" })).toBeGreaterThan(5);
    expect(o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "reject_storm")).toMatchObject({ haltScope: "wallet", target: "w0" });
    expect(o.logs.withMsg("order not placed").some((l) => l["code"] === "invalid_amounts" && l["wallet"] === w0 && typeof l["clientOrderId"] === "string" && l["market"] === "A")).toBe(true);

    await until(o.h, "reject_storm cleared", () => cleared(o, "reject_storm", "w0"), 30_000);
    const tClear = clearedAt(o, "reject_storm", "w0")!;
    // Quiet for rejectQuietSec after the last refused placement.
    const lastReject = o.wire.places({ wallet: w0 }).filter((e) => e.status === 400).at(-1)!;
    expect(tClear.at - lastReject.at).toBeGreaterThanOrEqual(10_000);
    expect(tClear.at - lastReject.at).toBeLessThan(12_000);
    expect(o.wire.places({ from: tRaise, to: tClear, wallet: w0 })).toEqual([]);
    await until(o.h, "w0 quoting again", async () => (await o.openOn(0)).length > 0, 15_000);
    expect(o.wire.places({ from: tClear, wallet: w0 }).length).toBeGreaterThan(0);
  });
});
