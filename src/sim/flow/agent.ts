/**
 * The synthetic traders of ONE market, all trading directly in the engine (internal participants:
 * no HTTP, no signatures, no order records), each with its own flow wallet:
 *
 * - Liquidity (`liquidity`): `levels` bids and asks per book around the public fair value, the
 *   first `halfSpread` away and then every `levelStep`, `depthPerLevel` each; re-posted every
 *   refresh when the fair value moved a tick or some of it was taken (and when news becomes
 *   public), so the book is never empty. In PRE_MARKET it posts post-only orders (the only kind
 *   that trades then).
 * - Fair-anchored takers (`takerArrivalPerMin`, `takerSize`): Poisson arrivals, each an IOC order
 *   for a random outcome and side with a limit a random distance (0 to 3 half-spreads) through
 *   the public fair value: they hit every quote priced better than that, stale ones first.
 * - Informed takers (informed.ts), news (news.ts), noise takers (noise.ts) and other makers
 *   (makers.ts), each present only when its section of the scenario turns it on.
 *
 * Takers of every kind trade only while the market is OPEN. Every agent draws from its own Rng
 * forked from the market's by name, in the same number whatever the book holds, so the flow
 * replays exactly for a seed, and turning one agent on does not change another's draws. (The
 * fair-value walk is advanced whenever a trader looks, so more lookers give the same law but not
 * the same path.)
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { MatchingEngine } from "../engine/index.js";
import type { FlowParams } from "../platform/scenario.js";
import type { LifecycleStatus } from "../platform/lifecycle.js";
import { FairValue } from "./fair-value.js";
import { InformedTrader, type InformedStats } from "./informed.js";
import { OtherMaker, type MakerStats } from "./makers.js";
import { FlowMarket } from "./market.js";
import { NewsFeed, type NewsJump } from "./news.js";
import { NoiseTrader, type NoiseStats } from "./noise.js";
import { drawSize } from "./sizes.js";
import { ceilTick, clampPrice, floorTick, FlowAccount, onGrid } from "./trading.js";

export interface AgentOptions {
  clock: Clock;
  engine: MatchingEngine;
  rng: Rng;
  /** Engine market id (the symbol). */
  marketId: string;
  outcomeCount: number;
  fairValue: readonly Micros[];
  params: FlowParams;
  /** The flow wallet of a role (`taker`, `lp`, `informed`, `noise`, `maker1`...), asked once per role the market uses. */
  wallet: (role: string) => string;
  /** The market's lifecycle status now. */
  status: () => LifecycleStatus;
  refreshMs: number;
}

export interface AgentStats {
  takerOrders: number;
  takerFilledQty: Micros;
  lpPosts: number;
  /** Absent when the market has no such agent. */
  informed?: InformedStats;
  noise?: NoiseStats;
  makers: MakerStats[];
  newsJumps: number;
}

export class MarketAgent {
  readonly fair: FairValue;
  readonly market: FlowMarket;
  readonly informed: InformedTrader | undefined;
  readonly noise: NoiseTrader | undefined;
  readonly makers: readonly OtherMaker[];
  readonly news: NewsFeed | undefined;
  private readonly base = { takerOrders: 0, takerFilledQty: 0n, lpPosts: 0 };
  private arrivalTimer: TimerHandle | undefined;
  private refreshTimer: TimerHandle | undefined;
  /** Fair value (per book) at the last post, and how many orders were posted. */
  private posted: { fair: Micros[]; count: number } | undefined;
  private readonly taker: FlowAccount;
  private readonly lp: FlowAccount;

  constructor(private readonly o: AgentOptions) {
    const { params, rng } = o;
    this.fair = new FairValue(o.fairValue, params, rng.fork("fair"), o.clock.now());
    this.market = new FlowMarket({ clock: o.clock, engine: o.engine, marketId: o.marketId, outcomeCount: o.outcomeCount, fair: this.fair, status: o.status });
    const account = (role: string) => new FlowAccount(o.engine, o.marketId, o.wallet(role));
    this.taker = account("taker");
    this.lp = account("lp");
    this.informed = params.informed.arrivalPerMin > 0 ? new InformedTrader(this.market, params.informed, rng.fork("informed"), account("informed")) : undefined;
    this.noise = params.noise.arrivalPerMin > 0 ? new NoiseTrader(this.market, params.noise, rng.fork("noise"), account("noise")) : undefined;
    this.makers = Array.from({ length: params.makers.count }, (_, i) => new OtherMaker(this.market, params.makers, rng.fork(`maker${i + 1}`), account(`maker${i + 1}`)));
    this.news =
      params.news.ratePerMin > 0
        ? new NewsFeed(this.market, params.news, rng.fork("news"), { onJump: () => this.informed?.react(), onReveal: (j) => this.reveal(j) })
        : undefined;
  }

  get marketId(): string {
    return this.o.marketId;
  }

  get stats(): AgentStats {
    return {
      ...this.base,
      ...(this.informed ? { informed: { ...this.informed.stats } } : {}),
      ...(this.noise ? { noise: { ...this.noise.stats } } : {}),
      makers: this.makers.map((m) => ({ ...m.stats })),
      newsJumps: this.news?.jumps.length ?? 0,
    };
  }

  start(): void {
    this.stop();
    this.refresh();
    this.refreshTimer = this.o.clock.setInterval(() => this.refresh(), this.o.refreshMs);
    this.scheduleArrival();
    for (const m of this.makers) m.start();
    this.informed?.start();
    this.noise?.start();
    this.news?.start();
  }

  stop(): void {
    this.o.clock.clearTimeout(this.arrivalTimer);
    this.o.clock.clearInterval(this.refreshTimer);
    this.arrivalTimer = undefined;
    this.refreshTimer = undefined;
    for (const m of this.makers) m.stop();
    this.informed?.stop();
    this.noise?.stop();
    this.news?.stop();
  }

  /** News became public: the resting liquidity and every maker reprice now. */
  private reveal(_jump: NewsJump): void {
    if (this.market.settled()) return;
    this.refresh();
    for (const m of this.makers) m.requote();
  }

  private scheduleArrival(): void {
    const rate = this.o.params.takerArrivalPerMin;
    if (!(rate > 0)) return;
    const gapMs = Math.max(1, Math.round(this.o.rng.exponential(rate) * 60_000));
    this.arrivalTimer = this.o.clock.setTimeout(() => {
      this.arrivalTimer = undefined;
      this.arrive();
      if (!this.market.settled()) this.scheduleArrival();
    }, gapMs);
  }

  /** One fair-anchored taker: the draws happen whatever the market state, the order only while OPEN. */
  arrive(): void {
    const { rng, params, engine } = this.o;
    this.market.look();
    const outcome = rng.int(this.o.outcomeCount);
    const side: Side = rng.float() < 0.5 ? "BUY" : "SELL";
    const slip = BigInt(Math.floor(rng.float() * 3 * Number(params.liquidity.halfSpread)));
    const quantity = drawSize(rng, params.takerSize);
    if (this.o.status() !== "OPEN") return;
    const fair = this.market.publicValue(outcome);
    const price = clampPrice(side === "BUY" ? floorTick(fair + slip) : ceilTick(fair - slip));
    if (!this.taker.fund(outcome, side, price, quantity)) return;
    const r = engine.place({ wallet: this.taker.wallet, marketId: this.o.marketId, outcome, side, price, quantity, timeInForce: "IOC" });
    this.base.takerOrders++;
    this.base.takerFilledQty += r.filledQty;
  }

  /** Re-post the synthetic book when the public fair value moved or some of it was taken. */
  refresh(): void {
    const { engine, params } = this.o;
    this.market.look();
    const status = this.o.status();
    if (status !== "OPEN" && status !== "PRE_MARKET") return;
    const books = this.market.books;
    const fair = books.map((b) => floorTick(this.market.publicValue(b)));
    const lpWallet = this.lp.wallet;
    const live = engine.openOrders(lpWallet, this.o.marketId).length;
    const p = this.posted;
    if (p !== undefined && live === p.count && p.fair.every((f, i) => f === fair[i])) return;
    engine.cancelAll(lpWallet, this.o.marketId);
    const postOnly = status === "PRE_MARKET";
    const { levels, depthPerLevel, halfSpread, levelStep } = params.liquidity;
    let count = 0;
    books.forEach((outcome, i) => {
      const f = fair[i]!;
      for (let k = 0; k < levels; k++) {
        const off = halfSpread + BigInt(k) * levelStep;
        const bid = floorTick(f - off);
        const ask = ceilTick(f + off);
        if (onGrid(bid) && this.lp.fund(outcome, "BUY", bid, depthPerLevel)) {
          const r = engine.place({ wallet: lpWallet, marketId: this.o.marketId, outcome, side: "BUY", price: bid, quantity: depthPerLevel, postOnly });
          if (r.status === "OPEN" || r.status === "PARTIAL") count++;
        }
        if (onGrid(ask) && this.lp.fund(outcome, "SELL", ask, depthPerLevel)) {
          const r = engine.place({ wallet: lpWallet, marketId: this.o.marketId, outcome, side: "SELL", price: ask, quantity: depthPerLevel, postOnly });
          if (r.status === "OPEN" || r.status === "PARTIAL") count++;
        }
      }
    });
    this.base.lpPosts++;
    this.posted = { fair, count };
  }
}
