/**
 * Synthetic order flow for every market whose scenario entry has `flow.enabled`: one MarketAgent
 * per market (see agent.ts), each with its own wallets and its own Rng forked from the simulator
 * seed by symbol, so adding a market never changes another market's flow.
 *
 * Flow wallets are derived addresses (`sim:flow:<symbol>:<role>`: taker, lp, and informed, noise,
 * maker1.. when the market has them) that are never scenario wallets; they trade in the engine
 * directly, so they have no order records and no frames.
 */
import type { Clock } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Micros } from "../../core/money.js";
import type { MatchingEngine } from "../engine/index.js";
import { addressFromLabel } from "../platform/derive.js";
import type { Catalogue } from "../platform/catalogue.js";
import type { MarketSetup } from "../platform/platform.js";
import { MarketAgent, type AgentStats } from "./agent.js";

export interface FlowOptions {
  clock: Clock;
  engine: MatchingEngine;
  catalogue: Catalogue;
  rng: Rng;
  markets: readonly MarketSetup[];
  /** Wallets the flow must never use (the scenario's). */
  reserved: ReadonlySet<string>;
  /** How often synthetic liquidity is checked and re-posted (default 5 s). */
  refreshMs?: number;
}

export const DEFAULT_REFRESH_MS = 5_000;

function flowWallet(symbol: string, role: string, reserved: ReadonlySet<string>): string {
  for (let n = 0; ; n++) {
    const w = addressFromLabel(`sim:flow:${symbol}:${role}${n === 0 ? "" : `:${n}`}`).toLowerCase();
    if (!reserved.has(w)) return w;
  }
}

export class SyntheticFlow {
  private readonly agents = new Map<string, MarketAgent>();
  private readonly walletSet = new Set<string>();
  private running = false;

  constructor(opts: FlowOptions) {
    const refreshMs = opts.refreshMs ?? DEFAULT_REFRESH_MS;
    for (const setup of opts.markets) {
      if (!setup.flow.enabled) continue;
      const market = opts.catalogue.market(setup.marketId, true);
      if (market === undefined || !opts.engine.markets.has(market.symbol)) continue;
      const wallet = (role: string): string => {
        const w = flowWallet(market.symbol, role, opts.reserved);
        this.walletSet.add(w);
        return w;
      };
      this.agents.set(
        market.symbol,
        new MarketAgent({
          clock: opts.clock,
          engine: opts.engine,
          rng: opts.rng.fork(`flow:${market.symbol}`),
          marketId: market.symbol,
          outcomeCount: market.outcomeCount,
          fairValue: setup.fairValue,
          params: setup.flow,
          wallet,
          status: () => opts.catalogue.status(market.id),
          refreshMs,
        }),
      );
    }
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const a of this.agents.values()) a.start();
  }

  stop(): void {
    this.running = false;
    for (const a of this.agents.values()) a.stop();
  }

  /** Symbols with synthetic flow. */
  markets(): string[] {
    return [...this.agents.keys()];
  }

  /** The flow's wallets (lower-case). */
  wallets(): string[] {
    return [...this.walletSet];
  }

  isFlowWallet(wallet: string): boolean {
    return this.walletSet.has(wallet.toLowerCase());
  }

  /** Latent (true) fair value per outcome of a market (micros), at the last look: news included, even before it is public. */
  fairValue(symbol: string): Micros[] | undefined {
    return this.agents.get(symbol)?.fair.current();
  }

  /** Override a market's fair value (operator / test move); takes effect at the next look. */
  setFairValue(symbol: string, values: readonly Micros[]): void {
    const a = this.agents.get(symbol);
    if (a === undefined) throw new Error(`no synthetic flow for market ${symbol}`);
    a.fair.set(values);
  }

  stats(symbol: string): AgentStats | undefined {
    const s = this.agents.get(symbol)?.stats;
    return s === undefined ? undefined : { ...s };
  }

  agent(symbol: string): MarketAgent | undefined {
    return this.agents.get(symbol);
  }
}
