/**
 * A daemon restarted while a settlement payout is awaited: the new process finds the settled
 * market's shares still listed by the platform and watches the payout as the old one did (overdue
 * alert, no drift halt while waiting, no drift halt when the payout lands, confirmed then).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "../../src/core/money.js";
import { createLogger } from "../../src/log/index.js";
import { grantShares } from "../../src/sim/desk/genesis.js";
import { LogLines } from "../ops/harness.js";
import { daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const TIMEOUT_SEC = 120;

describe("a restart while a settlement payout is awaited", () => {
  let h: SimHarness;
  let first: DaemonHarness;
  let second: DaemonHarness;
  const logs = new LogLines();
  const w = walletAddress(0);

  beforeAll(async () => {
    const quiet = { opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 0 };
    h = startSim({ wallets: 1, markets: [{ symbol: "LATE", ...quiet }, { symbol: "LIVE", ...quiet }] });
    grantShares(h.sim.engine, w, "LATE", 0, parseMicros("30"), parseMicros("0.5"));
    grantShares(h.sim.engine, w, "LATE", 1, parseMicros("7"), parseMicros("0.5"));
    const config = { ...daemonConfig({ wallets: 1, slugs: ["LATE", "LIVE"], strategy: { levels: 1, size: "1" } }), settlement: { enabled: true, payoutTimeoutSec: TIMEOUT_SEC, pollIntervalSec: 10 } };
    first = makeDaemon(h, config);
    await settle(h.clock, first.daemon.start());
    await run(h.clock, 5_000);
    h.sim.setPayoutDelay(null);
    expect(h.sim.resolveMarket("LATE", [1, 0]).ok).toBe(true);
    await run(h.clock, 20_000);
    expect(first.daemon.settlement.openWatches().map((v) => v.marketId)).toEqual(["LATE"]);
    await settle(h.clock, first.daemon.stop());
    second = makeDaemon(h, config, { logger: createLogger({ level: "info", clock: h.clock }, logs) });
    await settle(h.clock, second.daemon.start());
    await run(h.clock, (TIMEOUT_SEC + 30) * 1000);
  }, 120_000);

  afterAll(async () => {
    await settle(h.clock, second.daemon.stop());
    h.sim.stop();
  });

  const watch = () => second.daemon.settlement.views().find((v) => v.marketId === "LATE");

  it("the new process watches the awaited payout: overdue, with the amount owed", () => {
    expect(watch()).toMatchObject({ state: "overdue", expected: parseMicros("30"), received: 0n, walletName: "w0" });
    expect(logs.withMsg("settlement payout overdue: the platform shows no payout")).toHaveLength(1);
  });

  it("no drift halt while the payout is awaited", () => {
    expect(second.observer.of("drift")).toEqual([]);
    expect(second.observer.of("halt")).toEqual([]);
  });

  it("once the platform pays: confirmed late, and still no drift halt", async () => {
    expect(h.sim.releasePayouts()).toEqual(["LATE"]);
    await run(h.clock, 30_000);
    expect(second.observer.of("drift")).toEqual([]);
    expect(watch()).toMatchObject({ state: "confirmed", received: parseMicros("30") });
    expect(second.observer.of("halt")).toEqual([]);
  });
});
