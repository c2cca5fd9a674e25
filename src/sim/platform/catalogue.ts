/**
 * The simulator's events and markets at run time: indexes for the lookups the routes need (by
 * id, slug, symbol, token id), the lifecycle of every market, and the default/closed lists.
 *
 * Records are built once (catalogue-records.ts). Time-driven lifecycle moves are applied
 * lazily on every read (from the clock) and, once startTimers() is called, by a timer at each
 * window boundary so listeners hear about them when they happen.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import { PlatformSetupError, type PlatformFailure, type PlatformOk } from "./errors.js";
import { buildCatalogueRecords, type EventInput, type Market, type SimEvent, type Tag, type TagInput } from "./catalogue-records.js";
import {
  admitOrder,
  advance,
  apply,
  CLOSED_SET,
  initialLifecycle,
  isListed,
  nextTimeMoveAt,
  OPEN_SET,
  TERMINAL,
  type AdminTrigger,
  type AdmissionFailure,
  type LifecycleState,
  type MarketStatus,
  type TradingWindow,
  type Transition,
  type TransitionArgs,
} from "./lifecycle.js";

export * from "./catalogue-records.js";

export interface CatalogueOptions {
  clock: Clock;
  rng: Rng;
  defaultFeeTakerBps: number;
  tags?: readonly TagInput[];
  events: readonly EventInput[];
  /** Creation time of every record (the scenario start); default clock.now(). */
  createdAtMs?: number;
}

export type MarketSet = "open" | "closed" | "all";
export type TransitionListener = (market: Market, transition: Transition, state: LifecycleState) => void;

/** A fixture counts as in play for this long after kickoff while a market is unsettled. */
export const IN_PLAY_MS = 3 * 3_600_000;

export class Catalogue {
  readonly defaultFeeTakerBps: number;
  /** Refused administrative transitions (spec: counted, never applied). */
  refusedTransitions = 0;
  private readonly clock: Clock;
  private readonly tagsBySlug = new Map<string, Tag>();
  private readonly eventsById = new Map<string, SimEvent>();
  private readonly eventsBySlug = new Map<string, SimEvent>();
  private readonly marketsById = new Map<string, Market>();
  private readonly marketsBySlug = new Map<string, Market>();
  private readonly marketsBySymbol = new Map<string, Market>();
  private readonly byToken = new Map<string, { market: Market; outcome: number }>();
  private readonly states = new Map<string, LifecycleState>();
  private readonly listeners = new Set<TransitionListener>();
  private timer: TimerHandle | undefined;
  private timersOn = false;
  /** Earliest pending time move; sync() does nothing before it. -Infinity forces a pass. */
  private dueAtMs: number | undefined = -Infinity;

  constructor(opts: CatalogueOptions) {
    this.clock = opts.clock;
    this.defaultFeeTakerBps = opts.defaultFeeTakerBps;
    const createdAtMs = opts.createdAtMs ?? opts.clock.now();
    const rec = buildCatalogueRecords({ rng: opts.rng, events: opts.events, createdAtMs, ...(opts.tags ? { tags: opts.tags } : {}) });
    for (const t of rec.tags) this.tagsBySlug.set(t.slug, t);
    for (const e of rec.events) {
      this.eventsById.set(e.id, e);
      this.eventsBySlug.set(e.slug, e);
    }
    for (const { market: m, window } of rec.markets) {
      this.marketsById.set(m.id, m);
      this.marketsBySlug.set(m.slug, m);
      this.marketsBySymbol.set(m.symbol, m);
      m.outcomeTokenIds.forEach((t, outcome) => this.byToken.set(t, { market: m, outcome }));
      this.states.set(m.id, initialLifecycle(window, m.outcomeCount, createdAtMs));
    }
    this.sync();
  }

  /** Apply every time-driven move due now; listeners hear each one. Cheap when nothing is due. */
  sync(): void {
    const now = this.clock.now();
    if (this.dueAtMs === undefined || now < this.dueAtMs) return;
    this.dueAtMs = undefined;
    for (const [id, st] of this.states) {
      const r = advance(st, now);
      if (r.transitions.length === 0) continue;
      this.states.set(id, r.state);
      const m = this.marketsById.get(id)!;
      for (const t of r.transitions) this.emit(m, t, r.state);
    }
    this.dueAtMs = this.computeNextBoundary();
  }

  onTransition(listener: TransitionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(m: Market, t: Transition, s: LifecycleState): void {
    for (const l of this.listeners) l(m, t, s);
  }

  /** Schedule a clock timer at each window boundary so moves happen (and are heard) on time. */
  startTimers(): void {
    this.timersOn = true;
    this.rearm();
  }

  stopTimers(): void {
    this.timersOn = false;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private rearm(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.timersOn) return;
    const next = this.nextBoundaryMs();
    if (next === undefined) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.sync();
      this.rearm();
    }, next - this.clock.now());
  }

  /** Earliest future time-driven move over all markets. */
  nextBoundaryMs(): number | undefined {
    this.sync();
    return this.dueAtMs;
  }

  private computeNextBoundary(): number | undefined {
    const now = this.clock.now();
    let best: number | undefined;
    for (const st of this.states.values()) {
      const t = nextTimeMoveAt(st, now);
      if (t !== undefined && (best === undefined || t < best)) best = t;
    }
    return best;
  }

  lifecycle(marketId: string): LifecycleState {
    this.sync();
    const s = this.states.get(marketId);
    if (!s) throw new PlatformSetupError(`unknown market ${marketId}`);
    return s;
  }

  status(marketId: string): MarketStatus | "SCHEDULED" {
    return this.lifecycle(marketId).status;
  }

  /** An administrative move through the lifecycle table; refusals are counted, never applied. */
  transition(marketId: string, trigger: AdminTrigger, args: TransitionArgs = {}): { ok: true; transition: Transition; state: LifecycleState } | PlatformFailure {
    const st = this.lifecycle(marketId);
    const r = apply(st, trigger, this.clock.now(), args);
    if (!r.ok) {
      this.refusedTransitions++;
      return r;
    }
    this.states.set(marketId, r.state);
    this.dueAtMs = -Infinity;
    this.emit(this.marketsById.get(marketId)!, r.transition, r.state);
    this.sync();
    this.rearm();
    return r;
  }

  /** Change a market's trading window (e.g. a postponed fixture gets a new date). */
  reschedule(marketId: string, window: TradingWindow): LifecycleState {
    const st = this.lifecycle(marketId);
    if (TERMINAL.has(st.status)) throw new PlatformSetupError(`market ${marketId} is settled`);
    const next = { ...st, window, updatedAtMs: this.clock.now() };
    this.states.set(marketId, next);
    this.dueAtMs = -Infinity;
    this.sync();
    this.rearm();
    return this.states.get(marketId)!;
  }

  admitOrder(marketId: string, order: { postOnly: boolean }): PlatformOk | AdmissionFailure {
    return admitOrder(this.lifecycle(marketId), order, this.clock.now());
  }

  /** Fee rate orders must sign: the market's feeTakerBps, or the platform default when null. */
  effectiveFeeTakerBps(market: Market): number {
    return market.feeTakerBps ?? this.defaultFeeTakerBps;
  }

  // -------------------------------------------------------------------------------------
  // Lookups. Unlisted (SCHEDULED) markets are hidden unless `includeUnlisted`.

  private visible(m: Market | undefined, includeUnlisted: boolean): Market | undefined {
    if (!m) return undefined;
    return includeUnlisted || isListed(this.lifecycle(m.id)) ? m : undefined;
  }

  market(id: string, includeUnlisted = false): Market | undefined {
    return this.visible(this.marketsById.get(id), includeUnlisted);
  }
  marketBySlug(slug: string, includeUnlisted = false): Market | undefined {
    return this.visible(this.marketsBySlug.get(slug), includeUnlisted);
  }
  marketBySymbol(symbol: string, includeUnlisted = false): Market | undefined {
    return this.visible(this.marketsBySymbol.get(symbol), includeUnlisted);
  }
  marketByToken(tokenId: string, includeUnlisted = false): { market: Market; outcome: number } | undefined {
    const hit = this.byToken.get(tokenId);
    return hit && this.visible(hit.market, includeUnlisted) ? hit : undefined;
  }

  /** Markets in input order; `set` open = PRE_MARKET/OPEN/PAUSED/POSTPONED, closed = post-trading. */
  markets(set: MarketSet = "all", includeUnlisted = false): Market[] {
    this.sync();
    return [...this.marketsById.values()].filter((m) => {
      const s = this.states.get(m.id)!.status;
      if (s === "SCHEDULED") return includeUnlisted && set === "all";
      if (set === "open") return OPEN_SET.has(s);
      if (set === "closed") return CLOSED_SET.has(s);
      return true;
    });
  }

  marketsWithStatus(statuses: readonly MarketStatus[]): Market[] {
    const want = new Set<string>(statuses);
    return this.markets("all").filter((m) => want.has(this.states.get(m.id)!.status));
  }

  event(id: string): SimEvent | undefined {
    return this.eventsById.get(id);
  }
  eventBySlug(slug: string): SimEvent | undefined {
    return this.eventsBySlug.get(slug);
  }
  eventOf(market: Market): SimEvent {
    return this.eventsById.get(market.eventId)!;
  }

  /** The event's listed markets (unlisted ones are not shown anywhere). */
  eventMarkets(e: SimEvent): Market[] {
    return e.marketIds.map((id) => this.market(id)).filter((m): m is Market => m !== undefined);
  }

  /** Markets in the open set, and all listed markets (spec 2.6 rule 5 counters). */
  eventCounts(e: SimEvent): { openMarketCount: number; totalMarketCount: number } {
    const ms = this.eventMarkets(e);
    // 2.8: an Up/Down day counts every window of the day, listed yet or not.
    const total = e.cryptoSeries !== null ? e.marketIds.length : ms.length;
    return { openMarketCount: ms.filter((m) => OPEN_SET.has(this.status(m.id) as MarketStatus)).length, totalMarketCount: total };
  }

  /** Kickoff passed less than IN_PLAY_MS ago and some listed market is not settled. */
  eventInPlay(e: SimEvent): boolean {
    const now = this.clock.now();
    if (e.kickoffMs === null || now < e.kickoffMs || now >= e.kickoffMs + IN_PLAY_MS) return false;
    return this.eventMarkets(e).some((m) => !TERMINAL.has(this.status(m.id)));
  }

  /**
   * Events in input order: "open" is the default list (at least one open-set market, plus
   * fixtures in play), "closed" is `status=closed` (no open-set market, not in play), "all" is
   * every event with at least one listed market (an Up/Down day counts its unlisted windows in
   * totalMarketCount, so that count cannot tell: a day none of whose windows is listed is on no list).
   */
  events(set: MarketSet = "all"): SimEvent[] {
    return [...this.eventsById.values()].filter((e) => {
      const { openMarketCount, totalMarketCount } = this.eventCounts(e);
      if (totalMarketCount === 0 || (e.cryptoSeries !== null && this.eventMarkets(e).length === 0)) return false;
      if (set === "open") return openMarketCount > 0 || this.eventInPlay(e);
      if (set === "closed") return openMarketCount === 0 && !this.eventInPlay(e);
      return true;
    });
  }

  /** Every event in input order, listed or not (matches group them). */
  allEvents(): SimEvent[] {
    return [...this.eventsById.values()];
  }

  tags(): Tag[] {
    return [...this.tagsBySlug.values()];
  }
  tag(slug: string): Tag | undefined {
    return this.tagsBySlug.get(slug);
  }
  eventTags(e: SimEvent): Tag[] {
    return e.tagSlugs.map((s) => this.tagsBySlug.get(s)).filter((t): t is Tag => t !== undefined);
  }

  /** updatedAt of a market row: the newest of creation and the last lifecycle change. */
  updatedAtMs(marketId: string): number {
    const m = this.marketsById.get(marketId);
    return Math.max(m?.createdAtMs ?? 0, this.lifecycle(marketId).updatedAtMs);
  }
}
