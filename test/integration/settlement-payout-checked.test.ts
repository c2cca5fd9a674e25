/**
 * Settlement you can check (issue 14 part 3), the daemon against the simulator on a VirtualClock:
 * the wallet holds YES and NO shares of three markets; one resolves and pays at once (confirmed
 * from the balance events, no alert), one resolves with its payout withheld by the platform
 * (overdue after settlement.payoutTimeoutSec: metric, error log naming wallet, market and amount,
 * no drift halt; confirmed late once the platform pays), one is voided and pays at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "../../src/core/money.js";
import { createLogger } from "../../src/log/index.js";
import { grantShares } from "../../src/sim/desk/genesis.js";
import { LogLines } from "../ops/harness.js";
import { daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const TIMEOUT_SEC = 120;

describe("settlement payouts checked against the platform", () => {
  let h: SimHarness;
  let d: DaemonHarness;
  const logs = new LogLines();
  const w = walletAddress(0);
  const metric = async (name: string): Promise<string[]> =>
    (await d.daemon.ops.metrics.registry.metrics()).split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

  beforeAll(async () => {
    const quiet = { opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 0 };
    h = startSim({ wallets: 1, markets: [{ symbol: "PAID", ...quiet }, { symbol: "LATE", ...quiet }, { symbol: "VOID", ...quiet }] });
    for (const m of ["PAID", "LATE", "VOID"]) {
      grantShares(h.sim.engine, w, m, 0, parseMicros("30"), parseMicros("0.5"));
      grantShares(h.sim.engine, w, m, 1, parseMicros("7"), parseMicros("0.5"));
    }
    const config = { ...daemonConfig({ wallets: 1, slugs: ["PAID", "LATE", "VOID"], strategy: { levels: 1, size: "1" } }), settlement: { enabled: true, payoutTimeoutSec: TIMEOUT_SEC, pollIntervalSec: 10 } };
    d = makeDaemon(h, config, { logger: createLogger({ level: "info", clock: h.clock }, logs) });
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 5_000);
    expect(h.sim.resolveMarket("PAID", [1, 0]).ok).toBe(true);
    h.sim.setPayoutDelay(null);
    expect(h.sim.resolveMarket("LATE", [0, 1]).ok).toBe(true);
    h.sim.setPayoutDelay(0);
    expect(h.sim.voidMarket("VOID").ok).toBe(true);
    await run(h.clock, (TIMEOUT_SEC + 30) * 1000);
  }, 120_000);

  afterAll(async () => {
    await settle(h.clock, d.daemon.stop());
    h.sim.stop();
  });

  const watch = (market: string) => d.daemon.settlement.views().find((v) => v.marketId === market);

  it("the payout that arrived is confirmed from the balance events, exactly", () => {
    expect(watch("PAID")).toMatchObject({ state: "confirmed", confirmedBy: "balance_events", expected: parseMicros("30"), received: parseMicros("30"), walletName: "w0" });
  });

  it("the void's payout (1/2 per share of each outcome) is confirmed", () => {
    expect(watch("VOID")).toMatchObject({ state: "confirmed", confirmedBy: "balance_events", kind: "voided", expected: parseMicros("18.5") });
  });

  it("the payout that never arrived is overdue: metrics, an error log naming wallet, market and amount", async () => {
    expect(watch("LATE")).toMatchObject({ state: "overdue", expected: parseMicros("7"), received: 0n });
    expect(await metric("mm_settlement_overdue")).toEqual(['mm_settlement_overdue{wallet="w0",market="LATE"} 1']);
    expect(await metric("mm_settlement_pending")).toEqual(['mm_settlement_pending{wallet="w0"} 1']);
    expect(await metric("mm_settlement_overdue_amount")).toEqual(['mm_settlement_overdue_amount{wallet="w0"} 7']);
    const errors = logs.withMsg("settlement payout overdue: the platform shows no payout");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: "error", wallet: "w0", market: "LATE", expected: "7", received: "0" });
  });

  it("a withheld payout is not reported as inventory drift (positions nor cash) and halts nothing", () => {
    // Two payouts arrived, one withheld: the cash is short by the withheld one only.
    expect(d.observer.of("drift")).toEqual([]);
    expect(d.observer.of("halt")).toEqual([]);
  });

  it("once the platform pays, the overdue payout is confirmed late and the alert series clear", async () => {
    expect(h.sim.releasePayouts()).toEqual(["LATE"]);
    await run(h.clock, 20_000);
    expect(watch("LATE")).toMatchObject({ state: "confirmed", confirmedBy: "balance_events", received: parseMicros("7") });
    expect(await metric("mm_settlement_overdue")).toEqual([]);
    expect(await metric("mm_settlement_pending")).toEqual([]);
    expect(logs.withMsg("settlement payout arrived late")).toHaveLength(1);
  });
});
