/**
 * What a config reload may change, and the config's hash.
 *
 *   configHash(config)          sha256 (hex, first 16 characters) of the canonical parsed config,
 *                               secrets left out entirely (not their values, not a hash of them):
 *                               a parameter changes it, a rotated key does not
 *   configChanges(old, next)    the paths whose values differ ("risk.maxOrderSize", "wallets")
 *   splitChanges(paths)         which of them apply live and which need a restart
 *
 * What applies live is a list of path prefixes (LIVE_PATHS), minus the exceptions of
 * RESTART_PATHS; everything else (platform, wallets, instance, shard, markets, metrics, admin,
 * simulator, capacity, log, shutdown, record...) needs a restart. A section that a reload can
 * change is added here with one line, once the daemon reads it through its live parameters
 * (src/bot/engine/live-params.ts) at each cycle.
 */
import { createHash } from "node:crypto";
import { isSecret } from "../core/secret.js";

/**
 * Paths a reload applies at the next quote cycle: the strategy (name and params), the
 * reconciler's tolerances and order age, the risk limits and tuning, and the quote controls
 * (rebuilt from the new config by buildControls). Not live: `adverse` (its markout and jump
 * windows live in each wallet's SignalBook, built once), `settlement` (its watcher is built once).
 */
export const LIVE_PATHS: readonly string[] = [
  "strategy",
  "quoting.priceToleranceTicks",
  "quoting.sizeTolerance",
  "quoting.maxOrderAgeSec",
  "risk",
  "controls",
];

/**
 * Exceptions inside LIVE_PATHS, read once when the daemon is built: the book poller's staleness
 * and the own-order history (risk.staleDataSec), the dead-man switch (risk.deadManSec).
 */
export const RESTART_PATHS: readonly string[] = ["risk.staleDataSec", "risk.deadManSec"];

/** Left out of the hash: the replica's own index, so every replica of one file shows one hash. */
const UNHASHED_PATHS: readonly string[] = ["shard.index"];

const SECRET_MARK = "<secret>";

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Sorted keys, bigints tagged, secrets replaced by a mark (their value never read), undefined dropped. */
function canonical(v: unknown, path: string, skip: readonly string[]): unknown {
  if (isSecret(v)) return SECRET_MARK;
  if (typeof v === "bigint") return `${v.toString()}n`;
  if (Array.isArray(v)) return v.map((x, i) => canonical(x, `${path}.${i}`, skip));
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) {
      const child = path === "" ? key : `${path}.${key}`;
      if (v[key] === undefined || skip.includes(child)) continue;
      out[key] = canonical(v[key], child, skip);
    }
    return out;
  }
  return v;
}

/** The canonical JSON text of a config (or any section of it): secrets are a mark, nothing more. */
export function canonicalConfigText(config: unknown): string {
  return JSON.stringify(canonical(config, "", UNHASHED_PATHS));
}

/** The config's hash: 16 hex characters of sha256 over the canonical text (no secret in it). */
export function configHash(config: unknown): string {
  return createHash("sha256").update(canonicalConfigText(config), "utf8").digest("hex").slice(0, 16);
}

/**
 * The paths whose values differ, in a stable order. Objects are compared key by key; a list is
 * one value (its path is named as a whole: "wallets", "risk.explainedRejectCodes"); secrets are
 * compared by value (Secret.equals) but never shown.
 */
export function configChanges(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  walk(before, after, "", out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: string[]): void {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) walk(a[k], b[k], path === "" ? k : `${path}.${k}`, out);
    return;
  }
  if (!sameValue(a, b)) out.push(path === "" ? "(root)" : path);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (isSecret(a) || isSecret(b)) return isSecret(a) && isSecret(b) && a.equals(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) return isPlainObject(a) && isPlainObject(b) && configChanges(a, b).length === 0;
  return a === b;
}

export interface SplitChanges {
  /** Applied at the next cycle. */
  live: string[];
  /** Need a restart: a reload that has any is refused whole. */
  restart: string[];
}

export function isLivePath(path: string): boolean {
  return LIVE_PATHS.some((p) => under(path, p)) && !RESTART_PATHS.some((p) => under(path, p));
}

export function splitChanges(paths: readonly string[]): SplitChanges {
  const live: string[] = [];
  const restart: string[] = [];
  for (const p of paths) (isLivePath(p) ? live : restart).push(p);
  return { live, restart };
}
