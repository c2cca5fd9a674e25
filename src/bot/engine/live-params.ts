/**
 * The daemon's active parameters: the config the quote cycles decide with now, its hash, and the
 * strategy bound to its params. One holder per daemon; every wallet's cycle reads it at the start
 * of each cycle (wallet-quoting.ts rebuilds its CyclePolicy when `version` moved), so a reload
 * (reload.ts) swaps it between two cycles and never under one.
 *
 * A section that may change live is read from `current.config` where the policy is built
 * (policyFrom in wallet-quoting.ts), and named in LIVE_PATHS (src/config/reload-diff.ts).
 */
import type { Config } from "../../config/index.js";
import { canonicalConfigText, configHash } from "../../config/reload-diff.js";
import { createStrategyRunner, type StrategyRunner } from "../../../strategies/registry.js";
import type { QuotingParams } from "../quote/cycle.js";

export interface ActiveParams {
  /** The config the daemon runs on (sharded: this replica's wallets and instance id). */
  readonly config: Config;
  /** configHash of the config as loaded (before sharding): the same for every replica of one file. */
  readonly hash: string;
  /** 0 at start-up, +1 at each applied reload. */
  readonly version: number;
  /** The strategy bound to config.strategy.params. */
  readonly strategy: StrategyRunner;
  /** When it became active (the daemon's clock). */
  readonly sinceMs: number;
}

/** The reconciler's settings of the quoting section. */
export function quotingParamsOf(q: Config["quoting"]): QuotingParams {
  return {
    priceToleranceTicks: q.priceToleranceTicks,
    sizeTolerance: q.sizeTolerance,
    maxOrderAgeMs: q.maxOrderAgeSec * 1000,
    orderExpirySec: q.orderExpirySec,
  };
}

export class LiveParams {
  private active: ActiveParams;

  /** `source`: the config as loaded, before sharding (its hash is shown); default `config`. */
  constructor(config: Config, nowMs: number, source: Config = config) {
    this.active = { config, hash: configHash(source), version: 0, strategy: createStrategyRunner(config.strategy.name, config.strategy.params), sinceMs: nowMs };
  }

  get current(): ActiveParams {
    return this.active;
  }

  /** Make `next` active; the strategy runner is kept when its name and params did not change. */
  replace(next: { config: Config; hash: string }, nowMs: number): ActiveParams {
    const prev = this.active;
    const s = next.config.strategy;
    const same = s.name === prev.strategy.name && canonicalConfigText(prev.config.strategy.params) === canonicalConfigText(s.params);
    this.active = { config: next.config, hash: next.hash, version: prev.version + 1, strategy: same ? prev.strategy : createStrategyRunner(s.name, s.params), sinceMs: nowMs };
    return this.active;
  }
}
