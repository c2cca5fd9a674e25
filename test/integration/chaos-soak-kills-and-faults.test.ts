/**
 * Chaos soak, in virtual time: the daemon (three wallets, four markets with taker flow) against the
 * in-process simulator while a seeded schedule mixes every fault kind the simulator offers
 * (src/sim/platform/faults.ts FAULT_KINDS; exchange_unavailable both recorded and not) with hard
 * kills (`daemon.abandon()`, no goodbye) and restarts (a new daemon, same instance id and wallets).
 * The schedule is drawn from one seed, so a failure replays exactly.
 *
 * Checked all along (every 5 s of virtual time, straight from the simulator's order records, so
 * the checks themselves are never faulted): no two of our orders rest at one slot (wallet, market,
 * outcome, side; the ladder quotes one level). Checked at the end, after a normal shutdown: no
 * clientOrderId became two platform orders; nothing of ours is open, then or a minute later (an
 * orphan recorded late would show); the exit code says clean only when that is true; the last
 * daemon's fill ledger equals the platform's trades from its start on, and no killed daemon ever
 * held a fill the platform does not have; inventory and cash equal /api/me/positions and
 * /api/me/balances.
 *
 * A restart comes 5 to 25 s after its kill: longer than any latency the schedule adds (at most
 * 3 s per request, under the 10 s request timeout), so every request the killed process sent has
 * landed before its successor reads the platform, as with a process manager's restart delay.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { isTerminal } from "../../src/bot/orders/order-states.js";
import { FAULT_KINDS, type FaultKind, type FaultRuleInput } from "../../src/sim/platform/index.js";
import type { Balances, Position } from "../../src/wire/index.js";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";
import { daemonConfig, makeDaemon, platformGet, RecordingTransport, simFills, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const SEED = 1026;
const WALLETS = 3;
const MARKETS = ["CH-A", "CH-B", "CH-C", "CH-D"];
/** Chaos phase, then a calm tail (only cancel faults) before the shutdown. */
const CHAOS_MS = 10 * 60_000;
const TAIL_MS = 2 * 60_000;
const SEGMENT_MS = 90_000;
const KILLS = 3;
const CHECK_EVERY_MS = 5_000;
const STEP_MS = 250;
const INSTANCE = "it";

/** A schedule entry: one fault kind in one window (absolute times). */
type Kind = FaultKind | "exchange_unavailable_recorded";

function ruleFor(kind: Kind, rng: Rng, fromMs: number, toMs: number): FaultRuleInput {
  const window = { from: { kind: "absolute", atMs: fromMs }, to: { kind: "absolute", atMs: toMs } } as const;
  const p = (lo: number, hi: number): number => Math.round((lo + rng.float() * (hi - lo)) * 100) / 100;
  const base = { window };
  switch (kind) {
    case "latency":
      return { ...base, kind, route: rng.pick(["POST /api/orders/place*", "POST /api/orders/cancel*", "GET /api/orders/*", "/api/me/*", "*"]), probability: p(0.3, 1), latencyMs: rng.range(200, 3_000) };
    case "shard_owner_unavailable":
      return { ...base, kind, route: rng.pick(["POST /api/orders/place*", "POST /api/orders/cancel*"]), probability: p(0.1, 0.3), retryAfterSec: rng.range(1, 2) };
    case "trading_temporarily_unavailable":
      return { ...base, kind, route: "POST /api/orders/place*", probability: p(0.1, 0.3) };
    case "cancel_pending":
      return { ...base, kind, route: "POST /api/orders/cancel*", probability: p(0.2, 0.5), completeAfterMs: rng.range(1_000, 6_000) };
    case "exchange_unavailable":
      return { ...base, kind, route: rng.pick(["POST /api/orders/place*", "POST /api/orders/cancel*", "GET /api/orders/open", "GET /api/me/trades", "GET /api/orders/lookup"]), probability: p(0.05, 0.15), execute: false };
    case "exchange_unavailable_recorded":
      return { ...base, kind: "exchange_unavailable", route: rng.pick(["POST /api/orders/place*", "POST /api/orders/cancel*"]), probability: p(0.05, 0.15), execute: true };
    case "idempotency_race":
      return { ...base, kind, route: "POST /api/orders/place*", probability: p(0.05, 0.15) };
    case "journal_intent_not_durable":
      return { ...base, kind, route: "POST /api/orders/place-batch", probability: p(0.1, 0.3) };
    case "rate_limited_burst":
      return { ...base, kind, route: rng.pick(["*", "POST /api/orders/*", "GET /api/markets/*", "/api/me/*"]), probability: p(0.05, 0.15), retryAfterSec: rng.range(1, 2) };
    case "ws_disconnect":
      return { ...base, kind, route: "WS /ws/user", probability: p(0.02, 0.1) };
    case "ws_duplicate_frames":
      return { ...base, kind, route: "WS /ws/user", probability: p(0.2, 0.5), copies: rng.range(2, 3) };
    case "ws_reorder_frames":
      return { ...base, kind, route: "WS /ws/user", probability: p(0.3, 0.6), reorderWindow: rng.range(2, 4) };
    case "cancel_unanswered":
      return { ...base, kind, route: "POST /api/orders/cancel*", probability: p(0.2, 0.5), completeAfterMs: rng.range(1_000, 6_000) };
    case "lock_invariant":
      return { ...base, kind, route: "POST /api/orders/cancel*", probability: p(0.2, 0.5) };
    case "lock_invariant_violation":
    case "exchange_transport_error":
      return { ...base, kind, route: rng.pick(["POST /api/orders/place*", "POST /api/orders/cancel*", "GET /api/orders/open", "/api/me/*"]), probability: p(0.05, 0.15) };
    case "exchange_malformed_response":
    case "exchange_upstream_error":
      return { ...base, kind, route: rng.pick(["POST /api/orders/place*", "POST /api/orders/cancel*"]), probability: p(0.05, 0.15), execute: rng.float() < 0.5, rawBody: rng.float() < 0.5 };
  }
}

interface Schedule {
  rules: FaultRuleInput[];
  /** Kill times (absolute) and how long the daemon stays dead. */
  kills: { atMs: number; gapMs: number }[];
}

/** Every kind at least once (a shuffled pass over the segments), then one to two more per segment. */
function schedule(seed: number, startMs: number): Schedule {
  const rng = new Rng(seed).fork("chaos-schedule");
  const kinds: Kind[] = [...FAULT_KINDS, "exchange_unavailable_recorded"];
  const segments = Math.floor(CHAOS_MS / SEGMENT_MS);
  const shuffled = [...kinds];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const rules: FaultRuleInput[] = [];
  for (let s = 0; s < segments; s++) {
    const from = startMs + s * SEGMENT_MS;
    const picks = shuffled.filter((_, i) => i % segments === s);
    for (let n = rng.range(1, 2); n > 0; n--) picks.push(rng.pick(kinds));
    for (const k of picks) rules.push(ruleFor(k, rng, from, from + SEGMENT_MS));
  }
  // Kills spread over the chaos phase (one per slice, never in the first minute).
  const slice = (CHAOS_MS - 60_000) / KILLS;
  const kills = Array.from({ length: KILLS }, (_, i) => ({ atMs: startMs + 60_000 + Math.floor(i * slice + rng.float() * (slice - 30_000)), gapMs: rng.range(5_000, 25_000) }));
  return { rules, kills };
}

/** Faults that stay on through the calm tail and the shutdown: the cancels must still get through. */
function shutdownRules(fromMs: number): FaultRuleInput[] {
  const window = { from: { kind: "absolute", atMs: fromMs } } as const;
  return [
    { window, route: "POST /api/orders/cancel*", kind: "cancel_pending", probability: 0.3, completeAfterMs: 2_000 },
    { window, route: "POST /api/orders/cancel*", kind: "shard_owner_unavailable", probability: 0.15, retryAfterSec: 1 },
  ];
}

interface Life {
  d: DaemonHarness;
  transport: RecordingTransport;
  startedAtMs: number;
  killedAtMs?: number;
  readyWithinMs?: number;
}

describe("chaos soak: every fault kind, hard kills and restarts", () => {
  let h: SimHarness;
  const wallets = Array.from({ length: WALLETS }, (_, i) => walletAddress(i));
  const lives: Life[] = [];
  const slotViolations: string[] = [];
  /** Our orders resting on the platform that the running daemon did not track as live. */
  const untracked: string[] = [];
  const haltsSeen = new Set<string>();
  let checkpoints = 0;
  let nextCheckMs = 0;
  let report: ShutdownReport;
  let openAtStop: string[] = [];
  let openMinuteLater: string[] = [];
  const unknownBeforeStop: string[] = [];
  const plan = { rules: 0, kills: 0 };

  /** Our orders resting now, straight from the simulator's records (never faulted). */
  const ourLive = (w: string) => h.sim.desk.records.liveOf(w).filter((o) => o.clientOrderId?.startsWith(`${INSTANCE}-`) === true);

  function checkpoint(): void {
    checkpoints += 1;
    const life = lives.at(-1);
    // Only a running daemon that finished its start-up (adoption included) is held to know everything.
    const running = life !== undefined && life.killedAtMs === undefined && life.readyWithinMs !== undefined ? life.d.daemon : undefined;
    for (const halt of running?.coreRisk.facade.halts() ?? []) haltsSeen.add(halt.reason);
    for (const [i, w] of wallets.entries()) {
      const bySlot = new Map<string, string[]>();
      for (const o of ourLive(w)) {
        const t = running?.runners[i]!.tracker.get(o.clientOrderId!);
        if (running !== undefined && (t === undefined || isTerminal(t.state))) untracked.push(`t+${(h.clock.now() - startMs()) / 1000}s ${o.clientOrderId} ${t?.state ?? "not tracked"}`);
        const key = `${o.marketId} ${o.outcome} ${o.side}`;
        bySlot.set(key, [...(bySlot.get(key) ?? []), `${o.clientOrderId}(${o.remainingQty})`]);
      }
      for (const [slot, ids] of bySlot) if (ids.length > 1) slotViolations.push(`t+${(h.clock.now() - startMs()) / 1000}s ${w.slice(0, 8)} ${slot}: ${ids.join(" ")}`);
    }
  }
  const startMs = (): number => lives[0]!.startedAtMs;

  async function step(): Promise<void> {
    await h.clock.advance(STEP_MS);
    if (h.clock.now() >= nextCheckMs) {
      checkpoint();
      nextCheckMs = h.clock.now() + CHECK_EVERY_MS;
    }
  }
  async function runUntil(atMs: number): Promise<void> {
    while (h.clock.now() < atMs) await step();
  }
  async function wait<T>(p: Promise<T>, maxMs: number): Promise<T> {
    let done = false;
    let value: T | undefined;
    let error: unknown;
    void p.then(
      (v) => ((done = true), (value = v)),
      (e: unknown) => ((done = true), (error = e)),
    );
    const until = h.clock.now() + maxMs;
    while (!done && h.clock.now() < until) await step();
    if (!done) throw new Error(`did not settle within ${maxMs} ms of virtual time`);
    if (error !== undefined) throw error instanceof Error ? error : new Error(JSON.stringify(error));
    return value as T;
  }

  async function launch(i: number): Promise<Life> {
    const transport = new RecordingTransport(h.transport, h.clock);
    const config = daemonConfig({ wallets: WALLETS, instance: INSTANCE, slugs: MARKETS, strategy: { levels: 1 }, quoting: { maxOrderAgeSec: 45 }, shutdownSec: 30 });
    const d = makeDaemon(h, config, { rng: new Rng(SEED + i), transport });
    const life: Life = { d, transport, startedAtMs: h.clock.now() };
    lives.push(life);
    await wait(d.daemon.start(), 180_000);
    // Ready means every wallet anchored, subscribed (or gave up waiting) and adopted what rests.
    while (!d.daemon.runners.every((r) => r.isReady) && h.clock.now() < life.startedAtMs + 180_000) await step();
    if (d.daemon.runners.every((r) => r.isReady)) life.readyWithinMs = h.clock.now() - life.startedAtMs;
    return life;
  }

  beforeAll(async () => {
    h = startSim({
      wallets: WALLETS,
      markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 20, takerMean: "6", vol: 0.002 })),
      seed: SEED,
    });
    const t0 = h.clock.now();
    const s = schedule(SEED, t0);
    for (const r of [...s.rules, ...shutdownRules(t0 + CHAOS_MS)]) h.addFault(r);
    plan.rules = s.rules.length;
    nextCheckMs = t0;

    let life = await launch(0);
    for (const kill of s.kills) {
      await runUntil(kill.atMs);
      life.d.daemon.abandon();
      life.killedAtMs = h.clock.now();
      plan.kills += 1;
      await runUntil(h.clock.now() + kill.gapMs);
      life = await launch(lives.length);
    }
    await runUntil(t0 + CHAOS_MS + TAIL_MS);
    for (const r of life.d.daemon.runners) {
      await wait(r.sync("final"), 60_000);
      unknownBeforeStop.push(...r.tracker.unknownOrders().map((o) => o.clientOrderId));
    }
    report = await wait(life.d.daemon.stop(), 180_000);
    openAtStop = wallets.flatMap((w) => ourLive(w).map((o) => `${o.clientOrderId} ${o.status}`));
    await runUntil(h.clock.now() + 60_000);
    openMinuteLater = wallets.flatMap((w) => ourLive(w).map((o) => `${o.clientOrderId} ${o.status}`));
    if (process.env.CHAOS_DEBUG) console.log(summary());
  }, 900_000);

  /** What the run went through (CHAOS_DEBUG=1 prints it): to size the schedule and read a failure. */
  function summary(): string {
    const statuses = new Map<number, number>();
    for (const l of lives) for (const r of l.transport.log) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    const fired = h.sim.platform.faults.list().map((r) => `${r.kind}${r.input.execute === true ? "+rec" : ""}@${r.route}:${r.fired}`);
    return JSON.stringify(
      {
        checkpoints,
        lives: lives.map((l) => ({ start: (l.startedAtMs - startMs()) / 1000, killed: l.killedAtMs === undefined ? null : (l.killedAtMs - startMs()) / 1000, readyMs: l.readyWithinMs, requests: l.transport.log.length, places: l.transport.places().length, fills: wallets.map((w) => l.d.daemon.ledger.fills(w).length), unknown: l.d.observer.of("order_unknown").length, wsDrops: l.d.observer.of("stream_state").filter((e) => e.state === "disconnected").length })),
        halts: lives.flatMap((l, i) => l.d.observer.of("halt").filter((e) => e.action === "raised").map((e) => `#${i} t+${(e.at - startMs()) / 1000}s ${e.reason} ${e.target} ${e.detail}`)),
        drift: lives.flatMap((l, i) => l.d.observer.of("reconciliation").filter((e) => e.positions + e.cash > 0).map((e) => `#${i} t+${(e.at - startMs()) / 1000}s ${e.wallet.slice(0, 8)} positions ${e.positions} cash ${e.cash}`)),
        platformFills: wallets.map((w) => simFills(h.sim, w).length),
        orders: wallets.map((w) => h.sim.desk.records.historyPage(w, {}, undefined, 1_000_000).orders.length),
        statuses: Object.fromEntries(statuses),
        fired,
        exitCode: report.exitCode,
      },
      null,
      1,
    );
  }

  afterAll(() => h?.sim.stop());

  const last = (): Life => lives.at(-1)!;

  it("ran the seeded schedule: every fault kind fired, three kills, fills on every wallet", () => {
    const faults = h.sim.platform.faults.list();
    const fired = new Map<string, number>();
    for (const r of faults) {
      const kind = r.kind === "exchange_unavailable" && r.input.execute === true ? "exchange_unavailable_recorded" : r.kind;
      fired.set(kind, (fired.get(kind) ?? 0) + r.fired);
    }
    const never = [...FAULT_KINDS, "exchange_unavailable_recorded"].filter((k) => (fired.get(k) ?? 0) === 0);
    expect(never, `fired: ${JSON.stringify(Object.fromEntries(fired))}`).toEqual([]);
    expect(plan.kills).toBe(KILLS);
    expect(lives.length).toBe(KILLS + 1);
    expect(checkpoints).toBeGreaterThanOrEqual((CHAOS_MS + TAIL_MS) / CHECK_EVERY_MS);
    for (const w of wallets) expect(simFills(h.sim, w).length, w).toBeGreaterThan(10);
  });

  it("every restarted daemon became ready under the faults", () => {
    for (const [i, l] of lives.entries()) expect(l.readyWithinMs, `daemon ${i}`).toBeDefined();
  });

  it("a killed daemon sends nothing after its kill", () => {
    for (const l of lives.slice(0, -1)) expect(l.transport.log.filter((r) => r.at > l.killedAtMs!)).toEqual([]);
  });

  it("never had two of our orders resting at one slot", () => {
    expect(slotViolations).toEqual([]);
  });

  it("every order of ours resting on the platform was one the running daemon tracked as live", () => {
    expect(untracked).toEqual([]);
  });

  it("raised no instance_conflict halt: a restart after a kill is not a second owner", () => {
    expect([...haltsSeen].filter((r) => r === "instance_conflict")).toEqual([]);
  });

  it("raised no reconciliation_drift halt: a slow platform's positions are compared as of their read, after a pull that completed", () => {
    // Seed 1026 has two latency rules on /api/me/* (0.8 s and 1.4 s) with stream drops at 450-540 s:
    // before the fix, 3-4 false drift halts pulled every wallet's quotes there.
    const raised = lives.flatMap((l) => l.d.observer.of("halt").filter((e) => e.action === "raised" && e.reason === "reconciliation_drift"));
    expect(raised.map((e) => `${e.target} ${e.detail}`)).toEqual([]);
  });

  it("made at most one platform order per clientOrderId, all of them ours", () => {
    for (const w of wallets) {
      const all = h.sim.desk.records.historyPage(w, {}, undefined, 1_000_000).orders;
      expect(all.length).toBeGreaterThan(50);
      const byCid = new Map<string, number>();
      for (const o of all) byCid.set(o.clientOrderId ?? "(none)", (byCid.get(o.clientOrderId ?? "(none)") ?? 0) + 1);
      expect([...byCid.entries()].filter(([, n]) => n > 1)).toEqual([]);
      expect(all.filter((o) => o.clientOrderId?.startsWith(`${INSTANCE}-`) !== true)).toEqual([]);
    }
  });

  it("resolved every unknown placement before the shutdown", () => {
    expect(unknownBeforeStop).toEqual([]);
  });

  it("left nothing open at shutdown, nor a minute later, and its exit code says so truthfully", () => {
    expect(openAtStop).toEqual([]);
    expect(openMinuteLater).toEqual([]);
    // Clean (0) only when the platform agrees; non-zero would be a false alarm here.
    expect(report.exitCode).toBe(0);
  });

  it("keeps the last daemon's fill ledger equal to the platform's trades from its start on", () => {
    const l = last();
    for (const w of wallets) {
      const theirs = simFills(h.sim, w).filter((f) => f.ts >= l.startedAtMs);
      expect(theirs.length, w).toBeGreaterThan(0);
      const diff = l.d.daemon.ledger.diffAgainst(w, theirs, { sinceTs: l.startedAtMs });
      expect({ missing: diff.missing, extra: diff.extra, mismatched: diff.mismatched }).toEqual({ missing: [], extra: [], mismatched: [] });
    }
  });

  it("no killed daemon held a fill the platform does not have", () => {
    for (const l of lives.slice(0, -1)) {
      for (const w of wallets) {
        const diff = l.d.daemon.ledger.diffAgainst(w, simFills(h.sim, w));
        expect({ extra: diff.extra, mismatched: diff.mismatched }).toEqual({ extra: [], mismatched: [] });
      }
    }
  });

  it("ends with inventory and cash equal to the platform's positions and balances", async () => {
    const d = last().d.daemon;
    for (const w of wallets) {
      const positions = (await platformGet<{ positions: Position[] }>(h, w, "/api/me/positions")).positions;
      const balances = await platformGet<Balances>(h, w, "/api/me/balances");
      const drift = d.inventory.checkAgainst(w, positions.map((p) => ({ ...p, marketId: d.registry.symbolOf(p.marketId) ?? p.marketId })), balances);
      expect(drift.positions, w).toEqual([]);
      expect(drift.cash, w).toBeUndefined();
    }
  });
});
