/**
 * An administrator pauses a market: the daemon sees the status on its next read of the market
 * rows, cancels every quote there (the platform keeps resting orders through a pause) and quotes
 * again once the market is resumed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

describe("paused market", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const seen = { beforePause: 0, paused: -1, resumed: 0 };
  let pausedAt = 0;

  beforeAll(async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "PAU", opensAt: "-10m", closesAt: "+1d" }] });
    d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: ["PAU"], strategy: { levels: 2 } }));
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 5_000);
    const count = async () => (await platformOpenOrders(h, walletAddress(0))).length;
    seen.beforePause = await count();
    const r = h.sim.setMarketStatus("PAU", "pause");
    if (!r.ok) throw new Error(`pause refused: ${r.code}`);
    pausedAt = h.clock.now();
    await run(h.clock, 7_000); // > statusRefreshMs (5 s)
    seen.paused = await count();
    const back = h.sim.setMarketStatus("PAU", "resume");
    if (!back.ok) throw new Error(`resume refused: ${back.code}`);
    await run(h.clock, 8_000);
    seen.resumed = await count();
    await settle(h.clock, d.daemon.stop());
  });

  afterAll(() => h.sim.stop());

  it("pulls every quote while the market is paused", () => {
    expect(seen.beforePause).toBeGreaterThan(0);
    expect(seen.paused).toBe(0);
    const phases = d.observer.of("market_phase").map((e) => `${e.phase}:${e.reason}`);
    expect(phases).toContain("pull:paused");
  });

  it("sends no order during the pause once it has seen it, and quotes again after the resume", () => {
    const duringPause = h.transport.places().filter((p) => p.at > pausedAt + 5_100 && p.at < pausedAt + 7_000);
    expect(duringPause).toEqual([]);
    expect(seen.resumed).toBeGreaterThan(0);
  });
});
