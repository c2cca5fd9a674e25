/**
 * dead_man (issue 10): a daemon quoting two wallets against the in-process simulator.
 *
 * (a) The platform becomes unreachable (every request fails in transport, every user stream is
 *     cut) for longer than risk.deadManSec: each wallet is halted dead_man. When the platform
 *     answers again, each wallet's first order request is a cancel-all (answered: nothing of ours
 *     rests right after it), nothing is placed until a full sync completed after it, then the halt
 *     clears and quoting resumes.
 * (b) The event loop stalls (the monotonic clock jumps by more than deadManSec between two monitor
 *     ticks): same outcome, and the stall is counted in mm_event_loop_stalls_total.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { TransportError } from "../../src/wire/transport.js";
import { createDaemon } from "../../src/bot/engine/daemon.js";
import { RecordingObserver, type EngineEvent } from "../../src/bot/observer.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import { API_KEY, platformOpenOrders, startSim, type SimHarness } from "../integration/harness.js";
import {
  LogLines,
  Streams,
  Wire,
  clearedAt,
  opsConfig,
  raisedAt,
  run,
  sample,
  settle,
  until,
  walletAddress,
  type HaltMark,
  type OpsHarness,
  type WireEntry,
} from "./harness.js";

const DEAD_MAN_SEC = 6;

/** Between the daemon's Wire and the simulator: can make the platform unreachable, and snapshots our open orders right after each answered cancel-all. */
class Link implements Transport {
  down = false;
  /** Wallet -> our open orders on the platform just after its cancel-all was answered. */
  readonly afterCancelAll: { wallet: string; at: number; open: number }[] = [];

  constructor(
    private readonly h: SimHarness,
    private readonly inner: Transport,
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    if (this.down) throw new TransportError("connect ECONNREFUSED (test: platform unreachable)", false, "connect");
    const res = await this.inner.request(req);
    if (req.path === "/api/orders/cancel-all" && res.status === 200) {
      const wallet = Object.entries(req.headers).find(([k]) => k.toLowerCase() === "x-user-wallet")![1].toLowerCase();
      this.afterCancelAll.push({ wallet, at: this.h.clock.now(), open: (await platformOpenOrders(this.h, wallet)).length });
    }
    return res;
  }
}

interface DeadManHarness extends OpsHarness {
  link: Link;
  /** Add to the daemon's monotonic clock (a stalled loop). */
  stall(ms: number): void;
}

let current: DeadManHarness | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

async function start(): Promise<DeadManHarness> {
  const h = startSim({ wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] });
  const link = new Link(h, h.transport);
  const wire = new Wire(link, h.clock);
  const streams = new Streams(h.connector);
  const logs = new LogLines();
  const observer = new RecordingObserver();
  const halts: HaltMark[] = [];
  const marker = {
    onEvent: (e: EngineEvent) => {
      if (e.type === "halt") halts.push({ action: e.action, reason: e.reason, target: e.target, at: e.at, index: wire.log.length });
    },
  };
  // The stream_down halt would pull quotes too: pushed out of the way so only the switch acts.
  const config = opsConfig({ wallets: 2, slugs: ["A", "B"], risk: { deadManSec: DEAD_MAN_SEC, streamDownSec: 600 } });
  let stalled = 0;
  const daemon = createDaemon(config, {
    clock: h.clock,
    rng: new Rng(321),
    transport: wire,
    connector: streams,
    apiKey: API_KEY,
    logger: createLogger({ level: "info", clock: h.clock }, logs),
    observer: [observer, marker],
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
    monotonic: () => h.clock.now() + stalled,
  });
  await settle(h.clock, daemon.start());
  const harness: DeadManHarness = {
    h,
    wire,
    streams,
    logs,
    observer,
    halts,
    daemon,
    config,
    link,
    stall: (ms) => (stalled += ms),
    openOn: async (i, market) => (await platformOpenOrders(h, walletAddress(i))).filter((o) => market === undefined || o.marketId === market),
    scrape: () => daemon.ops.metrics.scrape(),
    stop: async () => {
      await settle(h.clock, daemon.stop());
      h.sim.stop();
    },
  };
  current = harness;
  return harness;
}

const bothHalted = (o: OpsHarness) => (): boolean => raisedAt(o, "dead_man", "w0") !== undefined && raisedAt(o, "dead_man", "w1") !== undefined;
const bothCleared = (o: OpsHarness, after: number) => (): boolean =>
  ["w0", "w1"].every((w) => {
    const c = clearedAt(o, "dead_man", w);
    return c !== undefined && c.index >= after;
  });

function isOrderWrite(e: WireEntry): boolean {
  return e.method === "POST" && e.path.startsWith("/api/orders/");
}

/**
 * From `from` (a wire position) on: the wallet's first answered order request is a cancel-all; no
 * place until the halt cleared; a sync completed between the cancel-all and the clear; right
 * after the cancel-all nothing of ours rested.
 */
function expectPulledThenReconciled(o: DeadManHarness, walletIndex: number, from: number): void {
  const w = walletAddress(walletIndex);
  const name = `w${walletIndex}`;
  const clear = clearedAt(o, "dead_man", name)!;
  const raise = raisedAt(o, "dead_man", name)!;
  expect(clear.at).toBeGreaterThanOrEqual(raise.at);
  const writes = o.wire.log.slice(from).filter((e) => e.wallet === w && isOrderWrite(e) && e.status !== 0);
  const cancelAll = writes.findIndex((e) => e.path === "/api/orders/cancel-all" && e.status === 200);
  expect(cancelAll, `${name}: an answered cancel-all`).toBeGreaterThanOrEqual(0);
  const firstPlace = writes.findIndex((e) => e.placeMarkets.length > 0);
  expect(firstPlace === -1 || firstPlace > cancelAll, `${name}: cancel-all before any place`).toBe(true);
  const cancelAllAt = writes[cancelAll]!.at;
  // Nothing of ours rested right after the cancel-all, nothing was placed until the clear.
  const snap = o.link.afterCancelAll.find((s) => s.wallet === w && s.at >= cancelAllAt);
  expect(snap?.open).toBe(0);
  expect(o.wire.places({ from: { at: raise.at, index: raise.index }, to: { at: clear.at, index: clear.index }, wallet: w })).toEqual([]);
  // The clear followed a full sync that completed after the cancel-all.
  const synced = o.observer.of("synced").filter((e) => e.wallet === w && e.at >= cancelAllAt && e.at <= clear.at);
  expect(synced.length, `${name}: a sync between cancel-all and clear`).toBeGreaterThan(0);
  const walks = o.wire.log.slice(from, clear.index).filter((e) => e.wallet === w && e.method === "GET" && e.path.startsWith("/api/orders/open") && e.at >= cancelAllAt);
  expect(walks.length).toBeGreaterThan(0);
}

describe("dead-man switch", () => {
  it("(a) platform unreachable longer than deadManSec: halted; cancel-all first when it answers; quoting resumes after the resync", async () => {
    const o = await start();
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);

    const tCut = o.h.clock.now();
    o.link.down = true;
    o.streams.cut(walletAddress(0));
    o.streams.cut(walletAddress(1));
    await until(o.h, "dead_man on both wallets", bothHalted(o), 60_000);
    for (const w of ["w0", "w1"]) expect(raisedAt(o, "dead_man", w)!.at - tCut).toBeGreaterThanOrEqual(DEAD_MAN_SEC * 1000);
    await run(o.h.clock, 10_000);
    // Unreachable: nothing the daemon sent reached the platform; the wallets are halted.
    expect(o.wire.requests(tCut + 1).filter((e) => e.status !== 0)).toEqual([]);
    expect(o.daemon.status().halts).toEqual(expect.arrayContaining(["w0 dead_man", "w1 dead_man"]));

    const back = o.wire.mark();
    o.link.down = false;
    o.streams.restore(walletAddress(0));
    o.streams.restore(walletAddress(1));
    await until(o.h, "dead_man cleared", bothCleared(o, back.index), 60_000);
    expectPulledThenReconciled(o, 0, back.index);
    expectPulledThenReconciled(o, 1, back.index);

    await until(o.h, "quoting again", async () => (await o.openOn(0)).length > 0 && (await o.openOn(1)).length > 0, 60_000);
    const text = await o.scrape();
    expect(sample(text, "mm_dead_man_trips_total", { cause: "outage" })).toBe(2);
    expect(sample(text, "mm_dead_man_trips_total", { cause: "loop_stall" })).toBe(0);
    expect(sample(text, "mm_risk_halts_total", { scope: "wallet", reason: "dead_man" })).toBe(2);
    expect(sample(text, "mm_risk_halt_active", { scope: "wallet", target: "w0", reason: "dead_man" }) ?? 0).toBe(0);
  }, 60_000);

  it("(b) event loop stalled longer than deadManSec: every wallet halted, cancel-all, resync, quoting again; the stall counted", async () => {
    const o = await start();
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);
    expect((await o.openOn(1)).length).toBeGreaterThan(0);
    expect(sample(await o.scrape(), "mm_event_loop_stalls_total")).toBe(0);

    const before = o.wire.mark();
    o.stall(DEAD_MAN_SEC * 1000 + 4_000);
    await until(o.h, "dead_man on both wallets", bothHalted(o), 5_000);
    await until(o.h, "dead_man cleared", bothCleared(o, before.index), 60_000);
    expectPulledThenReconciled(o, 0, before.index);
    expectPulledThenReconciled(o, 1, before.index);
    expect(o.logs.withMsg("dead-man switch: wallet halted, quotes pulled with cancel-all once the platform answers")[0]).toMatchObject({ cause: "loop_stall" });

    await until(o.h, "quoting again", async () => (await o.openOn(0)).length > 0 && (await o.openOn(1)).length > 0, 60_000);
    const text = await o.scrape();
    expect(sample(text, "mm_event_loop_stalls_total")).toBe(1);
    expect(sample(text, "mm_dead_man_trips_total", { cause: "loop_stall" })).toBe(2);
    expect(sample(text, "mm_event_loop_lag_seconds_count")).toBeGreaterThan(0);
    // A shorter hiccup is lag, not a dead man.
    o.stall(2_000);
    await run(o.h.clock, 2_000);
    const after = await o.scrape();
    expect(sample(after, "mm_event_loop_stalls_total")).toBe(2);
    expect(sample(after, "mm_dead_man_trips_total", { cause: "loop_stall" })).toBe(2);
  }, 60_000);
});
