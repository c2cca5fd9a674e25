/**
 * The risk hook sees every plan with the engine's context and decides what is executed; whatever
 * it returns, nothing goes out on a market being pulled and PRE_MARKET stays post-only.
 */
import { describe, expect, it } from "vitest";
import type { RiskContext, RiskHook } from "../../../src/bot/risk/risk-hook.js";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, startSim, walletAddress } from "../../integration/harness.js";

describe("risk hook", () => {
  it("is called on every plan, can halt a market, cannot break post-only in PRE_MARKET", async () => {
    const h = startSim({
      wallets: 1,
      markets: [
        { symbol: "OK", opensAt: "-10m", closesAt: "+1d" },
        { symbol: "HALT", opensAt: "-10m", closesAt: "+1d" },
        { symbol: "PRE", preMarketStartsAt: "-1h", opensAt: "+1h", closesAt: "+1d" },
      ],
    });
    const contexts: RiskContext[] = [];
    let plans = 0;
    const risk: RiskHook = {
      reviewQuotes: (quotes, ctx) => {
        contexts.push(ctx);
        if (ctx.marketId === "HALT") return [];
        // A careless hook: tries to turn everything into taking orders.
        return quotes.map((q) => ({ ...q, postOnly: false }));
      },
      reviewPlan: (plan) => {
        plans += 1;
        return plan;
      },
      halts: () => ["HALT: test"],
    };
    const d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: ["OK", "HALT", "PRE"], strategy: { levels: 1 } }), { risk });
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 10_000);
    const open = await platformOpenOrders(h, walletAddress(0));
    const status = d.daemon.status();
    await settle(h.clock, d.daemon.stop());
    h.sim.stop();

    expect(plans).toBeGreaterThan(3);
    expect(plans).toBe(contexts.length);
    expect(open.filter((o) => o.marketId === "HALT")).toEqual([]);
    expect(open.filter((o) => o.marketId === "OK").length).toBeGreaterThan(0);
    const pre = open.filter((o) => o.marketId === "PRE");
    expect(pre.length).toBeGreaterThan(0);
    expect(pre.every((o) => o.postOnly)).toBe(true);
    expect(open.filter((o) => o.marketId === "OK").some((o) => !o.postOnly)).toBe(true);
    // The context carries the phase, the wallet and a view of the whole engine.
    const c = contexts.find((x) => x.marketId === "PRE")!;
    expect(c.phase).toBe("pre_market");
    expect(c.wallet).toBe(walletAddress(0));
    expect(c.engine.wallets()).toEqual([walletAddress(0)]);
    expect([...c.engine.markets()].sort()).toEqual(["HALT", "OK", "PRE"]);
    expect(status.halts).toEqual(["HALT: test"]);
  });
});
