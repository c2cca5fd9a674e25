/**
 * A real daemon (simulator, virtual clock) with markets.maxMarkets 2: A and B close, the
 * selection refresh replaces them with C and D, and the metrics follow. C and D get their own
 * market labels (never "other": only two markets are in use at a time), A and B's series leave
 * the registry once their last values were scraped, and the exposition still passes promtool.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Daemon } from "../../src/bot/engine/daemon.js";
import { daemonConfig, makeDaemon, run, settle, startSim, type SimHarness } from "../integration/harness.js";
import { promtoolCheckMetrics } from "./fixtures.js";

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

function markets(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = new RegExp(`^${name}\\{[^}]*market="([^"]*)"[^}]*\\} (\\S+)$`).exec(line);
    if (m !== null) out.set(m[1]!, (out.get(m[1]!) ?? 0) + Number(m[2]));
  }
  return out;
}

function allMarkets(text: string): Set<string> {
  return new Set([...text.matchAll(/market="([^"]*)"/g)].map((m) => m[1]!));
}

async function start(): Promise<{ h: SimHarness; daemon: Daemon }> {
  const quiet = { opensAt: "-10m", takerArrivalPerMin: 0 };
  const h = startSim({
    wallets: 1,
    markets: [
      { symbol: "A", closesAt: "+3m", ...quiet },
      { symbol: "B", closesAt: "+3m", ...quiet },
      { symbol: "C", closesAt: "+1d", ...quiet },
      { symbol: "D", closesAt: "+1d", ...quiet },
    ],
  });
  const base = daemonConfig({ wallets: 1, slugs: ["A", "B", "C", "D"] });
  const config = { ...base, markets: { ...base.markets, maxMarkets: 2 } };
  const { daemon } = makeDaemon(h, config);
  await settle(h.clock, daemon.start());
  stop = async () => {
    await settle(h.clock, daemon.stop());
    h.sim.stop();
  };
  return { h, daemon };
}

describe("market labels on a daemon whose markets rotate", () => {
  it("new markets get real labels, old markets' series go, promtool passes", async () => {
    const { h, daemon } = await start();
    const scrape = () => daemon.ops.metrics.scrape();
    await run(h.clock, 60_000);
    let text = await scrape();
    expect([...markets(text, "mm_orders_placed_total").keys()].sort()).toEqual(["A", "B"]);

    // A and B are pulled 30 s before they close (2m30); the refresh at 3m selects C and D.
    for (let t = 0; t < 240_000; t += 15_000) {
      await run(h.clock, 15_000);
      text = await scrape();
    }
    const placed = markets(text, "mm_orders_placed_total");
    expect([...placed.keys()].sort()).toEqual(["C", "D"]);
    for (const m of ["C", "D"]) expect(placed.get(m), m).toBeGreaterThan(0);
    expect([...markets(text, "mm_live_quotes").keys()].sort()).toEqual(["C", "D"]);
    expect(allMarkets(text)).toEqual(new Set(["C", "D"]));
    expect(daemon.ops.metrics.labels.markets.held().sort()).toEqual(["C", "D"]);

    // promtool missing outside CI: this check is skipped with a notice, the rest still holds.
    const check = promtoolCheckMetrics(text);
    if (check !== undefined) {
      expect(check.out).toBe("");
      expect(check.status).toBe(0);
    }
  }, 120_000);
});
