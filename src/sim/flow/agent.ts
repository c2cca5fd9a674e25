/**
 * The synthetic traders of ONE market: a liquidity provider and a stream of takers, both trading
 * directly in the engine (internal participants: no HTTP, no signatures, no order records).
 *
 * - Liquidity: `levels` bids and asks per book around the fair value, the first `halfSpread` away
 *   and then every `levelStep`, `depthPerLevel` each; re-posted every refresh when the fair value
 *   moved a tick or some of it was taken, so the book is never empty. In PRE_MARKET it posts
 *   post-only orders (the only kind that trades then).
 * - Takers: Poisson arrivals (`takerArrivalPerMin`, exponential gaps from the seeded stream),
 *   each an IOC order for a random outcome and side, sized by `takerSize`, with a limit a random
 *   distance (0 to 3 half-spreads) through the fair value: they hit every quote priced better
 *   than that, stale ones first, which is how market makers get filled and adversely selected.
 *   Takers trade only while the market is OPEN.
 *
 * Both wallets are funded generously and topped up (deposits and complete-set splits) before any
 * order would fail for lack of funds. Every random draw comes from the market's own forked Rng,
 * in the same number whatever the book holds, so the flow replays exactly for a seed.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import { MAX_PRICE, MIN_PRICE, PRICE_TICK, type Side } from "../../core/amounts.js";
import { SCALE, type Micros } from "../../core/money.js";
import type { MatchingEngine } from "../engine/index.js";
import type { FlowParams } from "../platform/scenario.js";
import type { LifecycleStatus } from "../platform/lifecycle.js";
import { FairValue } from "./fair-value.js";
import { drawSize } from "./sizes.js";

export interface AgentOptions {
  clock: Clock;
  engine: MatchingEngine;
  rng: Rng;
  /** Engine market id (the symbol). */
  marketId: string;
  outcomeCount: number;
  fairValue: readonly Micros[];
  params: FlowParams;
  takerWallet: string;
  lpWallet: string;
  /** The market's lifecycle status now. */
  status: () => LifecycleStatus;
  refreshMs: number;
}

export interface AgentStats {
  takerOrders: number;
  takerFilledQty: Micros;
  lpPosts: number;
}

/** Cash and shares a wallet gets at a time when it runs short (settlement micros). */
const TOP_UP: Micros = 1_000_000n * SCALE;

function floorTick(p: Micros): Micros {
  return p - (p % PRICE_TICK);
}
function ceilTick(p: Micros): Micros {
  const r = p % PRICE_TICK;
  return r === 0n ? p : p + PRICE_TICK - r;
}
function onGrid(p: Micros): boolean {
  return p >= MIN_PRICE && p <= MAX_PRICE;
}

export class MarketAgent {
  readonly fair: FairValue;
  readonly stats: AgentStats = { takerOrders: 0, takerFilledQty: 0n, lpPosts: 0 };
  private arrivalTimer: TimerHandle | undefined;
  private refreshTimer: TimerHandle | undefined;
  /** Fair value (per book) at the last post, and how many orders were posted. */
  private posted: { fair: Micros[]; count: number } | undefined;
  private readonly binary: boolean;

  constructor(private readonly o: AgentOptions) {
    this.binary = o.outcomeCount === 2;
    this.fair = new FairValue(o.fairValue, o.params, o.rng.fork("fair"), o.clock.now());
  }

  get marketId(): string {
    return this.o.marketId;
  }

  start(): void {
    this.stop();
    this.refresh();
    this.refreshTimer = this.o.clock.setInterval(() => this.refresh(), this.o.refreshMs);
    this.scheduleArrival();
  }

  stop(): void {
    this.o.clock.clearTimeout(this.arrivalTimer);
    this.o.clock.clearInterval(this.refreshTimer);
    this.arrivalTimer = undefined;
    this.refreshTimer = undefined;
  }

  private settled(): boolean {
    const s = this.o.status();
    return s === "RESOLVED" || s === "VOIDED";
  }

  private scheduleArrival(): void {
    const rate = this.o.params.takerArrivalPerMin;
    if (!(rate > 0)) return;
    const gapMs = Math.max(1, Math.round(this.o.rng.exponential(rate) * 60_000));
    this.arrivalTimer = this.o.clock.setTimeout(() => {
      this.arrivalTimer = undefined;
      this.arrive();
      if (!this.settled()) this.scheduleArrival();
    }, gapMs);
  }

  /** One taker: the draws happen whatever the market state, the order only while OPEN. */
  arrive(): void {
    const { rng, params, engine } = this.o;
    this.fair.advanceTo(this.o.clock.now());
    const outcome = rng.int(this.o.outcomeCount);
    const side: Side = rng.float() < 0.5 ? "BUY" : "SELL";
    const slip = BigInt(Math.floor(rng.float() * 3 * Number(params.liquidity.halfSpread)));
    const quantity = drawSize(rng, params.takerSize);
    if (this.o.status() !== "OPEN") return;
    const fair = this.fair.value(outcome);
    let price = side === "BUY" ? floorTick(fair + slip) : ceilTick(fair - slip);
    price = price < MIN_PRICE ? MIN_PRICE : price > MAX_PRICE ? MAX_PRICE : price;
    if (!this.fund(this.o.takerWallet, outcome, side, price, quantity)) return;
    const r = engine.place({ wallet: this.o.takerWallet, marketId: this.o.marketId, outcome, side, price, quantity, timeInForce: "IOC" });
    this.stats.takerOrders++;
    this.stats.takerFilledQty += r.filledQty;
  }

  /** Re-post the synthetic book when the fair value moved or some of it was taken. */
  refresh(): void {
    const { engine, params } = this.o;
    this.fair.advanceTo(this.o.clock.now());
    const status = this.o.status();
    if (status !== "OPEN" && status !== "PRE_MARKET") return;
    const books = this.binary ? [0] : Array.from({ length: this.o.outcomeCount }, (_, i) => i);
    const fair = books.map((b) => floorTick(this.fair.value(b)));
    const live = engine.openOrders(this.o.lpWallet, this.o.marketId).length;
    const p = this.posted;
    if (p !== undefined && live === p.count && p.fair.every((f, i) => f === fair[i])) return;
    engine.cancelAll(this.o.lpWallet, this.o.marketId);
    const postOnly = status === "PRE_MARKET";
    const { levels, depthPerLevel, halfSpread, levelStep } = params.liquidity;
    let count = 0;
    books.forEach((outcome, i) => {
      const f = fair[i]!;
      for (let k = 0; k < levels; k++) {
        const off = halfSpread + BigInt(k) * levelStep;
        const bid = floorTick(f - off);
        const ask = ceilTick(f + off);
        if (onGrid(bid) && this.fund(this.o.lpWallet, outcome, "BUY", bid, depthPerLevel)) {
          const r = engine.place({ wallet: this.o.lpWallet, marketId: this.o.marketId, outcome, side: "BUY", price: bid, quantity: depthPerLevel, postOnly });
          if (r.status === "OPEN" || r.status === "PARTIAL") count++;
        }
        if (onGrid(ask) && this.fund(this.o.lpWallet, outcome, "SELL", ask, depthPerLevel)) {
          const r = engine.place({ wallet: this.o.lpWallet, marketId: this.o.marketId, outcome, side: "SELL", price: ask, quantity: depthPerLevel, postOnly });
          if (r.status === "OPEN" || r.status === "PARTIAL") count++;
        }
      }
    });
    this.stats.lpPosts++;
    this.posted = { fair, count };
  }

  /** Make sure the wallet can afford the order (cash for a BUY, free shares for a SELL). */
  private fund(wallet: string, outcome: number, side: Side, price: Micros, qty: Micros): boolean {
    const { engine } = this.o;
    try {
      if (side === "BUY") {
        const need = (price * qty) / SCALE + qty;
        if (engine.balance(wallet).available < need) engine.deposit(wallet, need + TOP_UP);
        return true;
      }
      const pos = engine.positions(wallet, this.o.marketId).find((x) => x.outcome === outcome);
      const free = pos === undefined ? 0n : pos.quantity - pos.locked;
      if (free < qty) {
        const sets = qty - free + TOP_UP / 100n;
        if (engine.balance(wallet).available < sets) engine.deposit(wallet, sets + TOP_UP);
        engine.split(wallet, this.o.marketId, sets);
      }
      return true;
    } catch {
      // The ledger refused (deposit ceiling reached): skip this order rather than stop the flow.
      return false;
    }
  }
}
