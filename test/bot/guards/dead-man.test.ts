import { describe, expect, it } from "vitest";
import { TransportError } from "../../../src/wire/transport.js";
import { DeadManSwitch, type DeadManWallet } from "../../../src/bot/guards/dead-man.js";
import { LoopMonitor } from "../../../src/bot/guards/loop-monitor.js";
import { RestHealth } from "../../../src/bot/guards/rest-health.js";
import type { ForeignOrderPolicy } from "../../../src/bot/engine/shutdown.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import type { OrderRecord } from "../../../src/wire/index.js";
import { WALLET, clientHarness, json, orderRecord, silentLogger, type ClientHarness } from "../engine/fakes.js";

const DEAD_MAN_MS = 10_000;

/** The switch over a scripted platform, a real loop monitor on a jumpable monotonic clock, a fake wallet. */
function setup(opts: { foreignOrders?: ForeignOrderPolicy; open?: OrderRecord[]; pendingOnce?: string[] } = {}) {
  const h: ClientHarness = clientHarness();
  let stalled = 0;
  const loop = new LoopMonitor({ clock: h.clock, monotonic: () => h.clock.now() + stalled });
  const rest = new RestHealth(() => h.clock.now());
  const tracker = new OrderTracker(WALLET);
  const open = opts.open ?? [orderRecord({ clientOrderId: "t1-a" }), orderRecord({ clientOrderId: "t1-b" })];
  for (const r of open) tracker.adopt(r, Date.parse(r.createdAt), Date.parse(r.createdAt));
  const live = new Map(open.map((o) => [o.id, o]));
  const pendingOnce = new Set(opts.pendingOnce ?? []);
  const state = { down: false, syncOk: true, syncs: 0 };
  const refused = (): Error => new TransportError("connect ECONNREFUSED", false, "connect");
  h.transport.on("POST", /^\/api\/orders\/cancel-all$/, () => {
    if (state.down) return refused();
    const cancelled: string[] = [];
    const notCancelled: { orderId: string; code: string; message: string }[] = [];
    for (const id of [...live.keys()]) {
      if (pendingOnce.delete(id)) notCancelled.push({ orderId: id, code: "cancel_pending", message: "recorded" });
      else {
        live.delete(id);
        cancelled.push(id);
      }
    }
    return json(200, { cancelled, notCancelled }, { "retry-after": "5" });
  });
  h.transport.on("POST", /^\/api\/orders\/cancel$/, (req) => {
    if (state.down) return refused();
    const id = (req.body as { orderId: string }).orderId;
    live.delete(id);
    return json(200, { orderId: id, status: "CANCELLED", filledQty: "0", remainingQty: "10" });
  });
  h.transport.on("POST", /^\/api\/orders\/cancel-batch$/, (req) => {
    if (state.down) return refused();
    const ids = (req.body as { orderIds: string[] }).orderIds;
    for (const id of ids) live.delete(id);
    return json(200, { cancelled: ids, notCancelled: [] });
  });
  const changes: { detail: string | null; at: number }[] = [];
  const box: { sw?: DeadManSwitch } = {};
  const wallet: DeadManWallet & { isReady: boolean } = {
    name: "w",
    wallet: WALLET,
    isReady: true,
    syncCtx: { api: h.client.forWallet(WALLET), tracker, track: (ev) => tracker.apply(ev) },
    sync: () => {
      state.syncs += 1;
      if (state.syncOk) box.sw!.onEvent({ type: "synced", wallet: WALLET, reason: "dead_man", at: h.clock.now() });
      return Promise.resolve();
    },
  };
  const sw = (box.sw = new DeadManSwitch({
    deadManMs: DEAD_MAN_MS,
    clock: h.clock,
    log: silentLogger(),
    loop,
    rest,
    wallets: [wallet],
    foreignOrders: opts.foreignOrders ?? "cancel",
    condition: (_name, detail) => changes.push({ detail, at: h.clock.now() }),
  }));
  loop.start();
  sw.start();
  const posts = (path: string) => h.transport.requests.filter((r) => r.method === "POST" && r.path === path);
  return { h, sw, loop, rest, tracker, live, state, changes, wallet, posts, stall: (ms: number) => (stalled += ms) };
}

describe("DeadManSwitch", () => {
  it("trips a wallet only once its stream AND its REST have both been down for deadManMs", async () => {
    const s = setup();
    const t0 = s.h.clock.now();
    s.sw.onEvent({ type: "stream_state", wallet: WALLET, state: "disconnected", at: t0 });
    await s.h.clock.advance(3 * DEAD_MAN_MS);
    expect(s.changes).toEqual([]);
    // REST starts failing now: the overlap, not the stream's outage alone, counts.
    s.state.down = true;
    s.rest.note(WALLET, false);
    const restDown = s.h.clock.now();
    await s.h.clock.advance(DEAD_MAN_MS - 500);
    expect(s.changes).toEqual([]);
    await s.h.clock.advance(1_000);
    expect(s.changes).toHaveLength(1);
    expect(s.changes[0]!.detail).toMatch(/user stream down and REST failing for 10\.\d s/);
    expect(s.changes[0]!.at - restDown).toBeGreaterThanOrEqual(DEAD_MAN_MS);
    // The platform still refuses: tried, backed off, never cleared.
    await s.h.clock.advance(20_000);
    expect(s.posts("/api/orders/cancel-all").length).toBeGreaterThan(2);
    expect(s.posts("/api/orders/cancel-all").length).toBeLessThan(12);
    expect(s.changes).toHaveLength(1);
    expect(s.sw.tripped()).toEqual([expect.objectContaining({ wallet: "w", cause: "outage", phase: "pull" })]);
    s.sw.stop();
    s.loop.stop();
  });

  it("a subscribed stream or an answered REST request means no trip", async () => {
    const s = setup();
    s.sw.onEvent({ type: "stream_state", wallet: WALLET, state: "reconnecting", at: s.h.clock.now() });
    s.rest.note(WALLET, false);
    await s.h.clock.advance(DEAD_MAN_MS / 2);
    s.rest.note(WALLET, true);
    await s.h.clock.advance(2 * DEAD_MAN_MS);
    s.rest.note(WALLET, false);
    s.sw.onEvent({ type: "stream_state", wallet: WALLET, state: "subscribed", at: s.h.clock.now() });
    await s.h.clock.advance(2 * DEAD_MAN_MS);
    expect(s.changes).toEqual([]);
    s.sw.stop();
    s.loop.stop();
  });

  it("after a stall: halted at once; cancel-all retried with pauses while refused, sent at once when the platform answers; cleared after a later sync", async () => {
    const s = setup();
    const [a, b] = [...s.live.keys()] as [string, string];
    s.state.down = true;
    s.stall(DEAD_MAN_MS + 1);
    await s.h.clock.advance(250);
    expect(s.changes.map((c) => c.detail)).toEqual([expect.stringMatching(/^event loop stalled 10\.\d s/)]);
    await s.h.clock.advance(3_000);
    const refusedAllTries = s.posts("/api/orders/cancel-all").length;
    expect(refusedAllTries).toBeGreaterThanOrEqual(2);
    expect(s.state.syncs).toBe(0);

    // The platform answers (seen on any request): the pull goes at once, not at the end of its pause.
    s.state.down = false;
    s.rest.note("", false);
    s.rest.note("", true);
    await s.h.clock.advance(10);
    expect(s.posts("/api/orders/cancel-all").length).toBe(refusedAllTries + 1);
    await s.h.clock.advance(1_000);
    expect(s.tracker.getByOrderId(a)!.state).toBe("cancelled");
    expect(s.tracker.getByOrderId(b)!.state).toBe("cancelled");
    expect(s.state.syncs).toBe(1);
    expect(s.changes.map((c) => c.detail)).toEqual([expect.any(String), null]);
    expect(s.sw.tripped()).toEqual([]);
    s.sw.stop();
    s.loop.stop();
  });

  it("repeats the ids a cancel-all left cancel_pending with single cancels after Retry-After, never another cancel-all", async () => {
    const open = [orderRecord({ clientOrderId: "t1-a" }), orderRecord({ clientOrderId: "t1-b" })];
    const s = setup({ open, pendingOnce: [open[1]!.id] });
    s.stall(DEAD_MAN_MS);
    await s.h.clock.advance(250);
    const answeredAt = s.posts("/api/orders/cancel-all")[0]!.at;
    await s.h.clock.advance(10_000);
    expect(s.posts("/api/orders/cancel-all")).toHaveLength(1);
    const repeats = s.posts("/api/orders/cancel");
    expect(repeats.map((r) => r.body)).toEqual([{ orderId: open[1]!.id }]);
    expect(repeats[0]!.at - answeredAt).toBeGreaterThanOrEqual(5_000);
    expect(s.tracker.getByOrderId(open[1]!.id)!.state).toBe("cancelled");
    // The sync came after the repeat, and only then the clear.
    expect(s.changes.at(-1)).toMatchObject({ detail: null });
    expect(s.changes.at(-1)!.at).toBeGreaterThanOrEqual(repeats[0]!.at);
    s.sw.stop();
    s.loop.stop();
  });

  it("stays halted while the sync fails, clears after the first sync that completes", async () => {
    const s = setup();
    s.state.syncOk = false;
    s.stall(DEAD_MAN_MS * 2);
    await s.h.clock.advance(5_000);
    expect(s.posts("/api/orders/cancel-all")).toHaveLength(1);
    expect(s.state.syncs).toBeGreaterThan(1);
    expect(s.changes).toHaveLength(1);
    s.state.syncOk = true;
    await s.h.clock.advance(6_000);
    expect(s.changes.map((c) => c.detail)).toEqual([expect.any(String), null]);
    // Never a second cancel-all for the same trip.
    expect(s.posts("/api/orders/cancel-all")).toHaveLength(1);
    s.sw.stop();
    s.loop.stop();
  });

  it("under foreignOrders leave: a cancel-batch of our own open ids, never cancel-all", async () => {
    const s = setup({ foreignOrders: "leave" });
    const ids = [...s.live.keys()];
    s.stall(DEAD_MAN_MS);
    await s.h.clock.advance(1_000);
    expect(s.posts("/api/orders/cancel-all")).toEqual([]);
    expect(s.posts("/api/orders/cancel-batch").map((r) => r.body)).toEqual([{ orderIds: ids }]);
    expect(s.changes.map((c) => c.detail)).toEqual([expect.any(String), null]);
    s.sw.stop();
    s.loop.stop();
  });

  it("forgets a wallet that stops and does nothing after stop()", async () => {
    const s = setup();
    s.state.down = true;
    s.stall(DEAD_MAN_MS);
    await s.h.clock.advance(1_000);
    expect(s.changes).toHaveLength(1);
    s.sw.onEvent({ type: "wallet_state", wallet: WALLET, state: "stopping" });
    s.wallet.isReady = false;
    const tries = s.posts("/api/orders/cancel-all").length;
    s.state.down = false;
    await s.h.clock.advance(10_000);
    expect(s.posts("/api/orders/cancel-all")).toHaveLength(tries);
    expect(s.sw.tripped()).toEqual([]);
    s.sw.stop();
    s.stall(DEAD_MAN_MS);
    await s.h.clock.advance(1_000);
    expect(s.changes).toHaveLength(1);
    s.loop.stop();
  });
});
