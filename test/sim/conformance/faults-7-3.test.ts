/**
 * The 7.3 transient errors the simulator injects beyond the original set (cancel_unanswered,
 * lock_invariant entries, lock_invariant_violation, exchange_transport_error,
 * exchange_malformed_response with and without a JSON envelope, exchange_upstream_error with
 * details.upstream), and what the real client does with each (spec 7.4): reads are retried with
 * backoff, writes are never retried blindly and surface as unknown outcomes resolved by lookup,
 * cancels are idempotent and repeated, cancel-all is sent once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/errors.js";
import type { PlaceOutcome } from "../../../src/api/placement.js";
import { MALFORMED_TEXT } from "../../../src/sim/platform/faults.js";
import { KINDS, makeWorld, recordedWithClientId, type World, type WorldKind } from "../../api/integration/world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

async function world(kind: WorldKind): Promise<World> {
  const w = await makeWorld(kind);
  worlds.push(w);
  return w;
}

function unknownError(o: PlaceOutcome): ApiError {
  if (o.outcome !== "unknown") throw new Error(`expected an unknown outcome, got ${o.outcome}`);
  return o.lastError;
}

async function thrown(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

async function placed(w: World, wallet: number, symbol: string, clientOrderId: string): Promise<string> {
  const me = w.client().forWallet(w.wallets[wallet]!.address);
  const { body } = await w.order(wallet, { symbol, price: "0.05", quantity: "1", clientOrderId });
  const r = await w.drive(me.orders.place(body));
  if (r.outcome !== "accepted") throw new Error("setup: not placed");
  return r.orderId;
}

describe.each(KINDS)("7.3 faults over %s", (kind) => {
  it("exchange_malformed_response as a non-JSON body: a read is retried with backoff and then succeeds", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    w.fault({ route: "GET /api/me/balances", kind: "exchange_malformed_response", rawBody: true, nextCalls: 1 });

    const r = await w.drive(me.portfolio.balances());

    expect(r.data).toBeDefined();
    const sent = w.transport.calls("GET", "/api/me/balances");
    expect(sent.map((e) => e.status)).toEqual([503, 200]);
    expect(sent[0]!.response).toBe(MALFORMED_TEXT);
    expect(() => JSON.parse(sent[0]!.response) as unknown).toThrow();
  });

  it("exchange_malformed_response as an envelope: a place is unknown (never resent), details.upstream carries the text, lookup finds the recorded order", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[1]!.address);
    const { body } = await w.order(1, { symbol: "ARS-CHE-ARS", price: "0.31", quantity: "2", clientOrderId: "mal-1" });
    w.fault({ route: "POST /api/orders/place", kind: "exchange_malformed_response", execute: true, nextCalls: 1 });

    const e = unknownError(await w.drive(me.orders.place(body)));

    expect(e).toMatchObject({ code: "exchange_malformed_response", status: 503, handling: "unknown_outcome" });
    expect(e.upstream).toEqual({ status: 502, body: MALFORMED_TEXT });
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(1);
    const found = await w.drive(me.orders.lookup({ clientOrderId: "mal-1" }));
    expect(found.data).toMatchObject({ clientOrderId: "mal-1", status: "OPEN" });
    expect(recordedWithClientId(w.sim, w.wallets[1]!.address, "mal-1")).toBe(1);
  });
});

describe("7.3 faults, in-process", () => {
  it("lock_invariant_violation on a read: retried with backoff (3 attempts in all), the third answers", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[0]!.address);
    w.fault({ route: "GET /api/me/balances", kind: "lock_invariant_violation", nextCalls: 2 });

    const r = await w.drive(me.portfolio.balances());

    expect(r.data).toBeDefined();
    expect(w.transport.calls("GET", "/api/me/balances").map((e) => [e.status, e.code])).toEqual([
      [503, "lock_invariant_violation"],
      [503, "lock_invariant_violation"],
      [200, undefined],
    ]);
  });

  it("exchange_transport_error on every attempt of a read: thrown after 3 attempts, handling retry_backoff", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[0]!.address);
    w.fault({ route: "GET /api/me/balances", kind: "exchange_transport_error" });

    const e = await thrown(w.drive(me.portfolio.balances()));

    expect(e).toMatchObject({ code: "exchange_transport_error", status: 503, handling: "retry_backoff", attempts: 3 });
    expect(w.transport.calls("GET", "/api/me/balances")).toHaveLength(3);
  });

  it("exchange_transport_error on a place: unknown, sent once; nothing was recorded and the same body then places once", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-DRAW", price: "0.21", quantity: "3", clientOrderId: "xt-1" });
    w.fault({ route: "POST /api/orders/place", kind: "exchange_transport_error", nextCalls: 1 });

    const e = unknownError(await w.drive(me.orders.place(body)));

    expect(e.code).toBe("exchange_transport_error");
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(1);
    expect((await w.drive(me.orders.lookup({ clientOrderId: "xt-1" }))).data).toBeNull();
    expect(await w.drive(me.orders.place(body))).toMatchObject({ outcome: "accepted" });
    expect(recordedWithClientId(w.sim, w.wallets[0]!.address, "xt-1")).toBe(1);
  });

  it("lock_invariant_violation on a place: unknown, never resent", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[2]!.address);
    const { body } = await w.order(2, { symbol: "ARS-CHE-CHE", price: "0.22", quantity: "1", clientOrderId: "liv-1" });
    w.fault({ route: "POST /api/orders/place", kind: "lock_invariant_violation", nextCalls: 1 });

    const e = unknownError(await w.drive(me.orders.place(body)));

    expect(e).toMatchObject({ code: "lock_invariant_violation", status: 503 });
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(1);
    expect(recordedWithClientId(w.sim, w.wallets[2]!.address, "liv-1")).toBe(0);
  });

  it("exchange_upstream_error: unknown on a place, details.upstream surfaces as ApiError.upstream", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.32", quantity: "1", clientOrderId: "up-1" });
    w.fault({ route: "POST /api/orders/place", kind: "exchange_upstream_error", upstreamStatus: 502, upstreamBody: "matcher: EOF", execute: true, nextCalls: 1 });

    const e = unknownError(await w.drive(me.orders.place(body)));

    expect(e).toMatchObject({ code: "exchange_upstream_error", status: 502, handling: "unknown_outcome" });
    expect(e.upstream).toEqual({ status: 502, body: "matcher: EOF" });
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(1);
    expect((await w.drive(me.orders.lookup({ clientOrderId: "up-1" }))).data).toMatchObject({ status: "OPEN" });
  });

  it("cancel_unanswered (503, Retry-After 5, details.orderId): pending, repeated after 5 s, cancelled once", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[0]!.address);
    const id = await placed(w, 0, "ARS-CHE-ARS", "cu-1");
    w.fault({ route: "POST /api/orders/cancel", kind: "cancel_unanswered", completeAfterMs: 2000, nextCalls: 1 });
    const t = w.clock.now();

    const report = await w.drive(me.orders.cancelUntilFinal([id], { deadlineMs: 60_000 }));

    expect(report).toMatchObject({ pending: [], deadlineReached: false, final: [{ orderId: id, status: "CANCELLED" }] });
    const sent = w.transport.calls("POST", "/api/orders/cancel");
    expect(sent.map((e) => [e.status, e.code, e.at - t])).toEqual([
      [503, "cancel_unanswered", 0],
      [200, undefined, 5000],
    ]);
    const first = JSON.parse(sent[0]!.response) as { error: { details: { orderId: string }; retryAfterSec: number } };
    expect(first.error.details.orderId).toBe(id);
    expect(first.error.retryAfterSec).toBe(5);
    expect((await w.drive(me.orders.get(id))).data).toMatchObject({ status: "CANCELLED" });
  });

  it("cancel_unanswered single cancel: the outcome is pending (never an error), the cancel already recorded", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[1]!.address);
    const id = await placed(w, 1, "ARS-CHE-DRAW", "cu-2");
    w.fault({ route: "POST /api/orders/cancel", kind: "cancel_unanswered", completeAfterMs: 1000, nextCalls: 1 });

    const out = await w.drive(me.orders.cancel(id));

    expect(out).toMatchObject({ status: "pending", orderId: id, code: "cancel_unanswered", retryAfterSec: 5 });
    await w.clock.advance(1000);
    expect((await w.drive(me.orders.get(id))).data).toMatchObject({ status: "CANCELLED" });
  });

  it("lock_invariant entries in a cancel-batch answer: pending, repeated with a cancel-batch of exactly those ids", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[1]!.address);
    const ids = [await placed(w, 1, "ARS-CHE-ARS", "li-0"), await placed(w, 1, "ARS-CHE-CHE", "li-1")];
    w.fault({ route: "POST /api/orders/cancel-batch", kind: "lock_invariant", nextCalls: 1 });

    const first = await w.drive(me.orders.cancelBatch(ids));
    expect(first).toMatchObject({ status: "answered", cancelled: [], failed: [] });
    if (first.status !== "answered") throw new Error("unreachable");
    expect(first.pending.map((p) => [p.orderId, p.code])).toEqual(ids.map((id) => [id, "lock_invariant"]));
    // nothing was done for them: still live
    expect((await w.drive(me.orders.get(ids[0]!))).data).toMatchObject({ status: "OPEN" });

    const report = await w.drive(me.orders.cancelUntilFinal(ids, { deadlineMs: 60_000 }));
    expect(report.final.map((f) => f.status)).toEqual(["CANCELLED", "CANCELLED"]);
    expect(w.transport.calls("POST", "/api/orders/cancel-all")).toHaveLength(0);
  });

  it("lock_invariant_violation on cancel-all: sent once, the outcome unknown", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[2]!.address);
    await placed(w, 2, "ARS-CHE-ARS", "ca-1");
    w.fault({ route: "POST /api/orders/cancel-all", kind: "lock_invariant_violation", nextCalls: 1 });

    const out = await w.drive(me.orders.cancelAll());

    expect(out).toMatchObject({ status: "unknown" });
    expect(w.transport.calls("POST", "/api/orders/cancel-all")).toHaveLength(1);
  });

  it("exchange_upstream_error on a single cancel (idempotent): retried, then answered", async () => {
    const w = await world("in-process");
    const me = w.client().forWallet(w.wallets[0]!.address);
    const id = await placed(w, 0, "ARS-CHE-CHE", "cue-1");
    w.fault({ route: "POST /api/orders/cancel", kind: "exchange_upstream_error", nextCalls: 1 });

    const out = await w.drive(me.orders.cancel(id));

    expect(out).toMatchObject({ status: "done", final: "CANCELLED" });
    expect(w.transport.calls("POST", "/api/orders/cancel").map((e) => e.status)).toEqual([502, 200]);
  });
});
