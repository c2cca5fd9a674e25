/**
 * Other market makers: `makers.count` independent quoters, each with its own wallet and random
 * stream, that keep one post-only bid and one post-only ask on every book around the PUBLIC fair
 * value (market.ts), each a uniform random distance in [minOffset, maxOffset] from it and sized by
 * `makers.size`.
 *
 * Each re-quotes at its own Poisson times (`refreshPerMin`) and when news becomes public. A quote
 * whose price has not changed is left where it is, partly filled or not, so it keeps its place
 * in the queue: an order of ours at the same price that came later waits behind it, and one that
 * came earlier is ahead of its next re-post. A quote that would cross the book is skipped (these
 * makers never take), and between re-quotes they are as stale as the public value, so informed
 * flow picks them off too. Every re-quote draws the same variates whatever the book holds.
 */
import type { TimerHandle } from "../../core/clock.js";
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { Rng } from "../../core/rng.js";
import type { MakersParams } from "../platform/scenario.js";
import type { FlowMarket } from "./market.js";
import { drawSize } from "./sizes.js";
import { ceilTick, floorTick, onGrid, type FlowAccount } from "./trading.js";

export interface MakerStats {
  requotes: number;
  posts: number;
  kept: number;
}

interface Resting {
  orderId: string;
  price: Micros;
}

export class OtherMaker {
  readonly stats: MakerStats = { requotes: 0, posts: 0, kept: 0 };
  private timer: TimerHandle | undefined;
  /** Our quote per `${book}:${side}`. */
  private readonly resting = new Map<string, Resting>();

  constructor(
    private readonly m: FlowMarket,
    private readonly params: MakersParams,
    private readonly rng: Rng,
    readonly account: FlowAccount,
  ) {}

  start(): void {
    this.stop();
    this.requote();
    this.schedule();
  }

  stop(): void {
    this.m.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const gapMs = Math.max(1, Math.round(this.rng.exponential(this.params.refreshPerMin) * 60_000));
    this.timer = this.m.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.m.settled()) return;
      this.requote();
      this.schedule();
    }, gapMs);
  }

  private offset(): Micros {
    const { minOffset, maxOffset } = this.params;
    return minOffset + BigInt(Math.floor(this.rng.float() * Number(maxOffset - minOffset + 1n)));
  }

  /** Quote every book around the public fair value. */
  requote(): void {
    const m = this.m;
    m.look();
    const draws = m.books.map(() => ({ bidOff: this.offset(), askOff: this.offset(), bidQty: drawSize(this.rng, this.params.size), askQty: drawSize(this.rng, this.params.size) }));
    const status = m.status();
    if (status !== "OPEN" && status !== "PRE_MARKET") return;
    this.stats.requotes++;
    m.books.forEach((book, i) => {
      const d = draws[i]!;
      const fair = m.publicValue(book);
      this.quote(book, "BUY", floorTick(fair - d.bidOff), d.bidQty);
      this.quote(book, "SELL", ceilTick(fair + d.askOff), d.askQty);
    });
  }

  private quote(book: number, side: Side, price: Micros, quantity: Micros): void {
    const { engine, marketId } = this.m;
    const key = `${book}:${side}`;
    const had = this.resting.get(key);
    if (had !== undefined && engine.isLive(had.orderId)) {
      if (had.price === price) {
        this.stats.kept++;
        return;
      }
      engine.cancel(had.orderId, this.account.wallet);
    }
    this.resting.delete(key);
    if (!onGrid(price) || engine.wouldCross(marketId, book, side, price)) return;
    if (!this.account.fund(book, side, price, quantity)) return;
    const r = engine.place({ wallet: this.account.wallet, marketId, outcome: book, side, price, quantity, postOnly: true });
    if (r.status === "OPEN" || r.status === "PARTIAL") {
      this.resting.set(key, { orderId: r.orderId, price });
      this.stats.posts++;
    }
  }
}
