/**
 * Quotes are pulled `pullBeforeCloseSec` before closesAt, and no order is sent after that point,
 * while a market that stays open keeps being quoted by the same daemon.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, startSim, walletAddress, START, type DaemonHarness, type SimHarness } from "./harness.js";

const CLOSES_AT = START + 90_000;
const PULL_AT = CLOSES_AT - 30_000;

describe("closing market", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const openAtPull: { CLS: number; KEEP: number } = { CLS: -1, KEEP: -1 };

  beforeAll(async () => {
    h = startSim({
      wallets: 2,
      markets: [
        { symbol: "CLS", opensAt: "-10m", closesAt: "+90s", takerArrivalPerMin: 10 },
        { symbol: "KEEP", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 10 },
      ],
    });
    d = makeDaemon(h, daemonConfig({ wallets: 2, slugs: ["CLS", "KEEP"], strategy: { levels: 2 }, quoting: { pullBeforeCloseSec: 30, priceToleranceTicks: 0, maxOrderAgeSec: 3 } }));
    await settle(h.clock, d.daemon.start());
    await run(h.clock, PULL_AT + 1_000 - h.clock.now());
    const open = [...(await platformOpenOrders(h, walletAddress(0))), ...(await platformOpenOrders(h, walletAddress(1)))];
    openAtPull.CLS = open.filter((o) => o.marketId === "CLS").length;
    openAtPull.KEEP = open.filter((o) => o.marketId === "KEEP").length;
    await run(h.clock, CLOSES_AT + 30_000 - h.clock.now());
    await settle(h.clock, d.daemon.stop());
  });

  afterAll(() => h.sim.stop());

  it("quoted the closing market before the pull time", () => {
    const cls = h.transport.places().filter((p) => p.body.marketId === "CLS");
    expect(cls.length).toBeGreaterThan(4);
  });

  it("sends no order for it from the pull time on (so none after closesAt)", () => {
    const late = h.transport.places().filter((p) => p.body.marketId === "CLS" && p.at >= PULL_AT);
    expect(late).toEqual([]);
  });

  it("has nothing resting on it a second after the pull time, while the other market is still quoted", () => {
    expect(openAtPull.CLS).toBe(0);
    expect(openAtPull.KEEP).toBeGreaterThan(0);
    const keepLater = h.transport.places().filter((p) => p.body.marketId === "KEEP" && p.at > CLOSES_AT);
    expect(keepLater.length).toBeGreaterThan(0);
  });

  it("reports the phase change as a pull for the closing market", () => {
    const phases = d.observer.of("market_phase").filter((e) => e.marketId === "CLS").map((e) => `${e.phase}:${e.reason}`);
    expect(phases).toContain("pull:closing");
  });
});
