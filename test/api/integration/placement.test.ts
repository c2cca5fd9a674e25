/**
 * Placement and cancels of the real client against the real simulator with faults injected, over
 * loopback HTTP and in-process (same code, same assertions): resends of the SAME signed body under
 * the same clientOrderId, unknown outcomes resolved by lookup (exactly one order, never two), the
 * 429 wait, and cancel_pending repeated after Retry-After until final.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/errors.js";
import type { PlaceOutcome } from "../../../src/api/placement.js";
import { flushMicrotasks } from "../../../src/core/clock.js";
import { KINDS, makeWorld, recordedWithClientId, type World, type WorldKind } from "./world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

async function world(kind: WorldKind, opts: Parameters<typeof makeWorld>[1] = {}): Promise<World> {
  const w = await makeWorld(kind, opts);
  worlds.push(w);
  return w;
}

function unknownCode(o: PlaceOutcome): string {
  if (o.outcome !== "unknown") throw new Error(`expected an unknown outcome, got ${o.outcome}`);
  return o.lastError.code;
}

describe.each(KINDS)("placement over %s", (kind) => {
  it("shard_owner_unavailable: resends the same signed body under the same clientOrderId after Retry-After; one order", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.40", quantity: "10", clientOrderId: "shard-1" });
    w.fault({ route: "POST /api/orders/place", kind: "shard_owner_unavailable", nextCalls: 2 });
    const t = w.clock.now();

    const out = await w.drive(me.orders.place(body));

    expect(out).toMatchObject({ outcome: "accepted", status: "OPEN", clientOrderId: "shard-1" });
    const sent = w.transport.calls("POST", "/api/orders/place");
    expect(sent.map((e) => [e.status, e.code, e.at - t])).toEqual([
      [503, "shard_owner_unavailable", 0],
      [503, "shard_owner_unavailable", 2000],
      [201, undefined, 4000],
    ]);
    // byte-identical: the client never re-signs or rebuilds the body
    expect(new Set(sent.map((e) => e.body)).size).toBe(1);
    expect(recordedWithClientId(w.sim, w.wallets[0]!.address, "shard-1")).toBe(1);
  });

  it("trading_temporarily_unavailable: resends the same body (backoff, no Retry-After); one order", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-DRAW", price: "0.20", quantity: "5", clientOrderId: "busy-1" });
    w.fault({ route: "POST /api/orders/place", kind: "trading_temporarily_unavailable", nextCalls: 1 });

    const out = await w.drive(me.orders.place(body));

    expect(out.outcome).toBe("accepted");
    const sent = w.transport.calls("POST", "/api/orders/place");
    expect(sent.map((e) => e.code)).toEqual(["trading_temporarily_unavailable", undefined]);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    const waited = sent[1]!.at - sent[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThanOrEqual(300);
    expect(recordedWithClientId(w.sim, w.wallets[0]!.address, "busy-1")).toBe(1);
  });

  it("still unavailable after the resends: throws (certainly not placed), nothing recorded", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.30", quantity: "1", clientOrderId: "shard-x" });
    w.fault({ route: "POST /api/orders/place", kind: "shard_owner_unavailable" });

    const err = await w.drive(me.orders.place(body)).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "shard_owner_unavailable", status: 503 });
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(4); // first try + 3 resends
    expect(recordedWithClientId(w.sim, w.wallets[0]!.address, "shard-x")).toBe(0);
  });

  it("exchange_unavailable after recording: unknown, lookup finds exactly one order, a resend returns it verbatim", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body, built } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.41", quantity: "3", clientOrderId: "xu-1" });
    w.fault({ route: "POST /api/orders/place", kind: "exchange_unavailable", execute: true, nextCalls: 1 });

    const out = await w.drive(me.orders.place(body, { orderHash: built.orderHash }));

    expect(unknownCode(out)).toBe("exchange_unavailable");
    expect(out).toMatchObject({ clientOrderId: "xu-1", orderHash: built.orderHash });
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(1); // never retried blindly
    const found = await w.drive(me.orders.lookup({ clientOrderId: "xu-1" }));
    expect(found.data).toMatchObject({ clientOrderId: "xu-1", status: "OPEN", orderHash: built.orderHash });
    const byHash = await w.drive(me.orders.lookup({ orderHash: built.orderHash }));
    expect(byHash.data?.id).toBe(found.data!.id);

    // The caller may also resend the same body: the platform deduplicates on clientOrderId.
    const again = await w.drive(me.orders.place(body));
    expect(again).toMatchObject({ outcome: "accepted", orderId: found.data!.id });
    expect(recordedWithClientId(w.sim, w.wallets[0]!.address, "xu-1")).toBe(1);
    const open = await w.drive(collect(me.orders.open()));
    expect(open.filter((o) => o.clientOrderId === "xu-1")).toHaveLength(1);
  });

  it("exchange_unavailable before recording: unknown, lookup finds nothing, the same body then places exactly one", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[1]!.address);
    const { body } = await w.order(1, { symbol: "EPL-WINNER", outcome: 2, price: "0.15", quantity: "4", clientOrderId: "xu-2" });
    w.fault({ route: "POST /api/orders/place", kind: "exchange_unavailable", execute: false, nextCalls: 1 });

    const out = await w.drive(me.orders.place(body));
    expect(unknownCode(out)).toBe("exchange_unavailable");
    expect((await w.drive(me.orders.lookup({ clientOrderId: "xu-2" }))).data).toBeNull();

    const again = await w.drive(me.orders.place(body));
    expect(again).toMatchObject({ outcome: "accepted", status: "OPEN" });
    expect(recordedWithClientId(w.sim, w.wallets[1]!.address, "xu-2")).toBe(1);
  });

  it("idempotency_race: unknown, lookup finds exactly one order", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[2]!.address);
    const { body } = await w.order(2, { symbol: "ARS-CHE-CHE", price: "0.25", quantity: "2", clientOrderId: "race-1" });
    w.fault({ route: "POST /api/orders/place", kind: "idempotency_race", nextCalls: 1 });

    const out = await w.drive(me.orders.place(body));

    expect(unknownCode(out)).toBe("idempotency_race");
    expect(w.transport.calls("POST", "/api/orders/place")).toHaveLength(1);
    const found = await w.drive(me.orders.lookup({ clientOrderId: "race-1" }));
    expect(found.data).toMatchObject({ clientOrderId: "race-1", status: "OPEN" });
    expect(recordedWithClientId(w.sim, w.wallets[2]!.address, "race-1")).toBe(1);
  });

  it("place-batch journal_intent_not_durable entries: only those are resent, unchanged; one order per clientOrderId", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const bodies = await Promise.all(
      ["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE", "EPL-WINNER"].map((symbol, i) =>
        w.order(0, { symbol, price: "0.11", quantity: "1", clientOrderId: `jb-${i}` }).then((o) => o.body),
      ),
    );
    w.fault({ route: "POST /api/orders/place-batch", kind: "journal_intent_not_durable", nextCalls: 2 });

    const first = await w.drive(me.orders.placeBatch(bodies));
    if (first.outcome !== "answered") throw new Error("expected per-entry answers");
    expect(first.entries.map((e) => (e.outcome === "rejected" ? `${e.code}/${e.handling}` : e.outcome))).toEqual([
      "journal_intent_not_durable/resend_same",
      "journal_intent_not_durable/resend_same",
      "accepted",
      "accepted",
    ]);

    const retry = bodies.filter((_, i) => first.entries[i]!.outcome === "rejected" && first.entries[i]!.handling === "resend_same");
    const second = await w.drive(me.orders.placeBatch(retry));
    if (second.outcome !== "answered") throw new Error("expected per-entry answers");
    expect(second.entries.map((e) => e.outcome)).toEqual(["accepted", "accepted"]);
    const sent = w.transport.calls("POST", "/api/orders/place-batch").map((e) => (JSON.parse(e.body!) as { orders: unknown[] }).orders);
    expect(sent[1]).toEqual(sent[0]!.slice(0, 2)); // the same signed entries
    for (let i = 0; i < 4; i++) expect(recordedWithClientId(w.sim, w.wallets[0]!.address, `jb-${i}`)).toBe(1);
  });

  it("place-batch exchange_unavailable after recording: every entry unknown, each found exactly once by lookup", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[1]!.address);
    const bodies = await Promise.all([0, 1, 2].map((i) => w.order(1, { symbol: "ARS-CHE-ARS", price: `0.1${i}`, quantity: "1", clientOrderId: `xb-${i}` }).then((o) => o.body)));
    w.fault({ route: "POST /api/orders/place-batch", kind: "exchange_unavailable", execute: true, nextCalls: 1 });

    const out = await w.drive(me.orders.placeBatch(bodies));

    expect(out).toMatchObject({ outcome: "unknown", lastError: { code: "exchange_unavailable" } });
    expect(out.entries.map((e) => e.clientOrderId)).toEqual(["xb-0", "xb-1", "xb-2"]);
    expect(w.transport.calls("POST", "/api/orders/place-batch")).toHaveLength(1);
    for (const e of out.entries) {
      const found = await w.drive(me.orders.lookup({ clientOrderId: e.clientOrderId! }));
      expect(found.data).toMatchObject({ clientOrderId: e.clientOrderId, status: "OPEN" });
      expect(recordedWithClientId(w.sim, w.wallets[1]!.address, e.clientOrderId!)).toBe(1);
    }
  });

  it("429 from the platform's real place bucket: waits Retry-After, then the same body is accepted", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address); // no gate: the platform's 429 is the only brake
    const bodies = await Promise.all(
      Array.from({ length: 21 }, (_, i) => w.order(0, { symbol: "ARS-CHE-ARS", price: "0.10", quantity: "1", clientOrderId: `burst-${i}` })),
    );
    const t = w.clock.now();

    const outs = await w.drive(Promise.all(bodies.map((b) => me.orders.place(b.body))));

    expect(outs.every((o) => o.outcome === "accepted")).toBe(true);
    const sent = w.transport.calls("POST", "/api/orders/place");
    const limited = sent.filter((e) => e.status === 429);
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({ code: "rate_limited", at: t });
    const resend = sent.filter((e) => e.body === limited[0]!.body && e.status === 201);
    expect(resend).toHaveLength(1);
    expect(resend[0]!.at - t).toBe(1000); // Retry-After: the rest of the 1 s window, never sooner
    for (let i = 0; i < 21; i++) expect(recordedWithClientId(w.sim, w.wallets[0]!.address, `burst-${i}`)).toBe(1);
  });
});

describe("placement timeout over loopback", () => {
  it("a timed-out place is unknown; the order appears once the platform records it, exactly once", async () => {
    const w = await world("loopback", { timeoutMs: 10_000 });
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.42", quantity: "1", clientOrderId: "slow-1" });
    const rule = w.fault({ route: "POST /api/orders/place", kind: "latency", latencyMs: 15_000, nextCalls: 1 });
    const t = w.clock.now();

    let settled: PlaceOutcome | undefined;
    const placing = me.orders.place(body).then((o) => (settled = o));
    // Wait (real time) until the simulator holds the request in its latency fault.
    while (w.sim.platform.faults.list().find((r) => r.id === rule)!.fired === 0) await flushMicrotasks(1);
    await w.clock.advance(10_000); // the client's timeout fires; the platform is still busy
    await placing;

    expect(settled && unknownCode(settled)).toBe("transport_timeout");
    expect((await w.drive(me.orders.lookup({ clientOrderId: "slow-1" }))).data).toBeNull();

    await w.clock.advance(5_000); // the platform records the order after its 15 s delay
    await flushMicrotasks(5);
    const found = await w.drive(me.orders.lookup({ clientOrderId: "slow-1" }));
    expect(found.data).toMatchObject({ clientOrderId: "slow-1", status: "OPEN" });
    expect(Date.parse(found.data!.createdAt) - t).toBe(15_000);
    expect(recordedWithClientId(w.sim, w.wallets[0]!.address, "slow-1")).toBe(1);
  });
});

describe.each(KINDS)("cancel_pending over %s", (kind) => {
  it("a single cancel is repeated after Retry-After until final, and cancels once", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const { body } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.35", quantity: "2", clientOrderId: "cp-1" });
    const placed = await w.drive(me.orders.place(body));
    if (placed.outcome !== "accepted") throw new Error("setup: not placed");
    w.fault({ route: "POST /api/orders/cancel", kind: "cancel_pending", completeAfterMs: 3000, nextCalls: 1 });
    const t = w.clock.now();

    const report = await w.drive(me.orders.cancelUntilFinal([placed.orderId], { deadlineMs: 60_000 }));

    expect(report).toMatchObject({ pending: [], rounds: 2, deadlineReached: false, final: [{ orderId: placed.orderId, status: "CANCELLED" }] });
    const sent = w.transport.calls("POST", "/api/orders/cancel");
    expect(sent.map((e) => [e.status, e.at - t])).toEqual([
      [202, 0],
      [200, 5000],
    ]);
    const order = await w.drive(me.orders.get(placed.orderId));
    expect(order.data).toMatchObject({ status: "CANCELLED", filledQty: "0" });
  });

  it("cancel-batch pending ids are repeated with a cancel-batch of exactly those ids, never cancel-all", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[1]!.address);
    const ids: string[] = [];
    for (const [i, symbol] of ["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE"].entries()) {
      const { body } = await w.order(1, { symbol, price: "0.05", quantity: "1", clientOrderId: `cpb-${i}` });
      const r = await w.drive(me.orders.place(body));
      if (r.outcome !== "accepted") throw new Error("setup: not placed");
      ids.push(r.orderId);
    }
    w.fault({ route: "POST /api/orders/cancel-batch", kind: "cancel_pending", completeAfterMs: 1000, nextCalls: 1 });

    const report = await w.drive(me.orders.cancelUntilFinal(ids, { deadlineMs: 60_000 }));

    expect(report.pending).toEqual([]);
    expect(report.final.map((f) => f.status)).toEqual(["CANCELLED", "CANCELLED", "CANCELLED"]);
    const batches = w.transport.calls("POST", "/api/orders/cancel-batch");
    expect(batches).toHaveLength(2);
    expect(JSON.parse(batches[1]!.body!)).toEqual({ orderIds: ids });
    expect(batches[1]!.at - batches[0]!.at).toBe(5000);
    expect(w.transport.calls("POST", "/api/orders/cancel-all")).toHaveLength(0);
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
