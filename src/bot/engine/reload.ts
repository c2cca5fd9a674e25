/**
 * Live parameter reload (SIGHUP, POST /admin/reload): read the config file again with the start-up
 * loader (every key, secrets resolved the same way), validate it whole, and either apply it at the
 * next quote cycle or refuse it and change nothing.
 *
 *   1. load      loadConfig: a bad file is refused with the `file:line: key.path: problem` lines
 *                of `mm check-config`;
 *   2. diff      this replica's view of it (applyShard) against the active config, path by path;
 *                any path outside LIVE_PATHS (src/config/reload-diff.ts) refuses the whole reload:
 *                "restart needed for: wallets, platform.baseUrl";
 *   3. apply     risk limits and tuning into the risk facade, then the new active parameters into
 *                the holder (live-params.ts); the wallets' cycles run, and each one builds its
 *                policy from the new parameters. Orders are not cancelled by the reload: the
 *                reconciler keeps the live orders that fit the new desired quotes, as every cycle.
 *
 * Reloads run one at a time (a promise chain): a second one waits for the first to finish.
 */
import { ConfigError, loadConfig, type Config, type Env } from "../../config/index.js";
import { configChanges, configHash, splitChanges } from "../../config/reload-diff.js";
import { applyShard } from "../../config/shard-section.js";
import { redactSecrets } from "../../log/redact.js";
import { riskTuningOf } from "../risk/core-risk.js";
import type { Risk } from "../risk/risk.js";
import type { ActiveParams, LiveParams } from "./live-params.js";

export type ReloadOutcome =
  | {
      ok: true;
      /** The active config's hash after the reload (unchanged when nothing changed). */
      hash: string;
      previousHash: string;
      /** The paths applied ("risk.maxOrderSize", "strategy.params.levels"); empty: the file says what runs already. */
      changed: string[];
      version: number;
    }
  | {
      ok: false;
      /** invalid: the file does not load; restart_needed: it changes what only a restart applies. */
      reason: "invalid" | "restart_needed";
      /** The active config's hash: nothing changed. */
      hash: string;
      /** One line per problem, as `mm check-config` prints them (or "restart needed for: ..."). */
      errors: string[];
      /** restart_needed: the paths that need it. */
      restartNeeded?: string[];
    };

export interface ReloadLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ConfigReloaderOptions {
  /** The config file the daemon was started from. */
  file: string;
  /** Where `${VAR}` references resolve (process.env, as at start-up). */
  env?: Env;
  params: LiveParams;
  /** The risk facade: its limits and tuning are replaced. */
  risk: Pick<Risk, "reconfigure">;
  clock: { now(): number };
  log: ReloadLog;
  /** After an applied reload with changes (metrics, run every wallet's cycles). */
  applied(active: ActiveParams, changed: readonly string[]): void;
  /** Reads and validates the file (default loadConfig). */
  load?: (file: string, env: Env) => Config;
}

export class ConfigReloader {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: ConfigReloaderOptions) {}

  get file(): string {
    return this.o.file;
  }

  /** Reload from the file; `source` says who asked ("SIGHUP", "admin") in the logs. Serialised. */
  reload(source: string): Promise<ReloadOutcome> {
    const run = this.chain.then(() => this.once(source));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private once(source: string): ReloadOutcome {
    const o = this.o;
    const active = o.params.current;
    let loaded: Config;
    try {
      loaded = (o.load ?? loadConfig)(o.file, o.env ?? process.env);
    } catch (e) {
      const errors = e instanceof ConfigError ? e.message.split("\n") : [`${o.file}: ${e instanceof Error ? e.message : String(e)}`];
      return this.refused(source, { ok: false, reason: "invalid", hash: active.hash, errors: errors.map(redactSecrets) });
    }
    const next = applyShard(loaded);
    const { live, restart } = splitChanges(configChanges(active.config, next));
    if (restart.length > 0) {
      return this.refused(source, { ok: false, reason: "restart_needed", hash: active.hash, errors: [`restart needed for: ${restart.join(", ")}`], restartNeeded: restart });
    }
    if (live.length === 0) {
      o.log.info({ source, configHash: active.hash, file: o.file }, "config reload: no change");
      return { ok: true, hash: active.hash, previousHash: active.hash, changed: [], version: active.version };
    }
    o.risk.reconfigure(next.risk, riskTuningOf(next.risk));
    const now = o.params.replace({ config: next, hash: configHash(loaded) }, o.clock.now());
    o.log.info({ source, configHash: now.hash, previousHash: active.hash, changed: live, file: o.file }, "config reloaded: applied at the next cycle");
    o.applied(now, live);
    return { ok: true, hash: now.hash, previousHash: active.hash, changed: live, version: now.version };
  }

  private refused(source: string, outcome: Extract<ReloadOutcome, { ok: false }>): ReloadOutcome {
    this.o.log.warn({ source, reason: outcome.reason, errors: outcome.errors, configHash: outcome.hash, file: this.o.file }, "config reload refused: nothing changed");
    return outcome;
  }
}
