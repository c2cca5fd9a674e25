/**
 * The shard hand-off rule while the replica count changes from 1 to 2, as a StatefulSet rolls it:
 * the new replica (shard 1 of 2) starts while the old one (shard 0 of 1) still quotes every wallet;
 * the wallets that move hold until the old owner's orders have ended; the old replica restarts as
 * shard 0 of 2; then each wallet is quoted by its new owner only. At every step of virtual time,
 * no wallet has open orders of two replicas.
 */
import { afterAll, describe, expect, it } from "vitest";
import { shardOf } from "../../src/config/shard-section.js";
import type { Config } from "../../src/config/index.js";
import { daemonConfig, makeDaemon, settle, startSim, walletAddress } from "../integration/harness.js";
import { shardPods } from "./pods.js";

const WALLETS = 6;
const MARKETS = ["HOA", "HOB", "HOC", "HOD", "HOE", "HOF"];

function replica(index: number, count: number): Config {
  const base = daemonConfig({ wallets: WALLETS, instance: "ho", slugs: MARKETS, strategy: { levels: 1 }, quoting: { refreshMs: 1000 } });
  return { ...base, shard: { index, count } };
}

const { pod, owners } = shardPods({ subnet: "10.0.0", instance: "ho", wallets: WALLETS });

describe("shard hand-off when the replica count changes", () => {
  const h = startSim({ wallets: WALLETS, markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 5 })) });
  const moving = Array.from({ length: WALLETS }, (_, i) => walletAddress(i)).filter((w) => shardOf(w, 2) === 1);
  const staying = Array.from({ length: WALLETS }, (_, i) => walletAddress(i)).filter((w) => shardOf(w, 2) === 0);
  let doubles: string[] = [];
  let steps = 0;

  /** Advance in 250 ms steps, checking the rule after each. */
  async function watch(ms: number): Promise<void> {
    for (let t = 0; t < ms; t += 250) {
      await h.clock.advance(250);
      steps += 1;
      for (const [w, ids] of owners(h)) if (ids.size > 1) doubles.push(`${new Date(h.clock.now()).toISOString()} ${w}: ${[...ids].join(", ")}`);
    }
  }

  afterAll(() => h.sim.stop());

  it("holds the moved wallets until the old owner stopped, and no wallet is ever quoted by two replicas", async () => {
    expect(moving.length).toBeGreaterThan(0);
    expect(staying.length).toBeGreaterThan(0);

    // One replica owns everything.
    const old = makeDaemon(h, replica(0, 1), pod(h, 0));
    await settle(h.clock, old.daemon.start());
    await watch(10_000);
    for (const [w, ids] of owners(h)) expect([w, ...ids]).toEqual([w, "ho-s0"]);

    // Count 1 -> 2: the new pod (shard 1 of 2) comes up first while the old one still runs.
    const added = makeDaemon(h, replica(1, 2), pod(h, 1));
    const started = await settle(h.clock, added.daemon.start());
    expect(started.wallets.map((w) => w.name).sort()).toEqual(moving.map((w) => `w${Array.from({ length: WALLETS }, (_, i) => walletAddress(i)).indexOf(w)}`).sort());
    await watch(30_000);
    // Held: the moved wallets still carry the old owner's quotes only, and the new replica placed nothing.
    for (const w of moving) expect([...owners(h).get(w)!]).toEqual(["ho-s0"]);
    expect(added.observer.of("order_placed")).toHaveLength(0);

    // The rolling update replaces the old pod: it stops (ending its orders), then comes back as shard 0 of 2.
    const report = await settle(h.clock, old.daemon.stop("rolling update"));
    expect(report.exitCode).toBe(0);
    const renewed = makeDaemon(h, replica(0, 2), pod(h, 0));
    await settle(h.clock, renewed.daemon.start());
    await watch(45_000);

    for (const w of moving) expect([...owners(h).get(w)!]).toEqual(["ho-s1"]);
    for (const w of staying) expect([...owners(h).get(w)!]).toEqual(["ho-s0"]);
    expect(doubles).toEqual([]);
    expect(steps).toBeGreaterThan(300);

    await settle(h.clock, Promise.all([added.daemon.stop("end"), renewed.daemon.stop("end")]));
    doubles = [];
    for (const ids of owners(h).values()) expect(ids.size).toBe(0);
  }, 120_000);
});
