/**
 * What the neg-risk event cap (risk.maxEventLoss, src/bot/risk/event-group.ts) adds to one quote
 * cycle: the same cycle of one market of a three-market neg-risk event, with the event group and
 * the cap, against the cycle without them (the baseline, measured in the same run). The ladder
 * (3 levels a side), the demo's limits; the siblings hold positions and rest orders, so the
 * event base walks real legs. The book moves by a seeded random walk; the plan is applied at once.
 *
 *   BENCH event_cycle_us  CPU microseconds per cycle with the event cap (median of 3 runs of
 *                         30,000 cycles), ratio = over the same cycle without an event group
 */
import { loadConfig } from "../src/config/index.js";
import { createStrategyRunner } from "../strategies/registry.js";
import { quoteCycle, type CyclePolicy, type StrategyState } from "../src/bot/quote/cycle.js";
import { RiskSnapshot, type MarketExposure } from "../src/bot/risk/exposure.js";
import { cycleEvent, type CycleEvent, type EventRow } from "../src/bot/risk/event-group-view.js";
import { benchSnapshot, cpuMs, InstantOrders, ladderBook, median, midWalk } from "./fixtures.js";

const CYCLES = 30_000;
const SYMBOL = "EV-A";
const T0 = 1_700_000_000_000;
const ROWS: EventRow[] = ["EV-A", "EV-B", "EV-C"].map((symbol) => ({ symbol, eventId: "E", negRiskEligible: true, outcomeCount: 2, groupItemTitle: symbol }));

const sibling = (market: string): MarketExposure => ({
  wallet: "bench",
  market,
  outcomeCount: 2,
  positions: [{ outcome: 0, qty: 40_000_000n, avgCost: 300_000n }],
  openOrders: [1, 2, 3].map((k) => ({ clientOrderId: `${market}${k}`, orderId: `${market}o${k}`, outcome: 0, side: "BUY", price: BigInt(300 - k) * 1000n, size: 10_000_000n, remaining: 10_000_000n, postOnly: true, createdAtMs: T0, state: "open" })),
});

function once(policy: CyclePolicy, mids: Int32Array, withEvent: boolean): number {
  const orders = new InstantOrders();
  let state: StrategyState = new Map();
  const siblings = [sibling("EV-B"), sibling("EV-C")];
  const t0 = cpuMs();
  for (let i = 0; i < mids.length; i++) {
    const live = orders.live;
    const m = BigInt(mids[i]!) * 1000n;
    const nowMs = T0 + i * 100;
    const view = ladderBook(m, nowMs);
    const event: CycleEvent | undefined = withEvent ? cycleEvent(ROWS, SYMBOL, { book: () => view, positions: () => [] }) : undefined;
    const exposure = new RiskSnapshot([{ wallet: "bench", market: SYMBOL, outcomeCount: 2, positions: [], openOrders: live }, ...siblings]);
    const snap = benchSnapshot({ symbol: SYMBOL, i, nowMs, mid: m, view, closesAtMs: T0 + 86_400_000, live, exposure, event });
    const c = quoteCycle(policy, snap, state);
    state = c.nextStrategyState;
    orders.apply(c.plan, nowMs);
  }
  return cpuMs() - t0;
}

export async function run(): Promise<void> {
  const config = loadConfig("configs/demo.yaml", {});
  const policy: CyclePolicy = {
    strategy: createStrategyRunner("ladder", { levels: 3 }),
    quoting: { priceToleranceTicks: 1, sizeTolerance: 0.1, maxOrderAgeMs: 600_000 },
    // A cap that binds now and then: the trim runs, not only the check.
    limits: { ...config.risk, maxEventLoss: 60_000_000n },
    tuning: { minQuoteSize: 1_000_000n },
  };
  const mids = midWalk(CYCLES, 7, { start: 300, min: 100, max: 600 });
  once(policy, mids.subarray(0, 3_000), true);
  once(policy, mids.subarray(0, 3_000), false);
  const withEvent: number[] = [];
  const without: number[] = [];
  for (let r = 0; r < 3; r++) {
    withEvent.push(once(policy, mids, true));
    without.push(once(policy, mids, false));
  }
  const w = median(withEvent);
  const b = median(without);
  console.log(`BENCH event_cycle_us ${((w * 1000) / CYCLES).toFixed(2)} us ratio=${(w / b).toFixed(2)}`);
  await Promise.resolve();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
