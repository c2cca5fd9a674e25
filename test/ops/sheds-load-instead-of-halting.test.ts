/**
 * Capacity: when the quote cycle falls behind (event-loop lag over capacity.maxLagMs), the daemon sheds
 * load in its documented order - first the quote refresh is widened, then the lowest-priority markets
 * are dropped from quoting (market-scope `capacity` halt: their orders are cancelled) - instead of
 * letting stale-data halts and unknown orders pile up; cancels go on throughout; once the lag clears,
 * everything comes back step by step, the last shed first.
 *
 * The load is modelled in virtual time: every quote cycle "costs" COST_MS on the daemon's monotonic
 * clock (an observer of the cycle events moves it), so the loop monitor sees ticks as late as the work
 * done between them. Shedding a market stops its cycles (nothing of ours live there: not cycled), so
 * the lag falls as markets are shed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDaemon, type Daemon } from "../../src/bot/engine/daemon.js";
import { RecordingObserver, type EngineEvent } from "../../src/bot/observer.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import { API_KEY, platformOpenOrders, settle, startSim, walletAddress, type SimHarness } from "../integration/harness.js";
import { LogLines, Streams, Wire, opsConfig, run, sample, until } from "./harness.js";

const MARKETS = ["CAP1", "CAP2", "CAP3", "CAP4", "CAP5", "CAP6"];
/** Only CAP6, selected last, has takers: the wallet holds shares there, so it is shed last. */
const HELD = "CAP6";
const COST_MS = 20;

interface Run {
  h: SimHarness;
  daemon: Daemon;
  wire: Wire;
  logs: LogLines;
  observer: RecordingObserver;
  load: { costMs: number; extraMs: number };
}

let current: Run | undefined;
afterEach(async () => {
  if (current === undefined) return;
  await settle(current.h.clock, current.daemon.stop());
  current.h.sim.stop();
  current = undefined;
});

async function start(): Promise<Run> {
  const h = startSim({
    wallets: 1,
    markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: symbol === HELD ? 90 : 0 })),
  });
  const wire = new Wire(h.transport, h.clock);
  const logs = new LogLines();
  const observer = new RecordingObserver();
  const load = { costMs: 0, extraMs: 0 };
  // Every cycle's work delays the loop by costMs: the monotonic clock runs ahead of the virtual one.
  const cpu = { onEvent: (e: EngineEvent) => void (e.type === "cycle" && (load.extraMs += load.costMs)) };
  const base = opsConfig({ wallets: 1, slugs: MARKETS, risk: { staleDataSec: 10 } });
  const config = { ...base, capacity: { enabled: true, maxLagMs: 100, recoverySec: 10, stepSec: 5, refreshFactor: 4, shedFraction: 0.25 } };
  const daemon = createDaemon(config, {
    clock: h.clock,
    rng: new Rng(7),
    transport: wire,
    connector: new Streams(h.connector),
    apiKey: API_KEY,
    logger: createLogger({ level: "info", clock: h.clock }, logs),
    observer: [observer, cpu],
    monotonic: () => h.clock.now() + load.extraMs,
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
  });
  await settle(h.clock, daemon.start());
  return (current = { h, daemon, wire, logs, observer, load });
}

const open = async (r: Run, market: string) => (await platformOpenOrders(r.h, walletAddress(0))).filter((o) => o.marketId === market);
const steps = (r: Run) => r.logs.lines.filter((l) => String(l["msg"]).startsWith("capacity: "));
const shedBatches = (r: Run) => steps(r).filter((l) => l["msg"] === "capacity: event loop behind, markets shed (quotes pulled)").map((l) => l["markets"] as string[]);
const haltEvents = (r: Run) => r.observer.events.flatMap((e) => (e.type === "halt" ? [e] : []));
const halts = (r: Run, action: "raised" | "cleared", reason: string) => haltEvents(r).filter((e) => e.action === action && e.reason === reason);

describe("capacity: sheds load instead of halting", () => {
  it("widens the refresh, sheds the lowest-priority markets (orders cancelled, cancels going on), then restores everything once the lag clears", { timeout: 120_000 }, async () => {
    const r = await start();
    await until(r.h, "every market quoted and shares held on " + HELD, async () => {
      for (const m of MARKETS) if ((await open(r, m)).length === 0) return false;
      return r.daemon.inventory.positions(walletAddress(0), HELD).some((p) => p.qty !== 0n);
    }, 120_000);
    expect(r.daemon.capacity.level).toBe(0);

    // The cycles now cost more than the loop has: it falls behind.
    r.load.costMs = COST_MS;
    const loadOnAt = r.h.clock.now();
    await until(r.h, "two batches shed", () => shedBatches(r).length >= 2, 60_000);
    const settledAt = r.wire.mark();
    await run(r.h.clock, 40_000);

    // 1. The order: refresh widened first, then batches of markets, lowest priority first: no shares
    //    before shares (CAP6, selected last, holds shares: it is kept), later-selected first. With two
    //    markets left the loop keeps up: no further step.
    const msgs = steps(r).map((l) => l["msg"]);
    expect(msgs[0]).toBe("capacity: event loop behind, quote refresh widened");
    expect(steps(r)[0]).toMatchObject({ level: "warn", shedLevel: 1, refreshFactor: 4, maxLagMs: 100 });
    expect(shedBatches(r)).toEqual([["CAP5", "CAP4"], ["CAP3", "CAP2"]]);
    expect(msgs).toHaveLength(3);
    expect(r.daemon.capacity.level).toBe(3);
    expect(r.daemon.capacity.refreshFactor).toBe(4);

    // 2. Every shed market holds a capacity halt, its orders were cancelled on the platform and nothing
    //    was placed there after its halt; the markets kept go on quoting; cancels went out throughout.
    const shed = ["CAP2", "CAP3", "CAP4", "CAP5"];
    for (const m of shed) {
      const raised = halts(r, "raised", "capacity").find((e) => e.target === m);
      expect(raised, m).toBeDefined();
      expect(await open(r, m), m).toEqual([]);
      expect(r.wire.places({ from: raised!.at + 1, market: m }), m).toEqual([]);
    }
    for (const m of ["CAP1", HELD]) {
      expect(halts(r, "raised", "capacity").some((e) => e.target === m), m).toBe(false);
      expect((await open(r, m)).length, m).toBeGreaterThan(0);
    }
    expect(r.wire.places({ from: settledAt }).length).toBeGreaterThan(0);
    const cancels = r.wire.requests(loadOnAt).filter((e) => e.path.startsWith("/api/orders") && (e.method === "DELETE" || e.path.includes("cancel")));
    expect(cancels.length).toBeGreaterThanOrEqual(4);
    expect(cancels.every((e) => e.status === 200)).toBe(true);

    // 3. No storm of other halts, no order in an unknown state; metrics and /ready say so.
    expect(halts(r, "raised", "stale_market_data")).toEqual([]);
    expect(haltEvents(r).filter((e) => e.action === "raised" && e.reason !== "capacity")).toEqual([]);
    expect(r.daemon.runners[0]!.tracker.unknownOrders()).toEqual([]);
    const text = await r.daemon.ops.metrics.scrape();
    expect(sample(text, "mm_load_shed_level")).toBe(3);
    expect(sample(text, "mm_load_shed_markets")).toBe(4);
    expect(sample(text, "mm_risk_halts_active", { reason: "capacity" })).toBe(4);
    expect(sample(text, "mm_orders_unknown_state", { wallet: "w0" })).toBe(0);
    const ready = r.daemon.ops.probes.readiness();
    expect(ready.ok).toBe(false);
    expect(JSON.stringify(ready.body)).toContain('"reason":"capacity"');

    // 4. The lag clears: one step back per recovery period, the last shed first, the refresh last.
    r.load.costMs = 0;
    await until(r.h, "everything restored", () => r.daemon.capacity.level === 0, 120_000);
    const restores = steps(r).filter((l) => l["msg"] === "capacity: event loop keeping up, markets restored").map((l) => l["markets"]);
    expect(restores).toEqual([["CAP3", "CAP2"], ["CAP5", "CAP4"]]);
    expect(steps(r).at(-1)).toMatchObject({ msg: "capacity: event loop keeping up, quote refresh restored", level: "info", shedLevel: 0 });
    expect(halts(r, "cleared", "capacity")).toHaveLength(4);
    await until(r.h, "every market quoted again", async () => {
      for (const m of MARKETS) if ((await open(r, m)).length === 0) return false;
      return true;
    }, 30_000);
    const after = await r.daemon.ops.metrics.scrape();
    expect(sample(after, "mm_load_shed_level")).toBe(0);
    expect(sample(after, "mm_load_shed_markets")).toBe(0);
    expect(sample(after, "mm_risk_halts_active", { reason: "capacity" })).toBe(0);
    expect(r.daemon.ops.probes.readiness().ok).toBe(true);
    expect(halts(r, "raised", "stale_market_data")).toEqual([]);
    expect(r.daemon.runners[0]!.tracker.unknownOrders()).toEqual([]);
  });
});
