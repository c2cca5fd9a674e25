import { NOT_RECORDED_MARGIN_MS, PLATFORM_RESEND_MS } from "../../../src/bot/orders/order-tracker.js";
import { describe, expect, it } from "vitest";
import type { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { sessionTag } from "../../../src/bot/orders/ids.js";
import {
  InstanceConflictError,
  InstanceFence,
  lateWindowMs,
  sessionStartOf,
  watchAtStartup,
  type FenceOptions,
} from "../../../src/bot/guards/instance-fence.js";
import { syncWallet } from "../../../src/bot/engine/fill-sync.js";
import { DeadManSwitch } from "../../../src/bot/guards/dead-man.js";
import { LoopMonitor } from "../../../src/bot/guards/loop-monitor.js";
import { RestHealth } from "../../../src/bot/guards/rest-health.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import type { OrderRecord } from "../../../src/wire/index.js";
import { T0, WALLET, clientHarness, envelope, json, orderRecord, silentLogger, syncContext, type ClientHarness } from "../engine/fakes.js";

const LATE = 20_000;
const OURS = `${Math.floor((T0 - 5_000) / 1000).toString(36)}abc`;
const OLD = `${Math.floor((T0 - 3_600_000) / 1000).toString(36)}old`;
const NEWER = `${Math.floor((T0 + 10_000) / 1000).toString(36)}new`;

function fence(h: ClientHarness, over: Partial<FenceOptions> = {}): { f: InstanceFence; raised: string[] } {
  const raised: string[] = [];
  const f = new InstanceFence({
    instanceId: "t1",
    session: OURS,
    sessionStartMs: T0 - 5_000,
    lateWindowMs: LATE,
    watchMs: 10_000,
    clock: h.clock,
    log: silentLogger(),
    onConflict: (d) => raised.push(d),
    ...over,
  });
  return { f, raised };
}

const at = (ms: number): string => new Date(ms).toISOString();

/** Advance virtual time until `p` settles. */
async function drive<T>(clock: VirtualClock, p: Promise<T>, maxMs = 120_000): Promise<T> {
  let done = false;
  const q = p.finally(() => (done = true));
  for (let t = 0; t < maxMs && !done; t += 500) await clock.advance(500);
  return q;
}

function page(orders: unknown[]): ReturnType<typeof json> {
  return json(200, { walletAddress: WALLET, orders, nextCursor: null });
}

describe("the rule", () => {
  it("derives the late window from the request timeout", () => {
    expect(lateWindowMs(10_000)).toBe(10_000 + PLATFORM_RESEND_MS + NOT_RECORDED_MARGIN_MS);
    expect(lateWindowMs(300_000)).toBe(310_000);
  });

  it("reads a session tag's start time back", () => {
    const tag = sessionTag(T0 + 1_234, new Rng(1));
    expect(sessionStartOf(tag)).toBe(Math.floor((T0 + 1_234) / 1000) * 1000);
    expect(sessionStartOf("ab")).toBeUndefined();
  });

  it("tells ours, a previous run's, another daemon's and other instances' orders apart", () => {
    const h = clientHarness();
    const { f } = fence(h);
    f.noteStartupServerTime(T0);
    const v = (clientOrderId: string | null, createdAtMs: number | undefined): string => f.verdict({ clientOrderId, createdAtMs });
    expect(v(null, T0)).toBe("other");
    expect(v("zz-0-abc-1", T0 + 60_000)).toBe("other");
    expect(v("t1x-0-abc-1", T0 + 60_000)).toBe("other");
    expect(v(`t1-0-${OURS}-5`, T0 + 600_000)).toBe("ours");
    // A previous run's orders, including one recorded late (inside the window).
    expect(v(`t1-0-${OLD}-5`, T0 - 60_000)).toBe("inherited");
    expect(v(`t1-1-${OLD}-6`, T0 + LATE)).toBe("inherited");
    expect(v(`t1-1-${OLD}-6`, undefined)).toBe("inherited");
    // Created after the window: a live daemon placed it.
    expect(v(`t1-0-${OLD}-7`, T0 + LATE + 1)).toBe("conflict");
    // A session started after ours (by its tag), order created after our start-up walk.
    expect(v(`t1-0-${NEWER}-1`, T0 + 1)).toBe("conflict");
    expect(v(`t1-0-${NEWER}-1`, T0 - 1)).toBe("inherited");
    expect(f.isOurSession(`t1-3-${OURS}-9`)).toBe(true);
    expect(f.isOurSession(`t1-3-${OLD}-9`)).toBe(false);
    expect(f.isOurSession(null)).toBe(false);
  });

  it("counts from our local start until a start-up walk gave a server time (the earliest wins)", () => {
    const h = clientHarness();
    const { f } = fence(h);
    expect(f.referenceMs).toBe(T0 - 5_000);
    f.noteStartupServerTime(T0 + 3_000);
    f.noteStartupServerTime(T0 + 1_000);
    f.noteStartupServerTime(T0 + 2_000);
    expect(f.referenceMs).toBe(T0 + 1_000);
  });

  it("raises at every sighting (so a resume without stopping the other daemon does not stick) and keeps the first detail", () => {
    const h = clientHarness();
    const { f, raised } = fence(h);
    f.noteStartupServerTime(T0);
    expect(f.conflict).toBeUndefined();
    const o = { clientOrderId: `t1-0-${OLD}-7`, createdAtMs: T0 + LATE + 5_000, orderId: "o9", marketId: "MKT" };
    expect(f.check(o, WALLET, "a walk")).toBe("conflict");
    expect(f.check(o, WALLET, "a walk")).toBe("conflict");
    expect(raised).toHaveLength(2);
    expect(f.conflict).toContain('instance.id "t1"');
    expect(f.conflict).toContain(`t1-0-${OLD}-7`);
    expect(f.conflict).toContain(OLD);
    // Once a session showed itself live, even its orders from before the window are the other
    // daemon's, not a previous run's to adopt.
    expect(f.check({ clientOrderId: `t1-0-${OLD}-8`, createdAtMs: T0 }, WALLET, "a walk")).toBe("conflict");
    expect(raised).toHaveLength(3);
    // Another old session, never seen live, is still a previous run's.
    const OLDER = `${Math.floor((T0 - 7_200_000) / 1000).toString(36)}xyz`;
    expect(f.check({ clientOrderId: `t1-0-${OLDER}-1`, createdAtMs: T0 }, WALLET, "a walk")).toBe("inherited");
  });

  it("waits out a refused key at the first look (a key not propagated yet) instead of skipping the watch", async () => {
    const h = clientHarness();
    const { f } = fence(h);
    let refusals = 3;
    h.transport.on("GET", /^\/api\/orders\/open/, () =>
      refusals-- > 0 ? envelope(401, "api_key_unknown_key") : page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]),
    );
    h.transport.on("GET", /^\/api\/orders\/history/, page([]));
    const r = await drive(h.clock, watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal));
    expect(r).toMatchObject({ inherited: 1, unread: [], waitedMs: LATE + 10_000 });
    expect(f.settled).toBe(true);
  });
});

describe("the start-up watch", () => {
  it("does not wait when no order of ours from another session is open or recent", async () => {
    const h = clientHarness();
    const { f } = fence(h);
    h.transport.on("GET", /^\/api\/orders\/open/, page([orderRecord({ clientOrderId: "zz-0-abc-1" })]));
    h.transport.on("GET", /^\/api\/orders\/history/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-1`, createdAt: at(T0 - 3_600_000) })]));
    const r = await watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal);
    expect(r).toEqual({ inherited: 0, waitedMs: 0, unread: [] });
    expect(h.clock.now()).toBe(T0);
    expect(f.referenceMs).toBe(T0);
  });

  it("waits the late window and the watch before a previous run's orders may be adopted", async () => {
    const h = clientHarness();
    const { f, raised } = fence(h);
    h.transport.on("GET", /^\/api\/orders\/open/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]));
    h.transport.on("GET", /^\/api\/orders\/history/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]));
    const r = await drive(h.clock, watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal));
    expect(r).toEqual({ inherited: 1, waitedMs: LATE + 10_000, unread: [] });
    expect(raised).toEqual([]);
    expect(h.transport.count("GET", /^\/api\/orders\/history/)).toBe(2);
  });

  it("waits for recent history rows of ours even when none rests", async () => {
    const h = clientHarness();
    const { f } = fence(h);
    h.transport.on("GET", /^\/api\/orders\/open/, page([]));
    h.transport.on("GET", /^\/api\/orders\/history/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, status: "CANCELLED", createdAt: at(T0 - 20_000) })]));
    const r = await drive(h.clock, watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal));
    expect(r.waitedMs).toBe(LATE + 10_000);
  });

  it("refuses when another session placed an order after the late window, even one already ended", async () => {
    const h = clientHarness();
    const { f, raised } = fence(h);
    let looks = 0;
    h.transport.on("GET", /^\/api\/orders\/open/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]));
    h.transport.on("GET", /^\/api\/orders\/history/, () => {
      looks += 1;
      if (looks === 1) return page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]);
      return page([
        orderRecord({ clientOrderId: `t1-0-${OLD}-9`, status: "CANCELLED", createdAt: at(T0 + LATE + 2_000) }),
        orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) }),
      ]);
    });
    let err: unknown;
    await drive(h.clock, watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal).catch((e: unknown) => (err = e)));
    expect(err).toBeInstanceOf(InstanceConflictError);
    expect((err as Error).message).toMatch(/^refusing to start: another daemon with instance\.id "t1" is running: order t1-0-/);
    expect((err as Error).message).toContain("order history");
    expect(raised).toHaveLength(1);
  });

  it("skips the watch when startupWatchSec is 0", async () => {
    const h = clientHarness();
    const { f } = fence(h, { watchMs: 0 });
    h.transport.on("GET", /^\/api\/orders\/open/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]));
    h.transport.on("GET", /^\/api\/orders\/history/, page([]));
    const r = await watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal);
    expect(r).toEqual({ inherited: 1, waitedMs: 0, unread: [] });
  });

  it("tries a look again after a transient failure, leaves a wallet it cannot read to the running checks, and stops waiting when aborted", async () => {
    const h0 = clientHarness();
    const { f: f0 } = fence(h0);
    let fails = 1;
    h0.transport.on("GET", /^\/api\/orders\/open/, () => (fails-- > 0 ? envelope(503, "exchange_unavailable") : page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })])));
    h0.transport.on("GET", /^\/api\/orders\/history/, page([]));
    const r0 = await drive(h0.clock, watchAtStartup(f0, [{ wallet: WALLET, api: h0.client.forWallet(WALLET) }], new AbortController().signal));
    expect(r0).toMatchObject({ inherited: 1, unread: [] });

    const h = clientHarness();
    const { f } = fence(h);
    h.transport.on("GET", /^\/api\/orders\/open/, envelope(403, "forbidden"));
    const r = await watchAtStartup(f, [{ wallet: WALLET, api: h.client.forWallet(WALLET) }], new AbortController().signal);
    expect(r.unread).toEqual([WALLET]);
    expect(h.transport.count("GET", /^\/api\/orders\/open/)).toBe(1);

    const h2 = clientHarness();
    const { f: f2 } = fence(h2);
    h2.transport.on("GET", /^\/api\/orders\/open/, page([orderRecord({ clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 30_000) })]));
    h2.transport.on("GET", /^\/api\/orders\/history/, page([]));
    const ac = new AbortController();
    const p = watchAtStartup(f2, [{ wallet: WALLET, api: h2.client.forWallet(WALLET) }], ac.signal);
    await h2.clock.advance(5_000);
    ac.abort();
    const r2 = await drive(h2.clock, p);
    expect(r2.waitedMs).toBe(0);
    expect(h2.transport.count("GET", /^\/api\/orders\/history/)).toBe(1);
  });
});

describe("while running", () => {
  it("an open-order walk adopts a previous run's order but neither adopts nor cancels another daemon's", async () => {
    const h = clientHarness();
    const { f, raised } = fence(h);
    f.noteStartupServerTime(T0 - 60_000);
    const foreign: OrderRecord[] = [];
    const { ctx, tracker } = syncContext(h, (rec) => foreign.push(rec));
    ctx.fence = f;
    const previous = orderRecord({ id: "o-prev", clientOrderId: `t1-0-${OLD}-3`, createdAt: at(T0 - 70_000) });
    const live = orderRecord({ id: "o-live", clientOrderId: `t1-0-${OLD}-9`, createdAt: at(T0 - 60_000 + LATE + 1_000) });
    const otherBot = orderRecord({ id: "o-zz", clientOrderId: "zz-0-abc-1" });
    h.transport.on("GET", /^\/api\/orders\/open/, page([previous, live, otherBot]));
    h.transport.on("GET", /^\/api\/me\/trades/, json(200, { trades: [], nextCursor: null }));
    const r = await syncWallet(ctx, { unknownGraceMs: 0, unknownSince: new Map() });
    expect(r.adopted).toBe(1);
    expect(tracker.getByOrderId("o-prev")).toBeDefined();
    expect(tracker.getByOrderId("o-live")).toBeUndefined();
    expect(foreign.map((o) => o.id)).toEqual(["o-zz"]);
    expect(raised).toHaveLength(1);
    expect(h.transport.count("POST", /cancel/)).toBe(0);
  });
});

describe("the dead-man switch under a conflict", () => {
  it("cancels only this process's orders, never a cancel-all over the other daemon's", async () => {
    const h = clientHarness();
    let stalled = 0;
    let conflicted = false;
    const loop = new LoopMonitor({ clock: h.clock, monotonic: () => h.clock.now() + stalled });
    const rest = new RestHealth(() => h.clock.now());
    const tracker = new OrderTracker(WALLET);
    const mine = orderRecord({ id: "o-mine", clientOrderId: `t1-0-${OURS}-1` });
    tracker.adopt(mine, Date.parse(mine.createdAt), Date.parse(mine.createdAt));
    h.transport.on("POST", /^\/api\/orders\/cancel-all$/, json(200, { cancelled: ["o-mine", "o-theirs"], notCancelled: [] }));
    h.transport.on("POST", /^\/api\/orders\/cancel$/, (req) => json(200, { orderId: (req.body as { orderId: string }).orderId, status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    h.transport.on("POST", /^\/api\/orders\/cancel-batch$/, (req) => json(200, { cancelled: (req.body as { orderIds: string[] }).orderIds, notCancelled: [] }));
    const sw = new DeadManSwitch({
      deadManMs: 10_000,
      clock: h.clock,
      log: silentLogger(),
      loop,
      rest,
      wallets: [{ name: "w", wallet: WALLET, isReady: true, syncCtx: { api: h.client.forWallet(WALLET), tracker, track: (ev) => tracker.apply(ev) }, sync: () => Promise.resolve() }],
      foreignOrders: "cancel",
      ownOnly: () => conflicted,
      condition: () => undefined,
    });
    loop.start();
    sw.start();
    conflicted = true;
    stalled = 10_001;
    await h.clock.advance(2_000);
    sw.stop();
    loop.stop();
    expect(h.transport.count("POST", /^\/api\/orders\/cancel-all$/)).toBe(0);
    const cancels = h.transport.requests.filter((r) => r.method === "POST" && /^\/api\/orders\/cancel/.test(r.path));
    expect(cancels.length).toBeGreaterThan(0);
    expect(JSON.stringify(cancels.map((r) => r.body))).toContain("o-mine");
  });
});
