/**
 * What the metrics need to hear from the engine, and the implementation that turns it into
 * metric updates. The engine's own observer interface adapts to `EngineEvents` one method at a
 * time; every argument is plain data (wallet ids, symbols, bigint micros), and every label value
 * goes through the LabelGuard, so the engine may pass addresses, unknown codes or odd symbols
 * without growing the label sets.
 */
import type { VaultMergeMetrics, VaultMergeResult } from "./vault-metrics.js";
import type { FillRoleView } from "../bot/fills/fill-types.js";
import { LIMIT_REASONS } from "../bot/risk/limits.js";
import type { HaltChange } from "../bot/risk/types.js";
import { microsToNumber, notional, type Micros } from "../core/money.js";
import { OTHER, methodLabel, oneOf, statusLabel } from "./labels.js";
import type { DaemonMetrics } from "./registry.js";
import { adverseMetrics } from "./adverse-metrics.js";
import type { Side } from "../core/amounts.js";
import { routeTemplate } from "./routes.js";

export interface FillEvent {
  wallet: string;
  market: string;
  role: FillRoleView;
  /** Micro-shares. */
  qty: Micros;
  /** Micros per share. */
  price: Micros;
  /** Settlement micros paid (0 for makers). */
  fee: Micros;
}

export interface HttpRequestEvent {
  method: string;
  /** Raw path (query, ids): reduced to its route template here. */
  path: string;
  /** undefined: no answer (transport error, timeout). */
  status: number | undefined;
  durationMs: number;
}

export interface EngineEvents {
  /** Orders resting per side after a cycle (acknowledged, not cancelling). */
  liveQuotes(wallet: string, market: string, live: { buy: number; sell: number }): void;
  ordersPlaced(wallet: string, market: string, count?: number): void;
  ordersCancelled(wallet: string, market: string, count?: number): void;
  orderRejected(wallet: string, market: string, code: string): void;
  /** Orders in an unknown state for the wallet, now. */
  unknownOrders(wallet: string, count: number): void;
  fill(f: FillEvent): void;
  position(wallet: string, market: string, outcome: number, qty: Micros): void;
  pnl(wallet: string, market: string, pnl: { realised: Micros; unrealised: Micros }): void;
  dailyPnl(wallet: string, pnl: Micros): void;
  reconciliation(wallet: string, drifted: number): void;
  /** A risk filter's drops and resizes, counted by reason. */
  quotesDropped(wallet: string, market: string, reason: string, count?: number): void;
  halt(change: HaltChange): void;
  /** One 401 key refusal; wallet: address or name of the wallet acted for, if any. */
  authRefusal(wallet: string | undefined, code: string): void;
  streamFrame(wallet: string, serverTs: number, receivedAtMs: number): void;
  /** RateGateOptions.onWait fits: (bucketId, waitMs). */
  rateGateWait(bucket: string, waitMs: number): void;
  httpRequest(e: HttpRequestEvent): void;
  /** One quoting cycle done (also the liveness heartbeat). */
  cycle(durationMs: number, nowMs: number): void;
  /**
   * The wallet no longer follows the market (no quotes, nothing held): drop its gauges now; its
   * label is released once no wallet follows it (market-labels.ts).
   */
  forgetMarket(wallet: string, market: string): void;
  /**
   * The markets in use changed (a selection refresh, a market closing): a market wanting a label
   * re-reads them at once instead of at the next periodic sweep.
   */
  marketsChanged(): void;
}

const ROLES: readonly FillRoleView[] = ["maker", "taker", "unknown"];
const SCOPES = ["global", "wallet", "market"] as const;

export class MetricsObserver implements EngineEvents {
  private readonly vault: VaultMergeMetrics;

  constructor(private readonly m: DaemonMetrics) {
    this.vault = m.vaultMerges;
  }

  /** An auto-merge sent, confirmed or failed (vault-metrics.ts). */
  vaultMerge(wallet: string, result: VaultMergeResult, amount: Micros): void {
    this.vault.record(this.m.labels.wallet(wallet), result, amount);
  }

  /** A live markout of an own fill (EngineEvent `markout`). */
  markout(wallet: string, market: string, side: Side, horizonMs: number, perShare: Micros): void {
    adverseMetrics(this.m.registry).markout(this.wm(wallet, market), side, horizonMs, perShare);
  }

  /** A (wallet, market)'s adverse-selection state changed (EngineEvent `adverse_state`). */
  adverseState(wallet: string, market: string, sides: readonly { outcome: number; side: Side; level: "widen" | "pull" }[], cooling: boolean): void {
    adverseMetrics(this.m.registry).state(this.wm(wallet, market), sides, cooling);
  }

  private wm(wallet: string, market: string): { wallet: string; market: string } {
    return { wallet: this.m.labels.wallet(wallet), market: this.m.labels.market(market) };
  }

  /** Labels for a gauge (no counter touched). */
  private gaugeWm(wallet: string, market: string): { wallet: string; market: string } {
    return { wallet: this.m.labels.wallet(wallet), market: this.m.labels.market(market, false) };
  }

  liveQuotes(wallet: string, market: string, live: { buy: number; sell: number }): void {
    this.m.marketSeries.quotes(wallet, market, live.buy + live.sell);
    const l = this.gaugeWm(wallet, market);
    this.m.marketSeries.setGauge(this.m.liveQuotes, { ...l, side: "buy" }, market, live.buy);
    this.m.marketSeries.setGauge(this.m.liveQuotes, { ...l, side: "sell" }, market, live.sell);
  }

  ordersPlaced(wallet: string, market: string, count = 1): void {
    this.m.ordersPlaced.inc(this.wm(wallet, market), count);
  }

  ordersCancelled(wallet: string, market: string, count = 1): void {
    this.m.ordersCancelled.inc(this.wm(wallet, market), count);
  }

  orderRejected(wallet: string, market: string, code: string): void {
    this.m.ordersRejected.inc({ ...this.wm(wallet, market), code: this.m.labels.code(code) });
  }

  unknownOrders(wallet: string, count: number): void {
    this.m.ordersUnknown.set({ wallet: this.m.labels.wallet(wallet) }, count);
  }

  fill(f: FillEvent): void {
    const l = { ...this.wm(f.wallet, f.market), role: oneOf(f.role, ROLES) };
    this.m.fills.inc(l);
    this.m.tradedShares.inc(l, microsToNumber(f.qty));
    this.m.tradedNotional.inc(l, microsToNumber(notional(f.price, f.qty, "floor")));
    if (f.fee > 0n) this.m.feesPaid.inc(this.wm(f.wallet, f.market), microsToNumber(f.fee));
  }

  position(wallet: string, market: string, outcome: number, qty: Micros): void {
    this.m.marketSeries.holds(wallet, market, outcome, qty !== 0n);
    const l = this.gaugeWm(wallet, market);
    // Outcome indexes are small integers; anything else would be a bug upstream, not a label.
    this.m.marketSeries.setGauge(this.m.position, { ...l, outcome: outcomeLabel(outcome) }, market, microsToNumber(qty));
  }

  /** PnL never takes a label (like the scrape-time PnL): a market without one sums into "other". */
  pnl(wallet: string, market: string, pnl: { realised: Micros; unrealised: Micros }): void {
    const l = { wallet: this.m.labels.wallet(wallet), market: this.m.labels.marketIfLabelled(market) };
    this.m.marketSeries.setGauge(this.m.realisedPnl, l, market, microsToNumber(pnl.realised));
    this.m.marketSeries.setGauge(this.m.unrealisedPnl, l, market, microsToNumber(pnl.unrealised));
  }

  dailyPnl(wallet: string, pnl: Micros): void {
    this.m.dailyPnl.set({ wallet: this.m.labels.wallet(wallet) }, microsToNumber(pnl));
  }

  reconciliation(wallet: string, drifted: number): void {
    const w = this.m.labels.wallet(wallet);
    this.m.reconciliations.inc({ wallet: w, result: drifted > 0 ? "drift" : "clean" });
    this.m.reconciliationDrift.set({ wallet: w }, drifted);
  }

  quotesDropped(wallet: string, market: string, reason: string, count = 1): void {
    if (count <= 0) return;
    this.m.quotesDropped.inc({ ...this.wm(wallet, market), reason: oneOf(reason, LIMIT_REASONS) }, count);
  }

  halt(change: HaltChange): void {
    // A market halt makes its market quoted (it holds a label while halted).
    if (change.halt.scope.kind === "market") this.marketsChanged();
    if (change.type !== "raised") return;
    this.m.haltsRaised.inc({ scope: oneOf(change.halt.scope.kind, SCOPES), reason: change.halt.reason });
  }

  authRefusal(wallet: string | undefined, code: string): void {
    this.m.authRefusals.inc({ wallet: this.m.labels.wallet(wallet), code: this.m.labels.code(code) });
  }

  streamFrame(wallet: string, serverTs: number, receivedAtMs: number): void {
    this.m.streamFrameDelay.observe({ wallet: this.m.labels.wallet(wallet) }, Math.max(0, receivedAtMs - serverTs) / 1000);
  }

  rateGateWait(bucket: string, waitMs: number): void {
    this.m.gateWait.observe({ bucket: this.m.labels.bucket(bucket) }, Math.max(0, waitMs) / 1000);
  }

  httpRequest(e: HttpRequestEvent): void {
    this.m.httpDuration.observe(
      { route: routeTemplate(e.path), method: methodLabel(e.method), status: statusLabel(e.status) },
      Math.max(0, e.durationMs) / 1000,
    );
  }

  /** Quotes one quote control changed in a cycle (the names are the controls' own: a bounded set). */
  quoteControlChanges(control: string, count: number): void {
    this.m.quoteControlChanges.inc({ control: /^[a-z][a-z0-9_]{0,39}$/.test(control) ? control : "other" }, count);
  }

  cycle(durationMs: number, nowMs: number): void {
    this.m.cycleDuration.observe(Math.max(0, durationMs) / 1000);
    this.m.lastCycle.set(nowMs / 1000);
    // Cycles are the engine's heartbeat: notice markets going out of use between scrapes, so
    // their grace period starts when they are left (throttled).
    this.m.labels.markets.sweep(false);
  }

  marketsChanged(): void {
    this.m.marketsChanged();
  }

  forgetMarket(wallet: string, market: string): void {
    this.m.marketSeries.unfollow(wallet, market);
    this.marketsChanged();
    const w = this.m.labels.wallet(wallet);
    this.m.marketSeries.dropParts(w, market);
    const l = { wallet: w, market: this.m.labels.marketIfLabelled(market) };
    // Unlabelled: its figures were parts of "other", just taken out.
    if (l.market === OTHER) return;
    for (const side of ["buy", "sell"]) this.m.liveQuotes.remove({ ...l, side });
    this.m.realisedPnl.remove(l);
    this.m.unrealisedPnl.remove(l);
    for (let o = 0; o <= 64; o++) this.m.position.remove({ ...l, outcome: outcomeLabel(o) });
  }
}

function outcomeLabel(outcome: number): string {
  return Number.isInteger(outcome) && outcome >= 0 && outcome < 64 ? String(outcome) : "other";
}
