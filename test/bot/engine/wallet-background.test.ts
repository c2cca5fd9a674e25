/**
 * When a wallet's background work runs (src/bot/engine/wallet-background.ts): nothing before the
 * wallet is ready (a "final" sync excepted); the REST sync serialised, a request during a run
 * answered by one more full pass; a failed sync logged and still followed by a cycle of every
 * market; and maintenance woken early when a read is due before the next period. The sync runs for
 * real (fill-sync.ts over a scripted transport); the upkeep is a recording fake.
 */
import { describe, expect, it } from "vitest";
import { WalletBackground } from "../../../src/bot/engine/wallet-background.js";
import type { WalletUpkeep } from "../../../src/bot/engine/wallet-upkeep.js";
import type { EngineEvent } from "../../../src/bot/observer.js";
import { T0, WALLET, clientHarness, envelope, json, orderRecord, silentLogger, syncContext } from "./fakes.js";

function setup(opts: { ready?: boolean; quoting?: boolean; walkDelayMs?: number; walkFails?: boolean } = {}) {
  const h = clientHarness();
  const { ctx, tracker } = syncContext(h);
  const calls: string[] = [];
  const events: EngineEvent[] = [];
  const state = { ready: opts.ready ?? true, quoting: opts.quoting ?? true };
  h.transport.on("GET", /^\/api\/orders\/open/, async () => {
    calls.push("walk");
    if (opts.walkDelayMs !== undefined) await h.clock.sleep(opts.walkDelayMs);
    return opts.walkFails ? envelope(400, "invalid_request") : json(200, { walletAddress: WALLET, orders: [], nextCursor: null });
  });
  h.transport.on("GET", /^\/api\/me\/trades/, json(200, { trades: [], nextCursor: null }));
  const upkeep = {
    maintain: () => (calls.push(`maintain@${h.clock.now() - T0}`), Promise.resolve()),
    reconcileInventory: async (sync: () => Promise<unknown>) => {
      calls.push("reconcile");
      await sync();
    },
  } as unknown as WalletUpkeep;
  const bg = new WalletBackground({
    wallet: WALLET,
    tracker,
    upkeep,
    sync: ctx,
    unknownGraceMs: 1_000,
    unknownSince: new Map(),
    clock: h.clock,
    log: silentLogger(),
    observer: { onEvent: (e) => events.push(e) },
    ready: () => state.ready,
    quoting: () => state.quoting,
    afterSync: () => calls.push("afterSync"),
  });
  return { ...h, bg, tracker, calls, events, state };
}

/** Run `p` to its end on the virtual clock. */
async function settle<T>(clock: { advance(ms: number): Promise<void> }, p: Promise<T>): Promise<T> {
  let done = false;
  void p.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < 100 && !done; i++) await clock.advance(100);
  return p;
}

/** An order whose cancel the platform recorded without an answer: a read (the re-cancel) is due in `ms`. */
function cancelPending(s: ReturnType<typeof setup>, ms: number): void {
  const rec = orderRecord({ clientOrderId: "c1" });
  s.tracker.adopt(rec, T0, s.clock.now());
  s.tracker.apply({ kind: "cancel_requested", clientOrderId: "c1", orderId: rec.id, nowMs: s.clock.now() });
  s.tracker.apply({ kind: "cancel_result", clientOrderId: "c1", orderId: rec.id, result: { kind: "pending", retryAfterMs: ms }, nowMs: s.clock.now() });
}

describe("before the wallet is ready", () => {
  it("maintenance, drift checks and syncs do nothing; a final sync runs anyway", async () => {
    const s = setup({ ready: false });
    await s.bg.maintain();
    await s.bg.checkDrift();
    expect(await s.bg.sync("timer")).toBeUndefined();
    expect(s.calls).toEqual([]);
    const r = await s.bg.sync("final");
    expect(r).toMatchObject({ open: 0 });
    expect(s.calls).toEqual(["walk", "afterSync"]);
    expect(s.events).toEqual([{ type: "synced", wallet: WALLET, reason: "final", at: T0 }]);
  });
});

describe("sync", () => {
  it("walks, pulls, says synced with the reason, then cycles every market", async () => {
    const s = setup();
    const r = await s.bg.sync("timer");
    expect(r).toMatchObject({ open: 0, adopted: 0, trades: 0 });
    expect(s.calls).toEqual(["walk", "afterSync"]);
    expect(s.events).toMatchObject([{ type: "synced", reason: "timer" }]);
  });

  it("a request during a run waits for one more full pass that began after it, shared by every caller", async () => {
    const s = setup({ walkDelayMs: 1_000 });
    const first = s.bg.sync("timer");
    await s.clock.advance(100);
    const second = s.bg.sync("drift");
    const third = s.bg.sync("gap");
    const [a, b, c] = await settle(s.clock, Promise.all([first, second, third]));
    expect(a).toBe(b);
    expect(b).toBe(c);
    // Two passes (the one running, once more for the requests during it), one synced, one cycle.
    expect(s.calls).toEqual(["walk", "walk", "afterSync"]);
    expect(s.events.filter((e) => e.type === "synced")).toHaveLength(1);
    // The run is over: the next request starts a new one.
    await settle(s.clock, s.bg.sync("timer"));
    expect(s.calls.filter((x) => x === "walk")).toHaveLength(3);
  });

  it("a failed sync is logged, says no synced, returns nothing, and still cycles every market", async () => {
    const s = setup({ walkFails: true });
    expect(await s.bg.sync("timer")).toBeUndefined();
    expect(s.calls).toEqual(["walk", "afterSync"]);
    expect(s.events).toEqual([]);
    // Not stuck: the next request runs.
    await s.bg.sync("timer");
    expect(s.calls).toEqual(["walk", "afterSync", "walk", "afterSync"]);
  });
});

describe("checkDrift", () => {
  it("hands the upkeep a sync it can await (reason 'drift')", async () => {
    const s = setup();
    await s.bg.checkDrift();
    expect(s.calls).toEqual(["reconcile", "walk", "afterSync"]);
    expect(s.events).toMatchObject([{ type: "synced", reason: "drift" }]);
  });
});

describe("maintenance woken for reads due", () => {
  it("a re-cancel due before the next period wakes maintenance at its time, once", async () => {
    const s = setup();
    cancelPending(s, 2_500);
    await s.bg.maintain();
    expect(s.calls).toEqual(["maintain@0"]);
    await s.clock.advance(2_499);
    expect(s.calls).toEqual(["maintain@0"]);
    await s.clock.advance(1);
    expect(s.calls).toEqual(["maintain@0", "maintain@2500"]);
    // The fake upkeep did not re-cancel: the read is due now, not later, so no new wake.
    await s.clock.advance(10_000);
    expect(s.calls).toEqual(["maintain@0", "maintain@2500"]);
  });

  it("an earlier due read replaces a later wake; a later one does not", async () => {
    const s = setup();
    cancelPending(s, 5_000);
    await s.bg.maintain();
    const rec = orderRecord({ clientOrderId: "c2" });
    s.tracker.adopt(rec, T0, T0);
    s.tracker.apply({ kind: "cancel_requested", clientOrderId: "c2", orderId: rec.id, nowMs: T0 });
    s.tracker.apply({ kind: "cancel_result", clientOrderId: "c2", orderId: rec.id, result: { kind: "pending", retryAfterMs: 1_000 }, nowMs: T0 });
    await s.bg.maintain();
    await s.clock.advance(1_000);
    expect(s.calls).toEqual(["maintain@0", "maintain@0", "maintain@1000"]);
    // At 1000 the earliest due (1000) is not in the future: the 5000 wake was replaced, nothing is left.
    await s.clock.advance(10_000);
    expect(s.calls).toEqual(["maintain@0", "maintain@0", "maintain@1000"]);
  });

  it("no wake while quoting is off, and stop drops a pending wake", async () => {
    const s = setup({ quoting: false });
    cancelPending(s, 2_000);
    await s.bg.maintain();
    await s.clock.advance(5_000);
    expect(s.calls).toEqual(["maintain@0"]);

    const t = setup();
    cancelPending(t, 2_000);
    await t.bg.maintain();
    t.bg.stop();
    await t.clock.advance(5_000);
    expect(t.calls).toEqual(["maintain@0"]);
  });

  it("a sync also arms the wake for a read due later", async () => {
    const s = setup();
    cancelPending(s, 3_000);
    await s.bg.sync("timer");
    await s.clock.advance(3_000);
    expect(s.calls.filter((c) => c.startsWith("maintain"))).toEqual(["maintain@3000"]);
  });
});
