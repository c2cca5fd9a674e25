/**
 * A placement whose answer is lost (the connection times out after the request left) and that the
 * platform records only seconds later - as it does when it re-sends a place itself for up to ~6 s -
 * must not be concluded "never recorded" by an early lookup 404. The daemon looks it up again
 * until the order shows up (or 10 s have passed since the send), tracks it once, places nothing
 * twice for its slot and leaves nothing untracked on the platform. A placement that is really
 * never recorded ends as such only from a lookup sent >= 10 s after the send.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from "../../src/wire/transport.js";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";
import type { TrackerEvent, Transition } from "../../src/bot/orders/order-tracker.js";
import type { VirtualClock } from "../../src/core/clock.js";
import { NOT_RECORDED_AFTER_MS } from "../../src/bot/orders/order-tracker.js";
import { daemonConfig, makeDaemon, platformOpenOrders, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const PLACE_PATHS = new Set(["/api/orders/place", "/api/orders/place-batch"]);

/**
 * The first place request times out for the client (no answer, maybe delivered); the platform gets
 * it `delayMs` later (null: never).
 */
class LateDelivery implements Transport {
  /** clientOrderIds of the delayed request and the local time it was sent. */
  sent: { clientOrderIds: string[]; at: number } | undefined;
  deliveredAt: number | undefined;
  constructor(
    private readonly inner: Transport,
    private readonly clock: VirtualClock,
    private readonly delayMs: number | null,
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    if (this.sent === undefined && req.method === "POST" && PLACE_PATHS.has(req.path) && req.body !== undefined) {
      const body = JSON.parse(req.body) as { clientOrderId?: string; orders?: { clientOrderId: string }[] };
      const ids = body.orders?.map((o) => o.clientOrderId) ?? [body.clientOrderId!];
      this.sent = { clientOrderIds: ids, at: this.clock.now() };
      if (this.delayMs !== null) {
        const copy = { ...req };
        delete copy.signal;
        this.clock.setTimeout(() => {
          this.deliveredAt = this.clock.now();
          void this.inner.request(copy).catch(() => undefined);
        }, this.delayMs);
      }
      throw new TransportError("request timed out", true, "timeout");
    }
    return this.inner.request(req);
  }
}

interface Seen {
  at: number;
  ev: TrackerEvent;
  t: Transition;
}

/** Every tracker transition of the daemon's first wallet, with the local time it happened. */
function spy(d: DaemonHarness, clock: VirtualClock): Seen[] {
  const seen: Seen[] = [];
  const tracker = d.daemon.runners[0]!.tracker;
  const apply = tracker.apply.bind(tracker);
  tracker.apply = (ev) => {
    const t = apply(ev);
    seen.push({ at: clock.now(), ev, t });
    return t;
  };
  return seen;
}

function scenario(delayMs: number | null): { h: SimHarness; late: LateDelivery } {
  const h = startSim({ wallets: 1, markets: [{ symbol: "LATE-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 4 }] });
  return { h, late: new LateDelivery(h.transport, h.clock, delayMs) };
}

/** No two of our open orders at one (market, outcome, side, price): a slot quoted twice. */
function duplicatesOf(open: { marketId: string; outcome: number; side: string; price?: string }[]): string[] {
  const keys = open.map((o) => `${o.marketId}/${o.outcome}/${o.side}/${o.price}`);
  return keys.filter((k, i) => keys.indexOf(k) !== i);
}

describe("an unknown placement the platform records 4 s late", () => {
  const wallet = walletAddress(0);
  let h: SimHarness;
  let late: LateDelivery;
  let d: DaemonHarness;
  let seen: Seen[];
  let openBeforeStop: Awaited<ReturnType<typeof platformOpenOrders>> = [];
  let untracked: string[] = [];
  let report: ShutdownReport;

  beforeAll(async () => {
    ({ h, late } = scenario(4_000));
    d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: ["LATE-A"], strategy: { levels: 2 } }), { transport: late });
    seen = spy(d, h.clock);
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 30_000);
    openBeforeStop = await platformOpenOrders(h, wallet);
    untracked = openBeforeStop.filter((o) => d.daemon.runners[0]!.tracker.getByOrderId(o.id) === undefined).map((o) => o.id);
    report = await settle(h.clock, d.daemon.stop());
  });

  afterAll(() => h.sim.stop());

  it("really lost the answer of a placement the platform recorded later", () => {
    expect(late.sent?.clientOrderIds.length).toBeGreaterThan(0);
    expect(late.deliveredAt).toBe(late.sent!.at + 4_000);
    const tracker = d.daemon.runners[0]!.tracker;
    // Looked up before the platform recorded it: 404, too soon to conclude anything.
    expect(tracker.counters.notFoundTooSoon).toBeGreaterThan(0);
  });

  it("never concludes it 'never recorded', and tracks it under the platform's order id", () => {
    const tracker = d.daemon.runners[0]!.tracker;
    for (const cid of late.sent!.clientOrderIds) {
      const mine = seen.filter((s) => s.t.clientOrderId === cid);
      expect(mine.filter((s) => s.t.to === "rejected"), cid).toEqual([]);
      const o = tracker.get(cid);
      expect(o?.orderId, cid).toBeDefined();
      expect(["open", "partial", "filled", "cancelled"]).toContain(o!.state);
    }
    expect(tracker.counters.resurrected).toBe(0);
    expect(d.observer.of("tracker_anomaly")).toEqual([]);
  });

  it("places nothing twice and leaves nothing untracked", () => {
    expect(openBeforeStop.length).toBeGreaterThan(0);
    expect(untracked).toEqual([]);
    expect(duplicatesOf(openBeforeStop)).toEqual([]);
  });

  it("shuts down with nothing open", async () => {
    expect(report.exitCode).toBe(0);
    expect(await platformOpenOrders(h, wallet)).toEqual([]);
  });
});

describe("an unknown placement the platform never records", () => {
  const wallet = walletAddress(0);
  let h: SimHarness;
  let late: LateDelivery;
  let d: DaemonHarness;
  let seen: Seen[];
  let untracked: string[] = [];
  let report: ShutdownReport;

  beforeAll(async () => {
    ({ h, late } = scenario(null));
    d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: ["LATE-A"], strategy: { levels: 2 } }), { transport: late });
    seen = spy(d, h.clock);
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 30_000);
    untracked = (await platformOpenOrders(h, wallet)).filter((o) => d.daemon.runners[0]!.tracker.getByOrderId(o.id) === undefined).map((o) => o.id);
    report = await settle(h.clock, d.daemon.stop());
  });

  afterAll(() => h.sim.stop());

  it("ends it as never recorded only from a lookup sent 10 s after the send", () => {
    const sentAt = late.sent!.at;
    for (const cid of late.sent!.clientOrderIds) {
      const mine = seen.filter((s) => s.t.clientOrderId === cid && s.ev.kind === "lookup_not_found");
      const early = mine.filter((s) => s.t.to === "unknown");
      const ended = mine.filter((s) => s.t.to === "rejected");
      expect(early.length, cid).toBeGreaterThan(0);
      expect(ended.length, cid).toBe(1);
      const ev = ended[0]!.ev as Extract<TrackerEvent, { kind: "lookup_not_found" }>;
      expect(ev.nowMs! - sentAt, cid).toBeGreaterThanOrEqual(NOT_RECORDED_AFTER_MS);
      // Not much later either: the tracker's wake-up asks as soon as a 404 may conclude.
      expect(ended[0]!.at - sentAt, cid).toBeLessThan(NOT_RECORDED_AFTER_MS + 2_000);
      expect(d.daemon.runners[0]!.tracker.get(cid)).toMatchObject({ state: "rejected", rejectCode: "not_recorded" });
    }
  });

  it("quotes the slots again afterwards, with nothing untracked, and shuts down clean", async () => {
    const tracker = d.daemon.runners[0]!.tracker;
    const placedLater = tracker.all().filter((o) => o.createdAtMs >= late.sent!.at + NOT_RECORDED_AFTER_MS && o.orderId !== undefined);
    expect(placedLater.length).toBeGreaterThan(0);
    expect(untracked).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(await platformOpenOrders(h, wallet)).toEqual([]);
  });
});
