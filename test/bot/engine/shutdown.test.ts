import { describe, expect, it } from "vitest";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import { shutdownExitCode, shutdownWallet, type ForeignOrderPolicy } from "../../../src/bot/engine/shutdown.js";
import type { OrderRecord } from "../../../src/wire/index.js";
import { WALLET, clientHarness, json, orderRecord, silentLogger, type ClientHarness } from "./fakes.js";

/** A platform with some open orders; cancels of `stubborn` ids stay pending `pendingRounds` times. */
function platform(h: ClientHarness, open: OrderRecord[], opts: { pendingRounds?: number; stubborn?: string[] } = {}) {
  const live = new Map(open.map((o) => [o.id, o]));
  const pendingLeft = new Map((opts.stubborn ?? []).map((id) => [id, opts.pendingRounds ?? 0]));
  const cancelAt: Record<string, number[]> = {};
  const tryCancel = (id: string): "done" | "pending" | "gone" => {
    (cancelAt[id] ??= []).push(h.clock.now());
    if (!live.has(id)) return "gone";
    const left = pendingLeft.get(id) ?? 0;
    if (left > 0) {
      pendingLeft.set(id, left - 1);
      return "pending";
    }
    live.delete(id);
    return "done";
  };
  h.transport.on("GET", /^\/api\/orders\/open/, () => json(200, { walletAddress: WALLET, orders: [...live.values()], nextCursor: null }));
  h.transport.on("POST", /^\/api\/orders\/cancel-all$/, () => {
    const cancelled: string[] = [];
    const notCancelled: { orderId: string; code: string; message: string }[] = [];
    for (const id of [...live.keys()]) {
      const r = tryCancel(id);
      if (r === "done") cancelled.push(id);
      else if (r === "pending") notCancelled.push({ orderId: id, code: "cancel_pending", message: "recorded" });
    }
    return json(200, { cancelled, notCancelled }, { "retry-after": "5" });
  });
  h.transport.on("POST", /^\/api\/orders\/cancel$/, (req) => {
    const id = (req.body as { orderId: string }).orderId;
    const r = tryCancel(id);
    if (r === "pending") return json(202, { status: "cancel_pending", code: "cancel_pending", orderId: id, message: "recorded", retryAfterSec: 5 }, { "retry-after": "5" });
    if (r === "gone") return json(409, { status: 409, error: { code: "not_cancellable", message: "terminal" } });
    return json(200, { orderId: id, status: "CANCELLED", filledQty: "0", remainingQty: "10" });
  });
  h.transport.on("POST", /^\/api\/orders\/cancel-batch$/, (req) => {
    const cancelled: string[] = [];
    const notCancelled: { orderId: string; code: string; message: string }[] = [];
    for (const id of (req.body as { orderIds: string[] }).orderIds) {
      const r = tryCancel(id);
      if (r === "done") cancelled.push(id);
      else notCancelled.push({ orderId: id, code: r === "pending" ? "cancel_pending" : "not_cancellable", message: r });
    }
    return json(200, { cancelled, notCancelled }, { "retry-after": "5" });
  });
  return { live, cancelAt };
}

function tracked(tracker: OrderTracker, rec: OrderRecord): void {
  tracker.adopt(rec, Date.parse(rec.createdAt), Date.parse(rec.createdAt));
}

function ctx(h: ClientHarness, tracker: OrderTracker, deadlineMs: number, foreignOrders: ForeignOrderPolicy = "cancel") {
  return {
    wallet: WALLET,
    name: "w",
    api: h.client.forWallet(WALLET),
    tracker,
    clock: h.clock,
    log: silentLogger(),
    instanceId: "t1",
    foreignOrders,
    deadlineAtMs: h.clock.now() + deadlineMs,
    track: (ev: Parameters<OrderTracker["apply"]>[0]) => tracker.apply(ev),
  };
}

async function run<T>(h: ClientHarness, p: Promise<T>, maxMs = 120_000): Promise<T> {
  let out: T | undefined;
  let err: unknown;
  void p.then(
    (v) => (out = v),
    (e: unknown) => (err = e),
  );
  for (let t = 0; t < maxMs && out === undefined && err === undefined; t += 500) await h.clock.advance(500);
  if (err !== undefined) throw err instanceof Error ? err : new Error(JSON.stringify(err));
  return out!;
}

describe("shutdownWallet", () => {
  it("sends one cancel-all, repeats cancel_pending ids after Retry-After until final, and ends clean", async () => {
    const h = clientHarness();
    const a = orderRecord({ clientOrderId: "t1-0-s-1" });
    const b = orderRecord({ clientOrderId: "t1-0-s-2" });
    const tracker = new OrderTracker(WALLET);
    tracked(tracker, a);
    tracked(tracker, b);
    const p = platform(h, [a, b], { stubborn: [b.id], pendingRounds: 3 });
    const report = await run(h, shutdownWallet(ctx(h, tracker, 60_000)));
    expect(report.leftover).toEqual([]);
    expect(report.unresolved).toEqual([]);
    expect(h.transport.count("POST", /cancel-all/)).toBe(1);
    // b: pending in the cancel-all, then twice more, then cancelled; never sooner than Retry-After.
    const at = p.cancelAt[b.id]!;
    expect(at.length).toBe(4);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(5_000);
    expect(tracker.getByOrderId(b.id)!.state).toBe("cancelled");
    expect(tracker.getByOrderId(a.id)!.state).toBe("cancelled");
    expect(shutdownExitCode([report])).toBe(0);
  });

  it("reports what is still open at the deadline, and the exit code says so", async () => {
    const h = clientHarness();
    const a = orderRecord({ clientOrderId: "t1-0-s-1" });
    const tracker = new OrderTracker(WALLET);
    tracked(tracker, a);
    platform(h, [a], { stubborn: [a.id], pendingRounds: 1_000 });
    const report = await run(h, shutdownWallet(ctx(h, tracker, 20_000)));
    expect(report.leftover).toEqual([a.id]);
    expect(shutdownExitCode([report])).toBe(1);
    // It gave up at the deadline, not long after.
    expect(h.transport.requests.at(-1)!.at - h.transport.requests[0]!.at).toBeLessThanOrEqual(21_000);
  });

  it("cancels orders that appear while shutting down (a placement that was still in flight)", async () => {
    const h = clientHarness();
    const tracker = new OrderTracker(WALLET);
    const late = orderRecord({ clientOrderId: "t1-0-s-9" });
    const p = platform(h, []);
    // The cancel-all sees nothing; the order shows up right after it.
    h.transport.on("POST", /^\/api\/orders\/cancel-all$/, () => {
      p.live.set(late.id, late);
      return json(200, { cancelled: [], notCancelled: [] });
    });
    const report = await run(h, shutdownWallet(ctx(h, tracker, 30_000)));
    expect(report.leftover).toEqual([]);
    expect(p.live.size).toBe(0);
  });

  it("under the leave policy cancels only this instance's orders", async () => {
    const h = clientHarness();
    const ours = orderRecord({ clientOrderId: "t1-0-s-1" });
    const theirs = orderRecord({ clientOrderId: "other-0-x-1" });
    const tracker = new OrderTracker(WALLET);
    tracked(tracker, ours);
    const p = platform(h, [ours, theirs]);
    const report = await run(h, shutdownWallet(ctx(h, tracker, 30_000, "leave")));
    expect(h.transport.count("POST", /cancel-all/)).toBe(0);
    expect(report.leftover).toEqual([]);
    expect([...p.live.keys()]).toEqual([theirs.id]);
  });

  it("looks up orders whose placement outcome is unknown and cancels them when they rest", async () => {
    const h = clientHarness();
    const tracker = new OrderTracker(WALLET);
    tracker.apply({ kind: "sent", clientOrderId: "t1-0-s-5", orderHash: `0x${"ab".repeat(32)}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: h.clock.now() });
    tracker.apply({ kind: "ack_unknown", clientOrderId: "t1-0-s-5" });
    const rec = orderRecord({ clientOrderId: "t1-0-s-5", orderHash: `0x${"ab".repeat(32)}` });
    const p = platform(h, [rec]);
    // cancel-all fails: the unknown order must still be found and cancelled.
    h.transport.on("POST", /^\/api\/orders\/cancel-all$/, json(500, { status: 500, error: { code: "exchange_unavailable", message: "down" } }));
    h.transport.on("GET", /^\/api\/orders\/lookup/, () => json(200, rec));
    const report = await run(h, shutdownWallet(ctx(h, tracker, 30_000)));
    expect(report.leftover).toEqual([]);
    expect(report.unresolved).toEqual([]);
    expect(p.live.size).toBe(0);
    expect(tracker.get("t1-0-s-5")!.state).toBe("cancelled");
  });

  it("names the orders only the tracker knows when the platform refuses the key, and the failed walk makes it unclean", async () => {
    const h = clientHarness();
    const a = orderRecord({ clientOrderId: "t1-0-s-1" });
    const tracker = new OrderTracker(WALLET);
    tracked(tracker, a);
    const refused = json(401, { status: 401, error: { code: "api_key_revoked", message: "revoked" } });
    h.transport.on("POST", /^\/api\/orders\/cancel/, refused);
    h.transport.on("GET", /^\/api\/orders\/open/, refused);
    const report = await run(h, shutdownWallet(ctx(h, tracker, 10_000)));
    expect(report.unconfirmed).toEqual([{ orderId: a.id, clientOrderId: "t1-0-s-1", reason: "key_refused", detail: "api_key_revoked (HTTP 401)" }]);
    expect(report.leftover).toEqual([a.id]);
    expect(report.finalWalk).toEqual({ ok: false, error: "api_key_revoked (HTTP 401)" });
    expect(shutdownExitCode([report])).toBe(1);
  });

  it("is not clean when the last walk failed, even with nothing tracked", async () => {
    const h = clientHarness();
    const tracker = new OrderTracker(WALLET);
    platform(h, []);
    h.transport.on("GET", /^\/api\/orders\/open/, json(503, { status: 503, error: { code: "exchange_unavailable", message: "down" } }));
    const report = await run(h, shutdownWallet(ctx(h, tracker, 5_000)));
    expect(report.unconfirmed).toEqual([]);
    expect(report.finalWalk.ok).toBe(false);
    expect(shutdownExitCode([report])).toBe(1);
  });

  it("reports a placement that only shutdown-time 404s answered as lookup inconclusive, however late the lookup", async () => {
    const h = clientHarness();
    const tracker = new OrderTracker(WALLET, { notRecordedAfterMs: 2_000 });
    tracker.apply({ kind: "sent", clientOrderId: "t1-0-s-7", orderHash: `0x${"cd".repeat(32)}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: h.clock.now() });
    tracker.apply({ kind: "ack_unknown", clientOrderId: "t1-0-s-7" });
    platform(h, []);
    h.transport.on("GET", /^\/api\/orders\/lookup/, json(404, { status: 404, error: { code: "order_not_found", message: "no" } }));
    const report = await run(h, shutdownWallet({ ...ctx(h, tracker, 10_000), orderExpirySec: 600 }));
    expect(h.transport.count("GET", /lookup/)).toBeGreaterThan(2);
    expect(report.unresolved).toEqual(["t1-0-s-7"]);
    expect(report.unconfirmed).toHaveLength(1);
    expect(report.unconfirmed[0]).toMatchObject({ clientOrderId: "t1-0-s-7", reason: "lookup_inconclusive", expiresAtMs: tracker.get("t1-0-s-7")!.createdAtMs + 600_000 });
    expect(report.unconfirmed[0]!.orderId).toBeUndefined();
    expect(report.finalWalk).toEqual({ ok: true, open: 0 });
    expect(shutdownExitCode([report])).toBe(1);
  });

  it("takes an order's absence from a complete walk as its end (the cancel answer was lost)", async () => {
    const h = clientHarness();
    const a = orderRecord({ clientOrderId: "t1-0-s-1" });
    const tracker = new OrderTracker(WALLET);
    tracked(tracker, a);
    const p = platform(h, [a]);
    // The cancel-all ends it but its answer never arrives.
    h.transport.on("POST", /^\/api\/orders\/cancel-all$/, () => {
      p.live.delete(a.id);
      return json(503, { status: 503, error: { code: "exchange_unavailable", message: "down" } });
    });
    const report = await run(h, shutdownWallet(ctx(h, tracker, 10_000)));
    expect(report.unconfirmed).toEqual([]);
    expect(report.finalWalk).toEqual({ ok: true, open: 0 });
    expect(shutdownExitCode([report])).toBe(0);
  });

  it("a platform that never answers cannot hold the stop: every request is abandoned 5 s after the deadline", async () => {
    const h = clientHarness();
    const tracker = new OrderTracker(WALLET);
    tracker.apply({ kind: "sent", clientOrderId: "t1-0-s-8", orderHash: `0x${"ef".repeat(32)}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: h.clock.now() });
    tracker.apply({ kind: "ack_unknown", clientOrderId: "t1-0-s-8" });
    platform(h, []);
    // Lookups hang for ten minutes (a request timeout of up to 300 s, retried, allows worse).
    h.transport.on("GET", /^\/api\/orders\/lookup/, () => h.clock.sleep(600_000).then(() => json(404, { status: 404, error: { code: "order_not_found", message: "no" } })));
    const start = h.clock.now();
    const report = await run(h, shutdownWallet(ctx(h, tracker, 10_000)), 60_000);
    expect(h.clock.now() - start).toBeLessThanOrEqual(10_000 + 5_000 + 1_000);
    expect(report.unconfirmed).toEqual([{ clientOrderId: "t1-0-s-8", reason: "platform_unreachable", detail: expect.stringContaining("no answer before the shutdown deadline") }]);
    expect(shutdownExitCode([report])).toBe(1);
  });

  it("names, without cancelling, an earlier session's orders it was told to leave alone", async () => {
    const h = clientHarness();
    const tracker = new OrderTracker(WALLET);
    const earlier = orderRecord({ clientOrderId: "t1-0-old-4" });
    const p = platform(h, [earlier]);
    const report = await run(
      h,
      shutdownWallet({ ...ctx(h, tracker, 10_000, "leave"), owns: (id) => id?.startsWith("t1-0-new-") === true, reportLeftAlone: "left alone: watch not done" }),
    );
    expect(p.live.has(earlier.id)).toBe(true);
    expect(h.transport.count("POST", /cancel/)).toBe(0);
    expect(report.unconfirmed).toEqual([{ orderId: earlier.id, clientOrderId: "t1-0-old-4", reason: "still_open", detail: "left alone: watch not done" }]);
    expect(shutdownExitCode([report])).toBe(1);
  });
});
