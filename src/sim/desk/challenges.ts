/**
 * Resolution challenges (spec 4.9) from the scenario's `challenges:` part
 * (src/sim/platform/challenges-schema.ts). Shapes not shown; ours (docs/spec-gaps.md):
 *
 *   {challenges: [{id, marketId, marketSymbol, marketSlug, eventSlug, challenger, proposedOutcome,
 *                  proposedOutcomeLabel, reason, bond, status, createdAt, resolvedAt}], nextCursor}
 *
 * - a challenge is shown from its `createdAt` on; until its `resolvedAt` it shows `OPEN` with
 *   `resolvedAt: null`, then its scenario status;
 * - newest first (createdAt, then id, descending); `nextCursor` an opaque keyset cursor (base64url
 *   of `ch:<createdAtMs>:<id>`), null on the last page;
 * - `challenger` lowercase; `bond` a decimal string of the settlement token.
 */
import { formatMicros, type Micros } from "../../core/money.js";
import type { Catalogue } from "../platform/catalogue.js";
import type { ChallengeStatus } from "../platform/challenges-schema.js";
import { uuidOf } from "../platform/derive.js";
import type { SimPlatform } from "../platform/platform.js";
import { isoOf, resolveTimeSpec } from "../platform/time.js";

export interface ChallengeRecord {
  id: string;
  marketSymbol: string;
  challenger: string;
  proposedOutcome: number;
  reason: string;
  bond: Micros;
  status: ChallengeStatus;
  createdAtMs: number;
  resolvedAtMs: number | null;
}

export interface ChallengeJson {
  id: string;
  marketId: string;
  marketSymbol: string;
  marketSlug: string;
  eventSlug: string;
  challenger: string;
  proposedOutcome: number;
  proposedOutcomeLabel: string | null;
  reason: string;
  bond: string;
  status: ChallengeStatus;
  createdAt: string;
  resolvedAt: string | null;
}

const cache = new WeakMap<SimPlatform, readonly ChallengeRecord[]>();

/** The scenario's challenges with times and challengers resolved (computed once per platform). */
export function challengeRecords(platform: SimPlatform): readonly ChallengeRecord[] {
  const hit = cache.get(platform);
  if (hit !== undefined) return hit;
  const byName = new Map(platform.walletSecrets.flatMap((w) => (w.name === null ? [] : [[w.name, w.address.toLowerCase()] as const])));
  const records = platform.scenario.challenges.map((c, i): ChallengeRecord => ({
    id: c.id ?? uuidOf(`challenge:${i}`),
    marketSymbol: c.market,
    challenger: byName.get(c.challenger) ?? c.challenger.toLowerCase(),
    proposedOutcome: c.proposedOutcome,
    reason: c.reason,
    bond: c.bond,
    status: c.status,
    createdAtMs: resolveTimeSpec(c.createdAt, platform.startMs),
    resolvedAtMs: c.resolvedAt === null ? null : resolveTimeSpec(c.resolvedAt, platform.startMs),
  }));
  cache.set(platform, records);
  return records;
}

/** The challenge as shown at `nowMs`, or undefined before its createdAt or while its market is unlisted. */
export function challengeJson(cat: Catalogue, c: ChallengeRecord, nowMs: number): ChallengeJson | undefined {
  if (c.createdAtMs > nowMs) return undefined;
  const m = cat.marketBySymbol(c.marketSymbol);
  if (m === undefined) return undefined;
  const decided = c.resolvedAtMs !== null && c.resolvedAtMs <= nowMs;
  return {
    id: c.id,
    marketId: m.id,
    marketSymbol: m.symbol,
    marketSlug: m.slug,
    eventSlug: cat.eventOf(m).slug,
    challenger: c.challenger,
    proposedOutcome: c.proposedOutcome,
    proposedOutcomeLabel: m.outcomeLabels[c.proposedOutcome] ?? null,
    reason: c.reason,
    bond: formatMicros(c.bond),
    status: decided ? c.status : "OPEN",
    createdAt: isoOf(c.createdAtMs),
    resolvedAt: decided && c.resolvedAtMs !== null ? isoOf(c.resolvedAtMs) : null,
  };
}

export interface ChallengeKey {
  createdAtMs: number;
  id: string;
}

/** Strictly older in the newest-first order (createdAt, then id, descending). */
function olderThan(c: ChallengeRecord, k: ChallengeKey): boolean {
  return c.createdAtMs < k.createdAtMs || (c.createdAtMs === k.createdAtMs && c.id < k.id);
}

/** One page, newest first: the shown challenges (of one market when `symbol` is given) after `after`. */
export function challengePage(
  platform: SimPlatform,
  nowMs: number,
  q: { symbol?: string; after?: ChallengeKey; limit: number },
): { rows: ChallengeJson[]; last: ChallengeKey | undefined; more: boolean } {
  const cat = platform.catalogue;
  const shown = challengeRecords(platform)
    .filter((c) => q.symbol === undefined || c.marketSymbol === q.symbol)
    .filter((c) => q.after === undefined || olderThan(c, q.after))
    .map((c) => ({ c, j: challengeJson(cat, c, nowMs) }))
    .filter((x): x is { c: ChallengeRecord; j: ChallengeJson } => x.j !== undefined)
    .sort((a, b) => b.c.createdAtMs - a.c.createdAtMs || (a.c.id < b.c.id ? 1 : a.c.id > b.c.id ? -1 : 0));
  const page = shown.slice(0, q.limit);
  const lastRec = page[page.length - 1]?.c;
  return { rows: page.map((x) => x.j), last: lastRec && { createdAtMs: lastRec.createdAtMs, id: lastRec.id }, more: shown.length > page.length };
}
