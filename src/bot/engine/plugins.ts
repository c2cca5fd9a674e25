/**
 * Optional parts that attach to a running daemon without the engine knowing them: the metrics
 * server (src/metrics), the risk layer (src/bot/risk). A plugin module exports
 * `daemonPlugin: DaemonPluginFactory`; `mm run` loads the modules listed in OPTIONAL_PLUGINS
 * when they exist and skips them silently when they do not.
 */
import type { Clock } from "../../core/clock.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import type { Daemon } from "./daemon.js";
import type { EngineObserver } from "./observer.js";
import type { RiskHook } from "./risk-hook.js";

export interface DaemonPlugin {
  name: string;
  /** Hears every EngineEvent. */
  observer?: EngineObserver;
  /** At most one plugin may provide the risk hook. */
  risk?: RiskHook;
  /** Called once the daemon exists, before start() (a metrics server starts serving here). */
  attach?(daemon: Daemon): void | Promise<void>;
  /** Called after shutdown. */
  close?(): void | Promise<void>;
}

export type DaemonPluginFactory = (config: Config, ctx: { clock: Clock; logger: Logger }) => DaemonPlugin | Promise<DaemonPlugin>;

/** Module paths (relative to src/cli/) tried by `mm run`. */
export const OPTIONAL_PLUGINS: readonly string[] = ["../metrics/plugin.js", "../bot/risk/plugin.js"];

function isMissingModule(e: unknown, spec: string): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  const text = e instanceof Error ? e.message : "";
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && text.includes(spec.replace(/^\.\.\//, "").replace(/\.js$/, ""));
}

/** Load the plugins that exist; a module that exists but fails to load is an error. */
export async function loadPlugins(
  specs: readonly string[],
  importer: (spec: string) => Promise<unknown>,
  config: Config,
  ctx: { clock: Clock; logger: Logger },
): Promise<DaemonPlugin[]> {
  const out: DaemonPlugin[] = [];
  for (const spec of specs) {
    let mod: unknown;
    try {
      mod = await importer(spec);
    } catch (e) {
      if (isMissingModule(e, spec)) continue;
      throw e;
    }
    const factory = (mod as { daemonPlugin?: unknown }).daemonPlugin;
    if (typeof factory !== "function") continue;
    out.push(await (factory as DaemonPluginFactory)(config, ctx));
  }
  return out;
}
