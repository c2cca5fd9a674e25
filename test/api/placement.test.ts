import { describe, expect, it } from "vitest";
import { ApiError, DEFAULT_RETRY } from "../../src/api/index.js";
import { examplePlaceBody, examplePlacement, exampleRejectedPlacement, ORDER_HASH, ORDER_ID, WALLET } from "../wire/fixtures.js";
import { envelope, json, refused, rejectionOf, reset, settle, timeout } from "./fake-transport.js";
import { harness } from "./helpers.js";

const COID = "mm1-abc-000001";

describe("placement is never retried blindly (spec 7.4 rule 3)", () => {
  const unknownCases: [string, () => ReturnType<typeof envelope> | Error][] = [
    ["a bare 500", () => ({ status: 500, headers: {}, body: "Internal Server Error" })],
    ["a 500 envelope without a known code", () => envelope(500, "internal_error")],
    ["idempotency_race", () => envelope(500, "idempotency_race")],
    ["exchange_unavailable", () => envelope(503, "exchange_unavailable")],
    ["exchange_malformed_response", () => envelope(503, "exchange_malformed_response")],
    ["a timeout", timeout],
    ["a connection reset after sending", reset],
  ];
  for (const [name, reply] of unknownCases) {
    it(`${name}: one request, outcome unknown with clientOrderId and orderHash`, async () => {
      const { clock, transport, client } = harness();
      transport.enqueue(reply());
      const out = await settle(clock, client.forWallet(WALLET).orders.place(examplePlaceBody(), { orderHash: ORDER_HASH }));
      expect(transport.requests).toHaveLength(1);
      expect(out.outcome).toBe("unknown");
      if (out.outcome !== "unknown") return;
      expect(out.clientOrderId).toBe(COID);
      expect(out.orderHash).toBe(ORDER_HASH);
      expect(out.lastError).toBeInstanceOf(ApiError);
      expect(out.lastError.handling).toBe("unknown_outcome");
      // Nothing scheduled: no hidden resend waiting on the clock.
      expect(clock.pending()).toBe(0);
    });
  }

  it("a 201 that cannot be read is unknown (the order may exist), naming the bad path", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(201, { ...examplePlacement(), filledQty: 4 }));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("unknown");
    if (out.outcome === "unknown") {
      expect(out.lastError.source).toBe("schema");
      expect(out.lastError.message).toContain("filledQty");
    }
  });
});

describe("resend the SAME signed body on nothing-recorded answers", () => {
  it("shard_owner_unavailable: resent byte-equal after Retry-After, same clientOrderId", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      envelope(503, "shard_owner_unavailable", "node taking over", {}, { "retry-after": "2" }),
      json(201, examplePlacement()),
    );
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("accepted");
    if (out.outcome === "accepted") {
      expect(out.orderId).toBe(ORDER_ID);
      expect(out.status).toBe("PARTIAL");
      expect(out.clientOrderId).toBe(COID);
      expect(out.meta.attempts).toBe(2);
    }
    const [a, b] = transport.requests;
    expect(b!.body).toBe(a!.body);
    expect(JSON.parse(b!.body!).clientOrderId).toBe(COID);
    expect(b!.at - a!.at).toBe(2000);
  });

  it("trading_temporarily_unavailable twice, then accepted: three identical bodies", async () => {
    const { clock, transport, client } = harness();
    const busy = envelope(503, "trading_temporarily_unavailable", "busy", { retryable: true, retryAfterSec: 1 });
    transport.enqueue(busy, busy, json(201, examplePlacement({ status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] })));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("accepted");
    const bodies = new Set(transport.requests.map((r) => r.body));
    expect(transport.requests).toHaveLength(3);
    expect(bodies.size).toBe(1);
  });

  it("still unavailable after the bounded resends: throws (the order was not placed)", async () => {
    const { clock, transport, client } = harness();
    for (let i = 0; i < 10; i++) transport.enqueue(envelope(503, "shard_owner_unavailable", "x", {}, { "retry-after": "2" }));
    const e = (await rejectionOf(clock, client.orders.place(examplePlaceBody()))) as ApiError;
    expect(e.code).toBe("shard_owner_unavailable");
    expect(e.handling).toBe("resend_same");
    expect(transport.requests).toHaveLength(1 + DEFAULT_RETRY.maxResends);
  });

  it("a connection that never carried the request is resent; if it never connects, throws", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(refused(), json(201, examplePlacement()));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("accepted");
    expect(transport.requests[1]!.body).toBe(transport.requests[0]!.body);

    for (let i = 0; i < 10; i++) transport.enqueue(refused());
    const e = (await rejectionOf(clock, client.orders.place(examplePlaceBody()))) as ApiError;
    expect(e.source).toBe("transport");
    expect(e.maybeDelivered).toBe(false);
  });
});

describe("business rejects are results, not exceptions", () => {
  it("201 REJECTED", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(201, exampleRejectedPlacement({ code: "post_only_would_cross", message: "would take", details: undefined })));
    const out = await settle(clock, client.orders.place(examplePlaceBody({ postOnly: true })));
    expect(out.outcome).toBe("rejected");
    if (out.outcome === "rejected") {
      expect(out.code).toBe("post_only_would_cross");
      expect(out.handling).toBe("business_reject");
      expect(out.httpStatus).toBe(201);
      expect(out.clientOrderId).toBe(COID);
    }
  });

  it("200 envelope with a code (insufficient_funds)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "insufficient_funds", message: "balance too low" }));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out).toMatchObject({ outcome: "rejected", code: "insufficient_funds", handling: "business_reject" });
  });

  it("a 2xx carrying an unknown-outcome code is unknown, not rejected (the order may exist)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "idempotency_race", message: "race on clientOrderId" }));
    const out = await settle(clock, client.orders.place(examplePlaceBody(), { orderHash: ORDER_HASH }));
    expect(out.outcome).toBe("unknown");
    if (out.outcome !== "unknown") return;
    expect(out).toMatchObject({ clientOrderId: COID, orderHash: ORDER_HASH });
    expect(out.lastError).toMatchObject({ code: "idempotency_race", handling: "unknown_outcome", status: 200 });
    expect(transport.requests).toHaveLength(1);
  });

  it("a 201 REJECTED result whose code leaves the outcome open is unknown", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(201, exampleRejectedPlacement({ code: "exchange_upstream_error", message: "unstructured reply", details: undefined })));
    const out = await settle(clock, client.orders.place(examplePlaceBody(), { orderHash: ORDER_HASH }));
    expect(out).toMatchObject({ outcome: "unknown", clientOrderId: COID, orderHash: ORDER_HASH, lastError: { code: "exchange_upstream_error", handling: "unknown_outcome" } });
  });

  it("400 with a REJECTED placement body keeps the body (floor notional) and says fix_request", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(400, exampleRejectedPlacement()));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("rejected");
    if (out.outcome === "rejected") {
      expect(out.code).toBe("order_signed_with_floor_notional");
      expect(out.handling).toBe("fix_request");
      expect(out.result?.details?.expectedCeilMakerAmountWei).toBe("5500000");
    }
  });

  it("400 bad_signature envelope keeps details for the diagnosis", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(400, "bad_signature", "recovery failed", { details: { recovered: null, expected_signer: WALLET } }));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out).toMatchObject({ outcome: "rejected", code: "bad_signature", details: { expected_signer: WALLET } });
  });

  it("auth refusals throw", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(401, "api_key_revoked"));
    const e = (await rejectionOf(clock, client.orders.place(examplePlaceBody()))) as ApiError;
    expect(e.handling).toBe("auth");
  });

  it("a body that fails the wire schema is refused locally, nothing sent", async () => {
    const { clock, transport, client } = harness();
    const e = (await rejectionOf(clock, client.orders.place(examplePlaceBody({ price: "0.5555" })))) as ApiError;
    expect(e.source).toBe("local");
    expect(e.code).toBe("invalid_amounts");
    expect(e.message).toContain("price");
    expect(transport.requests).toHaveLength(0);
  });
});

describe("place-batch", () => {
  const bodies = [
    examplePlaceBody({ clientOrderId: "c-1" }),
    examplePlaceBody({ clientOrderId: "c-2" }),
    examplePlaceBody({ clientOrderId: "c-3" }),
  ];

  it("per-entry outcomes in request order; refused entries are results", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      json(201, {
        results: [
          { ...examplePlacement(), success: true },
          { ...exampleRejectedPlacement({ code: "market_not_open", message: "closed", details: undefined }), success: true },
          { success: false, code: "journal_intent_not_durable", message: "busy", details: { retryable: true } },
        ],
      }),
    );
    const out = await settle(clock, client.orders.placeBatch(bodies, { orderHashes: ["0x01", "0x02", "0x03"] }));
    expect(out.outcome).toBe("answered");
    if (out.outcome !== "answered") return;
    expect(out.entries.map((e) => e.outcome)).toEqual(["accepted", "rejected", "rejected"]);
    expect(out.entries.map((e) => e.clientOrderId)).toEqual(["c-1", "c-2", "c-3"]);
    expect(out.entries[2]).toMatchObject({ code: "journal_intent_not_durable", handling: "resend_same", orderHash: "0x03" });
    expect(out.entries[1]).toMatchObject({ code: "market_not_open", handling: "business_reject" });
    expect(JSON.parse(transport.requests[0]!.body!).orders).toHaveLength(3);
  });

  it("entries whose code leaves the outcome open (unknown_outcome) are unknown, with their ids; resend_same and business refusals stay rejected", async () => {
    const { clock, transport, client } = harness();
    const five = [...bodies, examplePlaceBody({ clientOrderId: "c-4" }), examplePlaceBody({ clientOrderId: "c-5" })];
    transport.enqueue(
      json(201, {
        results: [
          { success: false, code: "idempotency_race", message: "race", clientOrderId: "c-1" },
          { success: false, code: "exchange_unavailable", message: "upstream down", status: "REJECTED" },
          { success: false, code: "exchange_upstream_error", message: "bad gateway", details: { upstream: { status: 502 } } },
          { success: false, code: "journal_intent_not_durable", message: "busy", details: { retryable: true } },
          { success: false, code: "market_not_open", message: "closed" },
        ],
      }),
    );
    const out = await settle(clock, client.orders.placeBatch(five, { orderHashes: ["0x01", "0x02", "0x03", "0x04", "0x05"] }));
    expect(transport.requests).toHaveLength(1);
    expect(out.outcome).toBe("answered");
    if (out.outcome !== "answered") return;
    expect(out.entries.map((e) => e.outcome)).toEqual(["unknown", "unknown", "unknown", "rejected", "rejected"]);
    expect(out.entries.map((e) => [e.clientOrderId, e.orderHash])).toEqual([
      ["c-1", "0x01"],
      ["c-2", "0x02"],
      ["c-3", "0x03"],
      ["c-4", "0x04"],
      ["c-5", "0x05"],
    ]);
    const codes = ["idempotency_race", "exchange_unavailable", "exchange_upstream_error"];
    out.entries.slice(0, 3).forEach((e, i) => {
      expect(e.outcome).toBe("unknown");
      if (e.outcome !== "unknown") return;
      expect(e.lastError).toBeInstanceOf(ApiError);
      expect(e.lastError).toMatchObject({ code: codes[i], handling: "unknown_outcome", status: 201, path: "/api/orders/place-batch" });
    });
    expect(out.entries[2]).toMatchObject({ lastError: { details: { upstream: { status: 502 } } } });
    expect(out.entries[3]).toMatchObject({ outcome: "rejected", code: "journal_intent_not_durable", handling: "resend_same" });
    expect(out.entries[4]).toMatchObject({ outcome: "rejected", code: "market_not_open", handling: "business_reject" });
    expect(clock.pending()).toBe(0);
  });

  it("a 2xx carrying an unknown-outcome code for the whole batch leaves every order unknown", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "exchange_unavailable", message: "upstream down" }));
    const out = await settle(clock, client.orders.placeBatch(bodies, { orderHashes: ["0x01", "0x02", "0x03"] }));
    expect(out.outcome).toBe("unknown");
    if (out.outcome !== "unknown") return;
    expect(out.entries).toEqual([
      { clientOrderId: "c-1", orderHash: "0x01" },
      { clientOrderId: "c-2", orderHash: "0x02" },
      { clientOrderId: "c-3", orderHash: "0x03" },
    ]);
    expect(out.lastError).toMatchObject({ code: "exchange_unavailable", handling: "unknown_outcome" });

    transport.enqueue(json(200, { code: "insufficient_funds", message: "balance too low" }));
    const refused = await settle(clock, client.orders.placeBatch(bodies));
    expect(refused.outcome).toBe("answered");
    if (refused.outcome === "answered") expect(refused.entries.map((e) => e.outcome)).toEqual(["rejected", "rejected", "rejected"]);
  });

  it("a 500 leaves every order of the batch unknown, with its ids; not retried", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "internal"));
    const out = await settle(clock, client.orders.placeBatch(bodies));
    expect(transport.requests).toHaveLength(1);
    expect(out.outcome).toBe("unknown");
    if (out.outcome === "unknown") expect(out.entries.map((e) => e.clientOrderId)).toEqual(["c-1", "c-2", "c-3"]);
  });

  it("a result count that does not match the request is unknown", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(201, { results: [{ ...examplePlacement(), success: true }] }));
    const out = await settle(clock, client.orders.placeBatch(bodies));
    expect(out.outcome).toBe("unknown");
  });

  it("more than 15 orders is refused locally", async () => {
    const { clock, transport, client } = harness();
    const many = Array.from({ length: 16 }, (_, i) => examplePlaceBody({ clientOrderId: `c-${i}` }));
    const e = (await rejectionOf(clock, client.orders.placeBatch(many))) as ApiError;
    expect(e.source).toBe("local");
    expect(transport.requests).toHaveLength(0);
  });
});
