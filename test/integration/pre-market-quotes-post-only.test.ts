/**
 * During PRE_MARKET every order the daemon sends is post-only, even with a strategy configured
 * `postOnly: false`, and no fill of ours is a taker fill; once the market opens the strategy's
 * own setting applies again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, simFills, startSim, walletAddress, START, type SimHarness, type DaemonHarness } from "./harness.js";

const OPENS_AT = START + 60_000;

describe("pre-market quoting", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  let exitCode: number;

  beforeAll(async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "PRE", preMarketStartsAt: "-1h", opensAt: "+60s", closesAt: "+1d", takerArrivalPerMin: 30 }] });
    d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: ["PRE"], strategy: { postOnly: false, levels: 2, halfSpreadTicks: 1 }, quoting: { priceToleranceTicks: 0, maxOrderAgeSec: 5 } }));
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 110_000);
    exitCode = (await settle(h.clock, d.daemon.stop())).exitCode;
  });

  afterAll(() => h.sim.stop());

  it("sends only post-only orders before opensAt", () => {
    const before = h.transport.places().filter((p) => p.at < OPENS_AT);
    expect(before.length).toBeGreaterThan(5);
    expect(before.every((p) => p.body.postOnly)).toBe(true);
  });

  it("uses the strategy's own setting (postOnly false) once the market is open", () => {
    const after = h.transport.places().filter((p) => p.at >= OPENS_AT + 2_000);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((p) => !p.body.postOnly)).toBe(true);
  });

  it("has no taker fill of ours while the market was in PRE_MARKET", () => {
    const fills = simFills(h.sim, walletAddress(0));
    expect(fills.filter((f) => f.role === "taker" && f.ts < OPENS_AT)).toEqual([]);
    // The daemon's own ledger agrees: no pre-market fill recorded as taker.
    expect(d.daemon.ledger.fills(walletAddress(0)).filter((f) => f.role === "taker" && f.ts < OPENS_AT)).toEqual([]);
  });

  it("shuts down clean", async () => {
    expect(exitCode).toBe(0);
    expect(await platformOpenOrders(h, walletAddress(0))).toEqual([]);
  });
});
