/**
 * Informed takers: traders who know the TRUE fair value (news included, see market.ts) and take
 * whatever the book offers on the wrong side of it.
 *
 * At each look (Poisson, `informed.arrivalPerMin`, plus one `reactionMs` after every news jump)
 * they check each book: when the best ask is below fair - edge they BUY, when the best bid is
 * above fair + edge they SELL, with an IOC limit at fair -/+ edge so they never pay more than
 * that. The size grows with the mispricing: `sizePerCent` shares per 0.01 between the fair value
 * and the best price, capped at `maxSize`. So a quote left stale by a jump is taken, fully and at
 * once when the jump is large, and quotes near the fair value are never touched: the loss a
 * market maker takes from them is adverse selection, nothing else. They trade only while OPEN.
 * Their only random draws are the gaps between looks, so what they do depends on the book alone.
 */
import type { TimerHandle } from "../../core/clock.js";
import { MAX_PRICE, MIN_PRICE, type Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { Rng } from "../../core/rng.js";
import type { InformedParams } from "../platform/scenario.js";
import type { FlowMarket } from "./market.js";
import { ceilTick, floorTick, LOT, type FlowAccount } from "./trading.js";

export interface InformedStats {
  looks: number;
  orders: number;
  boughtQty: Micros;
  soldQty: Micros;
}

/** One cent in micros: the unit `sizePerCent` counts mispricing in. */
const CENT: Micros = 10_000n;

/** Shares for a mispricing: sizePerCent per cent, in lots, at least one lot, at most maxSize. */
export function informedSize(params: InformedParams, mispricing: Micros): Micros {
  let q = (params.sizePerCent * mispricing) / CENT;
  q -= q % LOT;
  if (q > params.maxSize) q = params.maxSize - (params.maxSize % LOT);
  return q < LOT ? LOT : q;
}

export class InformedTrader {
  readonly stats: InformedStats = { looks: 0, orders: 0, boughtQty: 0n, soldQty: 0n };
  private timer: TimerHandle | undefined;
  private readonly reactions = new Set<TimerHandle>();

  constructor(
    private readonly m: FlowMarket,
    private readonly params: InformedParams,
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
    for (const t of this.reactions) this.m.clock.clearTimeout(t);
    this.reactions.clear();
  }

  private schedule(): void {
    const gapMs = Math.max(1, Math.round(this.rng.exponential(this.params.arrivalPerMin) * 60_000));
    this.timer = this.m.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.m.settled()) return;
      this.look();
      this.schedule();
    }, gapMs);
  }

  /** News happened: look again after the reaction delay (now when it is 0). */
  react(): void {
    if (!this.enabled) return;
    if (this.params.reactionMs <= 0) {
      this.look();
      return;
    }
    const t = this.m.clock.setTimeout(() => {
      this.reactions.delete(t);
      this.look();
    }, this.params.reactionMs);
    this.reactions.add(t);
  }

  /** One look at every book; at most one order per book. */
  look(): void {
    const m = this.m;
    m.look();
    this.stats.looks++;
    if (m.status() !== "OPEN") return;
    for (const outcome of m.books) {
      const fair = m.trueValue(outcome);
      const edge = this.params.edge;
      const { bid, ask } = m.touch(outcome);
      if (ask !== null && ask < fair - edge) {
        const limit = floorTick(fair - edge);
        if (limit >= MIN_PRICE) this.take(outcome, "BUY", limit, informedSize(this.params, fair - ask));
      } else if (bid !== null && bid > fair + edge) {
        const limit = ceilTick(fair + edge);
        if (limit <= MAX_PRICE) this.take(outcome, "SELL", limit, informedSize(this.params, bid - fair));
      }
    }
  }

  private take(outcome: number, side: Side, price: Micros, quantity: Micros): void {
    if (!this.account.fund(outcome, side, price, quantity)) return;
    const r = this.m.engine.place({ wallet: this.account.wallet, marketId: this.m.marketId, outcome, side, price, quantity, timeInForce: "IOC" });
    this.stats.orders++;
    if (side === "BUY") this.stats.boughtQty += r.filledQty;
    else this.stats.soldQty += r.filledQty;
  }
}
