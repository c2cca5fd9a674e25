import { describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/index.js";
import { ORDER_ID, WALLET } from "../wire/fixtures.js";
import { envelope, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const done = (orderId = ORDER_ID, status = "CANCELLED") => json(200, { orderId, status, filledQty: "4", remainingQty: "0" });
const pending202 = (orderId = ORDER_ID) =>
  json(
    202,
    { status: "cancel_pending", code: "cancel_pending", orderId, message: "cancel recorded, no answer yet", retryAfterSec: 5 },
    { "retry-after": "5" },
  );
const many = (cancelled: string[], notCancelled: { orderId: string; code: string; message?: string }[], headers: Record<string, string> = {}) =>
  json(200, { cancelled, notCancelled: notCancelled.map((n) => ({ message: n.code, ...n })) }, headers);

const bodyOf = (r: { body: string | undefined }) => JSON.parse(r.body!) as Record<string, unknown>;

describe("single cancel", () => {
  it("200: done with the final status", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(done(ORDER_ID, "FILLED"));
    const out = await settle(clock, client.forWallet(WALLET).orders.cancel(ORDER_ID));
    expect(out).toMatchObject({ status: "done", orderId: ORDER_ID, final: "FILLED" });
    expect(bodyOf(transport.requests[0]!)).toEqual({ orderId: ORDER_ID });
  });

  it("202 cancel_pending and 503 cancel_unanswered are pending results (not retried by the pipeline)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(pending202());
    expect(await settle(clock, client.orders.cancel(ORDER_ID))).toMatchObject({ status: "pending", code: "cancel_pending", retryAfterSec: 5 });
    transport.enqueue(envelope(503, "cancel_unanswered", "older node", { details: { orderId: ORDER_ID } }, { "retry-after": "5" }));
    expect(await settle(clock, client.orders.cancel(ORDER_ID))).toMatchObject({ status: "pending", code: "cancel_unanswered", retryAfterSec: 5 });
    expect(transport.requests).toHaveLength(2);
  });

  it("409 not_cancellable is a rejected result", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(409, "not_cancellable", "already terminal"));
    expect(await settle(clock, client.orders.cancel(ORDER_ID))).toMatchObject({ status: "rejected", code: "not_cancellable", handling: "business_reject" });
  });

  it("a cancel is idempotent: 5xx retried with backoff, then unknown", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "x"), envelope(500, "x"), envelope(500, "x"));
    const out = await settle(clock, client.orders.cancel(ORDER_ID));
    expect(out.status).toBe("unknown");
    expect(transport.requests).toHaveLength(3);
    expect(new Set(transport.requests.map((r) => r.body)).size).toBe(1);
  });
});

describe("cancelUntilFinal", () => {
  it("repeats a pending single cancel exactly Retry-After later, with a single cancel", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(pending202(), done());
    const report = await settle(clock, client.orders.cancelUntilFinal([ORDER_ID], { deadlineMs: 30_000 }));
    expect(report.pending).toEqual([]);
    expect(report.final).toEqual([{ orderId: ORDER_ID, status: "CANCELLED", code: undefined }]);
    expect(report.rounds).toBe(2);
    expect(transport.paths()).toEqual(["POST /api/orders/cancel", "POST /api/orders/cancel"]);
    expect(transport.requests[1]!.at - transport.requests[0]!.at).toBe(5000);
    expect(transport.requests[1]!.body).toBe(transport.requests[0]!.body);
  });

  it("cancel_unanswered (503) is handled the same way", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(503, "cancel_unanswered", "older node", {}, { "retry-after": "5" }), done());
    const report = await settle(clock, client.orders.cancelUntilFinal([ORDER_ID], { deadlineMs: 30_000 }));
    expect(report.final.map((f) => f.status)).toEqual(["CANCELLED"]);
    expect(transport.requests[1]!.at - transport.requests[0]!.at).toBe(5000);
  });

  it("re-sends a cancel-batch of exactly the pending ids, then a single cancel for the last one", async () => {
    const { clock, transport, client } = harness();
    const ids = ["o-1", "o-2", "o-3", "o-4"];
    transport.enqueue(
      many(["o-1"], [
        { orderId: "o-2", code: "cancel_pending" },
        { orderId: "o-3", code: "not_cancellable" },
        { orderId: "o-4", code: "lock_invariant" },
      ], { "retry-after": "5" }),
      many(["o-4"], [{ orderId: "o-2", code: "cancel_pending" }], { "retry-after": "5" }),
      done("o-2", "FILLED"),
    );
    const report = await settle(clock, client.orders.cancelUntilFinal(ids, { deadlineMs: 60_000 }));
    expect(transport.paths()).toEqual(["POST /api/orders/cancel-batch", "POST /api/orders/cancel-batch", "POST /api/orders/cancel"]);
    expect(bodyOf(transport.requests[0]!)).toEqual({ orderIds: ids });
    expect(bodyOf(transport.requests[1]!)).toEqual({ orderIds: ["o-2", "o-4"] });
    expect(bodyOf(transport.requests[2]!)).toEqual({ orderId: "o-2" });
    expect(report.pending).toEqual([]);
    const byId = Object.fromEntries(report.final.map((f) => [f.orderId, f]));
    expect(byId["o-1"]!.status).toBe("CANCELLED");
    expect(byId["o-2"]!.status).toBe("FILLED");
    expect(byId["o-3"]!.code).toBe("not_cancellable");
    expect(byId["o-4"]!.status).toBe("CANCELLED");
  });

  it("reports what is still pending at the deadline", async () => {
    const { clock, transport, client } = harness();
    transport.route("POST", /^\/api\/orders\/cancel$/, () => pending202());
    const start = clock.now();
    const report = await settle(clock, client.orders.cancelUntilFinal([ORDER_ID], { deadlineMs: 12_000 }));
    expect(report.deadlineReached).toBe(true);
    expect(report.pending).toEqual([ORDER_ID]);
    expect(report.rounds).toBe(3);
    expect(transport.requests.map((r) => r.at - start)).toEqual([0, 5000, 10_000]);
    expect(clock.now() - start).toBeLessThanOrEqual(12_000);
  });

  it("keeps going through a 429 or an open circuit, stops on an auth error", async () => {
    const { clock, transport, client } = harness({ retry: { maxRateLimitRetries: 0 } });
    transport.enqueue(envelope(429, "rate_limited", "slow", {}, { "retry-after": "2" }), done());
    const report = await settle(clock, client.orders.cancelUntilFinal([ORDER_ID], { deadlineMs: 10_000 }));
    expect(report.final).toHaveLength(1);
    expect(transport.requests[1]!.at - transport.requests[0]!.at).toBe(2000);

    transport.enqueue(envelope(401, "api_key_revoked"));
    const e = (await rejectionOf(clock, client.orders.cancelUntilFinal([ORDER_ID], { deadlineMs: 10_000 }))) as ApiError;
    expect(e.handling).toBe("auth");
  });
});

describe("cancel-all is never repeated", () => {
  it("a 5xx leaves it unknown after one request", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "x"));
    const out = await settle(clock, client.orders.cancelAll({ marketId: "SYM" }));
    expect(out.status).toBe("unknown");
    expect(transport.requests).toHaveLength(1);
    expect(bodyOf(transport.requests[0]!)).toEqual({ marketId: "SYM" });
  });

  it("cancel_unanswered and shard_owner_unavailable are not resent either", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(503, "cancel_unanswered", "x", {}, { "retry-after": "5" }));
    expect((await settle(clock, client.orders.cancelAll())).status).toBe("unknown");
    transport.enqueue(envelope(503, "shard_owner_unavailable", "x", {}, { "retry-after": "2" }));
    const e = (await rejectionOf(clock, client.orders.cancelAll())) as ApiError;
    expect(e.code).toBe("shard_owner_unavailable");
    expect(transport.requests).toHaveLength(2);
  });

  it("its pending ids are followed up with cancel-batch, never another cancel-all", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      many(["o-1"], [
        { orderId: "o-2", code: "cancel_pending" },
        { orderId: "o-3", code: "cancel_pending" },
      ], { "retry-after": "5" }),
      many(["o-2", "o-3"], []),
    );
    const first = await settle(clock, client.orders.cancelAll());
    expect(first.status).toBe("answered");
    if (first.status !== "answered") return;
    expect(first.pending.map((p) => p.orderId)).toEqual(["o-2", "o-3"]);
    const report = await settle(clock, client.orders.cancelUntilFinal(first.pending.map((p) => p.orderId), { deadlineMs: 30_000 }));
    expect(report.pending).toEqual([]);
    expect(transport.paths()).toEqual(["POST /api/orders/cancel-all", "POST /api/orders/cancel-batch"]);
    expect(bodyOf(transport.requests[1]!)).toEqual({ orderIds: ["o-2", "o-3"] });
  });
});
