/**
 * What the core risk layer watches, turned into the pure facade's observations
 * (src/bot/risk/types.ts):
 *
 * - the client's circuit breaker state, read when asked;
 * - market data: for every market being quoted, the age of its oldest quoted book (the book
 *   source's own staleness rule, so the halt and the engine's pull agree);
 * - user streams: subscribed / down since / last completed reconciliation, from EngineEvents;
 * - reconciliations (inventory against the platform's positions) and rejects, from EngineEvents,
 *   queued until the next evaluation;
 * - daily PnL per wallet and in total: net PnL now minus the net PnL at the first evaluation of
 *   the UTC day (0 on the day the daemon started: inventory starts empty or anchored).
 *
 * Wallets are named by their configured NAME here (the id the facade, logs and metrics use).
 */
import type { BreakerState } from "../../api/breaker.js";
import { LOCAL_CODES, isKeyRefusalCode } from "../../api/errors.js";
import type { Micros } from "../../core/money.js";
import type { MarketDataObs, PnlObs, ReconciliationObs, RejectObs, RiskObservations, StreamObs } from "./types.js";
import type { EngineEvent, EngineObserver, StreamState } from "../observer.js";

const DAY_MS = 86_400_000;

export interface ObservationSources {
  /** Configured wallets (address lower-cased). */
  wallets: readonly { name: string; address: string }[];
  breaker(): BreakerState;
  /** Markets being quoted now (selected, open or pre-market) and the outcomes whose books they use. */
  quotedMarkets(nowMs: number): readonly { symbol: string; outcomes: readonly number[] }[];
  data: {
    book(symbol: string, outcome: number): { fetchedAtMs: number } | undefined;
    isStale(symbol: string, outcome: number): boolean;
  };
  /** Realised + unrealised - fees of a wallet now (by address). */
  netPnl(wallet: string): Micros;
}

/** Reject codes that are not the platform's answer (the local breaker refusing: circuit_open covers it). */
const LOCAL_REJECTS: ReadonlySet<string> = new Set(Object.values(LOCAL_CODES) as string[]);

export class RiskWatch implements EngineObserver {
  private readonly names = new Map<string, string>();
  private readonly streams = new Map<string, StreamObs>();
  private rejects: RejectObs[] = [];
  private reconciliations: ReconciliationObs[] = [];
  private readonly baselines = new Map<string, { dayStartMs: number; base: Micros }>();
  private readonly daily = new Map<string, Micros>();

  constructor(
    private readonly src: ObservationSources,
    private readonly now: () => number,
  ) {
    for (const w of src.wallets) {
      this.names.set(w.address.toLowerCase(), w.name);
      this.baselines.set(w.name, { dayStartMs: dayStart(now()), base: 0n });
    }
  }

  nameOf(wallet: string): string {
    return this.names.get(wallet.toLowerCase()) ?? wallet;
  }

  onEvent(e: EngineEvent): void {
    switch (e.type) {
      case "order_rejected":
        // A refused key (401) is auth_refused's (auth-watch.ts), not a storm that would outlast the key's fix by a minute.
        if (!LOCAL_REJECTS.has(e.code) && !isKeyRefusalCode(e.code)) this.rejects.push({ wallet: this.nameOf(e.wallet), market: e.marketId, code: e.code, atMs: this.now() });
        return;
      case "stream_state":
        this.onStream(this.nameOf(e.wallet), e.state, e.at);
        return;
      case "synced": {
        const s = this.streams.get(this.nameOf(e.wallet));
        if (s !== undefined) s.reconciledAtMs = e.at;
        return;
      }
      case "reconciliation":
        this.reconciliations.push({ wallet: this.nameOf(e.wallet), drifted: e.positions, atMs: e.at });
        return;
      case "wallet_state":
        // A wallet that stops is no longer watched (its stream goes down on purpose).
        if (e.state === "stopping" || e.state === "stopped" || e.state === "abandoned") this.streams.delete(this.nameOf(e.wallet));
        return;
      default:
        return;
    }
  }

  private onStream(wallet: string, state: StreamState, at: number): void {
    const prev = this.streams.get(wallet);
    const reconciled = prev?.reconciledAtMs === undefined ? {} : { reconciledAtMs: prev.reconciledAtMs };
    if (state === "subscribed") {
      this.streams.set(wallet, { wallet, connected: true, connectedSinceMs: at, ...reconciled });
    } else if (state === "disconnected" || state === "reconnecting") {
      if (prev !== undefined && !prev.connected) return;
      this.streams.set(wallet, { wallet, connected: false, downSinceMs: at, ...reconciled });
    }
    // "connected": the socket is open but not subscribed yet: nothing changes.
  }

  /** Rejects or reconciliations wait to be evaluated. */
  get pending(): boolean {
    return this.rejects.length + this.reconciliations.length > 0;
  }

  /** Everything observed now; the queued rejects and reconciliations are handed over once. */
  collect(nowMs: number): { obs: RiskObservations; markets: string[] } {
    const markets = this.src.quotedMarkets(nowMs);
    const marketData: MarketDataObs[] = markets.map((m) => ({ market: m.symbol, lastUpdateMs: this.lastUpdate(m.symbol, m.outcomes, nowMs) }));
    const obs: RiskObservations = {
      breaker: this.src.breaker(),
      marketData,
      streams: [...this.streams.values()].map((s) => ({ ...s })),
      reconciliations: this.reconciliations,
      rejects: this.rejects,
      pnl: this.pnl(nowMs),
    };
    this.reconciliations = [];
    this.rejects = [];
    return { obs, markets: markets.map((m) => m.symbol) };
  }

  /** The oldest quoted book's read time; "now" for a book not read yet but not stale either. */
  private lastUpdate(symbol: string, outcomes: readonly number[], nowMs: number): number | undefined {
    let oldest: number | undefined = nowMs;
    for (const o of outcomes) {
      const at = this.src.data.book(symbol, o)?.fetchedAtMs;
      if (this.src.data.isStale(symbol, o)) {
        if (at === undefined) return undefined;
        oldest = Math.min(oldest, at);
      } else if (at !== undefined) oldest = Math.min(oldest, at);
    }
    return oldest;
  }

  private pnl(nowMs: number): PnlObs[] {
    const day = dayStart(nowMs);
    const out: PnlObs[] = [];
    let total = 0n;
    for (const w of this.src.wallets) {
      const net = this.src.netPnl(w.address);
      let b = this.baselines.get(w.name);
      if (b === undefined || b.dayStartMs !== day) this.baselines.set(w.name, (b = { dayStartMs: day, base: b === undefined ? 0n : net }));
      const pnl = net - b.base;
      this.daily.set(w.name, pnl);
      total += pnl;
      out.push({ wallet: w.name, dayStartMs: day, pnl });
    }
    if (this.src.wallets.length > 1) out.push({ dayStartMs: day, pnl: total });
    return out;
  }

  /** Daily PnL per wallet name, as of the last evaluation. */
  dailyPnl(): ReadonlyMap<string, Micros> {
    return this.daily;
  }
}

function dayStart(ms: number): number {
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}
