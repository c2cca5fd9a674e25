/**
 * Other market makers: `makers.count` independent quoters, each with its own wallet and random
 * stream, that keep one post-only bid and one post-only ask on every book around the PUBLIC fair
 * value (market.ts), sized by `makers.size`.
 *
 * Each refreshes at its own Poisson times (`refreshPerMin`) and when news becomes public. A quote
 * still resting since the public fair value was last on its current tick is left where it is,
 * partly filled or not, so it keeps its place in the queue: an order of ours at the same price
 * that came later waits behind it. A quote that was filled, or whose fair value moved, is
 * re-posted a uniform random distance in [minOffset, maxOffset] from the public fair value, at
 * the back of its new level. A quote that would cross the book is skipped (these makers never
 * take), and between refreshes they are as stale as the public value, so informed flow picks
 * them off too. Every refresh draws the same variates whatever the book holds.
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
  /** Refreshes while the market was quoting (OPEN or PRE_MARKET). */
  requotes: number;
  /** Quotes posted. */
  posts: number;
  /** Quotes left resting at a refresh (their queue place kept). */
  kept: number;
}

interface Resting {
  orderId: string;
  /** The public fair value (on the tick grid) the quote was priced from. */
  fairTick: Micros;
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

  /** Refresh every book's quotes around the public fair value. */
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
      const fairTick = floorTick(fair);
      this.quote(book, "BUY", fairTick, floorTick(fair - d.bidOff), d.bidQty);
      this.quote(book, "SELL", fairTick, ceilTick(fair + d.askOff), d.askQty);
    });
  }

  private quote(book: number, side: Side, fairTick: Micros, price: Micros, quantity: Micros): void {
    const { engine, marketId } = this.m;
    const key = `${book}:${side}`;
    const had = this.resting.get(key);
    if (had !== undefined && engine.isLive(had.orderId)) {
      if (had.fairTick === fairTick) {
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
      this.resting.set(key, { orderId: r.orderId, fairTick });
      this.stats.posts++;
    }
  }
}
