/**
 * The daemon's core risk: the pure facade (src/bot/risk) over the engine. Always on; a hook given
 * in DaemonDeps.risk runs after it. What the quote cycle's snapshot reads from it:
 *
 *   evaluate      raise and clear halts from what the engine shows (at most once per
 *                 `minEvaluateMs`, at once when rejects or a reconciliation are waiting);
 *   gate          the halt verdict of a (wallet, market): halted, the cycle (quote/cycle.ts) keeps
 *                 no quote and places nothing, so everything live there is cancelled;
 *   snapshot      the exposure of every wallet and market (exposure-book.ts) for the limits;
 *   allowPlace    asked just before each order leaves (a halt raised mid-cycle stops it there);
 *   kill/resume   the operator actions (signal, admin endpoint).
 *
 * reviewQuotes / reviewPlan make it a RiskHook too (evaluate, gate and limits in one call), for
 * tests and for callers that chain hooks.
 *
 * The daemon also evaluates on a timer, so halts move while no cycle runs. Every raise and clear
 * goes to `onChange`: the daemon re-runs the affected cycles (pull now, or quote again) and
 * reports it. Wallets are named by their configured name in the facade.
 */
import type { Clock } from "../../core/clock.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import type { Plan } from "../quote/reconciler.js";
import type { DesiredQuote } from "../quote/quotes.js";
import type { RiskSnapshot } from "./exposure.js";
import { ExposureBook, contextExposure, scratchSnapshot, trackerVersion, type OrderSource, type SnapshotContext } from "./exposure-book.js";
import { scopeTarget, type Halt, type HaltChange, type HaltReason, type HaltScope, type RiskTuning, type GateVerdict } from "./types.js";
import { Risk } from "./risk.js";
import type { EngineView, RiskContext, RiskHook } from "./risk-hook.js";
import { RiskWatch, type ObservationSources } from "./risk-observations.js";

export interface CoreRiskOptions {
  risk: Risk;
  clock: Clock;
  view: EngineView;
  watch: RiskWatch;
  /** Configured wallets (address lower-cased). */
  wallets: readonly { name: string; address: string }[];
  /** Halts raised or cleared, in the order they happened. */
  onChange(changes: readonly HaltChange[]): void;
  /** Desired quotes dropped or resized by a limit or a halt, by reason. */
  onFiltered?(walletName: string, market: string, reason: string, count: number): void;
  /** Default 100 ms. */
  minEvaluateMs?: number;
  /** Figures kept between cycles (exposure-book.ts); without it every snapshot walks every wallet and market. */
  exposure?: ExposureBook;
}

/** "all kill_switch", "maker-a stream_down", "ARS-CHE-ARS stale_market_data". */
export function haltLabel(h: Halt): string {
  return `${scopeTarget(h.scope)} ${h.reason}`;
}

export class CoreRisk implements RiskHook {
  private lastEvalMs = Number.NEGATIVE_INFINITY;
  private watched = new Set<string>();

  constructor(private readonly o: CoreRiskOptions) {}

  get facade(): Risk {
    return this.o.risk;
  }

  /** Raise and clear halts from what the engine shows now. */
  evaluate(nowMs: number, force = false): HaltChange[] {
    if (!force && !this.o.watch.pending && nowMs - this.lastEvalMs < (this.o.minEvaluateMs ?? 100)) return [];
    this.lastEvalMs = nowMs;
    const { obs, markets } = this.o.watch.collect(nowMs);
    const changes = this.o.risk.evaluate(obs, nowMs);
    // A market no longer quoted keeps no automatic halt (nobody would observe it clear).
    const now = new Set(markets);
    for (const m of this.watched) if (!now.has(m)) changes.push(...this.o.risk.forget({ kind: "market", market: m }, nowMs));
    this.watched = now;
    this.report(changes);
    return changes;
  }

  reviewQuotes(quotes: DesiredQuote[], ctx: RiskContext): DesiredQuote[] {
    this.evaluate(ctx.nowMs);
    const r = this.o.risk.filter(ctx.walletName, ctx.marketId, quotes, this.snapshot(ctx));
    const counts = new Map<string, number>();
    for (const d of [...r.dropped, ...r.resized]) counts.set(d.reason, (counts.get(d.reason) ?? 0) + 1);
    this.reportFiltered(ctx.walletName, ctx.marketId, counts);
    return r.allowed;
  }

  reviewPlan(plan: Plan, ctx: RiskContext): Plan {
    if (this.o.risk.gate(ctx.walletName, ctx.marketId).quote) return plan;
    return { ...plan, places: [], placeBatches: [] };
  }

  /** The halt book's verdict for (wallet, market) now (the quote cycle's snapshot reads it). */
  gate(walletName: string, marketId: string): GateVerdict {
    return this.o.risk.gate(walletName, marketId);
  }

  /** Desired quotes a limit or a halt dropped or resized on (wallet, market), by reason (metrics). */
  reportFiltered(walletName: string, marketId: string, counts: ReadonlyMap<string, number>): void {
    if (this.o.onFiltered === undefined) return;
    for (const [reason, n] of counts) this.o.onFiltered(walletName, marketId, reason, n);
  }

  allowPlace(_wallet: string, walletName: string, marketId: string): boolean {
    return this.o.risk.gate(walletName, marketId).quote;
  }

  halts(): string[] {
    return this.o.risk.halts().map(haltLabel);
  }

  /** The kill switch: a global halt until an operator resume. */
  kill(note: string): HaltChange[] {
    const changes = this.o.risk.kill(note, this.o.clock.now());
    this.report(changes);
    return changes;
  }

  /** Clears the operator halts (kill_switch, manual, daily_loss); automatic ones follow their rule. */
  resume(): HaltChange[] {
    const changes = this.o.risk.resume(this.o.clock.now());
    this.report(changes);
    return changes;
  }

  /** Raise (detail) or clear (null) a halt observed outside the risk layer; see Risk.condition. */
  condition(scope: HaltScope, reason: HaltReason, detail: string | null): HaltChange[] {
    const changes = this.o.risk.condition(scope, reason, detail, this.o.clock.now());
    this.report(changes);
    return changes;
  }

  get globallyHalted(): boolean {
    return this.o.risk.globallyHalted();
  }

  private report(changes: readonly HaltChange[]): void {
    if (changes.length > 0) this.o.onChange(changes);
  }

  /**
   * Exposure of every wallet on every followed market (and any market it holds shares in), the
   * cycle's own (wallet, market) always included with its outcome count (scratchSnapshot defines
   * it; the exposure book keeps it between cycles).
   */
  snapshot(ctx?: SnapshotContext): RiskSnapshot {
    const book = this.o.exposure;
    if (book === undefined) return scratchSnapshot(this.o.view, this.o.wallets, ctx);
    return book.snapshot(ctx === undefined ? [] : [contextExposure(this.o.view, ctx)]);
  }
}

/** The facade's tuning from the config's risk section (the rest of it is the limits). */
export function riskTuningOf(r: Config["risk"]): Partial<RiskTuning> {
  return {
    driftTolerance: r.driftTolerance,
    rejectQuietMs: r.rejectQuietSec * 1000,
    explainedRejectCodes: r.explainedRejectCodes,
    minQuoteSize: r.minQuoteSize,
  };
}

export interface CoreRiskParts {
  config: Config;
  clock: Clock;
  log: Logger;
  view: EngineView;
  /** What the watch reads (wallets are the config's, lower-cased addresses). */
  sources: Omit<ObservationSources, "wallets">;
  /** Every raise and clear (metrics count them here). */
  onHaltChange(change: HaltChange): void;
  onChange: CoreRiskOptions["onChange"];
  onFiltered: CoreRiskOptions["onFiltered"];
  /**
   * For the exposure book (both, or the snapshots walk every pair): a wallet's order tracker
   * (lower-cased address; undefined: none yet), and a subscription to every position change.
   */
  orders?: (wallet: string) => OrderSource | undefined;
  onPositionChange?: (listener: (wallet: string, marketId: string) => void) => void;
}

/** The facade from config.risk, its watch, and the core risk over both. */
export function buildCoreRisk(p: CoreRiskParts): { core: CoreRisk; watch: RiskWatch } {
  const wallets = p.config.wallets.map((w) => ({ name: w.name, address: w.address.toLowerCase() }));
  const risk = new Risk({
    limits: p.config.risk,
    tuning: riskTuningOf(p.config.risk),
    onChange: (c) => p.onHaltChange(c),
    log: p.log.child({ component: "risk" }),
  });
  const watch = new RiskWatch({ ...p.sources, wallets }, () => p.clock.now());
  const exposure = exposureBookOf(p, wallets);
  const core = new CoreRisk({ risk, clock: p.clock, view: p.view, watch, wallets, onChange: p.onChange, ...(p.onFiltered ? { onFiltered: p.onFiltered } : {}), ...(exposure ? { exposure } : {}) });
  return { core, watch };
}

function exposureBookOf(p: CoreRiskParts, wallets: readonly { name: string; address: string }[]): ExposureBook | undefined {
  const { orders, onPositionChange } = p;
  if (orders === undefined || onPositionChange === undefined) return undefined;
  const v = p.view;
  // A wallet's tracker lives as long as the daemon: looked up once (the book reads it per market).
  const trackers = new Map<string, OrderSource>();
  const trackerOf = (w: string): OrderSource | undefined => {
    const known = trackers.get(w);
    if (known !== undefined) return known;
    const t = orders(w);
    if (t !== undefined) trackers.set(w, t);
    return t;
  };
  const book = new ExposureBook({
    wallets,
    markets: () => v.markets(),
    outcomeCount: (m) => v.outcomeCount(m),
    mark: (m, o) => v.mark(m, o),
    liveOrders: (w, m) => trackerOf(w)?.liveOrders(m) ?? [],
    ordersVersion: (w) => {
      const t = trackerOf(w);
      return t === undefined ? 0 : trackerVersion(t.counters);
    },
    liveVersion: (w, m) => trackerOf(w)?.liveVersion?.(m) ?? 0,
    positions: (w, m) => v.positions(w, m),
    positionMarkets: (w) => new Set(v.positions(w).map((x) => x.marketId)),
  });
  onPositionChange((w, m) => book.positionChanged(w, m));
  return book;
}
