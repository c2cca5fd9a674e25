/**
 * stream_down (wallet scope): one wallet's user stream is cut and its reconnects refused; after
 * risk.streamDownSec that wallet is halted - its quotes are cancelled (over REST) and it places
 * nothing - while the other wallet keeps quoting. When the stream is back AND a reconciliation
 * completed after the reconnect, the halt clears and the wallet quotes again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleared, clearedAt, raisedAt, raised, run, sample, startOps, until, walletAddress, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: user stream down", () => {
  it("pulls the wallet's quotes while its stream is down, leaves the other wallet alone, clears after reconnect + reconciliation", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"], risk: { streamDownSec: 5 } },
    ));
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);

    const w0 = walletAddress(0);
    const tCut = o.h.clock.now();
    o.streams.cut(w0);
    await until(o.h, "stream_down halt", () => raised(o, "stream_down", "w0"), 30_000);
    const tRaise = raisedAt(o, "stream_down", "w0")!;
    expect(tRaise.at - tCut).toBeGreaterThanOrEqual(5_000);
    await run(o.h.clock, 5_000);

    expect(await o.openOn(0)).toEqual([]);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);
    expect(o.daemon.status().halts).toEqual(["w0 stream_down"]);
    const text = await o.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "wallet", target: "w0", reason: "stream_down" })).toBe(1);
    expect(sample(text, "mm_stream_connected", { wallet: "w0" })).toBe(0);
    expect(sample(text, "mm_stream_connected", { wallet: "w1" })).toBe(1);
    expect(o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "stream_down")).toMatchObject({ haltScope: "wallet", target: "w0" });

    o.streams.restore(w0);
    await until(o.h, "stream_down cleared", () => cleared(o, "stream_down", "w0"), 90_000);
    const tClear = clearedAt(o, "stream_down", "w0")!;
    expect(o.wire.places({ from: tRaise, to: tClear, wallet: w0 })).toEqual([]);
    expect(o.wire.places({ from: tRaise, to: tClear, wallet: walletAddress(1) }).length + (await o.openOn(1)).length).toBeGreaterThan(0);
    // The clear came after a reconciliation that followed the re-subscription.
    const subscribed = o.observer.of("stream_state").filter((e) => e.wallet === w0 && e.state === "subscribed" && e.at > tCut);
    const synced = o.observer.of("synced").filter((e) => e.wallet === w0 && e.at >= subscribed[0]!.at);
    expect(synced.length).toBeGreaterThan(0);
    expect(synced[0]!.at).toBeLessThanOrEqual(tClear.at);
    await until(o.h, "w0 quoting again", async () => (await o.openOn(0)).length > 0, 15_000);
    expect(o.wire.places({ from: tClear, wallet: w0 }).length).toBeGreaterThan(0);
    expect(sample(await o.scrape(), "mm_stream_reconnects_total", { wallet: "w0" })).toBeGreaterThan(0);
  });
});
