/**
 * The quote reconciler: desired quotes against live orders give a plan of cancels and places.
 * Pure and deterministic: same inputs, same plan, whatever the order of `live`.
 *
 * Call it per (wallet, market). Orders are matched inside a slot, (outcome, side):
 *   1. A live order is KEPT when some desired quote of its slot is within tolerance: price within
 *      `priceToleranceTicks`, |remaining - size| <= sizeTolerance * size, age <= maxOrderAgeMs,
 *      and post-only when the quote wants post-only; a SELL of held shares is never kept larger
 *      than its quote (its size is what the holdings allow). Pairs are taken greedily, closest first
 *      (price, then size, then the older order: queue position is worth money). Pending orders
 *      are kept on price and size alone (their age cannot be acted on).
 *   2. A `pending` order that is not kept still occupies its slot: it blocks the closest
 *      unmatched desired quote (deferred, reason "pending") so nothing is placed twice, and is
 *      reported in `deferred.pending` to be cancelled once acknowledged. An open order without an
 *      orderId cannot be cancelled and is handled like a pending one.
 *   3. `cancelling` orders (cancel requested, cancel_pending, unknown after a cancel) are left
 *      alone (`inFlight`): never cancelled again, never kept. They may still rest, and fill, until
 *      the platform confirms, so their remaining size counts against their slot: while a slot
 *      holds cancelling size, a place there goes only if
 *        cancelling remaining + remaining of what stays (kept, pending, deferred cancels)
 *          + sizes placed there this cycle + its own size  <=  the slot's desired size,
 *      else it is deferred (reason "cancelling") until the cancel resolves. A long cancel_pending
 *      or a timed-out cancel therefore never leaves two full-size orders on one slot. (Deferring
 *      was chosen over placing a reduced size: a smaller order would be out of size tolerance and
 *      replaced again as soon as the cancel resolves.)
 *   4. Every other live order is cancelled; every unmatched desired quote is placed.
 *
 * Budget (counted in orders, not requests) and ordering: cancels go first and all before any
 * place (the engine sends cancelBatches, then placeBatches). Cancels are ranked most dangerous
 * first (unwanted, then off-price, then the rest; within a side the most aggressive price first).
 * Places are ranked risk-reducing first, then closest to the mid (`mids` when given, else the
 * quote's level), then desired order. What the budget cannot fit is deferred to the next cycle,
 * and a slot never gets more places than `desired - kept - pending - deferred cancels` there:
 * a replacement whose cancel was deferred waits rather than doubling the slot.
 */
import { PRICE_TICK } from "../../core/amounts.js";
import { absMicros, type Micros } from "../../core/money.js";
import { sortSmall } from "../../core/small-sort.js";
import { slotKey, type DesiredQuote, type LiveOrder } from "./quotes.js";

export interface ReconcileOptions {
  priceToleranceTicks: number;
  /** Fraction of the desired size, e.g. 0.1. */
  sizeTolerance: number;
  maxOrderAgeMs: number;
  nowMs: number;
  /** Orders that may be cancelled / placed this cycle (each order counts one). */
  budget: { cancels: number; places: number };
  /** Ids per cancel-batch and orders per place-batch. Default {cancel: 100, place: 15} (spec-gaps). */
  maxBatch?: { cancel: number; place: number };
  /** Reference price per outcome, to rank places closest-to-mid first. */
  mids?: Readonly<Record<number, Micros>>;
}

export const DEFAULT_MAX_BATCH = { cancel: 100, place: 15 } as const;

export type CancelReason = "surplus" | "price" | "postOnly" | "size" | "age";
export type DeferReason = "budget" | "slot-full" | "pending" | "cancelling";

export interface DeferredPlace {
  quote: DesiredQuote;
  reason: DeferReason;
}

export interface Plan {
  keep: LiveOrder[];
  /** To cancel now, in order. */
  cancels: LiveOrder[];
  /** To place now (after the cancels), in order. */
  places: DesiredQuote[];
  /** orderIds of `cancels`, chunked for cancel-batch. */
  cancelBatches: string[][];
  /** `places` chunked for place-batch. */
  placeBatches: DesiredQuote[][];
  /** Why each cancelled or deferred-cancel order goes, by clientOrderId. */
  cancelReasons: Record<string, CancelReason>;
  deferred: {
    cancels: LiveOrder[];
    places: DeferredPlace[];
    /** Pending (or id-less) orders nobody wants: cancel when acknowledged. */
    pending: LiveOrder[];
  };
  /** Orders with a cancel in flight, left alone. */
  inFlight: LiveOrder[];
}

const CANCEL_RANK: Readonly<Record<CancelReason, number>> = { surplus: 0, price: 1, postOnly: 2, size: 3, age: 4 };

/** The keep rule of step 1 of the header, for one desired quote and one live order. */
export function withinTolerance(d: DesiredQuote, l: LiveOrder, opts: ReconcileOptions): boolean {
  return rejectReason(d, l, opts) === null;
}

function rejectReason(d: DesiredQuote, l: LiveOrder, opts: ReconcileOptions): CancelReason | null {
  if (d.outcome !== l.outcome || d.side !== l.side) return "surplus";
  if (absMicros(d.price - l.price) > BigInt(Math.floor(opts.priceToleranceTicks)) * PRICE_TICK) return "price";
  if (d.postOnly && !l.postOnly) return "postOnly";
  if (absMicros(l.remaining - d.size) > sizeAllowance(d.size, opts.sizeTolerance)) return "size";
  // A SELL of held shares is sized to the holdings left (risk limits): a kept order larger than
  // that, next to the other sells placed, would sell shares the wallet does not have.
  if (d.side === "SELL" && d.reducesInventory === true && l.remaining > d.size) return "size";
  if (l.state !== "pending" && opts.nowMs - l.createdAtMs > opts.maxOrderAgeMs) return "age";
  return null;
}

function sizeAllowance(size: Micros, fraction: number): Micros {
  const ppm = BigInt(Math.round(Math.max(0, fraction) * 1e6));
  return (size * ppm) / 1_000_000n;
}

function cmp(a: bigint | number | string, b: bigint | number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

/** Price aggressiveness: higher bids and lower asks first. */
function aggressiveFirst(a: { side: string; price: Micros }, b: { side: string; price: Micros }): number {
  return a.side === "BUY" ? cmp(b.price, a.price) : cmp(a.price, b.price);
}

interface Indexed {
  q: DesiredQuote;
  i: number;
}

/** One slot (outcome, side) of the plan: its quotes and orders, and what the places may still take there. */
interface Slot {
  ds: Indexed[];
  /** Its live orders but the cancelling ones. */
  ls: LiveOrder[];
  /** Remaining size of its cancelling orders (step 3 of the header); undefined: none. */
  cancelling: Micros | undefined;
  /** Orders that stay or wait there (kept, pending, deferred cancels), then each place made. */
  occupied: number;
  /** Desired quotes there: no more orders than this. */
  capacity: number;
  /** With cancelling size only: the size committed there (cancelling + staying + placed), against `wanted`. */
  committed: Micros | undefined;
  /** Sum of the desired sizes there (read only when `committed` is set). */
  wanted: Micros;
}

function nonNegative(v: Micros): Micros {
  return v > 0n ? v : 0n;
}

interface SlotOutcome {
  keep: LiveOrder[];
  cancels: { order: LiveOrder; reason: CancelReason }[];
  toPlace: Indexed[];
  blocked: Indexed[];
  pending: LiveOrder[];
  desiredCount: number;
}

function reconcileSlot(ds: Indexed[], ls: LiveOrder[], opts: ReconcileOptions): SlotOutcome {
  // By position in ds and ls: which desired quote and which live order are taken.
  const usedD: boolean[] = ds.map(() => false);
  const usedL: boolean[] = ls.map(() => false);
  const pairs: { d: Indexed; di: number; l: LiveOrder; li: number; dp: Micros; dz: Micros }[] = [];
  for (let di = 0; di < ds.length; di++) {
    const d = ds[di]!;
    for (let li = 0; li < ls.length; li++) {
      const l = ls[li]!;
      if (withinTolerance(d.q, l, opts)) {
        pairs.push({ d, di, l, li, dp: absMicros(d.q.price - l.price), dz: absMicros(l.remaining - d.q.size) });
      }
    }
  }
  sortSmall(
    pairs,
    (a, b) =>
      cmp(a.dp, b.dp) ||
      cmp(a.dz, b.dz) ||
      cmp(a.l.createdAtMs, b.l.createdAtMs) ||
      cmp(a.l.clientOrderId, b.l.clientOrderId) ||
      a.d.i - b.d.i,
  );
  const keep: LiveOrder[] = [];
  for (const p of pairs) {
    if (usedD[p.di] || usedL[p.li]) continue;
    usedD[p.di] = true;
    usedL[p.li] = true;
    keep.push(p.l);
  }

  const blocked: Indexed[] = [];
  const pending: LiveOrder[] = [];
  const cancels: { order: LiveOrder; reason: CancelReason }[] = [];
  for (let li = 0; li < ls.length; li++) {
    if (usedL[li]) continue;
    const l = ls[li]!;
    if (l.state === "pending" || l.orderId === undefined) {
      // Occupies its slot: block the closest desired quote still unplaced, if any.
      let best = -1;
      for (let di = 0; di < ds.length; di++) {
        if (usedD[di]) continue;
        if (best < 0 || absMicros(ds[di]!.q.price - l.price) < absMicros(ds[best]!.q.price - l.price)) best = di;
      }
      if (best >= 0) {
        usedD[best] = true;
        blocked.push(ds[best]!);
      }
      pending.push(l);
      continue;
    }
    cancels.push({ order: l, reason: cancelReasonFor(l, ds, opts) });
  }
  return { keep, cancels, toPlace: ds.filter((_, di) => !usedD[di]), blocked, pending, desiredCount: ds.length };
}

/** Why `l` goes: judged against the closest desired quote of its slot. */
function cancelReasonFor(l: LiveOrder, ds: Indexed[], opts: ReconcileOptions): CancelReason {
  let best: Indexed | undefined;
  for (const d of ds) {
    if (!best || absMicros(d.q.price - l.price) < absMicros(best.q.price - l.price)) best = d;
  }
  if (!best) return "surplus";
  // Within tolerance but its slot was taken by a closer order: it is surplus.
  return rejectReason(best.q, l, opts) ?? "surplus";
}

function isReducing(q: DesiredQuote): boolean {
  return q.reducesInventory ?? q.side === "SELL";
}

export function reconcile(desired: readonly DesiredQuote[], live: readonly LiveOrder[], opts: ReconcileOptions): Plan {
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  const sortedLive = sortSmall([...live], (a, b) => cmp(a.clientOrderId, b.clientOrderId));

  const slots = new Map<string, Slot>();
  const slotOf = (key: string): Slot => {
    let s = slots.get(key);
    if (!s) slots.set(key, (s = { ds: [], ls: [], cancelling: undefined, occupied: 0, capacity: 0, committed: undefined, wanted: 0n }));
    return s;
  };
  desired.forEach((q, i) => slotOf(slotKey(q)).ds.push({ q, i }));
  const inFlight: LiveOrder[] = [];
  for (const l of sortedLive) {
    if (l.state === "cancelling") {
      inFlight.push(l);
      if (l.remaining > 0n) {
        const s = slotOf(slotKey(l));
        s.cancelling = (s.cancelling ?? 0n) + l.remaining;
      }
    } else slotOf(slotKey(l)).ls.push(l);
  }

  const keep: LiveOrder[] = [];
  const allCancels: { order: LiveOrder; reason: CancelReason }[] = [];
  const toPlace: Indexed[] = [];
  const deferredPlaces: DeferredPlace[] = [];
  const pending: LiveOrder[] = [];
  for (const key of sortSmall([...slots.keys()], cmp)) {
    const s = slots.get(key)!;
    const r = reconcileSlot(s.ds, s.ls, opts);
    keep.push(...r.keep);
    allCancels.push(...r.cancels);
    toPlace.push(...r.toPlace);
    for (const b of r.blocked) deferredPlaces.push({ quote: b.q, reason: "pending" });
    pending.push(...r.pending);
    s.occupied = r.keep.length + r.pending.length;
    s.capacity = r.desiredCount;
    if (s.cancelling !== undefined) {
      // Size already committed in a slot holding cancelling orders: what stays plus what is cancelling
      // (the deferred cancels join below).
      let total = s.cancelling;
      for (const o of r.keep) total += nonNegative(o.remaining);
      for (const o of r.pending) total += nonNegative(o.remaining);
      s.committed = total;
      for (const d of s.ds) s.wanted += d.q.size;
    }
  }

  sortSmall(
    allCancels,
    (a, b) =>
      CANCEL_RANK[a.reason] - CANCEL_RANK[b.reason] ||
      a.order.outcome - b.order.outcome ||
      cmp(a.order.side, b.order.side) ||
      aggressiveFirst(a.order, b.order) ||
      cmp(a.order.clientOrderId, b.order.clientOrderId),
  );
  const cancelBudget = Math.max(0, Math.floor(opts.budget.cancels));
  const cancels = allCancels.slice(0, cancelBudget).map((c) => c.order);
  const deferredCancels = allCancels.slice(cancelBudget).map((c) => c.order);
  const cancelReasons: Record<string, CancelReason> = {};
  for (const c of allCancels) cancelReasons[c.order.clientOrderId] = c.reason;
  for (const o of deferredCancels) {
    const s = slots.get(slotKey(o))!;
    s.occupied += 1;
    if (s.committed !== undefined) s.committed += nonNegative(o.remaining);
  }

  sortSmall(toPlace, (a, b) => {
    const reduce = Number(isReducing(b.q)) - Number(isReducing(a.q));
    if (reduce !== 0) return reduce;
    const ma = opts.mids?.[a.q.outcome];
    const mb = opts.mids?.[b.q.outcome];
    if (ma !== undefined && mb !== undefined) {
      const byDistance = cmp(absMicros(a.q.price - ma), absMicros(b.q.price - mb));
      if (byDistance !== 0) return byDistance;
    }
    return (a.q.level ?? 0) - (b.q.level ?? 0) || a.i - b.i;
  });
  const placeBudget = Math.max(0, Math.floor(opts.budget.places));
  const places: DesiredQuote[] = [];
  for (const { q } of toPlace) {
    const s = slots.get(slotKey(q))!;
    if (s.occupied >= s.capacity) {
      deferredPlaces.push({ quote: q, reason: "slot-full" });
    } else if (s.committed !== undefined && s.committed + q.size > s.wanted) {
      deferredPlaces.push({ quote: q, reason: "cancelling" });
    } else if (places.length >= placeBudget) {
      deferredPlaces.push({ quote: q, reason: "budget" });
    } else {
      places.push(q);
      s.occupied += 1;
      if (s.committed !== undefined) s.committed += q.size;
    }
  }

  return {
    keep,
    cancels,
    places,
    cancelBatches: chunk(
      cancels.map((o) => o.orderId!),
      maxBatch.cancel,
    ),
    placeBatches: chunk(places, maxBatch.place),
    cancelReasons,
    deferred: { cancels: deferredCancels, places: deferredPlaces, pending },
    inFlight,
  };
}
