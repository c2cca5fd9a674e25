/**
 * Queue-position models: where one resting order of ours stands in the queue of its price level
 * when the market data only shows each level's total size (L2, market-by-price), and how much of
 * it a trade at that price fills. The fast engine keeps one `QueueModel` per resting order and
 * feeds it the recorded events at the order's price; the models never see other prices.
 *
 * Quantities are bigint micro-shares. Sizes given to a model are the displayed size of OTHER
 * participants at our price: recorded data does not contain our virtual orders (when several of
 * ours rest at one price, the caller counts the earlier ones in the later one's `ahead`).
 *
 * State: `ahead` (shares in front of us), `remaining` (our unfilled shares) and the trades at our
 * price seen since the last book change. Three kinds of event move it, in time order (a trade told
 * after a book change happened after it):
 *
 *   trade(q)         a trade of q at our price. By price-time priority it consumes the queue
 *                    ahead first: fill = min(remaining, max(0, q - ahead)), ahead = max(0, ahead - q).
 *                    The recorded trade consumed others' shares, so the model also adds q to the
 *                    traded-since-the-last-book-change total T.
 *   book(a, b)       the displayed size went from a to b. Trades told to the model since the
 *                    previous book change happened between the two observations, so they explain
 *                    T of the change: the level after them was L = max(0, a - T). If b >= L, the
 *                    level grew (new orders join behind us): ahead is unchanged. Otherwise d = L - b
 *                    shares were cancelled without trading, with front = min(ahead, L) in front of
 *                    us and back = L - front behind us, and
 *                        advance = max(cancelledAhead(front, back, d), d - back)
 *                        ahead   = front - advance   (never above b)
 *                    The `d - back` term is forced: when more left than was behind us, the rest was
 *                    ahead. T is reset.
 *   ownFill(q)       our order filled by q other than through `trade` (e.g. the book crossed our
 *                    price). A fill of ours at our price means the queue in front has gone (price-
 *                    time priority), so ahead becomes 0.
 *
 * The models differ only in cancelledAhead, the part of an unexplained decrease d that was in front:
 *
 *   risk-averse          0: cancels happen behind us; only trades (and the forced term) move us up.
 *                        An order behind 100 shares fills only after 100 shares traded there.
 *   prob-power (n)       floor(d * s), s = f(front) / (f(front) + f(back)), f(x) = x^n   (n > 0)
 *   prob-log (unit)      same with f(x) = ln(1 + x / unit), x in micro-shares; unit = 1 share by
 *                        default (x^n is scale-free, ln(1 + x) is not: in micro-shares every level
 *                        would look alike)
 *   prob-power-fraction  floor(d * s), s = (front / (front + back))^n   (n > 0; hftbacktest's
 *                        PowerProbQueueFunc3). n = 1 is the same as prob-power n = 1: each share of
 *                        the level is as likely to be the cancelled one. As n grows s -> 0 whenever
 *                        someone is behind us: the model tends to risk-averse.
 *
 * The probabilistic models are hftbacktest's ProbQueueModel (with PowerProbQueueFunc / LogProbQueueFunc),
 * after rigtorp.se/2013/06/08/estimating-order-queue-position. Note what prob-power's n does: for
 * large n the LARGER side takes the whole decrease (s -> 1 when front > back, s -> 0 when
 * back > front), so it does not tend to risk-averse; n -> 0 splits every decrease half and half.
 *
 * Rounding, explicit and deterministic: s is a float in [0, 1], computed with Math.pow / Math.log1p
 * (the same bits on one Node version). It is floored to parts per billion, ppb = floor(s * 1e9 +
 * 1e-6) (the 1e-6 ppb absorbs the float's last bits: 9/10 evaluates to 0.8999999999999999 and must
 * still give 900,000,000), then the advance is floor(d * ppb / 1e9) in bigint. Both floors round
 * the advance down, so a model never moves us up, and never fills us, earlier than its formula says
 * (beyond that 1e-15 of s); the advance falls short of d * s by less than d / 1e9 + 1 micro-share.
 * Every state update is otherwise exact integer arithmetic; `ahead` never goes below 0 and never
 * grows.
 */

export type QueueModelSpec =
  | { readonly kind: "risk-averse" }
  | { readonly kind: "prob-power"; readonly n: number }
  | { readonly kind: "prob-log"; readonly unit?: bigint }
  | { readonly kind: "prob-power-fraction"; readonly n: number };

/** One resting order of ours at one price level. */
export interface QueueModel {
  /** Others' shares in front of us (micro-shares, >= 0). */
  readonly ahead: bigint;
  /** Our shares not filled yet. */
  readonly remaining: bigint;
  /** Our shares filled so far (by `trade` and `ownFill`). */
  readonly filled: bigint;
  /** A trade of `qty` at our price; returns how many of our shares it filled (already applied). */
  trade(qty: bigint): bigint;
  /** The displayed size at our price went from `from` to `to` (two consecutive observations). */
  book(from: bigint, to: bigint): void;
  /** Our order filled by `qty` outside `trade` (at most `remaining`); the queue ahead is gone. */
  ownFill(qty: bigint): void;
}

/** Opens the model of one order: `ahead` = the displayed size at our price when it arrives. */
export type QueueModelFactory = (ahead: bigint, qty: bigint) => QueueModel;

export const ONE_SHARE = 1_000_000n;
/** The grid the share s is floored to before it multiplies a bigint: parts per billion. */
export const SHARE_SCALE = 1_000_000_000n;
const SHARE_SCALE_NUMBER = 1e9;

/** Why a spec is unusable, or undefined when it is fine. */
export function queueSpecProblem(spec: QueueModelSpec): string | undefined {
  switch (spec.kind) {
    case "risk-averse":
      return undefined;
    case "prob-power":
    case "prob-power-fraction":
      return typeof spec.n === "number" && Number.isFinite(spec.n) && spec.n > 0
        ? undefined
        : `queue model ${spec.kind}: n must be a finite number > 0 (got ${String(spec.n)})`;
    case "prob-log":
      return spec.unit === undefined || (typeof spec.unit === "bigint" && spec.unit > 0n)
        ? undefined
        : `queue model prob-log: unit must be a bigint number of micro-shares > 0 (got ${String(spec.unit)})`;
    default:
      return `queue model: unknown kind ${JSON.stringify((spec as { kind?: unknown }).kind)} (risk-averse, prob-power, prob-log, prob-power-fraction)`;
  }
}

/** The share function s(front, back) of a probabilistic spec; undefined for risk-averse. */
type ShareFn = (front: bigint, back: bigint) => number;

function shareFnOf(spec: QueueModelSpec): ShareFn | undefined {
  const problem = queueSpecProblem(spec);
  if (problem !== undefined) throw new RangeError(problem);
  switch (spec.kind) {
    case "risk-averse":
      return undefined;
    case "prob-power": {
      const n = spec.n;
      // x^n / (x^n + y^n) written as 1 / (1 + (y/x)^n): no overflow for large n (Infinity -> 0).
      return (front, back) => {
        if (front === 0n) return 0;
        if (back === 0n) return 1;
        return 1 / (1 + Math.pow(Number(back) / Number(front), n));
      };
    }
    case "prob-log": {
      const unit = Number(spec.unit ?? ONE_SHARE);
      return (front, back) => {
        if (front === 0n) return 0;
        if (back === 0n) return 1;
        const f = Math.log1p(Number(front) / unit);
        return f / (f + Math.log1p(Number(back) / unit));
      };
    }
    case "prob-power-fraction": {
      const n = spec.n;
      return (front, back) => {
        if (front === 0n) return 0;
        if (back === 0n) return 1;
        return Math.pow(Number(front) / Number(front + back), n);
      };
    }
  }
}

/**
 * How far below a grid point a float may fall and still count as on it, in ppb: 1e-6 ppb is 1e-15
 * of s, a few ulps. Without it 9/10, computed as 0.8999999999999999, would floor to 899,999,999.
 */
const GRID_SNAP = 1e-6;

/** s floored onto the parts-per-billion grid (after the snap), as a bigint in [0, 1e9]. */
function sharePpb(s: number): bigint {
  if (!(s > 0)) return 0n; // also NaN
  if (s >= 1) return SHARE_SCALE;
  const ppb = Math.floor(s * SHARE_SCALE_NUMBER + GRID_SNAP);
  return ppb >= SHARE_SCALE_NUMBER ? SHARE_SCALE : BigInt(ppb);
}

/**
 * The share s(front, back) of a decrease that was in front of us, as the model computes it
 * (before rounding); 0 for risk-averse. Exposed for tests and the docs' tables.
 */
export function cancelShare(spec: QueueModelSpec, front: bigint, back: bigint): number {
  const fn = shareFnOf(spec);
  return fn === undefined ? 0 : fn(front, back);
}

/**
 * How far a decrease of d without trades moves us up, for `front` ahead and `back` behind:
 * max(floor(d * ppb(s) / 1e9), d - back), at most front. Pure; the models use the same arithmetic.
 */
export function cancelAdvance(spec: QueueModelSpec, front: bigint, back: bigint, d: bigint): bigint {
  return advanceWith(shareFnOf(spec), front, back, d);
}

function advanceWith(share: ShareFn | undefined, front: bigint, back: bigint, d: bigint): bigint {
  if (d <= 0n || front <= 0n) return 0n;
  let advance = share === undefined ? 0n : (d * sharePpb(share(front, back))) / SHARE_SCALE;
  const forced = d - back;
  if (forced > advance) advance = forced;
  return advance > front ? front : advance;
}

class LevelQueue implements QueueModel {
  private aheadQty: bigint;
  private remainingQty: bigint;
  private filledQty = 0n;
  /** Trades at our price since the last book change: they explain that much of the next change. */
  private tradedSinceBook = 0n;

  constructor(
    private readonly share: ShareFn | undefined,
    ahead: bigint,
    qty: bigint,
  ) {
    this.aheadQty = ahead;
    this.remainingQty = qty;
  }

  get ahead(): bigint {
    return this.aheadQty;
  }

  get remaining(): bigint {
    return this.remainingQty;
  }

  get filled(): bigint {
    return this.filledQty;
  }

  trade(qty: bigint): bigint {
    if (qty < 0n) throw new RangeError(`queue model: trade quantity must be >= 0 (got ${qty})`);
    this.tradedSinceBook += qty;
    const ahead = this.aheadQty;
    if (qty <= ahead) {
      this.aheadQty = ahead - qty;
      return 0n;
    }
    this.aheadQty = 0n;
    const beyond = qty - ahead;
    const fill = beyond < this.remainingQty ? beyond : this.remainingQty;
    this.remainingQty -= fill;
    this.filledQty += fill;
    return fill;
  }

  book(from: bigint, to: bigint): void {
    if (from < 0n || to < 0n) throw new RangeError(`queue model: level sizes must be >= 0 (got ${from} -> ${to})`);
    const afterTrades = from - this.tradedSinceBook;
    this.tradedSinceBook = 0n;
    const level = afterTrades > 0n ? afterTrades : 0n;
    const front = this.aheadQty < level ? this.aheadQty : level;
    let ahead = front;
    if (to < level) ahead = front - advanceWith(this.share, front, level - front, level - to);
    this.aheadQty = ahead < to ? ahead : to;
  }

  ownFill(qty: bigint): void {
    if (qty <= 0n || qty > this.remainingQty) {
      throw new RangeError(`queue model: own fill must be > 0 and <= remaining ${this.remainingQty} (got ${qty})`);
    }
    this.remainingQty -= qty;
    this.filledQty += qty;
    this.aheadQty = 0n;
  }
}

/** Validates the spec once and returns the factory of per-order models. Throws RangeError. */
export function queueModelFactory(spec: QueueModelSpec): QueueModelFactory {
  const share = shareFnOf(spec);
  return (ahead, qty) => {
    if (ahead < 0n) throw new RangeError(`queue model: shares ahead must be >= 0 (got ${ahead})`);
    if (qty <= 0n) throw new RangeError(`queue model: our order's quantity must be > 0 (got ${qty})`);
    return new LevelQueue(share, ahead, qty);
  };
}

/** The model of one order (validates the spec each call; use `queueModelFactory` in loops). */
export function openQueue(spec: QueueModelSpec, ahead: bigint, qty: bigint): QueueModel {
  return queueModelFactory(spec)(ahead, qty);
}

/**
 * A queue model as written on the command line and in sweep files: `risk-averse`, `prob-power:N`,
 * `prob-log`, `prob-power-fraction:N`; the spec, or what is wrong with the text.
 */
export function parseQueueSpec(v: string): QueueModelSpec | string {
  const [kind, arg] = v.split(":", 2);
  const n = arg === undefined ? Number.NaN : Number(arg);
  let spec: QueueModelSpec | undefined;
  if (kind === "risk-averse" && arg === undefined) spec = { kind: "risk-averse" };
  else if (kind === "prob-log" && arg === undefined) spec = { kind: "prob-log" };
  else if (kind === "prob-power" && arg !== undefined) spec = { kind: "prob-power", n };
  else if (kind === "prob-power-fraction" && arg !== undefined) spec = { kind: "prob-power-fraction", n };
  if (spec === undefined) return `expected risk-averse, prob-power:N, prob-log or prob-power-fraction:N (got ${JSON.stringify(v)})`;
  return queueSpecProblem(spec) ?? spec;
}
