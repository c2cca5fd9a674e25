/**
 * Wallet sharding over daemon replicas (`shard: { index, count }`) and the outgoing local address
 * (`platform.localAddress`).
 *
 * Each replica owns a disjoint, deterministic set of the configured wallets, chosen by rendezvous
 * (highest random weight) hashing: wallet w goes to the shard s with the largest
 * sha256("<w.address>|<s>"). Every replica computes the same answer from the same wallet list and
 * count with no coordination, and changing the count from n to n+1 moves only the wallets the new
 * shard wins (about 1/(n+1) of them); no wallet moves between two shards that both remain.
 *
 * The shard can come from the file, or from the environment so one manifest serves every pod
 * (12-factor): `MM_SHARD_COUNT` and `MM_SHARD_INDEX` override the file; `index: ordinal` (or
 * `MM_SHARD_INDEX=ordinal`) takes the StatefulSet pod ordinal, the number after the last '-' of
 * `HOSTNAME` (`mm-3` -> 3).
 *
 * A sharded replica runs under its own instance id, `<instance.id>-s<index>`: its clientOrderIds
 * carry it, so every order names the replica that placed it (docs/operations.md, Scaling out).
 */
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import type { LoadContext } from "./fields.js";

export interface ShardSettings {
  /** This replica, 0..count-1. */
  index: number;
  /** Replicas in all. */
  count: number;
  /** One Kubernetes Lease per wallet (src/bot/guards/wallet-lease.ts); absent: off. */
  lease?: LeaseSettings | undefined;
}

/** `shard.lease`: per-wallet Leases on the Kubernetes API server the pod runs under. */
export interface LeaseSettings {
  /** Where the Leases live; undefined: the pod's own namespace (the service account's namespace file). */
  namespace: string | undefined;
  /** leaseDurationSeconds written into each Lease. */
  durationSec: number;
  /** How often a held Lease is renewed. */
  renewSec: number;
  /** How far the replicas' clocks may disagree (added before a Lease counts as expired). */
  skewMarginSec: number;
}

export const LEASE_DEFAULTS = { durationSec: 15, renewSec: 5, skewMarginSec: 2 } as const;
const LEASE_KEYS = ["enabled", "namespace", "durationSec", "renewSec", "skewMarginSec"];

/** `shard.lease`: undefined (off), the settings, or the problems found (each with its key). */
function parseLease(raw: unknown): LeaseSettings | undefined | { problems: { message: string; key?: string }[] } {
  if (raw === undefined || raw === null || raw === false) return undefined;
  const section: Record<string, unknown> = raw === true ? {} : typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { [""]: raw };
  if ("" in section) return { problems: [{ message: "expected a mapping { namespace, durationSec, renewSec, skewMarginSec } (or true for the defaults)" }] };
  const problems: { message: string; key?: string }[] = [];
  for (const key of Object.keys(section)) if (!LEASE_KEYS.includes(key)) problems.push({ message: `unknown key (known: ${LEASE_KEYS.join(", ")})`, key });
  const enabled = section.enabled ?? true;
  if (typeof enabled !== "boolean") problems.push({ message: "expected true or false", key: "enabled" });
  const int = (key: string, dflt: number, min: number, max: number): number => {
    const v = section[key] ?? dflt;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      problems.push({ message: `expected an integer in ${min}..${max}, received ${JSON.stringify(v)}`, key });
      return dflt;
    }
    return v;
  };
  const durationSec = int("durationSec", LEASE_DEFAULTS.durationSec, 5, 300);
  const renewSec = int("renewSec", LEASE_DEFAULTS.renewSec, 1, 150);
  const skewMarginSec = int("skewMarginSec", LEASE_DEFAULTS.skewMarginSec, 0, 60);
  const ns = section.namespace;
  if (ns !== undefined && (typeof ns !== "string" || !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns))) {
    problems.push({ message: `expected a Kubernetes namespace name (lower case letters, digits and '-', at most 63), received ${JSON.stringify(ns)}`, key: "namespace" });
  }
  // A holder gives a lease up at durationSec - skewMarginSec without a renewal: leave room for two tries.
  if (problems.length === 0 && 2 * renewSec > durationSec - skewMarginSec) {
    problems.push({ message: `renewSec ${renewSec} leaves no room for a failed renewal: need 2 x renewSec <= durationSec - skewMarginSec (${durationSec} - ${skewMarginSec})`, key: "renewSec" });
  }
  if (problems.length > 0) return { problems };
  if (enabled === false) return undefined;
  return { namespace: ns as string | undefined, durationSec, renewSec, skewMarginSec };
}

/** Most replicas one wallet list is split over (a config holds at most 50 wallets anyway). */
export const MAX_SHARDS = 50;

const ORDINAL = "ordinal";

/** The StatefulSet pod ordinal: the digits after the last '-' of the host name. */
export function ordinalFromHostname(hostname: string | undefined): number | string {
  if (hostname === undefined || hostname === "") return "index: ordinal needs HOSTNAME (a StatefulSet pod name such as mm-3)";
  const m = /-(\d+)$/.exec(hostname);
  if (m === null) return `index: ordinal: HOSTNAME ${JSON.stringify(hostname)} does not end in -<number> (a StatefulSet pod name such as mm-3)`;
  return Number(m[1]);
}

function parseIndex(raw: unknown, env: LoadContext["env"], from: string): number | string {
  if (raw === ORDINAL) return ordinalFromHostname(env.HOSTNAME);
  const n = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return `${from}: expected an integer >= 0 or "ordinal", received ${JSON.stringify(raw)}`;
  return n;
}

function parseCount(raw: unknown, from: string): number | string {
  const n = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_SHARDS) return `${from}: expected an integer in 1..${MAX_SHARDS}, received ${JSON.stringify(raw)}`;
  return n;
}

/**
 * The `shard` section with MM_SHARD_INDEX / MM_SHARD_COUNT applied; absent in the file and the
 * environment: undefined (one daemon owns every wallet, as before).
 */
export function shardSchema(ctx: LoadContext): z.ZodType<ShardSettings | undefined, unknown> {
  return z.unknown().optional().transform((value, c): ShardSettings | undefined => {
    const fail = (message: string, path: (string | number)[] = []): never => {
      c.addIssue({ code: "custom", message, path });
      return z.NEVER;
    };
    const envIndex = ctx.env.MM_SHARD_INDEX;
    const envCount = ctx.env.MM_SHARD_COUNT;
    if (value === undefined && envIndex === undefined && envCount === undefined) return undefined;
    if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) return fail("expected a mapping { index, count }");
    const section = (value ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(section)) if (key !== "index" && key !== "count" && key !== "lease") fail("unknown key", [key]);
    const lease = parseLease(section.lease);
    if (lease !== undefined && "problems" in lease) {
      for (const p of lease.problems) fail(p.message, p.key === undefined ? ["lease"] : ["lease", p.key]);
      return z.NEVER;
    }
    const rawCount = envCount ?? section.count;
    const rawIndex = envIndex ?? section.index;
    if (rawCount === undefined) return fail("count is required (or set MM_SHARD_COUNT)", ["count"]);
    if (rawIndex === undefined) return fail("index is required (an integer, or \"ordinal\"; or set MM_SHARD_INDEX)", ["index"]);
    const count = parseCount(rawCount, envCount !== undefined ? "MM_SHARD_COUNT" : "count");
    if (typeof count === "string") return fail(count, envCount !== undefined ? [] : ["count"]);
    const index = parseIndex(rawIndex, ctx.env, envIndex !== undefined ? "MM_SHARD_INDEX" : "index");
    if (typeof index === "string") return fail(index, envIndex !== undefined ? [] : ["index"]);
    if (index >= count) return fail(`index ${index} is not below count ${count} (shards are numbered 0..${count - 1})`, ["index"]);
    return lease === undefined ? { index, count } : { index, count, lease };
  });
}

/** `platform.localAddress`: an IPv4 or IPv6 address of this host that outgoing connections leave from. */
export function localAddressSchema(): z.ZodOptional<z.ZodString> {
  return z
    .string()
    .refine((s) => isIP(s) !== 0, { error: "expected an IP address of this host (such as 10.0.0.5 or 2001:db8::5)" })
    .optional();
}

/** The rendezvous weight of one (key, shard) pair: the first 8 bytes of sha256, as a bigint. */
export function shardWeight(key: string, shard: number): bigint {
  return createHash("sha256").update(`${key}|${shard}`).digest().readBigUInt64BE(0);
}

/** The shard a wallet belongs to out of `count` (rendezvous hashing on the lower-cased address). */
export function shardOf(walletKey: string, count: number): number {
  const key = walletKey.toLowerCase();
  let best = 0;
  let bestWeight = -1n;
  for (let s = 0; s < count; s++) {
    const w = shardWeight(key, s);
    if (w > bestWeight) {
      best = s;
      bestWeight = w;
    }
  }
  return best;
}

/** The instance id a sharded replica runs under: `<id>-s<index>`. */
export function shardInstanceId(base: string, index: number): string {
  return `${base}-s${index}`;
}

/** Instance ids are 1-16 characters: the base must leave room for `-s<index>`. */
export function shardIdProblem(base: string, shard: ShardSettings | undefined): string | undefined {
  if (shard === undefined) return undefined;
  const id = shardInstanceId(base, shard.count - 1);
  return id.length > 16 ? `with shard.count ${shard.count}, instance.id must be at most ${16 - (id.length - base.length)} characters (replicas run as ${id})` : undefined;
}

/**
 * The config one replica runs: only its wallets, its own instance id, and `shardOf` remembered for
 * the hand-off (src/bot/engine/shard-handoff.ts). Without a shard: the config as it is.
 */
export function applyShard<C extends { shard?: ShardSettings | undefined; instance: { id: string }; wallets: readonly { address: string }[] }>(config: C): C {
  const shard = config.shard;
  if (shard === undefined) return config;
  return {
    ...config,
    instance: { ...config.instance, id: shardInstanceId(config.instance.id, shard.index) },
    wallets: config.wallets.filter((w) => shardOf(w.address, shard.count) === shard.index),
  };
}

/** The config-wide check of the shard section (schema.ts chains it after its own). */
export function checkShardId(cfg: { instance: { id: string }; shard?: ShardSettings | undefined }, ctx: z.core.$RefinementCtx): void {
  const problem = shardIdProblem(cfg.instance.id, cfg.shard);
  if (problem !== undefined) ctx.addIssue({ code: "custom", path: ["instance", "id"], message: problem });
}
