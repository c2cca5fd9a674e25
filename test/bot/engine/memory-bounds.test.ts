/**
 * What the daemon remembers per orderId, order, market or timer stays bounded over a long run:
 * claim marks of buffered orderIds (and failed claims are tried again), remembered foreign
 * orders, the own-order log's per-market maps, fired one-off timers, strategy state of markets no
 * longer followed.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { RiskSnapshot } from "../../../src/bot/risk/exposure.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import { DaemonTimers, type DaemonTimerParts } from "../../../src/bot/engine/daemon-timers.js";
import { NOOP_OBSERVER } from "../../../src/bot/observer.js";
import { EventSeq } from "../../../src/bot/market/market-data.js";
import { OwnOrderLog } from "../../../src/bot/quote/own-orders.js";
import { CLAIM_RETRY_MS, FORGET_MS, WalletUpkeep } from "../../../src/bot/engine/wallet-upkeep.js";
import { WalletQuoting, type WalletQuotingParts } from "../../../src/bot/engine/wallet-quoting.js";
import type { OrderRecord } from "../../../src/wire/index.js";
import { T0, WALLET, clientHarness, envelope, json, orderRecord, silentLogger, syncContext, type ClientHarness } from "./fakes.js";

const MINE = "t1-0-abc-1";

function upkeepHarness(h: ClientHarness, foreignOrders: "cancel" | "leave" = "leave") {
  const { ctx: sync, tracker } = syncContext(h);
  const upkeep = new WalletUpkeep({
    wallet: WALLET,
    api: sync.api,
    tracker,
    sync,
    inventory: new Inventory(),
    observer: NOOP_OBSERVER,
    log: silentLogger(),
    clock: h.clock,
    instanceId: "t1",
    foreignOrders,
    unknownGraceMs: 0,
    unknownSince: new Map(),
    symbolOf: (id) => id,
    cancel: () => Promise.resolve(),
    prune: () => undefined,
  });
  return { tracker, upkeep };
}

/** A trade row for an orderId the tracker does not know: buffered. */
function bufferTrade(tracker: OrderTracker, orderId: string, tradeId: string, at: number): void {
  const t = tracker.apply({ kind: "trade", fill: { tradeId, orderId, qty: 1_000_000n, ts: at } });
  expect(t.outcome).toBe("buffered");
}

const reads = (h: ClientHarness, orderId: string): number => h.transport.count("GET", new RegExp(`^/api/orders/${orderId}$`));

describe("claims of buffered orderIds", () => {
  it("reads again, with a growing delay, an orderId whose read failed; adopts it once the read answers", async () => {
    const h = clientHarness();
    const { tracker, upkeep } = upkeepHarness(h);
    const platform: { record?: OrderRecord } = {};
    h.transport.on("GET", /^\/api\/orders\/o-late$/, () => (platform.record === undefined ? envelope(404, "order_not_found") : json(200, platform.record)));
    bufferTrade(tracker, "o-late", "tr-1", T0);

    await upkeep.maintain();
    expect(reads(h, "o-late")).toBe(1);
    // Maintenance runs every second: no read before the retry delay.
    await h.clock.advance(CLAIM_RETRY_MS - 1);
    await upkeep.maintain();
    expect(reads(h, "o-late")).toBe(1);
    await h.clock.advance(1);
    await upkeep.maintain();
    expect(reads(h, "o-late")).toBe(2);
    // Second failure: the delay doubles.
    await h.clock.advance(CLAIM_RETRY_MS);
    await upkeep.maintain();
    expect(reads(h, "o-late")).toBe(2);
    await h.clock.advance(CLAIM_RETRY_MS);
    platform.record = orderRecord({ id: "o-late", clientOrderId: MINE, status: "PARTIAL", filledQty: "1", remainingQty: "9" });
    await upkeep.maintain();
    expect(reads(h, "o-late")).toBe(3);
    // Adopted from its record; the buffered trade was replayed into it.
    expect(tracker.get(MINE)).toMatchObject({ orderId: "o-late", state: "partial", tradeQty: 1_000_000n });
    expect(tracker.bufferedOrderIds()).toEqual([]);
    await upkeep.maintain();
    expect(upkeep.sizes().claims).toBe(0);
  });

  it("forgets the mark of an orderId that left the buffer (answered meanwhile), so marks do not pile up", async () => {
    const h = clientHarness();
    const { tracker, upkeep } = upkeepHarness(h);
    h.transport.on("GET", /^\/api\/orders\/o-\d+$/, envelope(404, "order_not_found"));
    for (let i = 0; i < 50; i++) {
      const cid = `t1-0-abc-${(i + 1).toString(36)}`;
      tracker.apply({ kind: "sent", clientOrderId: cid, orderHash: `0x${(i + 1).toString(16).padStart(64, "0")}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: h.clock.now() });
      // The fill beats the placement answer; maintenance looks at it before the answer arrives.
      bufferTrade(tracker, `o-${i}`, `tr-${i}`, h.clock.now());
      await upkeep.maintain();
      tracker.apply({ kind: "ack", clientOrderId: cid, result: { orderId: `o-${i}`, status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] } });
      await h.clock.advance(1_000);
    }
    await upkeep.maintain();
    expect(tracker.bufferedOrderIds()).toEqual([]);
    expect(upkeep.sizes().claims).toBe(0);
  });

  it("drops the frames of an orderId no read could claim within FORGET_MS (counted), and its mark", async () => {
    const h = clientHarness();
    const { tracker, upkeep } = upkeepHarness(h);
    h.transport.on("GET", /^\/api\/orders\/o-gone$/, envelope(404, "order_not_found"));
    bufferTrade(tracker, "o-gone", "tr-1", T0);
    for (let t = 0; t < FORGET_MS; t += 60_000) {
      await upkeep.maintain();
      await h.clock.advance(60_000);
    }
    // Backed off: far fewer reads than maintenance rounds.
    expect(reads(h, "o-gone")).toBeLessThan(25);
    await upkeep.maintain();
    expect(tracker.bufferedOrderIds()).toEqual([]);
    expect(tracker.counters.bufferDropped).toBe(1);
    expect(upkeep.sizes().claims).toBe(0);
  });

  it("drops the frames of a foreign order once read (they can never apply), and does not read it again", async () => {
    const h = clientHarness();
    const { tracker, upkeep } = upkeepHarness(h, "leave");
    h.transport.on("GET", /^\/api\/orders\/o-theirs$/, json(200, orderRecord({ id: "o-theirs", clientOrderId: "other-0-x-1", status: "OPEN" })));
    bufferTrade(tracker, "o-theirs", "tr-1", T0);
    await upkeep.maintain();
    expect(reads(h, "o-theirs")).toBe(1);
    expect(tracker.bufferedOrderIds()).toEqual([]);
    // More of its frames: recognised as foreign (seen open a moment ago), dropped without a read.
    await h.clock.advance(1_000);
    bufferTrade(tracker, "o-theirs", "tr-2", h.clock.now());
    await upkeep.maintain();
    expect(reads(h, "o-theirs")).toBe(1);
    expect(tracker.bufferedOrderIds()).toEqual([]);
    expect(tracker.counters.bufferDropped).toBe(2);
  });
});

describe("remembered foreign orders", () => {
  it("are forgotten FORGET_MS after they were last seen", async () => {
    const h = clientHarness();
    const { upkeep } = upkeepHarness(h, "leave");
    for (let i = 0; i < 20; i++) await upkeep.onForeign(orderRecord({ id: `f-${i}`, clientOrderId: null }));
    await upkeep.maintain();
    expect(upkeep.sizes().foreignSeen).toBe(20);
    await h.clock.advance(FORGET_MS - 1);
    // One of them is still listed open: seen again, so remembered.
    await upkeep.onForeign(orderRecord({ id: "f-3", clientOrderId: null }));
    await upkeep.maintain();
    expect(upkeep.sizes().foreignSeen).toBe(20);
    await h.clock.advance(1);
    await upkeep.maintain();
    expect(upkeep.sizes().foreignSeen).toBe(1);
  });
});

describe("own-order log", () => {
  it("drops a market's map once prune has emptied it", () => {
    const own = new OwnOrderLog(new EventSeq());
    for (let i = 0; i < 30; i++) {
      own.rested(`c${i}`, `M${i}`, { outcome: 0, side: "BUY", price: 500_000n, remaining: 1_000_000n });
      own.ended(`c${i}`, 1_000 + i);
    }
    own.rested("live", "M0", { outcome: 0, side: "BUY", price: 400_000n, remaining: 1_000_000n });
    own.prune(10_000);
    expect(own.size).toBe(1);
    expect(own.marketCount).toBe(1);
  });
});

describe("daemon one-off timers", () => {
  it("forgets a one-off timer once it fired; clear() still cancels those pending", async () => {
    const clock = new VirtualClock(T0);
    const timers = new DaemonTimers({ clock, markets: { clearTimers: () => undefined } } as unknown as DaemonTimerParts);
    let fired = 0;
    for (let i = 0; i < 100; i++) timers.later(() => void fired++, 1_000);
    timers.later(() => void fired++, 60_000);
    await clock.advance(1_000);
    expect(fired).toBe(100);
    expect(timers.size).toBe(1);
    timers.clear();
    await clock.advance(60_000);
    expect(fired).toBe(100);
    expect(timers.size).toBe(0);
  });
});

describe("strategy state per market", () => {
  it("is dropped for markets the registry no longer follows", async () => {
    const clock = new VirtualClock(T0);
    const followed = new Set(["KEEP", "GONE"]);
    const tracker = new OrderTracker(WALLET);
    const parts = {
      name: "w",
      index: 0,
      clock,
      log: silentLogger(),
      observer: NOOP_OBSERVER,
      // While cycling no entry is returned (the cycle then plans nothing and needs no strategy);
      // afterwards `get` says which markets are still followed.
      registry: { get: (s: string) => (!cycling && followed.has(s) ? {} : undefined), maySend: () => ({ ok: true }) },
      data: { book: () => undefined, ageMs: () => undefined, isStale: () => true },
      inventory: new Inventory(),
      risk: {
        core: {
          facade: { limits: {}, tuning: { minQuoteSize: 0n } },
          evaluate: () => [],
          gate: () => ({ quote: true }),
          snapshot: () => new RiskSnapshot(),
          allowPlace: () => true,
        },
      },
      quoting: { priceToleranceTicks: 1, sizeTolerance: 0, maxOrderAgeMs: 60_000 },
      platform: () => ({ feeConfig: { defaultFeeTakerBps: 0 } }),
      monotonic: () => clock.now(),
      wallet: WALLET,
      check: { on: false, pausedUntilMs: 0 },
      tracker,
      own: new OwnOrderLog(new EventSeq()),
      executor: { budget: () => ({ cancels: 10, places: 10 }) },
      warmer: undefined,
      streamView: () => ({ subscribed: true, downSinceMs: undefined }),
    } as unknown as WalletQuotingParts;
    let cycling = true;
    const q = new WalletQuoting(parts);
    q.begin();
    q.trigger("KEEP", "timer");
    q.trigger("GONE", "timer");
    await q.idle();
    expect(q.stateCount).toBe(2);
    cycling = false;
    followed.delete("GONE");
    q.forgetStates();
    expect(q.stateCount).toBe(1);
  });
});
