/**
 * Settlement you can check (issue 14 part 3), the awkward cases against the simulator on a
 * VirtualClock: a wallet owed nothing whose losing shares the platform keeps listing (redeemed
 * later) is not drift; a platform whose balance events name the market by its id (not its symbol)
 * still confirms a payout after the daemon's selection refresh would have forgotten the market.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { parseMicros } from "../../src/core/money.js";
import { grantShares } from "../../src/sim/desk/genesis.js";
import { daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const quiet = { opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 0 };

describe("settlement check: awkward cases", () => {
  let h: SimHarness | undefined;
  let d: DaemonHarness | undefined;

  afterEach(async () => {
    if (h !== undefined && d !== undefined) await settle(h.clock, d.daemon.stop());
    h?.sim.stop();
    h = undefined;
    d = undefined;
  });

  it("only losing shares, the platform still listing them: no drift, no halt; counted again once redeemed", async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "LOSE", ...quiet }, { symbol: "OTHER", ...quiet }] });
    const sim = h;
    grantShares(sim.sim.engine, walletAddress(0), "LOSE", 1, parseMicros("30"), parseMicros("0.5"));
    const config = { ...daemonConfig({ wallets: 1, slugs: ["LOSE", "OTHER"], strategy: { levels: 1, size: "1" } }), settlement: { enabled: true, payoutTimeoutSec: 3600, pollIntervalSec: 30 } };
    d = makeDaemon(sim, config);
    await settle(sim.clock, d.daemon.start());
    await run(sim.clock, 5_000);
    sim.sim.setPayoutDelay(null);
    expect(sim.sim.resolveMarket("LOSE", [1, 0]).ok).toBe(true);
    await run(sim.clock, 90_000);
    expect(d.daemon.settlement.views().find((v) => v.marketId === "LOSE")).toMatchObject({ state: "confirmed", confirmedBy: "nothing_due" });
    expect(d.observer.of("drift")).toEqual([]);
    expect(d.observer.of("halt")).toEqual([]);
    expect(d.daemon.inventory.payoutAwaited("LOSE")).toBe(true);
    expect(sim.sim.releasePayouts()).toEqual(["LOSE"]);
    await run(sim.clock, 60_000);
    expect(d.daemon.inventory.payoutAwaited("LOSE")).toBe(false);
    expect(d.observer.of("drift")).toEqual([]);
    expect(d.observer.of("halt")).toEqual([]);
  }, 60_000);

  it("balance events naming the market by id: confirmed after the selection refresh, the awaited market kept", async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "LATE", ...quiet }, { symbol: "OTHER", ...quiet }] });
    const sim = h;
    const w = walletAddress(0);
    grantShares(sim.sim.engine, w, "LATE", 0, parseMicros("30"), parseMicros("0.5"));
    grantShares(sim.sim.engine, w, "OTHER", 0, parseMicros("20"), parseMicros("0.5"));
    const ids = new Map(["LATE", "OTHER"].map((m) => [m, sim.sim.market(m)?.id ?? m]));
    const transport: Transport = {
      async request(req: HttpRequest): Promise<HttpResponse> {
        const res = await sim.transport.request(req);
        if (res.status === 200 && req.path.startsWith("/api/me/balance-events")) {
          const body = JSON.parse(res.body) as { events: { marketId?: string | null }[] };
          for (const e of body.events) if (typeof e.marketId === "string") e.marketId = ids.get(e.marketId) ?? e.marketId;
          return { ...res, body: JSON.stringify(body) };
        }
        return res;
      },
    };
    const config = { ...daemonConfig({ wallets: 1, slugs: ["LATE", "OTHER"], strategy: { levels: 1, size: "1" } }), settlement: { enabled: true, payoutTimeoutSec: 600, pollIntervalSec: 10 } };
    d = makeDaemon(sim, config, { transport });
    await settle(sim.clock, d.daemon.start());
    await run(sim.clock, 5_000);
    expect(ids.get("LATE")).toBeDefined();
    expect(ids.get("LATE")).not.toBe("LATE");
    sim.sim.setPayoutDelay(null);
    expect(sim.sim.resolveMarket("LATE", [1, 0]).ok).toBe(true);
    expect(sim.sim.resolveMarket("OTHER", [1, 0]).ok).toBe(true);
    await run(sim.clock, 150_000);
    // Several selection refreshes later, the markets whose payouts are awaited are still known.
    expect(d.daemon.registry.get("LATE")).toBeDefined();
    expect(d.daemon.registry.get("OTHER")).toBeDefined();
    expect(sim.sim.releasePayouts(["OTHER"])).toEqual(["OTHER"]);
    await run(sim.clock, 30_000);
    const watch = (m: string) => d?.daemon.settlement.views().find((v) => v.marketId === m);
    expect(watch("OTHER")).toMatchObject({ state: "confirmed", confirmedBy: "balance_events", received: parseMicros("20"), platformId: ids.get("OTHER") });
    expect(watch("LATE")).toMatchObject({ state: "expected", received: 0n });
    expect(d.observer.of("drift")).toEqual([]);
    expect(d.observer.of("halt")).toEqual([]);
  }, 60_000);
});
