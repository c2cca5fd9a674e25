/**
 * The markets the daemon follows: their latest rows, which are selected, which wallet quotes
 * each, and their phase now. Selection is refreshed every `markets.refreshSec`; rows (status,
 * trading window) more often (`statusRefreshMs`), and on demand when a placement says
 * `market_not_open`. Phases are computed from the row and the clock on every read (market-phase.ts),
 * so a market is pulled before closesAt even when its status has not been re-read.
 *
 * A market that leaves the selection keeps its entry (and its wallet) until the daemon forgets it,
 * so its resting orders can still be pulled by the wallet that placed them.
 */
import type { PartnerClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { MarketSummary } from "../../wire/index.js";
import { marketPhase, maySendOrder, type PhaseResult, type SendVerdict } from "./market-phase.js";
import type { SigningMarket } from "../../signing/index.js";
import { discoverCandidates, refreshRows, type DiscoveryConfig, type DiscoveryResult } from "./market-discovery.js";
import { assignMarkets, outcomeTokenIds, selectMarkets, type WalletMarkets } from "./market-selection.js";
import type { EngineObserver } from "../observer.js";

/** Pages of the post-trading markets list (500 rows each) looked through for held markets (followHeld). */
const HELD_SCAN_PAGES = 20;

export interface MarketEntry {
  row: MarketSummary;
  selected: boolean;
  /** Wallet index quoting it (kept after deselection until forgotten). */
  wallet: number | undefined;
  /** Local time of the last row read. */
  readAtMs: number;
}

export interface SelectionChange {
  added: string[];
  removed: string[];
  moved: string[];
  problems: DiscoveryResult["problems"];
}

export interface RegistryOptions {
  api: Pick<PartnerClient, "markets" | "events">;
  clock: Clock;
  log: Logger;
  observer: EngineObserver;
  markets: DiscoveryConfig;
  wallets: readonly WalletMarkets[];
  pullBeforeCloseMs: number;
  defaultFeeTakerBps: () => number | null;
}

export type RegistryListener = (symbol: string, what: "selected" | "deselected" | "row") => void;

export function signingMarketOf(row: MarketSummary): SigningMarket {
  return {
    symbol: row.symbol,
    yesTokenId: row.yesTokenId,
    noTokenId: row.noTokenId,
    outcomeTokenIds: outcomeTokenIds(row).map((t) => t ?? ""),
    feeTakerBps: row.feeTakerBps,
    negRiskEligible: row.negRiskEligible,
  };
}

export class MarketRegistry {
  /** The last selection's name problems, to say each once. */
  private reportedProblems = new Map<string, string>();
  private readonly entries = new Map<string, MarketEntry>();
  private readonly listeners = new Set<RegistryListener>();
  private readonly lastPhase = new Map<string, string>();

  constructor(private readonly o: RegistryOptions) {}

  onChange(l: RegistryListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private emit(symbol: string, what: "selected" | "deselected" | "row"): void {
    for (const l of [...this.listeners]) l(symbol, what);
  }

  get(symbol: string): MarketEntry | undefined {
    return this.entries.get(symbol);
  }

  /** Every followed market (selected or still being pulled). */
  all(): MarketEntry[] {
    return [...this.entries.values()];
  }

  selected(): MarketEntry[] {
    return this.all().filter((e) => e.selected);
  }

  /** Symbols a wallet quotes now (selected and assigned to it). */
  marketsOf(walletIndex: number): string[] {
    return this.selected()
      .filter((e) => e.wallet === walletIndex)
      .map((e) => e.row.symbol);
  }

  /** By platform id or symbol (positions rows may carry either). */
  symbolOf(idOrSymbol: string): string | undefined {
    if (this.entries.has(idOrSymbol)) return idOrSymbol;
    for (const e of this.entries.values()) if (e.row.id === idOrSymbol) return e.row.symbol;
    return undefined;
  }

  phase(symbol: string, nowMs = this.o.clock.now()): PhaseResult | undefined {
    const e = this.entries.get(symbol);
    if (e === undefined) return undefined;
    const p = marketPhase(e.row, nowMs, { pullBeforeCloseMs: this.o.pullBeforeCloseMs });
    const key = `${p.phase}:${p.reason}`;
    const before = this.lastPhase.get(symbol);
    if (before !== key) {
      this.lastPhase.set(symbol, key);
      this.o.observer.onEvent({ type: "market_phase", marketId: symbol, phase: p.phase, reason: p.reason });
      // A market's first phase is start-up chatter (debug); a change while running is news.
      const fields = { market: symbol, phase: p.phase, reason: p.reason, status: e.row.status };
      if (before === undefined) this.o.log.debug(fields, "market phase");
      else this.o.log.info(fields, "market phase");
    }
    return p;
  }

  /** May an order leave on `symbol` now (selected, its phase allows it, and assigned to `walletIndex` when given)? */
  maySend(symbol: string, postOnly: boolean, walletIndex?: number, nowMs = this.o.clock.now()): SendVerdict | { ok: false; reason: "unknown_market" | "not_assigned" } {
    const e = this.entries.get(symbol);
    if (e === undefined || !e.selected) return { ok: false, reason: "unknown_market" };
    // A refresh may have moved the market to another wallet between two batches of this one.
    if (walletIndex !== undefined && e.wallet !== walletIndex) return { ok: false, reason: "not_assigned" };
    return maySendOrder(e.row, nowMs, { pullBeforeCloseMs: this.o.pullBeforeCloseMs }, { postOnly });
  }

  /**
   * The next instant (after now) at which the phase of `symbol` may change by the clock alone:
   * preMarketStartsAt, opensAt, the pull time before closesAt, closesAt.
   */
  nextBoundary(symbol: string, nowMs = this.o.clock.now()): number | undefined {
    const e = this.entries.get(symbol);
    if (e === undefined) return undefined;
    const w = e.row.tradingWindow;
    const times = [w.preMarketStartsAt, w.opensAt, w.closesAt]
      .map((t) => (t === null ? NaN : Date.parse(t)))
      .filter((t) => !Number.isNaN(t));
    const close = w.closesAt === null ? NaN : Date.parse(w.closesAt);
    if (!Number.isNaN(close)) times.push(close - this.o.pullBeforeCloseMs);
    let best: number | undefined;
    for (const t of times) if (t > nowMs && (best === undefined || t < best)) best = t;
    return best;
  }

  /** Re-run discovery and selection; (re)assign markets to wallets. */
  async refreshSelection(): Promise<SelectionChange> {
    const walletMarkets = this.o.wallets.flatMap((w) => w.markets ?? []);
    const found = await discoverCandidates(this.o.api, this.o.markets, walletMarkets, (name) => this.entries.get(name)?.row.slug);
    const now = this.o.clock.now();
    const sel = selectMarkets(found.candidates, {
      maxMarkets: this.o.markets.maxMarkets,
      nowMs: now,
      pullBeforeCloseMs: this.o.pullBeforeCloseMs,
      defaultFeeTakerBps: this.o.defaultFeeTakerBps(),
    });
    const previous = new Map<string, number>();
    for (const e of this.entries.values()) if (e.selected && e.wallet !== undefined) previous.set(e.row.symbol, e.wallet);
    const rows = sel.selected.map((c) => c.market);
    const assignment = assignMarkets(rows, this.o.wallets, previous);
    const change: SelectionChange = { added: [], removed: [], moved: [], problems: found.problems };
    const keep = new Set<string>();
    for (const row of rows) {
      const wallet = assignment.get(row.symbol);
      if (wallet === undefined) continue;
      keep.add(row.symbol);
      const have = this.entries.get(row.symbol);
      if (have === undefined || !have.selected) change.added.push(row.symbol);
      else if (have.wallet !== wallet) change.moved.push(row.symbol);
      this.entries.set(row.symbol, { row, selected: true, wallet, readAtMs: now });
    }
    // A read that failed says nothing about the markets it would have found: keep them.
    const uncertain = found.problems.some((p) => p.transient);
    for (const [symbol, e] of this.entries) {
      if (e.selected && !keep.has(symbol) && !uncertain) {
        e.selected = false;
        change.removed.push(symbol);
      }
    }
    for (const s of sel.skipped) this.o.log.debug({ market: s.symbol, reason: s.reason }, "market not selected");
    // Said once per name and problem (the selection is refreshed every 30 s), then at debug.
    const problems = new Map(found.problems.map((p) => [p.name, p.message]));
    for (const [name, message] of problems) {
      const fresh = this.reportedProblems.get(name) !== message;
      this.o.log[fresh ? "warn" : "debug"]({ marketName: name, problem: message }, "market name not resolved");
    }
    this.reportedProblems = problems;
    for (const s of change.added) this.emit(s, "selected");
    for (const s of change.moved) this.emit(s, "selected");
    for (const s of change.removed) this.emit(s, "deselected");
    return change;
  }

  /** Re-read the rows of every followed market (or of the given ones). */
  async refreshStatus(symbols?: readonly string[]): Promise<void> {
    const list = (symbols ?? [...this.entries.keys()]).map((s) => this.entries.get(s)?.row).filter((r): r is MarketSummary => r !== undefined);
    if (list.length === 0) return;
    const { rows, failed } = await refreshRows(this.o.api, list);
    const now = this.o.clock.now();
    for (const row of rows) {
      const e = this.entries.get(row.symbol);
      if (e === undefined) continue;
      const changed = e.row.status !== row.status || JSON.stringify(e.row.tradingWindow) !== JSON.stringify(row.tradingWindow);
      e.row = row;
      e.readAtMs = now;
      if (changed) this.emit(row.symbol, "row");
    }
    if (failed.length > 0) this.o.log.debug({ markets: failed }, "market rows not refreshed");
  }

  /**
   * Follow markets where a wallet holds shares but which no selection brought in (one settled
   * before this process started, say): their rows are read and kept, not selected, so a settlement
   * already made is seen (daemon-markets.ts `settleKnown`) and a later one too (`refreshStatus`).
   * Positions name markets by symbol and the detail route takes a slug, so a row is read by
   * `GET /api/markets/{symbol}` when the slug is the symbol, else looked for in the post-trading
   * list (`closed=true`, at most HELD_SCAN_PAGES pages). A market not found is logged and skipped.
   * Returns the symbols now followed.
   */
  async followHeld(symbols: readonly string[]): Promise<string[]> {
    const missing = new Set(symbols.filter((s) => !this.entries.has(s)));
    const found: MarketSummary[] = [];
    for (const symbol of [...missing]) {
      const row = await this.o.api.markets.get(symbol).then(
        (r) => r.data,
        () => undefined,
      );
      if (row?.symbol === symbol) {
        found.push(row);
        missing.delete(symbol);
      }
    }
    if (missing.size > 0) {
      try {
        let pages = 0;
        for await (const page of this.o.api.markets.pages({ closed: true })) {
          for (const m of page.data.markets) {
            if (!missing.has(m.symbol)) continue;
            found.push(m);
            missing.delete(m.symbol);
          }
          if (missing.size === 0 || ++pages >= HELD_SCAN_PAGES) break;
        }
      } catch (e) {
        this.o.log.warn({ markets: [...missing], err: e instanceof Error ? e.message : String(e) }, "held markets: the closed markets list could not be read");
      }
    }
    const now = this.o.clock.now();
    for (const row of found) if (!this.entries.has(row.symbol)) this.entries.set(row.symbol, { row, selected: false, wallet: undefined, readAtMs: now });
    if (missing.size > 0) this.o.log.warn({ markets: [...missing] }, "held markets not found: their settlement is not checked");
    return found.map((r) => r.symbol);
  }

  /** Stop following a market (its orders are gone). */
  forget(symbol: string): void {
    this.entries.delete(symbol);
    this.lastPhase.delete(symbol);
  }
}
