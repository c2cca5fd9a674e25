/**
 * platform.requestTimeoutMs is 3 s and the platform takes 25 s to process placements (a latency
 * fault on place and place-batch); the daemon is stopped 4 s after such a placement left. The
 * platform records the order long after our request timed out, and after the daemon exited.
 *
 * The shutdown may not call that clean: either the order was found and cancelled before exit, or it
 * is named in the report (its clientOrderId, "lookup inconclusive") and the exit code is non-zero.
 * It used to conclude "never recorded" from a lookup 404 10 s after the send (whatever the request
 * timeout) and from any 404 in the shutdown's last round, exit 0, and leave the order resting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from "../../src/api/transport.js";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";
import { notRecordedWindowMs } from "../../src/bot/order-tracker.js";
import type { VirtualClock } from "../../src/core/clock.js";
import { daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

const PLACE = /^\/api\/orders\/place(-batch)?$/;
const TIMEOUT_MS = 3_000;

/** What a FetchTransport does with `timeoutMs`: abort the request (which the platform may still process). */
class TimeoutTransport implements Transport {
  readonly placesSent: { at: number; clientOrderIds: string[] }[] = [];
  constructor(
    private readonly inner: Transport,
    private readonly clock: VirtualClock,
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    if (req.method === "POST" && PLACE.test(req.path) && req.body !== undefined) {
      const body = JSON.parse(req.body) as { clientOrderId?: string; orders?: { clientOrderId: string }[] };
      this.placesSent.push({ at: this.clock.now(), clientOrderIds: body.orders?.map((o) => o.clientOrderId) ?? [body.clientOrderId!] });
    }
    const ctl = new AbortController();
    const timer = this.clock.setTimeout(() => ctl.abort(), TIMEOUT_MS);
    try {
      return await this.inner.request({ ...req, signal: ctl.signal });
    } catch (e) {
      if (ctl.signal.aborted) throw new TransportError("request timed out", true, "timeout");
      throw e;
    } finally {
      this.clock.clearTimeout(timer);
    }
  }
}

describe("a placement the platform records 25 s late, with a 3 s request timeout, then SIGINT", () => {
  const wallet = walletAddress(0);
  let h: SimHarness;
  let d: DaemonHarness;
  let t: TimeoutTransport;
  let report: ShutdownReport;
  let delayed: string[] = [];
  let restingAfter: { id: string; clientOrderId: string | null }[] = [];
  const concluded: { clientOrderId: string; lookupSentAt: number }[] = [];

  beforeAll(async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "SLOW-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 2 }] });
    t = new TimeoutTransport(h.transport, h.clock);
    const config = daemonConfig({
      wallets: 1,
      slugs: ["SLOW-A"],
      strategy: { levels: 2 },
      quoting: { maxOrderAgeSec: 3 },
      shutdownSec: 15,
      platform: { requestTimeoutMs: TIMEOUT_MS },
    });
    d = makeDaemon(h, config, { transport: t });
    const tracker = d.daemon.runners[0]!.tracker;
    const apply = tracker.apply.bind(tracker);
    tracker.apply = (ev) => {
      const r = apply(ev);
      if (ev.kind === "lookup_not_found" && r.to === "rejected") concluded.push({ clientOrderId: r.clientOrderId!, lookupSentAt: ev.nowMs ?? h.clock.now() });
      return r;
    };
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 20_000);
    h.addFault({ route: "POST /api/orders/place*", kind: "latency", latencyMs: 25_000 });
    const from = h.clock.now();
    const firstDelayed = (): number | undefined => t.placesSent.find((p) => p.at >= from)?.at;
    for (let i = 0; i < 200 && firstDelayed() === undefined; i++) await h.clock.advance(100);
    const sentAt = firstDelayed()!;
    await run(h.clock, sentAt + 4_000 - h.clock.now());
    delayed = t.placesSent.filter((p) => p.at >= from).flatMap((p) => p.clientOrderIds);
    report = await settle(h.clock, d.daemon.stop("SIGINT"), 60_000);
    // Long enough for every delayed request to be processed by the platform.
    await run(h.clock, 40_000);
    restingAfter = h.sim.desk.records.liveOf(wallet).map((o) => ({ id: o.id, clientOrderId: o.clientOrderId }));
  });

  afterAll(() => h.sim.stop());

  it("really sent placements that the platform recorded after the daemon stopped", () => {
    expect(delayed.length).toBeGreaterThan(0);
    const recordedLate = restingAfter.filter((o) => o.clientOrderId !== null && delayed.includes(o.clientOrderId));
    expect(recordedLate.length).toBeGreaterThan(0);
  });

  it("names every order resting after exit, and exits non-zero", () => {
    const w = report.wallets[0]!;
    const named = new Set(w.unconfirmed.map((u) => u.clientOrderId));
    for (const o of restingAfter) expect(named.has(o.clientOrderId ?? undefined), `${o.id} (${o.clientOrderId}) rests unnamed`).toBe(true);
    expect(report.exitCode).not.toBe(0);
    for (const u of w.unconfirmed.filter((x) => delayed.includes(x.clientOrderId ?? ""))) {
      expect(u.reason).toBe("lookup_inconclusive");
      expect(u.orderId).toBeUndefined();
    }
  });

  it("never concluded 'never recorded' before the request timeout, the platform's re-sends and a margin had passed", () => {
    const window = notRecordedWindowMs(TIMEOUT_MS);
    expect(window).toBe(TIMEOUT_MS + 6_000 + 4_000);
    for (const c of concluded) {
      const sent = t.placesSent.filter((p) => p.clientOrderIds.includes(c.clientOrderId)).at(-1)!;
      expect(c.lookupSentAt - sent.at, c.clientOrderId).toBeGreaterThanOrEqual(window);
    }
  });
});
