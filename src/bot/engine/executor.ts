/**
 * The executor of one wallet: turns a plan into requests. Cancels first (cancel-batch, or a single
 * cancel for one id), then places (place-batch of up to 15, or a single place for one order).
 *
 * The places wait for the cancels' answers. A slot (outcome, side) whose cancel did not end the
 * order (cancel_pending, an unknown answer, a refused or failed cancel), or whose order filled
 * meanwhile (the position moved), gets no place this cycle:
 * its old order may still rest and fill, and the next cycle's reconciler sizes the slot against it
 * (`placesHeld`; the runner looks again soon). Orders are built and signed (or taken pre-signed)
 * after the answers, not while the cancels travel: signing first would hold the cancel request
 * itself back behind the signatures (the client issues it a few microtasks later).
 *
 * Every order is built, hashed and signed, and registered `sent` in the tracker under its
 * clientOrderId and order hash BEFORE its request leaves; every answer goes back to the tracker:
 *
 *   accepted   -> ack (and the placement's trades -> fills, row by row: an unreadable row is
 *                 skipped, counted and logged, never the whole answer)
 *   rejected   -> ack REJECTED; `resend_same` entries (journal_intent_not_durable) are resent
 *                 unchanged under the same clientOrderId (never re-signed); `onboarding_wait`
 *                 (vault_not_deployed, kyc_blocked): nothing more is placed this cycle and the
 *                 report says for how long the wallet must wait
 *   unknown    -> ack_unknown: the order stays in flight until a lookup answers (fill-sync.ts)
 *   thrown     -> the client proved nothing was placed (429 after waits, open circuit,
 *                 shard_owner_unavailable / trading_temporarily_unavailable after its own resends,
 *                 withdrawn): send_failed
 *
 * A cancel whose outcome is unknown is treated as pending: repeating a cancel is safe (spec 4.6).
 * Just before each batch is built, before each resend of an entry, and, through `stillWanted`, right
 * before every request the client sends (after the rate gate's wait, and before its own resends),
 * the market is checked again (the SendCheck): time moves while we wait, and no order may leave
 * after the pull time before closesAt or during a halt.
 *
 * The executor calls nothing of its owner: order and fill facts go where every source's go
 * (`OrderFacts`, wallet-orders.ts), and what the owner must act on (an onboarding wait, a market
 * whose status is stale, places held back) comes back in the execution report.
 */
import type { PlaceAccepted, PlaceOutcome, PlaceRejected, WalletClient } from "../../api/index.js";
import { isApiError } from "../../api/errors.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { RateGate } from "../../ratelimit/index.js";
import type { SigningMarket } from "../../signing/index.js";
import type { RejectedPlacement } from "../../wire/index.js";
import { readOrderTrades, type Fill } from "../fills/fill-ledger.js";
import { isTerminal, type TrackedOrder, type TrackerEvent, type Transition } from "../orders/order-tracker.js";
import { MAX_CANCEL_BATCH, sendCancels } from "./cancel-sender.js";
import { codeOf, errorText } from "./errors.js";
import { slotKey, type DesiredQuote, type LiveOrder } from "../quote/quotes.js";
import type { EngineObserver } from "../observer.js";
import type { OrderMaker, Pending } from "../orders/order-maker.js";

export const MAX_PLACE_BATCH = 15;
export { MAX_CANCEL_BATCH };

/** What the executor needs of a market. */
export interface ExecMarket {
  symbol: string;
  /** Absent for a market we only pull (unknown to the registry): places are then refused. */
  signing: SigningMarket | undefined;
}

export type PlaceVerdict = { ok: true } | { ok: false; reason: string };

/** The checks made just before a request leaves: the wallet quotes, the market takes this order now, no halt. */
export interface SendCheck {
  mayPlace(symbol: string, postOnly: boolean): PlaceVerdict;
}

/** Where the wallet's order and fill facts land (wallet-orders.ts), and its orders as the tracker knows them. */
export interface OrderFacts {
  track(ev: TrackerEvent): Transition;
  applyFill(f: Fill): void;
  /** Read-only and not to be kept (it changes with the next event). */
  order(clientOrderId: string): Readonly<TrackedOrder> | undefined;
}

export interface ExecutorDeps {
  /** Lower-cased wallet address. */
  wallet: string;
  api: WalletClient;
  orders: OrderFacts;
  check: SendCheck;
  /** Builds and signs (or takes pre-signed) each order. */
  maker: OrderMaker;
  clock: Clock;
  log: Logger;
  observer: EngineObserver;
  gate?: RateGate | undefined;
  /** Times a journal_intent_not_durable entry is resent. Default 2. */
  maxEntryResends?: number;
}

export interface ExecReport {
  cancelsSent: number;
  placesSent: number;
  /** Places the platform accepted (resting or filled at once). */
  placesAccepted: number;
  placesSkipped: number;
  /** Places held back because their slot's cancel did not end the old order (see the header). */
  placesHeld: number;
  /** A placement answered vault_not_deployed / kyc_blocked: the wallet is not usable for this long. */
  onboardingWait?: { code: string; retryAfterMs: number };
  /** A placement answered market_not_open: the market's status is stale. */
  marketNotOpen?: true;
}

/**
 * Orders that fit in the rate windows now, from the room (`remainingFor`) of each order route:
 * batches of MAX_CANCEL_BATCH / MAX_PLACE_BATCH while the batch routes have room, else one order
 * through the single route. The fast backtest engine sizes its plans the same way.
 */
export function rateBudget(room: (path: string) => number): { cancels: number; places: number } {
  const cb = room("/api/orders/cancel-batch");
  const pb = room("/api/orders/place-batch");
  const cancels = cb >= 1 ? cb * MAX_CANCEL_BATCH : room("/api/orders/cancel") >= 1 ? 1 : 0;
  const places = pb >= 1 ? pb * MAX_PLACE_BATCH : room("/api/orders/place") >= 1 ? 1 : 0;
  return { cancels: Math.min(cancels, Number.MAX_SAFE_INTEGER), places: Math.min(places, Number.MAX_SAFE_INTEGER) };
}

export class OrderExecutor {
  /** Placements accepted so far (for the per-cycle report). */
  private acceptedCount = 0;
  private unreadable = 0;

  constructor(private readonly d: ExecutorDeps) {}

  /** Placement `trades[]` rows that could not be read as fills (skipped, left to the trades pull). */
  get unreadableTrades(): number {
    return this.unreadable;
  }

  /** Orders this wallet may cancel / place now without waiting for the rate gate. */
  budget(): { cancels: number; places: number } {
    const g = this.d.gate;
    if (g === undefined) return { cancels: Number.MAX_SAFE_INTEGER, places: Number.MAX_SAFE_INTEGER };
    const w = this.d.wallet;
    return rateBudget((path) => g.remainingFor("POST", path, w));
  }

  async execute(cancels: readonly LiveOrder[], places: readonly DesiredQuote[], market: ExecMarket): Promise<ExecReport> {
    const accepted0 = this.acceptedCount;
    const report: ExecReport = { cancelsSent: 0, placesSent: 0, placesAccepted: 0, placesSkipped: 0, placesHeld: 0 };
    const toCancel = cancels.filter((o) => o.orderId !== undefined);
    let blocked = new Set<string>();
    if (toCancel.length > 0) {
      report.cancelsSent = await this.cancel(toCancel, market.symbol);
      blocked = this.slotsStillHeld(toCancel);
    }
    const open = blocked.size === 0 ? places : places.filter((q) => !blocked.has(slotKey(q)));
    report.placesHeld = places.length - open.length;
    // Batch by batch: each is checked, built and signed just before it leaves, since an earlier
    // batch's answer may have halted the wallet, closed the market or said the wallet must wait.
    for (let i = 0; i < open.length; i += MAX_PLACE_BATCH) {
      const slice = open.slice(i, i + MAX_PLACE_BATCH);
      const chunk = this.prepareAll(slice, market, report);
      report.placesSkipped += slice.length - chunk.length;
      if (chunk.length === 0) continue;
      await this.registerAndSend(chunk, market.symbol, report);
      report.placesSent += chunk.length;
    }
    report.placesAccepted = this.acceptedCount - accepted0;
    return report;
  }

  /**
   * Slots where an order this cycle cancelled has not ended (it may still rest), or filled since
   * the plan (a fill that won the race changed the position the plan's sizes were fitted to: the
   * next cycle plans again, against the limits, before anything is placed there).
   */
  private slotsStillHeld(cancelled: readonly LiveOrder[]): Set<string> {
    const held = new Set<string>();
    for (const o of cancelled) {
      const now = this.d.orders.order(o.clientOrderId);
      if (now === undefined) continue;
      if (!isTerminal(now.state) || now.size - now.filledQty < o.remaining) held.add(slotKey(o));
    }
    return held;
  }

  /** May `q` leave now: the SendCheck, and no onboarding wait answered earlier in this execution. */
  private allowed(q: DesiredQuote, symbol: string, report: ExecReport): boolean {
    const verdict: PlaceVerdict = report.onboardingWait !== undefined ? { ok: false, reason: "onboarding" } : this.d.check.mayPlace(symbol, q.postOnly);
    if (!verdict.ok) this.d.log.debug({ market: symbol, reason: verdict.reason }, "place skipped");
    return verdict.ok;
  }

  // ---- cancels --------------------------------------------------------------------------------

  /** Cancel orders (with ids) of one market; returns how many cancels were sent. */
  cancel(orders: readonly { clientOrderId: string; orderId?: string | undefined }[], symbol: string): Promise<number> {
    return sendCancels(
      { wallet: this.d.wallet, api: this.d.api, clock: this.d.clock, log: this.d.log, observer: this.d.observer, track: (ev) => this.track(ev) },
      orders,
      symbol,
    );
  }

  // ---- places ---------------------------------------------------------------------------------

  /** Build and sign (or take pre-signed) every order the market allows now; nothing is sent. */
  private prepareAll(quotes: readonly DesiredQuote[], market: ExecMarket, report: ExecReport): Pending[] {
    if (!this.d.maker.ready || market.signing === undefined) return [];
    const out: Pending[] = [];
    for (const q of quotes) {
      if (!this.allowed(q, market.symbol, report)) continue;
      const made = this.d.maker.make(q, market.symbol, market.signing);
      if (made.ok) out.push(made.order);
      else {
        this.d.log.error({ market: market.symbol, clientOrderId: made.clientOrderId, err: errorText(made.error) }, "order not built");
        this.d.observer.onEvent({ type: "order_rejected", wallet: this.d.wallet, marketId: market.symbol, clientOrderId: made.clientOrderId, code: codeOf(made.error), handling: "fix_request" });
      }
    }
    return out;
  }

  private async registerAndSend(pending: Pending[], symbol: string, report: ExecReport): Promise<void> {
    // Registered before the request leaves: an answer (or a frame) can then always be matched.
    const now = this.d.clock.now();
    for (const p of pending) {
      this.track({
        kind: "sent",
        clientOrderId: p.clientOrderId,
        orderHash: p.built.orderHash,
        intent: { marketId: symbol, outcome: p.quote.outcome, side: p.quote.side, price: p.quote.price, size: p.quote.size, postOnly: p.quote.postOnly },
        nowMs: now,
      });
    }
    await this.send(pending, symbol, 0, report);
  }

  private async send(batch: Pending[], symbol: string, resendRound: number, report: ExecReport): Promise<void> {
    const again: Pending[] = [];
    // The client resends by itself what nothing recorded (429 waits, busy answers): only while
    // the market still takes these orders (a close or a halt may come during the waits).
    const stillWanted = (): boolean => report.onboardingWait === undefined && batch.every((p) => this.d.check.mayPlace(symbol, p.quote.postOnly).ok);
    try {
      if (batch.length === 1) {
        const p = batch[0]!;
        const r = await this.d.api.orders.place(p.body, { orderHash: p.built.orderHash, stillWanted });
        if (this.outcome(p, r, symbol, report)) again.push(p);
      } else {
        const r = await this.d.api.orders.placeBatch(
          batch.map((p) => p.body),
          { orderHashes: batch.map((p) => p.built.orderHash), stillWanted },
        );
        if (r.outcome === "unknown") {
          for (const p of batch) this.unknown(p, symbol, r.lastError.code);
        } else {
          r.entries.forEach((entry, i) => {
            const p = batch[i]!;
            if (this.outcome(p, entry, symbol, report)) again.push(p);
          });
        }
      }
    } catch (e) {
      // A throw from the client means nothing was placed; anything else is a bug: stay unknown.
      for (const p of batch) {
        if (isApiError(e)) {
          this.track({ kind: "send_failed", clientOrderId: p.clientOrderId, code: e.code });
          this.rejected(p, symbol, e.code, e.handling, e);
        } else this.unknown(p, symbol, "client_error", e);
      }
      return;
    }
    if (again.length === 0) return;
    // Resent only while the market still takes them (the answer itself may have tripped a halt).
    const withdrawn = again.filter((p) => !this.allowed(p.quote, symbol, report));
    for (const p of withdrawn) {
      this.track({ kind: "send_failed", clientOrderId: p.clientOrderId, code: "withdrawn" });
      this.rejected(p, symbol, "withdrawn", "business_reject");
    }
    if (withdrawn.length > 0) again.splice(0, again.length, ...again.filter((p) => !withdrawn.includes(p)));
    if (again.length === 0) return;
    const limit = this.d.maxEntryResends ?? 2;
    if (resendRound >= limit) {
      for (const p of again) {
        this.track({ kind: "send_failed", clientOrderId: p.clientOrderId, code: "journal_intent_not_durable" });
        this.rejected(p, symbol, "journal_intent_not_durable", "resend_same");
      }
      return;
    }
    // Same body, same clientOrderId, same hash: the tracker sees a resend, the platform a duplicate at worst.
    const now = this.d.clock.now();
    for (const p of again) {
      this.track({
        kind: "sent",
        clientOrderId: p.clientOrderId,
        orderHash: p.built.orderHash,
        intent: { marketId: symbol, outcome: p.quote.outcome, side: p.quote.side, price: p.quote.price, size: p.quote.size, postOnly: p.quote.postOnly },
        nowMs: now,
      });
    }
    await this.send(again, symbol, resendRound + 1, report);
  }

  /** Apply one placement outcome; true when the entry must be resent unchanged. */
  private outcome(p: Pending, r: PlaceOutcome, symbol: string, report: ExecReport): boolean {
    if (r.outcome === "accepted") {
      this.accepted(p, r, symbol);
      return false;
    }
    if (r.outcome === "unknown") {
      this.unknown(p, symbol, r.lastError.code, r.lastError);
      return false;
    }
    if (r.handling === "resend_same") return true;
    this.rejectedAnswer(p, r, symbol, report);
    return false;
  }

  private accepted(p: Pending, r: PlaceAccepted, symbol: string): void {
    this.acceptedCount += 1;
    const ev = { kind: "ack" as const, clientOrderId: p.clientOrderId, result: r.result };
    this.track(r.meta.serverTime === undefined ? ev : { ...ev, serverTimeMs: r.meta.serverTime });
    const q = p.quote;
    this.d.observer.onEvent({
      type: "order_placed",
      wallet: this.d.wallet,
      marketId: symbol,
      clientOrderId: p.clientOrderId,
      orderId: r.orderId,
      outcome: q.outcome,
      side: q.side,
      price: q.price,
      size: q.size,
      postOnly: q.postOnly,
      status: r.status,
    });
    this.d.log.debug({ market: symbol, clientOrderId: p.clientOrderId, orderId: r.orderId, status: r.status }, "order placed");
    const ref = { orderId: r.orderId, clientOrderId: p.clientOrderId, outcome: q.outcome, side: q.side, marketId: symbol };
    const read = readOrderTrades(this.d.wallet, r.result.trades, ref, "placement");
    for (const f of read.fills) this.d.orders.applyFill(f);
    if (read.unreadable > 0) {
      // Row by row, best effort (the tracker counts them too): the trades pull brings these fills.
      this.unreadable += read.unreadable;
      this.d.log.warn({ market: symbol, clientOrderId: p.clientOrderId, orderId: r.orderId, unreadable: read.unreadable }, "placement trade rows unreadable: left to the trades pull");
    }
  }

  private rejectedAnswer(p: Pending, r: PlaceRejected, symbol: string, report: ExecReport): void {
    if (r.handling === "onboarding_wait") {
      // Nothing was recorded; the wallet is not usable yet.
      this.track({ kind: "send_failed", clientOrderId: p.clientOrderId, code: r.code });
      const retrySec = r.meta.retryAfterSec ?? numberOf(r.details?.["retryAfterSec"]);
      const retryAfterMs = (retrySec ?? 2) * 1000;
      if (report.onboardingWait === undefined || retryAfterMs > report.onboardingWait.retryAfterMs) report.onboardingWait = { code: r.code, retryAfterMs };
    } else {
      const result: RejectedPlacement = r.result ?? { orderId: r.orderId ?? null, status: "REJECTED", code: r.code, message: r.message };
      this.track({ kind: "ack", clientOrderId: p.clientOrderId, result });
      if (r.code === "market_not_open") report.marketNotOpen = true;
    }
    this.rejected(p, symbol, r.code, r.handling);
  }

  private rejected(p: Pending, symbol: string, code: string, handling: PlaceRejected["handling"], error?: unknown): void {
    this.d.observer.onEvent({ type: "order_rejected", wallet: this.d.wallet, marketId: symbol, clientOrderId: p.clientOrderId, code, handling });
    const fields = { market: symbol, clientOrderId: p.clientOrderId, orderId: null, code, err: errorText(error) };
    if (handling === "business_reject" || handling === "onboarding_wait") this.d.log.info(fields, "order rejected");
    else this.d.log.warn(fields, "order not placed");
  }

  private unknown(p: Pending, symbol: string, code: string, error?: unknown): void {
    this.track({ kind: "ack_unknown", clientOrderId: p.clientOrderId, reason: code });
    this.d.observer.onEvent({ type: "order_unknown", wallet: this.d.wallet, marketId: symbol, clientOrderId: p.clientOrderId, code });
    this.d.log.warn({ market: symbol, clientOrderId: p.clientOrderId, orderId: null, code, err: errorText(error) }, "placement outcome unknown: will look it up");
  }

  private track(ev: TrackerEvent): Transition {
    return this.d.orders.track(ev);
  }
}

function numberOf(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
