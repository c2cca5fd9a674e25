/**
 * circuit_open (global scope): the platform fails most requests (every order-book read answers
 * 503), the client's circuit breaker opens and every wallet is halted: /ready turns 503, the halt
 * shows in metrics and logs, no quote rests and no request at all is sent while the breaker is
 * open. Once the platform answers again the half-open probe closes the breaker, the halt clears
 * and quoting resumes.
 *
 * Note: an open breaker refuses every request, cancels included (spec 7.4 rule 4 pauses all new
 * requests). Here the quotes were already pulled because the failing books went stale first; an
 * outage that opens the breaker while the books are fresh leaves resting orders until it half-opens.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleared, clearedAt, jsonError, raised, raisedAt, run, sample, startOps, until, walletAddress, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: circuit open", () => {
  it("halts every wallet while the breaker is open, sends nothing, clears when the platform answers again", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"] },
    ));
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);

    o.wire.intercept = (req) => (req.path.includes("/orderbook") ? jsonError(503, "exchange_unavailable", "upstream down") : undefined);
    await until(o.h, "circuit_open halt", () => raised(o, "circuit_open", "all"), 30_000);
    const tRaise = raisedAt(o, "circuit_open", "all")!;
    o.wire.intercept = undefined;
    await run(o.h.clock, 5_000);

    const text = await o.scrape();
    expect(sample(text, "mm_circuit_breaker_state", { state: "open" })).toBe(1);
    expect(sample(text, "mm_risk_halt_active", { scope: "global", target: "all", reason: "circuit_open" })).toBe(1);
    expect(sample(text, "mm_ready")).toBe(0);
    expect(sample(text, "mm_circuit_breaker_refused_total")).toBeGreaterThan(0);
    expect(o.daemon.ops.probes.readiness()).toMatchObject({ ok: false, body: { reason: "halted" } });
    expect(o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "circuit_open")).toMatchObject({ haltScope: "global", target: "all" });
    // Quotes pulled: the failing books went stale first (staleDataSec), and those cancels still went through.
    expect(await o.openOn(0)).toEqual([]);
    expect(await o.openOn(1)).toEqual([]);
    // Nothing reaches the platform while the breaker is open.
    expect(o.wire.requests(tRaise.at + 1, o.h.clock.now())).toEqual([]);

    await until(o.h, "circuit_open cleared", () => cleared(o, "circuit_open", "all"), 120_000);
    const tClear = clearedAt(o, "circuit_open", "all")!;
    expect(tClear.at - tRaise.at).toBeGreaterThanOrEqual(50_000);
    expect(o.wire.places({ from: tRaise, to: tClear })).toEqual([]);
    // The outage did not cost the market selection (a failed read keeps what was selected).
    expect(o.daemon.status().markets.selected).toBe(2);
    await until(o.h, "quoting again", async () => (await o.openOn(0)).length > 0 && (await o.openOn(1)).length > 0, 20_000);
    expect(o.wire.places({ from: tClear, wallet: walletAddress(0) }).length + o.wire.places({ from: tClear, wallet: walletAddress(1) }).length).toBeGreaterThan(0);
    expect(sample(await o.scrape(), "mm_circuit_breaker_state", { state: "closed" })).toBe(1);
  });
});
