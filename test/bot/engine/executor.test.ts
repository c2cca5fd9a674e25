import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import { OrderExecutor, type PlaceVerdict } from "../../../src/bot/engine/executor.js";
import { ClientOrderIds } from "../../../src/bot/orders/ids.js";
import { OrderMaker } from "../../../src/bot/orders/order-maker.js";
import { RecordingObserver } from "../../../src/bot/observer.js";
import { WalletSigner, rngSaltSource, type SigningMarket } from "../../../src/signing/index.js";
import type { DesiredQuote, LiveOrder } from "../../../src/bot/quote/quotes.js";
import type { Fill } from "../../../src/bot/fills/fill-ledger.js";
import { T0, VAULT, clientHarness, envelope, json, silentLogger, type ClientHarness } from "./fakes.js";

const KEY = `0x${"11".repeat(32)}`;
const signer = WalletSigner.fromPrivateKey(KEY);
const WALLET = signer.address.toLowerCase();
const MARKET: SigningMarket = { symbol: "MKT", yesTokenId: "11", noTokenId: "12", outcomeTokenIds: ["11", "12"], feeTakerBps: 100, negRiskEligible: false };
const CONTRACTS = { chainId: 31337, domain: { name: "PartnerExchange", version: "1" }, exchange: { binary: VAULT, negRisk: VAULT } };

function quote(price: bigint, side: "BUY" | "SELL" = "BUY"): DesiredQuote {
  return { outcome: 0, side, price, size: 10_000_000n, postOnly: true };
}

function setup(h: ClientHarness, over: { mayPlace?: () => PlaceVerdict } = {}) {
  const tracker = new OrderTracker(WALLET);
  const observer = new RecordingObserver();
  const fills: Fill[] = [];
  const maker = new OrderMaker({ signer, ids: new ClientOrderIds("t1", 0, "sess"), clock: h.clock, saltSource: rngSaltSource(new Rng(1)) });
  maker.useAccount({ vault: VAULT, contracts: CONTRACTS, defaultFeeRateBps: 100 });
  const ex = new OrderExecutor({
    wallet: WALLET,
    api: h.client.forWallet(WALLET),
    orders: { track: (ev) => tracker.apply(ev), applyFill: (f) => fills.push(f), order: (id) => tracker.get(id) },
    check: { mayPlace: over.mayPlace ?? (() => ({ ok: true })) },
    maker,
    clock: h.clock,
    log: silentLogger(),
    observer,
  });
  return { ex, tracker, observer, fills };
}

const accepted = (orderId: string, status = "OPEN", trades: unknown[] = []) => ({ orderId, status, filledQty: "0", remainingQty: "10", trades });

describe("OrderExecutor places", () => {
  it("registers every order as sent (with its order hash) before the request leaves", async () => {
    const h = clientHarness();
    const s = setup(h);
    const seenStates: string[] = [];
    h.transport.on("POST", /^\/api\/orders\/place$/, (req) => {
      const cid = (req.body as { clientOrderId: string }).clientOrderId;
      seenStates.push(s.tracker.get(cid)!.state);
      return json(201, accepted("o1"));
    });
    await s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET });
    expect(seenStates).toEqual(["sent"]);
    const o = s.tracker.get("t1-0-sess-1")!;
    expect(o.state).toBe("open");
    expect(o.orderId).toBe("o1");
    expect(o.orderHash).toMatch(/^0x[0-9a-f]{64}$/);
    const body = h.transport.requests[0]!.body as { clientOrderId: string; postOnly: boolean; order: { maker: string } };
    expect(body.clientOrderId).toBe("t1-0-sess-1");
    expect(body.postOnly).toBe(true);
    expect(body.order.maker).toBe(VAULT);
    expect(s.observer.of("order_placed")).toHaveLength(1);
  });

  it("batches several orders in one place-batch and applies each entry", async () => {
    const h = clientHarness();
    const s = setup(h);
    h.transport.on("POST", /^\/api\/orders\/place-batch$/, () =>
      json(201, { results: [{ ...accepted("o1"), success: true }, { success: false, code: "insufficient_funds", message: "no", status: "REJECTED" }] }),
    );
    const r = await s.ex.execute([], [quote(500_000n), quote(490_000n)], { symbol: "MKT", signing: MARKET });
    expect(r.placesSent).toBe(2);
    expect(h.transport.count("POST", /place-batch/)).toBe(1);
    expect(s.tracker.get("t1-0-sess-1")!.state).toBe("open");
    expect(s.tracker.get("t1-0-sess-2")!.state).toBe("rejected");
    expect(s.observer.of("order_rejected").map((e) => e.code)).toEqual(["insufficient_funds"]);
  });

  it("leaves an order whose outcome is unknown in flight (never assumed rejected)", async () => {
    const h = clientHarness();
    const s = setup(h);
    h.transport.on("POST", /^\/api\/orders\/place$/, envelope(503, "exchange_unavailable"));
    await s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET });
    expect(s.tracker.get("t1-0-sess-1")!.state).toBe("unknown");
    expect(s.tracker.ordersNeedingRead(h.clock.now())).toEqual([expect.objectContaining({ clientOrderId: "t1-0-sess-1", reason: "unknown", via: "lookup" })]);
    expect(s.observer.of("order_unknown")).toHaveLength(1);
  });

  it("marks an order not placed when the client proves it (resends exhausted)", async () => {
    const h = clientHarness();
    const s = setup(h);
    h.transport.on("POST", /^\/api\/orders\/place$/, envelope(503, "shard_owner_unavailable", { retryAfterSec: 2 }, { "retry-after": "2" }));
    const p = s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET });
    await h.clock.advance(30_000);
    await p;
    const bodies = h.transport.requests.map((r) => JSON.stringify(r.body));
    // The client resent the very same signed body; nothing was re-signed.
    expect(new Set(bodies).size).toBe(1);
    expect(bodies.length).toBeGreaterThan(1);
    expect(s.tracker.get("t1-0-sess-1")!.state).toBe("rejected");
  });

  it("resends a journal_intent_not_durable entry unchanged under the same clientOrderId", async () => {
    const h = clientHarness();
    const s = setup(h);
    h.transport.on("POST", /^\/api\/orders\/place-batch$/, () =>
      json(201, { results: [{ ...accepted("o1"), success: true }, { success: false, code: "journal_intent_not_durable", message: "busy", details: { retryable: true } }] }),
    );
    h.transport.on("POST", /^\/api\/orders\/place$/, json(201, accepted("o2")));
    await s.ex.execute([], [quote(500_000n), quote(490_000n)], { symbol: "MKT", signing: MARKET });
    const batch = h.transport.requests[0]!.body as { orders: unknown[] };
    const single = h.transport.requests[1]!.body;
    expect(JSON.stringify(single)).toBe(JSON.stringify(batch.orders[1]));
    expect(s.tracker.get("t1-0-sess-2")).toMatchObject({ state: "open", orderId: "o2" });
    expect(s.tracker.counters.impossible).toBe(0);
  });

  it("reports the wait of onboarding answers (vault_not_deployed, kyc_blocked): the runner pauses the wallet", async () => {
    const h = clientHarness();
    const s = setup(h);
    h.transport.on("POST", /^\/api\/orders\/place$/, json(201, { orderId: null, status: "REJECTED", code: "kyc_blocked", message: "limits confirming" }, { "retry-after": "4" }));
    const r = await s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET });
    expect(r.onboardingWait).toEqual({ code: "kyc_blocked", retryAfterMs: 4_000 });
    expect(s.tracker.get("t1-0-sess-1")!.state).toBe("rejected");
  });

  it("checks the market again before each batch of 15 (an earlier batch's answer may have halted the wallet)", async () => {
    const h = clientHarness();
    let halted = false;
    const s = setup(h, { mayPlace: () => (halted ? { ok: false, reason: "risk_halt" } : { ok: true }) });
    h.transport.on("POST", /^\/api\/orders\/place-batch$/, (req) => {
      halted = true; // the first batch's answer (its fills) trips a halt
      const n = (req.body as { orders: unknown[] }).orders.length;
      return json(201, { results: Array.from({ length: n }, (_, i) => ({ ...accepted(`o${i}`), success: true })) });
    });
    h.transport.on("POST", /^\/api\/orders\/place$/, json(201, accepted("late")));
    const quotes = Array.from({ length: 16 }, (_, i) => quote(300_000n + BigInt(i) * 1000n));
    const r = await s.ex.execute([], quotes, { symbol: "MKT", signing: MARKET });
    expect(r).toMatchObject({ placesSent: 15, placesSkipped: 1 });
    expect(h.transport.count("POST", /\/api\/orders\/place$/)).toBe(0);
    // Nothing was built or registered for the order that never left.
    expect(s.tracker.all()).toHaveLength(15);
  });

  it("does not resend a journal_intent_not_durable entry once the market no longer takes orders", async () => {
    const h = clientHarness();
    let halted = false;
    const s = setup(h, { mayPlace: () => (halted ? { ok: false, reason: "risk_halt" } : { ok: true }) });
    h.transport.on("POST", /^\/api\/orders\/place-batch$/, () => {
      halted = true; // entry 0's fill (or a kill) trips a halt during the request
      return json(201, { results: [{ ...accepted("o1"), success: true }, { success: false, code: "journal_intent_not_durable", message: "busy", details: { retryable: true } }] });
    });
    h.transport.on("POST", /^\/api\/orders\/place$/, json(201, accepted("o2")));
    await s.ex.execute([], [quote(500_000n), quote(490_000n)], { symbol: "MKT", signing: MARKET });
    expect(h.transport.count("POST", /\/api\/orders\/place$/)).toBe(0);
    expect(s.tracker.get("t1-0-sess-2")).toMatchObject({ state: "rejected" });
  });

  it("a place the client would resend after a 429 wait is withdrawn when the market closed meanwhile", async () => {
    const h = clientHarness();
    let closed = false;
    const s = setup(h, { mayPlace: () => (closed ? { ok: false, reason: "closing" } : { ok: true }) });
    h.transport.on("POST", /^\/api\/orders\/place$/, envelope(429, "rate_limited", { retryAfterSec: 30 }, { "retry-after": "30" }));
    let done = false;
    const p = s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET }).finally(() => (done = true));
    await h.clock.advance(1_000);
    closed = true; // the pull time before closesAt passes while the client waits out the 429
    // Withdrawn within a poll of the wait, not after the remaining 29 s (the wallet's cycle is free again).
    await h.clock.advance(500);
    expect(done).toBe(true);
    const r = await p;
    expect(h.transport.count("POST", /\/api\/orders\/place$/)).toBe(1);
    expect(r).toMatchObject({ placesSent: 1, placesAccepted: 0 });
    expect(s.tracker.get("t1-0-sess-1")).toMatchObject({ state: "rejected" });
  });

  it("sends nothing the market does not allow now", async () => {
    const h = clientHarness();
    const s = setup(h, { mayPlace: () => ({ ok: false, reason: "closing" }) });
    const r = await s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET });
    expect(r).toEqual({ cancelsSent: 0, placesSent: 0, placesAccepted: 0, placesSkipped: 1, placesHeld: 0 });
    expect(h.transport.requests).toHaveLength(0);
    expect(s.tracker.all()).toHaveLength(0);
  });

  it("turns placement trades into fills with our order's side and role", async () => {
    const h = clientHarness();
    const s = setup(h);
    const trade = {
      id: "t9",
      marketId: "MKT",
      tokenId: "11",
      outcome: 0,
      side: "BUY",
      price: "0.5",
      quantity: "4",
      fee: "0.01",
      feeRateBps: 100,
      makerOrderId: "o77",
      takerOrderId: "o1",
      makerWallet: VAULT,
      takerWallet: VAULT,
      createdAt: new Date(T0).toISOString(),
    };
    h.transport.on("POST", /^\/api\/orders\/place$/, json(201, { ...accepted("o1", "PARTIAL", [trade]), filledQty: "4", remainingQty: "6" }));
    await s.ex.execute([], [quote(500_000n)], { symbol: "MKT", signing: MARKET });
    expect(s.fills).toEqual([expect.objectContaining({ tradeId: "t9", orderId: "o1", role: "taker", qty: 4_000_000n, source: "placement", clientOrderId: "t1-0-sess-1" })]);
    expect(s.tracker.get("t1-0-sess-1")).toMatchObject({ state: "partial", filledQty: 4_000_000n });
  });
});

describe("OrderExecutor cancels", () => {
  function live(s: ReturnType<typeof setup>, h: ClientHarness, n: number): LiveOrder[] {
    for (let i = 1; i <= n; i++) {
      const cid = `c${i}`;
      s.tracker.apply({ kind: "sent", clientOrderId: cid, orderHash: `0x${i.toString(16).padStart(64, "0")}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: h.clock.now() });
      s.tracker.apply({ kind: "ack", clientOrderId: cid, result: { orderId: `o${i}`, status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] } });
    }
    return s.tracker.liveOrders("MKT");
  }

  it("maps a cancel-batch answer per id: cancelled, pending (retried later), refused", async () => {
    const h = clientHarness();
    const s = setup(h);
    const orders = live(s, h, 4);
    h.transport.on("POST", /^\/api\/orders\/cancel-batch$/, () =>
      json(
        200,
        {
          cancelled: ["o1"],
          notCancelled: [
            { orderId: "o2", code: "cancel_pending", message: "recorded" },
            { orderId: "o3", code: "not_cancellable", message: "terminal" },
          ],
        },
        { "retry-after": "5" },
      ),
    );
    await s.ex.execute(orders, [], { symbol: "MKT", signing: MARKET });
    expect(s.tracker.get("c1")!.state).toBe("cancelled");
    expect(s.tracker.get("c2")!.state).toBe("cancel_pending");
    // Refused as terminal: read it for its final state.
    expect(s.tracker.get("c3")!.state).toBe("unknown");
    // Not mentioned at all: repeated later, like a pending one.
    expect(s.tracker.get("c4")!.state).toBe("cancel_pending");
    expect(s.tracker.canCancel("c2", h.clock.now())).toBe(false);
    expect(s.tracker.canCancel("c2", h.clock.now() + 5_000)).toBe(true);
  });

  it("a cancel that fails for certain puts the order back to resting", async () => {
    const h = clientHarness();
    const s = setup(h);
    const [o] = live(s, h, 1);
    h.transport.on("POST", /^\/api\/orders\/cancel$/, envelope(503, "shard_owner_unavailable", { retryAfterSec: 1 }, { "retry-after": "1" }));
    const p = s.ex.execute([o!], [], { symbol: "MKT", signing: MARKET });
    await h.clock.advance(30_000);
    await p;
    expect(s.tracker.get("c1")!.state).toBe("open");
  });

  it("sends the places once the cancels are answered, in one batch", async () => {
    const h = clientHarness();
    const s = setup(h);
    const orders = live(s, h, 1);
    let cancelledWhenPlaced = false;
    h.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: "o1", status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    h.transport.on("POST", /^\/api\/orders\/place-batch$/, () => {
      cancelledWhenPlaced = s.tracker.get("c1")!.state === "cancelled";
      return json(201, { results: [{ ...accepted("p1"), success: true }, { ...accepted("p2"), success: true }] });
    });
    const r = await s.ex.execute(orders, [quote(510_000n), quote(480_000n, "SELL")], { symbol: "MKT", signing: MARKET });
    expect(h.transport.requests.map((q) => q.path)).toEqual(["/api/orders/cancel", "/api/orders/place-batch"]);
    expect(cancelledWhenPlaced).toBe(true);
    expect(r).toMatchObject({ cancelsSent: 1, placesSent: 2, placesAccepted: 2, placesHeld: 0 });
  });

  it("holds a place whose slot's cancel came back pending (the old order may still rest); other slots go", async () => {
    const h = clientHarness();
    const s = setup(h);
    const orders = live(s, h, 1); // c1: BUY outcome 0
    h.transport.on("POST", /^\/api\/orders\/cancel$/, json(202, { orderId: "o1", status: "cancel_pending", retryAfterSec: 2 }, { "retry-after": "2" }));
    h.transport.on("POST", /^\/api\/orders\/place$/, json(201, accepted("p1")));
    const r = await s.ex.execute(orders, [quote(510_000n), quote(530_000n, "SELL")], { symbol: "MKT", signing: MARKET });
    expect(s.tracker.get("c1")!.state).toBe("cancel_pending");
    expect(r).toMatchObject({ cancelsSent: 1, placesSent: 1, placesHeld: 1 });
    const sent = h.transport.requests.filter((q) => q.path === "/api/orders/place").map((q) => (q.body as { side: string }).side);
    expect(sent).toEqual(["SELL"]);
  });

  it("holds the slot when the cancelled order filled meanwhile (the position moved: plan again first)", async () => {
    const h = clientHarness();
    const s = setup(h);
    const orders = live(s, h, 1);
    h.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: "o1", status: "FILLED", filledQty: "10", remainingQty: "0" }));
    const r = await s.ex.execute(orders, [quote(510_000n)], { symbol: "MKT", signing: MARKET });
    expect(s.tracker.get("c1")!.state).toBe("filled");
    expect(r).toMatchObject({ placesSent: 0, placesHeld: 1 });
    expect(h.transport.count("POST", /place/)).toBe(0);
  });

  it("holds the slot when the cancel failed for certain (the order rests again)", async () => {
    const h = clientHarness();
    const s = setup(h);
    const orders = live(s, h, 1);
    h.transport.on("POST", /^\/api\/orders\/cancel$/, envelope(403, "forbidden"));
    const r = await s.ex.execute(orders, [quote(510_000n)], { symbol: "MKT", signing: MARKET });
    expect(s.tracker.get("c1")!.state).not.toBe("cancelled");
    expect(r).toMatchObject({ placesSent: 0, placesHeld: 1 });
    expect(h.transport.count("POST", /place/)).toBe(0);
  });

  it("checks the market again after waiting for the cancels (time moved)", async () => {
    const h = clientHarness();
    let open = true;
    const s = setup(h, { mayPlace: () => (open ? { ok: true } : { ok: false, reason: "closing" }) });
    const orders = live(s, h, 1);
    h.transport.on("POST", /^\/api\/orders\/cancel$/, () => {
      open = false;
      return json(200, { orderId: "o1", status: "CANCELLED", filledQty: "0", remainingQty: "10" });
    });
    const r = await s.ex.execute(orders, [quote(510_000n)], { symbol: "MKT", signing: MARKET });
    expect(r).toMatchObject({ cancelsSent: 1, placesSent: 0, placesSkipped: 1, placesHeld: 0 });
    expect(h.transport.count("POST", /place/)).toBe(0);
    expect(s.tracker.all().map((o) => o.clientOrderId)).toEqual(["c1"]);
  });
});
