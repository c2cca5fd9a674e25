/**
 * A strategy that wants far more order traffic than the rate limits allow (a 3-level ladder
 * replaced every second on two markets per wallet, with the partner's tier cut to 60/min so the
 * wallet buckets scale down to about one batch a second), over three wallets: the plans are cut
 * to the budget and the rate gate paces the rest, so the platform never answers 429.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";
import { parseConfig } from "../../src/config/index.js";

describe("saturating strategy over three wallets", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  let exitCode = -1;
  const symbols = ["SAT-1", "SAT-2", "SAT-3", "SAT-4", "SAT-5", "SAT-6"];

  beforeAll(async () => {
    h = startSim({
      wallets: 3,
      rateLimitPerMin: 60,
      markets: symbols.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 6, vol: 0.01 })),
    });
    const base = daemonConfig({ wallets: 3, slugs: symbols, strategy: { levels: 3, size: "5" }, quoting: { priceToleranceTicks: 0, maxOrderAgeSec: 1, refreshMs: 200 } });
    const config = parseConfig(JSON.stringify({ ...stripForYaml(base), platform: { rateLimitPerMin: 60 } }), "saturate.yaml", envOf(base));
    d = makeDaemon(h, config);
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 40_000);
    exitCode = (await settle(h.clock, d.daemon.stop(), 120_000)).exitCode;
  });

  afterAll(() => h.sim.stop());

  it("got zero 429 answers", () => {
    expect(h.transport.log.filter((r) => r.status === 429)).toEqual([]);
    expect(h.transport.log.length).toBeGreaterThan(300);
  });

  it("really saturated the per-wallet order buckets", () => {
    const stats = d.daemon.gate.stats().filter((s) => s.bucket === "orders-place-batch" || s.bucket === "orders-place");
    const perWallet = new Map<string, number>();
    for (const s of stats) perWallet.set(s.subject, (perWallet.get(s.subject) ?? 0) + s.admitted);
    expect(perWallet.size).toBe(3);
    // Tier 60/min: place-batch 1/s and place 2/s per wallet; 40 s of run.
    for (const n of perWallet.values()) expect(n).toBeGreaterThanOrEqual(40);
    // The plans wanted more than that: work was deferred to later cycles by the budget.
    const deferred = d.observer.of("cycle").reduce((n, e) => n + e.deferredByBudget, 0);
    expect(deferred).toBeGreaterThan(100);
  });

  it("still shuts down clean", async () => {
    expect(exitCode).toBe(0);
    for (let i = 0; i < 3; i++) expect(await platformOpenOrders(h, walletAddress(i))).toEqual([]);
  });
});

/** The loaded config back to plain YAML-able data (secrets as ${VAR} references). */
function stripForYaml(c: ReturnType<typeof daemonConfig>): Record<string, unknown> {
  return {
    mode: "simulator",
    instance: c.instance,
    wallets: c.wallets.map((w, i) => ({ name: w.name, privateKey: `\${W${i}}` })),
    markets: { slugs: c.markets.slugs, maxMarkets: c.markets.maxMarkets, refreshSec: c.markets.refreshSec },
    strategy: { name: c.strategy.name, params: c.strategy.params },
    quoting: { refreshMs: c.quoting.refreshMs, priceToleranceTicks: c.quoting.priceToleranceTicks, maxOrderAgeSec: c.quoting.maxOrderAgeSec, pullBeforeCloseSec: c.quoting.pullBeforeCloseSec },
    risk: { staleDataSec: c.risk.staleDataSec },
    shutdown: { cancelDeadlineSec: c.shutdown.cancelDeadlineSec },
    log: { level: "silent" },
  };
}

function envOf(c: ReturnType<typeof daemonConfig>): Record<string, string> {
  return Object.fromEntries(c.wallets.map((w, i) => [`W${i}`, w.privateKey.reveal()]));
}
