/**
 * Noise takers: uninformed traders with a random outcome, side and size (`noise.size`), at Poisson
 * times (`noise.arrivalPerMin`). Unlike the fair-anchored takers of agent.ts they know nothing of
 * the fair value: each one is an IOC order priced off the book, a buy limited at the best ask plus
 * `maxSlippage`, a sell at the best bid minus it, so they pay the spread whatever the book says
 * and are the flow a market maker earns on. Every arrival draws the same variates (outcome, side,
 * size) whether or not it trades, so the stream is balanced by construction and replays exactly
 * for a seed. They trade only while OPEN.
 */
import type { TimerHandle } from "../../core/clock.js";
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { Rng } from "../../core/rng.js";
import type { NoiseParams } from "../platform/scenario.js";
import type { FlowMarket } from "./market.js";
import { drawSize } from "./sizes.js";
import { clampPrice, type FlowAccount } from "./trading.js";

export interface NoiseStats {
  arrivals: number;
  orders: number;
  filledQty: Micros;
}

/** One noise arrival's draws. */
export interface NoiseDraw {
  outcome: number;
  side: Side;
  quantity: Micros;
}

export function drawNoise(rng: Rng, params: NoiseParams, outcomeCount: number): NoiseDraw {
  const outcome = rng.int(outcomeCount);
  const side: Side = rng.float() < 0.5 ? "BUY" : "SELL";
  const quantity = drawSize(rng, params.size);
  return { outcome, side, quantity };
}

export class NoiseTrader {
  readonly stats: NoiseStats = { arrivals: 0, orders: 0, filledQty: 0n };
  private timer: TimerHandle | undefined;

  constructor(
    private readonly m: FlowMarket,
    private readonly params: NoiseParams,
    private readonly rng: Rng,
    private readonly account: FlowAccount,
  ) {}

  get enabled(): boolean {
    return this.params.arrivalPerMin > 0;
  }

  start(): void {
    this.stop();
    if (this.enabled) this.schedule();
  }

  stop(): void {
    this.m.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const gapMs = Math.max(1, Math.round(this.rng.exponential(this.params.arrivalPerMin) * 60_000));
    this.timer = this.m.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.m.settled()) return;
      this.arrive();
      this.schedule();
    }, gapMs);
  }

  arrive(): void {
    const m = this.m;
    const d = drawNoise(this.rng, this.params, m.outcomeCount);
    this.stats.arrivals++;
    if (m.status() !== "OPEN") return;
    const { bid, ask } = m.touch(d.outcome);
    const best = d.side === "BUY" ? ask : bid;
    if (best === null) return;
    const price = clampPrice(d.side === "BUY" ? best + this.params.maxSlippage : best - this.params.maxSlippage);
    if (!this.account.fund(d.outcome, d.side, price, d.quantity)) return;
    const r = m.engine.place({ wallet: this.account.wallet, marketId: m.marketId, outcome: d.outcome, side: d.side, price, quantity: d.quantity, timeInForce: "IOC" });
    this.stats.orders++;
    this.stats.filledQty += r.filledQty;
  }
}
