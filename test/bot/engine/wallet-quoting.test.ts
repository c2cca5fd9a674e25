/**
 * The quote pump of one wallet (src/bot/engine/wallet-quoting.ts), over fakes of the registry, the
 * book source and the executor: when cycles run, one at a time; what a cycle hands the executor;
 * how it acts on the execution report (onboarding pause, stale market status, held and deferred
 * work); the heartbeat event of every cycle.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { WalletQuoting, type WalletQuotingParts } from "../../../src/bot/engine/wallet-quoting.js";
import { WalletSendCheck } from "../../../src/bot/engine/send-check.js";
import type { ExecReport } from "../../../src/bot/engine/executor.js";
import { RecordingObserver } from "../../../src/bot/observer.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import { OwnOrderLog } from "../../../src/bot/quote/own-orders.js";
import { EventSeq, type BookSnapshot } from "../../../src/bot/market/market-data.js";
import type { MarketEntry } from "../../../src/bot/market/market-registry.js";
import type { DesiredQuote, LiveOrder } from "../../../src/bot/quote/quotes.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { RiskSnapshot } from "../../../src/bot/risk/exposure.js";
import type { StrategyRunner } from "../../../strategies/registry.js";
import { T0, marketRow, silentLogger } from "./fakes.js";
import { limits } from "../risk/fixtures.js";

const WALLET = "0x00000000000000000000000000000000000000aa";
const SYMBOL = "MKT";

/** Joins the best bid and (as a NO bid) the best ask, one share each. */
const JOIN: StrategyRunner = {
  name: "join",
  params: {},
  step: (input) => ({
    quotes: [
      { outcome: 0, side: "BUY", price: input.book.bids[0]!.price, size: 1_000_000n, postOnly: true },
      { outcome: 1, side: "BUY", price: 1_000_000n - input.book.asks[0]!.price, size: 1_000_000n, postOnly: true },
    ],
    state: undefined,
  }),
};

interface Call {
  cancels: readonly LiveOrder[];
  places: readonly DesiredQuote[];
  resolve(r: Partial<ExecReport>): void;
}

function world(opts: { budget?: { cancels: number; places: number }; halted?: boolean } = {}) {
  const clock = new VirtualClock(T0);
  const observer = new RecordingObserver();
  const calls: Call[] = [];
  const refreshed: string[][] = [];
  const entry: MarketEntry = { row: marketRow({ symbol: SYMBOL }), selected: true, wallet: 0, readAtMs: T0 };
  const book: BookSnapshot = {
    symbol: SYMBOL,
    outcome: 0,
    view: { bids: [{ price: 450_000n, size: 50_000_000n }], asks: [{ price: 550_000n, size: 50_000_000n }], updatedAtMs: T0 },
    fetchedAtMs: T0,
    sentSeq: 1,
  };
  const registry = {
    get: (s: string) => (s === SYMBOL ? entry : undefined),
    phase: () => ({ phase: "open" as const, reason: "open" as const, postOnly: false, closesAtMs: T0 + 86_400_000, msToClose: 86_400_000 }),
    maySend: () => ({ ok: true as const }),
    marketsOf: () => [SYMBOL],
    refreshStatus: (symbols: readonly string[]) => {
      refreshed.push([...symbols]);
      return Promise.resolve();
    },
  };
  const core = {
    facade: { limits: limits(), tuning: { minQuoteSize: 1n } },
    evaluate: () => [],
    gate: () => (opts.halted ? { quote: false, reason: "kill_switch", scope: { kind: "global" }, halts: [] } : { quote: true }),
    snapshot: () => new RiskSnapshot([{ wallet: "w", market: SYMBOL, outcomeCount: 2, positions: [], openOrders: [] }]),
    allowPlace: () => !opts.halted,
    reportFiltered: () => undefined,
  };
  const risk = { core } as unknown as WalletQuotingParts["risk"];
  const check = new WalletSendCheck({ clock, risk, registry: registry, wallet: WALLET, name: "w", index: 0 });
  const executor = {
    budget: () => opts.budget ?? { cancels: 100, places: 100 },
    execute: (cancels: readonly LiveOrder[], places: readonly DesiredQuote[]) =>
      new Promise<ExecReport>((resolve) =>
        calls.push({ cancels, places, resolve: (r) => resolve({ cancelsSent: cancels.length, placesSent: places.length, placesAccepted: 0, placesSkipped: 0, placesHeld: 0, ...r }) }),
      ),
  };
  const parts = {
    name: "w",
    index: 0,
    clock,
    log: silentLogger(),
    observer,
    registry,
    data: { book: (_s: string, o: number) => (o === 0 ? book : undefined), ageMs: () => 0, isStale: () => false },
    inventory: new Inventory(),
    strategy: JOIN,
    risk,
    quoting: { priceToleranceTicks: 1, sizeTolerance: 0.1, maxOrderAgeMs: 600_000 },
    platform: () => ({ feeConfig: { defaultFeeTakerBps: 0 } }),
    engine: undefined,
    monotonic: () => clock.now(),
    wallet: WALLET,
    check,
    tracker: new OrderTracker(WALLET),
    own: new OwnOrderLog(new EventSeq()),
    executor,
    warmer: undefined,
    streamView: () => ({ subscribed: true, downSinceMs: undefined }),
  } as unknown as WalletQuotingParts;
  const q = new WalletQuoting(parts);
  /** Let the pump's promise continuations run. */
  const flush = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { q, clock, observer, calls, refreshed, check, flush };
}

describe("WalletQuoting", () => {
  it("runs nothing before begin(); then a trigger plans at once and hands the plan to the executor", async () => {
    const w = world();
    w.q.trigger(SYMBOL, "book");
    await w.flush();
    expect(w.calls).toHaveLength(0);
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    expect(w.calls).toHaveLength(1);
    expect(w.calls[0]!.places.map((p) => [p.outcome, p.price])).toEqual([
      [0, 450_000n],
      [1, 450_000n],
    ]);
    w.calls[0]!.resolve({});
    await w.q.idle();
    expect(w.observer.of("cycle")).toMatchObject([{ marketId: SYMBOL, trigger: "book", places: 2, cancels: 0 }]);
  });

  it("runs one cycle at a time: triggers during a cycle mark the market once, and it runs once more after", async () => {
    const w = world();
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    w.q.trigger(SYMBOL, "fill");
    w.q.trigger(SYMBOL, "order");
    expect(w.q.busy).toBe(true);
    expect(w.calls).toHaveLength(1);
    w.calls[0]!.resolve({});
    await w.flush();
    expect(w.calls).toHaveLength(2);
    w.calls[1]!.resolve({});
    await w.q.idle();
    expect(w.observer.of("cycle").map((e) => e.trigger)).toEqual(["book", "fill"]);
  });

  it("live (a clock that gives turns), the next market's cycle waits for a turn of the event loop; on a VirtualClock it does not", async () => {
    const w = world();
    const turns: (() => void)[] = [];
    (w.clock as VirtualClock & { turn?: () => Promise<void> }).turn = () => new Promise<void>((r) => turns.push(r));
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    w.q.trigger("OTHER", "timer");
    expect(w.calls).toHaveLength(1);
    w.calls[0]!.resolve({});
    await w.flush();
    expect(w.observer.of("cycle").map((e) => e.marketId)).toEqual([SYMBOL]);
    expect(turns).toHaveLength(1);
    turns[0]!();
    await w.q.idle();
    expect(w.observer.of("cycle").map((e) => e.marketId)).toEqual([SYMBOL, "OTHER"]);

    const v = world();
    v.q.begin();
    v.q.trigger(SYMBOL, "book");
    v.q.trigger("OTHER", "timer");
    v.calls[0]!.resolve({});
    await v.flush();
    expect(v.observer.of("cycle").map((e) => e.marketId)).toEqual([SYMBOL, "OTHER"]);
  });

  it("pauses quoting on an onboarding wait in the report: the market is pulled until it ends, then cycled again", async () => {
    const w = world();
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    w.calls[0]!.resolve({ onboardingWait: { code: "kyc_blocked", retryAfterMs: 4_000 } });
    await w.q.idle();
    expect(w.check.mayPlace(SYMBOL, true)).toEqual({ ok: false, reason: "not_quoting" });
    w.q.trigger(SYMBOL, "book");
    await w.q.idle();
    expect(w.calls).toHaveLength(1);
    expect(w.observer.of("cycle")).toHaveLength(2);
    await w.clock.advance(4_000);
    expect(w.check.mayPlace(SYMBOL, true)).toEqual({ ok: true });
    expect(w.calls).toHaveLength(2);
    w.calls[1]!.resolve({});
    await w.q.idle();
    expect(w.observer.of("cycle").at(-1)!.trigger).toBe("timer");
  });

  it("reads the market's status again when the platform said it is not open, then cycles it", async () => {
    const w = world();
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    w.calls[0]!.resolve({ marketNotOpen: true });
    await w.flush();
    expect(w.refreshed).toEqual([[SYMBOL]]);
    expect(w.calls).toHaveLength(2);
    w.calls[1]!.resolve({});
    await w.q.idle();
    expect(w.observer.of("cycle").at(-1)!.trigger).toBe("market");
  });

  it("looks again 250 ms later at work the rate budget deferred", async () => {
    const w = world({ budget: { cancels: 0, places: 1 } });
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    expect(w.calls[0]!.places).toHaveLength(1);
    w.calls[0]!.resolve({});
    await w.q.idle();
    expect(w.observer.of("cycle")[0]!.deferredByBudget).toBe(1);
    await w.clock.advance(249);
    expect(w.calls).toHaveLength(1);
    await w.clock.advance(1);
    expect(w.calls).toHaveLength(2);
  });

  it("looks again soon at places held back behind a cancel that did not end the old order", async () => {
    const w = world();
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    w.calls[0]!.resolve({ placesHeld: 1 });
    await w.q.idle();
    await w.clock.advance(250);
    expect(w.calls).toHaveLength(2);
  });

  it("halted: the cycle places nothing and the send check refuses", async () => {
    const w = world({ halted: true });
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    await w.q.idle();
    expect(w.calls).toHaveLength(0);
    expect(w.observer.of("cycle")).toMatchObject([{ places: 0, cancels: 0 }]);
    expect(w.check.mayPlace(SYMBOL, true)).toEqual({ ok: false, reason: "risk_halt" });
  });

  it("stop(): pending triggers and retries are dropped, no new cycle starts", async () => {
    const w = world({ budget: { cancels: 0, places: 1 } });
    w.q.begin();
    w.q.trigger(SYMBOL, "book");
    w.q.trigger(SYMBOL, "fill");
    w.q.stop();
    w.calls[0]!.resolve({});
    await w.q.idle();
    await w.clock.advance(1_000);
    expect(w.calls).toHaveLength(1);
    expect(w.q.active).toBe(false);
  });
});
