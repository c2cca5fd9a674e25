/**
 * Live markouts and adverse selection as metrics (issue 13 item 3, issue 14 part 4; EngineEvents
 * `markout` and `adverse_state` from src/bot/quote/adverse/adverse-book.ts):
 *
 *   mm_fill_markout_ticks{wallet,market,horizon,side}   histogram of each own fill's signed markout
 *                                                        in ticks (0.001; positive is good for us)
 *                                                        at 1s, 5s, 30s, 60s, 300s
 *   mm_toxicity_state{wallet,market,outcome,side}       0 normal, 1 widen, 2 pull
 *   mm_jump_cooling{wallet,market}                      1 while the market's quotes are pulled after a jump
 *
 * Labels are bounded: wallet and market go through the LabelGuard (markets: the label slots, at most
 * `metrics` cap, the rest "other"), horizon is one of five, side BUY/SELL, outcome a small index.
 * Registered once per registry (DaemonMetrics registers them at construction: a bare registry serves them).
 */
import { Gauge, Histogram, type Registry } from "prom-client";
import type { Side } from "../core/amounts.js";
import type { Micros } from "../core/money.js";
import { onePer } from "../core/memo.js";

/** Ticks (0.001 = 1,000 micros per share). */
export const MARKOUT_TICK_BUCKETS = [-50, -20, -10, -5, -2, -1, -0.5, 0, 0.5, 1, 2, 5, 10, 20, 50];

const LEVELS = { widen: 1, pull: 2 } as const;

type Wm = { wallet: string; market: string };

export class AdverseMetrics {
  readonly markouts: Histogram<"wallet" | "market" | "horizon" | "side">;
  readonly toxicity: Gauge<"wallet" | "market" | "outcome" | "side">;
  readonly jumpCooling: Gauge<"wallet" | "market">;
  /** The sides each (wallet, market) label pair was last set to a non-zero state, to zero them. */
  private readonly acting = new Map<string, { l: Wm; sides: string[] }>();

  constructor(registry: Registry) {
    this.markouts = new Histogram({
      name: "mm_fill_markout_ticks",
      help: "Signed markout of each own fill against the book mid at the horizon (1s, 5s, 30s, 60s, 300s), in ticks of 0.001: positive is good for us.",
      labelNames: ["wallet", "market", "horizon", "side"],
      buckets: MARKOUT_TICK_BUCKETS,
      registers: [registry],
    });
    this.toxicity = new Gauge({
      name: "mm_toxicity_state",
      help: "Adverse-selection state of a quoted side (adverse.toxicity): 0 normal, 1 widen, 2 pull.",
      labelNames: ["wallet", "market", "outcome", "side"],
      registers: [registry],
    });
    this.jumpCooling = new Gauge({
      name: "mm_jump_cooling",
      help: "1 while the market's quotes are pulled after a mid jump (adverse.jump), else 0.",
      labelNames: ["wallet", "market"],
      registers: [registry],
    });
  }

  markout(l: Wm, side: Side, horizonMs: number, perShare: Micros): void {
    this.markouts.observe({ ...l, horizon: `${Math.round(horizonMs / 1000)}s`, side }, Number(perShare) / 1000);
  }

  state(l: Wm, sides: readonly { outcome: number; side: Side; level: "widen" | "pull" }[], cooling: boolean): void {
    const key = `${l.wallet}\u0000${l.market}`;
    const now = sides.map((s) => `${s.outcome}:${s.side}`);
    const before = this.acting.get(key);
    if (before !== undefined) for (const k of before.sides) if (!now.includes(k)) this.toxicity.set({ ...l, outcome: k.split(":")[0]!, side: k.split(":")[1]! }, 0);
    for (const s of sides) this.toxicity.set({ ...l, outcome: String(s.outcome), side: s.side }, LEVELS[s.level]);
    if (now.length > 0) this.acting.set(key, { l, sides: now });
    else this.acting.delete(key);
    this.jumpCooling.set(l, cooling ? 1 : 0);
  }
}

const byRegistry = onePer((registry: Registry) => new AdverseMetrics(registry));

/** The registry's adverse-selection metrics, registered on first use. */
export function adverseMetrics(registry: Registry): AdverseMetrics {
  return byRegistry(registry);
}
