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

interface SlotOutcome {
  keep: LiveOrder[];
  cancels: { order: LiveOrder; reason: CancelReason }[];
  toPlace: Indexed[];
  blocked: Indexed[];
  pending: LiveOrder[];
  desiredCount: number;
}

function reconcileSlot(ds: Indexed[], ls: LiveOrder[], opts: ReconcileOptions): SlotOutcome {
  const pairs: { d: Indexed; l: LiveOrder; dp: Micros; dz: Micros }[] = [];
  for (const d of ds) {
    for (const l of ls) {
      if (withinTolerance(d.q, l, opts)) {
        pairs.push({ d, l, dp: absMicros(d.q.price - l.price), dz: absMicros(l.remaining - d.q.size) });
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
  const usedD = new Set<number>();
  const usedL = new Set<LiveOrder>();
  const keep: LiveOrder[] = [];
  for (const p of pairs) {
    if (usedD.has(p.d.i) || usedL.has(p.l)) continue;
    usedD.add(p.d.i);
    usedL.add(p.l);
    keep.push(p.l);
  }

  const blocked: Indexed[] = [];
  const pending: LiveOrder[] = [];
  const cancels: { order: LiveOrder; reason: CancelReason }[] = [];
  for (const l of ls) {
    if (usedL.has(l)) continue;
    if (l.state === "pending" || l.orderId === undefined) {
      // Occupies its slot: block the closest desired quote still unplaced, if any.
      let best: Indexed | undefined;
      for (const d of ds) {
        if (usedD.has(d.i)) continue;
        if (!best || absMicros(d.q.price - l.price) < absMicros(best.q.price - l.price)) best = d;
      }
      if (best) {
        usedD.add(best.i);
        blocked.push(best);
      }
      pending.push(l);
      continue;
    }
    cancels.push({ order: l, reason: cancelReasonFor(l, ds, opts) });
  }
  return { keep, cancels, toPlace: ds.filter((d) => !usedD.has(d.i)), blocked, pending, desiredCount: ds.length };
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

  const slots = new Map<string, { ds: Indexed[]; ls: LiveOrder[] }>();
  const slotOf = (key: string): { ds: Indexed[]; ls: LiveOrder[] } => {
    let s = slots.get(key);
    if (!s) slots.set(key, (s = { ds: [], ls: [] }));
    return s;
  };
  desired.forEach((q, i) => slotOf(slotKey(q)).ds.push({ q, i }));
  const inFlight: LiveOrder[] = [];
  /** Per slot: remaining size of cancelling orders (step 3 of the header). */
  const cancelling = new Map<string, Micros>();
  for (const l of sortedLive) {
    if (l.state === "cancelling") {
      inFlight.push(l);
      if (l.remaining > 0n) cancelling.set(slotKey(l), (cancelling.get(slotKey(l)) ?? 0n) + l.remaining);
    } else slotOf(slotKey(l)).ls.push(l);
  }

  const keep: LiveOrder[] = [];
  const allCancels: { order: LiveOrder; reason: CancelReason }[] = [];
  const toPlace: Indexed[] = [];
  const deferredPlaces: DeferredPlace[] = [];
  const pending: LiveOrder[] = [];
  const occupied = new Map<string, number>();
  const capacity = new Map<string, number>();
  for (const key of sortSmall([...slots.keys()], cmp)) {
    const r = reconcileSlot(slots.get(key)!.ds, slots.get(key)!.ls, opts);
    keep.push(...r.keep);
    allCancels.push(...r.cancels);
    toPlace.push(...r.toPlace);
    for (const b of r.blocked) deferredPlaces.push({ quote: b.q, reason: "pending" });
    pending.push(...r.pending);
    occupied.set(key, r.keep.length + r.pending.length);
    capacity.set(key, r.desiredCount);
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
  for (const o of deferredCancels) occupied.set(slotKey(o), (occupied.get(slotKey(o)) ?? 0) + 1);
  // Size already committed in slots holding cancelling orders: what stays plus what is cancelling.
  const committed = new Map<string, Micros>();
  const wanted = new Map<string, Micros>();
  for (const [key, size] of cancelling) {
    let total = size;
    for (const o of [...keep, ...pending, ...deferredCancels]) if (slotKey(o) === key) total += o.remaining > 0n ? o.remaining : 0n;
    committed.set(key, total);
    let want = 0n;
    for (const d of slots.get(key)?.ds ?? []) want += d.q.size;
    wanted.set(key, want);
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
    const key = slotKey(q);
    const used = occupied.get(key) ?? 0;
    const sized = committed.get(key);
    if (used >= (capacity.get(key) ?? 0)) {
      deferredPlaces.push({ quote: q, reason: "slot-full" });
    } else if (sized !== undefined && sized + q.size > (wanted.get(key) ?? 0n)) {
      deferredPlaces.push({ quote: q, reason: "cancelling" });
    } else if (places.length >= placeBudget) {
      deferredPlaces.push({ quote: q, reason: "budget" });
    } else {
      places.push(q);
      occupied.set(key, used + 1);
      if (sized !== undefined) committed.set(key, sized + q.size);
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
