/**
 * The fill ledger: every fill of our wallets, once, whatever path it came by.
 *
 * Identity. A fill is keyed by (wallet, tradeId, orderId): the trade id alone is not enough when
 * two of our wallets (or two orders of one wallet) are the two sides of one trade. Every source
 * names the order (user_fill `orderId`, `/api/me/trades` `orderId`, placement and order-fills rows
 * by maker/taker order id), so the key is the same whichever source saw the fill first.
 *
 * Idempotence. Adding a fill that is already there changes nothing (`duplicate`), except that the
 * record converges to the best source: the higher-ranked source's record is kept (trades_pull >
 * order_read > placement > stream, the platform's trade list being the reference), completed with
 * what only the other knew, such as a role that was unknown (spec 6: a missing role is unknown,
 * never taker) or the clientOrderId (`merged`, with the previous record). If two sources disagree
 * on the economics (market, outcome, side, price, qty, fee, or two known roles), the answer is
 * `conflict` with the previous record so the caller can correct inventory (`replaceFill`). Which
 * source arrives first never changes the ledger. A `merged` record may carry a new `ts` (trade time
 * instead of frame time): inventory must take it (Inventory.applyLedgerResult), because the new
 * time can fall before the start-up anchor, where the trade is already in the anchored figures.
 *
 * Recovery. `/api/me/trades` is pulled newest first down to `lastTradeCursor(wallet)`, the newest
 * trade any pull has returned (stream fills do not advance it: a fill seen on the stream says
 * nothing about the ones a dropped connection missed). `diffAgainst` compares the ledger with the
 * platform's list and must come back empty: "the daemon's fill ledger equals the platform's trade
 * list exactly".
 */
import { compareIds } from "../core/natural-order.js";
import { ONE, parseMicros, type Micros } from "../core/money.js";
import type { Side } from "../core/amounts.js";
import type { UserFillFrame } from "../wire/frames.js";
import { placementTradeRow, type MyTrade } from "../wire/orders.js";

export type FillRoleView = "maker" | "taker" | "unknown";
export type FillSource = "stream" | "trades_pull" | "order_read" | "placement";

/** One fill of one of our orders, in our order's terms (our outcome, side and price). */
export interface Fill {
  tradeId: string;
  /** Lower-cased. */
  wallet: string;
  orderId: string;
  clientOrderId?: string;
  marketId: string;
  outcome: number;
  side: Side;
  /** Micros per share. */
  price: Micros;
  /** Micro-shares, > 0. */
  qty: Micros;
  /** Settlement micros we paid for this fill (0 for makers unless the row says otherwise). */
  fee: Micros;
  role: FillRoleView;
  /** Epoch ms: trade time for pulled rows, `serverTs` for stream frames. */
  ts: number;
  source: FillSource;
}

export type AddStatus = "added" | "duplicate" | "merged" | "conflict";

export interface AddResult {
  status: AddStatus;
  /** The record kept in the ledger after this call. */
  fill: Fill;
  /** On `conflict`: the record that was there before (the caller corrects inventory with it). */
  previous?: Fill;
  /** On `conflict`: the fields that differ. */
  fields?: (keyof Fill)[];
}

export interface TradeCursor {
  ts: number;
  tradeId: string;
}

export interface FillMismatch {
  key: string;
  fields: (keyof Fill)[];
  ours: Fill;
  theirs: Fill;
}

export interface LedgerDiff {
  /** On the platform, not in the ledger (missed fills). */
  missing: Fill[];
  /** In the ledger, not on the platform (phantom fills). */
  extra: Fill[];
  mismatched: FillMismatch[];
  /** True when all three lists are empty. */
  equal: boolean;
}

export interface LedgerCounters {
  added: number;
  duplicates: number;
  merged: number;
  conflicts: number;
}

const SOURCE_RANK: Readonly<Record<FillSource, number>> = { stream: 0, placement: 1, order_read: 2, trades_pull: 3 };
const ECONOMIC_FIELDS = ["marketId", "outcome", "side", "price", "qty", "fee"] as const satisfies readonly (keyof Fill)[];

export function fillKey(f: Pick<Fill, "wallet" | "tradeId" | "orderId">): string {
  return `${f.wallet.toLowerCase()}|${f.tradeId}|${f.orderId}`;
}

/**
 * Canonical order of fills: time, then trade id, then order id (a total order on keys). Ids
 * compare with their digit runs as numbers ("t99" before "t100": counters keep execution order
 * within a millisecond), then as plain strings.
 */
export function compareFills(a: Pick<Fill, "ts" | "tradeId" | "orderId">, b: Pick<Fill, "ts" | "tradeId" | "orderId">): number {
  if (a.ts !== b.ts) return a.ts < b.ts ? -1 : 1;
  return compareIds(a.tradeId, b.tradeId) || compareIds(a.orderId, b.orderId);
}


function sameRecord(a: Fill, b: Fill): boolean {
  return a.ts === b.ts && a.source === b.source && a.role === b.role && a.clientOrderId === b.clientOrderId;
}

function differingFields(a: Fill, b: Fill): (keyof Fill)[] {
  const out: (keyof Fill)[] = ECONOMIC_FIELDS.filter((k) => a[k] !== b[k]);
  if (a.role !== "unknown" && b.role !== "unknown" && a.role !== b.role) out.push("role");
  return out;
}

export class FillLedger {
  private readonly byKey = new Map<string, Fill>();
  private readonly byOrder = new Map<string, Set<string>>();
  private readonly cursors = new Map<string, TradeCursor>();
  readonly counters: LedgerCounters = { added: 0, duplicates: 0, merged: 0, conflicts: 0 };

  get size(): number {
    return this.byKey.size;
  }

  add(input: Fill): AddResult {
    const fill: Fill = { ...input, wallet: input.wallet.toLowerCase() };
    if (fill.source === "trades_pull") this.advanceCursor(fill);
    const key = fillKey(fill);
    const have = this.byKey.get(key);
    if (have === undefined) {
      this.byKey.set(key, fill);
      const ok = `${fill.wallet}|${fill.orderId}`;
      let set = this.byOrder.get(ok);
      if (set === undefined) this.byOrder.set(ok, (set = new Set()));
      set.add(key);
      this.counters.added++;
      return { status: "added", fill };
    }
    // The record of the higher-ranked source is kept (its time and provenance too), completed
    // with what only the other one knows: the ledger converges to the platform's trade list.
    const fields = differingFields(have, fill);
    const winner = SOURCE_RANK[fill.source] > SOURCE_RANK[have.source] ? fill : have;
    const kept = this.fillIn(winner, winner === fill ? have : fill);
    if (fields.length > 0) {
      this.counters.conflicts++;
      this.byKey.set(key, kept);
      return { status: "conflict", fill: kept, previous: have, fields };
    }
    if (sameRecord(kept, have)) {
      this.counters.duplicates++;
      return { status: "duplicate", fill: have };
    }
    this.byKey.set(key, kept);
    this.counters.merged++;
    return { status: "merged", fill: kept, previous: have };
  }

  /** `base` with the role / clientOrderId that only `other` knows; `base` itself when nothing is new. */
  private fillIn(base: Fill, other: Fill): Fill {
    const role = base.role === "unknown" && other.role !== "unknown" ? other.role : base.role;
    const clientOrderId = base.clientOrderId ?? other.clientOrderId;
    if (role === base.role && clientOrderId === base.clientOrderId) return base;
    const out: Fill = { ...base, role };
    if (clientOrderId !== undefined) out.clientOrderId = clientOrderId;
    return out;
  }

  private advanceCursor(f: Fill): void {
    const c = this.cursors.get(f.wallet);
    if (c === undefined || f.ts > c.ts || (f.ts === c.ts && f.tradeId > c.tradeId)) {
      this.cursors.set(f.wallet, { ts: f.ts, tradeId: f.tradeId });
    }
  }

  has(wallet: string, tradeId: string, orderId: string): boolean {
    return this.byKey.has(fillKey({ wallet, tradeId, orderId }));
  }

  get(wallet: string, tradeId: string, orderId: string): Fill | undefined {
    return this.byKey.get(fillKey({ wallet, tradeId, orderId }));
  }

  /** All fills (of one wallet when given), in canonical order. */
  fills(wallet?: string): Fill[] {
    const w = wallet?.toLowerCase();
    const out: Fill[] = [];
    for (const f of this.byKey.values()) if (w === undefined || f.wallet === w) out.push(f);
    return out.sort(compareFills);
  }

  fillsForOrder(wallet: string, orderId: string): Fill[] {
    const keys = this.byOrder.get(`${wallet.toLowerCase()}|${orderId}`);
    if (keys === undefined) return [];
    const out: Fill[] = [];
    for (const k of keys) {
      const f = this.byKey.get(k);
      if (f !== undefined) out.push(f);
    }
    return out.sort(compareFills);
  }

  /** Sum of the fill quantities of one order: compare with the tracker's filled quantity. */
  filledQty(wallet: string, orderId: string): Micros {
    let total = 0n;
    for (const f of this.fillsForOrder(wallet, orderId)) total += f.qty;
    return total;
  }

  /** Newest trade returned by any `/api/me/trades` pull for the wallet; undefined before the first. */
  lastTradeCursor(wallet: string): TradeCursor | undefined {
    const c = this.cursors.get(wallet.toLowerCase());
    return c === undefined ? undefined : { ...c };
  }

  /**
   * Paging stop rule for a newest-first `/api/me/trades` walk: true once a row is strictly older than
   * the cursor minus `marginMs` (rows at the cursor's own millisecond are still read: ordering inside
   * one millisecond is the platform's, not ours). No cursor: never reached (walk to the end or to the
   * caller's own start time).
   */
  pullReached(wallet: string, rowTs: number, marginMs = 0): boolean {
    const c = this.cursors.get(wallet.toLowerCase());
    return c !== undefined && rowTs < c.ts - marginMs;
  }

  /**
   * Compare one wallet's ledger with the platform's list of its trades. `sinceTs` restricts `extra`
   * to ledger fills at or after it (when the platform list is a window, not the whole history).
   * A role we hold as unknown is not a mismatch (spec 6); two different known roles are.
   */
  diffAgainst(wallet: string, platform: readonly Fill[], opts: { sinceTs?: number } = {}): LedgerDiff {
    const w = wallet.toLowerCase();
    const theirs = new Map<string, Fill>();
    for (const f of platform) theirs.set(fillKey(f), { ...f, wallet: f.wallet.toLowerCase() });
    const missing: Fill[] = [];
    const mismatched: FillMismatch[] = [];
    for (const [key, t] of theirs) {
      if (t.wallet !== w) continue;
      const ours = this.byKey.get(key);
      if (ours === undefined) {
        missing.push(t);
        continue;
      }
      const fields = differingFields(ours, t);
      if (fields.length > 0) mismatched.push({ key, fields, ours, theirs: t });
    }
    const extra: Fill[] = [];
    for (const [key, f] of this.byKey) {
      if (f.wallet !== w || theirs.has(key)) continue;
      if (opts.sinceTs !== undefined && f.ts < opts.sinceTs) continue;
      extra.push(f);
    }
    missing.sort(compareFills);
    extra.sort(compareFills);
    return { missing, extra, mismatched, equal: missing.length === 0 && extra.length === 0 && mismatched.length === 0 };
  }
}

// ---- sources -> Fill ----------------------------------------------------------------------------

function parseTs(iso: string): number {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`bad trade timestamp ${JSON.stringify(iso)}`);
  return t;
}

/** A `user_fill` frame (spec 6). `role` missing or null stays unknown, never taker. */
export function fillFromUserFill(frame: UserFillFrame): Fill {
  const f: Fill = {
    tradeId: frame.tradeId,
    wallet: frame.walletAddress.toLowerCase(),
    orderId: frame.orderId,
    marketId: frame.marketId,
    outcome: frame.outcome,
    side: frame.side,
    price: parseMicros(frame.price),
    qty: parseMicros(frame.quantity),
    fee: parseMicros(frame.fee),
    role: frame.role ?? "unknown",
    ts: frame.serverTs,
    source: "stream",
  };
  if (frame.clientOrderId !== null) f.clientOrderId = frame.clientOrderId;
  return f;
}

/** A `/api/me/trades` row: already in the caller's token, with the caller's role, order and fee. */
export function fillFromMyTrade(wallet: string, row: MyTrade, clientOrderId?: string): Fill {
  const f: Fill = {
    tradeId: row.id,
    wallet: wallet.toLowerCase(),
    orderId: row.orderId,
    marketId: row.marketId,
    outcome: row.outcome,
    side: row.side,
    price: parseMicros(row.price),
    qty: parseMicros(row.quantity),
    fee: parseMicros(row.fee),
    role: row.role,
    ts: parseTs(row.createdAt),
    source: "trades_pull",
  };
  if (clientOrderId !== undefined) f.clientOrderId = clientOrderId;
  return f;
}

export interface OwnOrderRef {
  orderId: string;
  clientOrderId?: string;
  outcome: number;
  side: Side;
  /** Our order's market: used when a placement trade row does not carry a readable `marketId`. */
  marketId?: string;
}

/** Why a taker-centric trade row gave no fill. */
export type OrderTradeSkip = "not_ours" | "unreadable";

/**
 * A taker-centric trade row (placement `trades[]`, `GET /orders/{id}/fills`) seen from our order.
 * As taker the row is ours as is. As maker, side/outcome/price are the taker's: our side and outcome
 * are our order's, and the price is the row's when the taker traded our outcome, else its
 * complement (binary markets: a NO bid at 1 - p matches a YES buy at p); the row's fee is the
 * taker's, so ours is 0. Rows are read best effort (placementTradeRow): a row that names neither
 * side as our order is "not_ours"; one without what the fill needs (id, quantity, price, time, our
 * order id; as taker the fee; as maker the taker's outcome) is "unreadable" and left to the trades
 * pull. Outcome and side a taker row lacks are our order's; a missing market is the order's.
 */
export function readOrderTrade(wallet: string, row: unknown, order: OwnOrderRef, source: "placement" | "order_read"): Fill | OrderTradeSkip {
  const p = placementTradeRow.safeParse(row);
  if (!p.success) return "unreadable";
  const t = p.data;
  const taker = t.takerOrderId === order.orderId;
  if (!taker && t.makerOrderId !== order.orderId) return t.takerOrderId === undefined || t.makerOrderId === undefined ? "unreadable" : "not_ours";
  const ts = t.createdAt === undefined ? Number.NaN : Date.parse(t.createdAt);
  const marketId = t.marketId ?? order.marketId;
  if (t.price === undefined || Number.isNaN(ts) || marketId === undefined) return "unreadable";
  if (taker ? t.fee === undefined : t.outcome === undefined) return "unreadable";
  const price = parseMicros(t.price);
  const f: Fill = {
    tradeId: t.id,
    wallet: wallet.toLowerCase(),
    orderId: order.orderId,
    marketId,
    outcome: taker ? (t.outcome ?? order.outcome) : order.outcome,
    side: taker ? (t.side ?? order.side) : order.side,
    price: taker || t.outcome === order.outcome ? price : ONE - price,
    qty: parseMicros(t.quantity),
    fee: taker ? parseMicros(t.fee ?? "0") : 0n,
    role: taker ? "taker" : "maker",
    ts,
    source,
  };
  if (order.clientOrderId !== undefined) f.clientOrderId = order.clientOrderId;
  return f;
}

/** readOrderTrade as a Fill or undefined (not ours, or unreadable: see readOrderTrades to count those). */
export function fillFromOrderTrade(wallet: string, trade: unknown, order: OwnOrderRef, source: "placement" | "order_read"): Fill | undefined {
  const f = readOrderTrade(wallet, trade, order, source);
  return typeof f === "string" ? undefined : f;
}

/** Every row of a placement's `trades[]` (or an order's fills): the fills, and how many rows could not be read. */
export function readOrderTrades(
  wallet: string,
  rows: readonly unknown[],
  order: OwnOrderRef,
  source: "placement" | "order_read",
): { fills: Fill[]; notOurs: number; unreadable: number } {
  const out = { fills: [] as Fill[], notOurs: 0, unreadable: 0 };
  for (const row of rows) {
    const f = readOrderTrade(wallet, row, order, source);
    if (f === "unreadable") out.unreadable++;
    else if (f === "not_ours") out.notOurs++;
    else out.fills.push(f);
  }
  return out;
}
