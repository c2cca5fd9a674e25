/**
 * The order desk: everything `POST /api/orders/place` and `place-batch` do between the route and
 * the matching engine, the order records, and the `/ws/user` frames.
 *
 * Placement, in order: lenient forms and derivable fields (body.ts) -> body schema (400 envelope
 * naming the field) -> the fault the pipeline
 * passed -> `clientOrderId` dedupe per wallet -> the checks of checks.ts -> EIP-712 recovery of
 * the canonical struct (when `verifySignatures`) -> the engine. Answers are HTTP 201 placement
 * results, rejections included (7.1 rule 3); only a 409 `market_not_open` outside PRE_MARKET, a
 * malformed body and the faults are error envelopes.
 *
 * clientOrderId dedupe covers RECORDED orders: once an order got an id (accepted, or refused by
 * the matcher with insufficient_funds / post_only_would_cross), the same (wallet, clientOrderId)
 * answers that first placement result again and never makes a second order. A request refused
 * before the matcher (bad signature, maker mismatch, ...) records nothing, so the client may fix
 * and resend under the same id. Two requests with the same id in flight at once: the second gets
 * 500 `idempotency_race` (the race the spec names).
 *
 * Frames are driven by engine events, so orders of every path (placement, cancels, expiry,
 * resolution) produce them the same way: `order_placed` on accept, `user_fill` per fill for each
 * recorded party (role maker/taker), `order_cancelled`, `order_expired`.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import { getAddress } from "viem/utils";
import { orderDigest, recoverOrderSigner, RecoveryCache, type Address } from "../../signing/index.js";
import { checkPlaceBody, checkRequest, placeBatchEnvelope, requestErrorEnvelope, type PlaceBody } from "../../wire/requests.js";
import type { EngineEvent, IdSource, MatchingEngine, PlaceResult } from "../engine/index.js";
import type { UserFrame, UserFrameBus } from "../bus.js";
import { failure, type PlatformFailure } from "../platform/errors.js";
import type { Fault } from "../platform/faults.js";
import type { SimPlatform } from "../platform/platform.js";
import { faultAnswer, faultTiming, failureAnswer, type DeskAnswer } from "./answers.js";
import { normalisePlaceBody } from "./body.js";
import { CancelDesk } from "./cancels.js";
import type { Caller } from "./caller.js";
import { checkPlacement, structJson, type Prepared } from "./checks.js";
import { ExpiryTimer } from "./expiry.js";
import { amount, rejected, tradeJson, type PlacementJson, type RejectedPlacementJson } from "./format.js";
import { orderEndedFrame, orderPlacedFrame, userFillFrame } from "./frames.js";
import { OrderRecords, TERMINAL, type DeskOrder } from "./records.js";


export interface DeskOptions {
  clock: Clock;
  platform: SimPlatform;
  engine: MatchingEngine;
  bus: UserFrameBus;
  /** The id source the engine uses too, so desk and flow orders never share an id. */
  ids: IdSource;
  verifySignatures: boolean;
  /** Recovery cache for signatures (default: the process-wide one; null: none). */
  recoveryCache?: RecoveryCache | null;
}

type Outcome = { kind: "placement"; result: PlacementJson } | { kind: "http"; failure: PlatformFailure };

const PLACE_BATCH_ROUTE = "POST /api/orders/place-batch";

/** Codes of orders the matcher ended within the placement call without any fill. */
const NO_FILL_CODES: Readonly<Record<string, string>> = {
  fok_unfillable: "fok_unfillable",
  ioc_remainder: "ioc_unfilled",
  self_trade: "self_trade",
};

export class OrderDesk {
  readonly records = new OrderRecords();
  readonly clock: Clock;
  readonly platform: SimPlatform;
  readonly engine: MatchingEngine;
  readonly bus: UserFrameBus;
  readonly verifySignatures: boolean;
  /** cancel, cancel-batch, cancel-all. */
  readonly cancels: CancelDesk;
  private readonly ids: IdSource;
  private readonly cache: RecoveryCache | null;
  private readonly inflight = new Set<string>();
  private readonly expiry: ExpiryTimer;
  /** Timers of cancel_pending completions. */
  readonly cancelTimers = new Set<TimerHandle>();
  private lastCreatedAtMs = 0;

  constructor(opts: DeskOptions) {
    this.clock = opts.clock;
    this.platform = opts.platform;
    this.engine = opts.engine;
    this.bus = opts.bus;
    this.ids = opts.ids;
    this.verifySignatures = opts.verifySignatures;
    // One cache per simulator, never the process-wide one: a hit resolves in fewer ticks than a
    // miss, so a cache shared between simulator instances would make one run's timing depend on
    // the runs before it in the same process.
    this.cache = opts.recoveryCache === undefined ? new RecoveryCache(4096) : opts.recoveryCache;
    this.expiry = new ExpiryTimer(this.clock, (now) => this.engine.expireDue(now));
    this.cancels = new CancelDesk(this);
  }

  /** Arm the GTD expiry timer. */
  start(): void {
    this.expiry.start();
  }

  stop(): void {
    this.expiry.stop();
    for (const t of this.cancelTimers) this.clock.clearTimeout(t);
    this.cancelTimers.clear();
  }

  // ---------------------------------------------------------------------------------------
  // Placement

  async place(raw: unknown, caller: Caller, fault?: Fault): Promise<DeskAnswer> {
    const parsed = checkPlaceBody(normalisePlaceBody(raw));
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const timing = faultTiming(fault, true);
    if (timing === "before") return faultAnswer(fault!)!;
    const out = await this.placeOne(parsed.value, caller);
    if (timing === "after") return faultAnswer(fault!)!;
    return out.kind === "http" ? failureAnswer(out.failure) : { status: 201, body: out.result };
  }

  async placeBatch(raw: unknown, caller: Caller, fault?: Fault): Promise<DeskAnswer> {
    const env = checkRequest(placeBatchEnvelope, raw);
    if (!env.ok) return { status: 400, body: requestErrorEnvelope(env) };
    const timing = faultTiming(fault, true);
    if (timing === "before") return faultAnswer(fault!)!;
    const results: Record<string, unknown>[] = [];
    for (const entry of env.value.orders) {
      const coid = clientOrderIdOf(entry);
      const parsed = checkPlaceBody(normalisePlaceBody(entry));
      if (!parsed.ok) {
        results.push(batchFailure(parsed.code, parsed.message, { fields: parsed.fields, field: parsed.fields[0] ?? null }, coid));
        continue;
      }
      const entryFault = this.platform.faults.decideEntry(PLACE_BATCH_ROUTE, this.clock.now());
      if (entryFault?.kind === "journal_intent_not_durable") {
        const f = entryFault.entry;
        results.push(batchFailure(f.code, f.message, { ...(f.details ?? {}), retryable: true }, coid));
        continue;
      }
      const out = await this.placeOne(parsed.value, caller);
      if (out.kind === "http") {
        const f = out.failure;
        results.push(batchFailure(f.code, f.message, f.details === undefined ? undefined : { ...f.details }, coid));
      } else if (out.result.status === "REJECTED") {
        // Spec 4.6: "a rejected entry has success: false and a code", matcher rejects and maker mismatches included.
        const entry: Record<string, unknown> = { success: false, ...out.result };
        if (coid !== undefined) entry.clientOrderId = coid;
        results.push(entry);
      } else results.push({ success: true, ...out.result });
    }
    if (timing === "after") return faultAnswer(fault!)!;
    return { status: 201, body: { results } };
  }

  private async placeOne(body: PlaceBody, caller: Caller): Promise<Outcome> {
    const coid = body.clientOrderId;
    if (coid === undefined) return this.placeChecked(body, caller);
    const prior = this.records.byClientOrderId(caller.wallet, coid);
    if (prior?.placement !== undefined) return { kind: "placement", result: prior.placement };
    const key = `${caller.wallet}\n${coid}`;
    if (this.inflight.has(key) || prior !== undefined) {
      return { kind: "http", failure: failure(500, "idempotency_race", "another request with this clientOrderId is in flight; look the order up") };
    }
    this.inflight.add(key);
    try {
      return await this.placeChecked(body, caller);
    } finally {
      this.inflight.delete(key);
    }
  }

  private async placeChecked(body: PlaceBody, caller: Caller): Promise<Outcome> {
    const check = checkPlacement(body, { platform: this.platform, wallet: caller.wallet, partner: caller.partner, nowMs: this.clock.now() });
    switch (check.kind) {
      case "reject":
        return { kind: "placement", result: check.result };
      case "http":
        return { kind: "http", failure: check.failure };
      case "bad_signature":
        return { kind: "placement", result: await this.badSignature(check.prepared, caller.wallet) };
      case "ok":
        break;
    }
    const p = check.prepared;
    if (this.verifySignatures) {
      const recovered = await this.recover(p);
      if (recovered?.toLowerCase() !== caller.wallet) return { kind: "placement", result: await this.badSignature(p, caller.wallet, recovered) };
    }
    return { kind: "placement", result: this.execute(p, caller.wallet) };
  }

  private async recover(p: Prepared): Promise<Address | null> {
    try {
      return await recoverOrderSigner(p.canonical, p.signature, p.domain, { cache: this.cache });
    } catch {
      return null;
    }
  }

  private async badSignature(p: Prepared, wallet: string, known?: Address | null): Promise<RejectedPlacementJson> {
    const recovered = known !== undefined ? known : await this.recover(p);
    return rejected("bad_signature", "the signature does not recover to the effective wallet over the platform's canonical order struct", {
      recovered,
      expected_signer: getAddress(wallet),
      platform_canonical_struct: structJson(p.canonical),
    });
  }

  /** Record the order and hand it to the engine (synchronous: events find the record). */
  private execute(p: Prepared, wallet: string): PlacementJson {
    const id = this.ids.next("order");
    const now = Math.max(this.clock.now(), this.lastCreatedAtMs);
    this.lastCreatedAtMs = now;
    const o: DeskOrder = {
      id,
      wallet,
      clientOrderId: p.clientOrderId,
      orderHash: orderDigest(p.canonical, p.domain).toLowerCase(),
      marketId: p.market.symbol,
      tokenId: p.canonical.tokenId.toString(),
      outcome: p.outcome,
      side: p.side,
      type: p.type,
      timeInForce: p.timeInForce,
      postOnly: p.postOnly,
      price: p.price,
      quantity: p.quantity,
      expiration: p.canonical.expiration.toString(),
      createdAtMs: now,
      filledQty: 0n,
      remainingQty: p.quantity,
      status: "OPEN",
      updatedAtMs: now,
      feesPaid: 0n,
      endReason: undefined,
      trades: [],
      placement: undefined,
      cancel: undefined,
    };
    this.records.add(o);
    const r = this.engine.place({
      orderId: id,
      wallet,
      marketId: o.marketId,
      outcome: o.outcome,
      side: o.side,
      price: o.price,
      quantity: o.quantity,
      type: o.type,
      timeInForce: o.timeInForce,
      postOnly: o.postOnly,
      expiration: p.expiration,
    });
    const placement = this.placementOf(o, r);
    o.placement = placement;
    if (o.timeInForce === "GTD" && !TERMINAL.has(o.status)) this.expiry.add(p.expiration * 1000);
    return placement;
  }

  private placementOf(o: DeskOrder, r: PlaceResult): PlacementJson {
    const trades = r.trades.map(tradeJson);
    if (r.status === "REJECTED") {
      this.records.markRejected(o, this.clock.now());
      const details = r.code === "insufficient_funds" ? { available: amount(this.engine.balance(o.wallet).available) } : undefined;
      return rejected(r.code ?? "matcher_error", r.message ?? "refused by the matcher", details, o.id);
    }
    const base = { orderId: o.id, filledQty: amount(r.filledQty), remainingQty: amount(r.remainingQty), trades };
    if (r.status === "OPEN" || r.status === "PARTIAL" || r.status === "FILLED") return { ...base, status: r.status };
    if (r.filledQty > 0n) return { ...base, status: "PARTIAL", orderStatus: "CANCELLED" };
    const code = NO_FILL_CODES[r.endReason ?? ""] ?? "cancelled";
    return { ...rejected(code, `the order ended without a fill (${r.endReason ?? "cancelled"})`, { orderStatus: r.status }, o.id), trades };
  }

  // ---------------------------------------------------------------------------------------
  // Engine events -> records and frames

  onEngineEvent(e: EngineEvent): void {
    switch (e.type) {
      case "accepted": {
        const o = this.records.get(e.order.id);
        if (o !== undefined) this.publish(o.wallet, () => orderPlacedFrame(o, this.clock.now()));
        return;
      }
      case "fill": {
        const t = e.trade;
        const taker = this.records.get(t.takerOrderId);
        const maker = this.records.get(t.makerOrderId);
        if (taker !== undefined) {
          this.records.update(taker, e.taker);
          taker.trades.push(t);
          this.publish(taker.wallet, () => userFillFrame(taker, t, "taker", this.clock.now()));
        }
        if (maker !== undefined) {
          this.records.update(maker, e.maker);
          maker.trades.push(t);
          this.publish(maker.wallet, () => userFillFrame(maker, t, "maker", this.clock.now()));
        }
        return;
      }
      case "rested": {
        const o = this.records.get(e.order.id);
        if (o !== undefined) this.records.update(o, e.order);
        return;
      }
      case "ended": {
        const o = this.records.get(e.order.id);
        if (o === undefined) return;
        this.records.update(o, e.order);
        if (e.status === "CANCELLED") this.publish(o.wallet, () => orderEndedFrame("order_cancelled", o, this.clock.now()));
        else if (e.status === "EXPIRED") this.publish(o.wallet, () => orderEndedFrame("order_expired", o, this.clock.now()));
        return;
      }
      case "rejected":
        return;
    }
  }

  /** Build a frame only when someone listens (nothing else can observe it). */
  publish(wallet: string, build: () => UserFrame): void {
    if (this.bus.subscriberCount(wallet) > 0) this.bus.publish(wallet, build());
  }
}

function clientOrderIdOf(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const v = (entry as Record<string, unknown>).clientOrderId;
  return typeof v === "string" ? v : undefined;
}

function batchFailure(code: string, message: string, details: Record<string, unknown> | undefined, clientOrderId: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { success: false, status: "REJECTED", code, message };
  if (details !== undefined) out.details = details;
  if (clientOrderId !== undefined) out.clientOrderId = clientOrderId;
  return out;
}
