/**
 * Finding candidate markets (the I/O half of market-selection.ts) and re-reading their rows.
 *
 * - A name (config `markets.slugs`, or a wallet's own list) is tried as a slug on the market
 *   detail; a 404 falls back to the open list, matched by symbol (configs may name either).
 * - `markets.eventSlugs`: the event detail (full market rows).
 * - `markets.filters`: the events list walk with tag / vertical / stage (AND across fields, OR
 *   within one: spec 4.2), markets nested in the events.
 * - Nothing configured at all: the open markets list.
 * A name or event that cannot be read is reported, not fatal: the rest of the selection proceeds.
 */
import type { PartnerClient } from "../../api/index.js";
import { isApiError } from "../../api/index.js";
import type { MarketSummary } from "../../wire/index.js";
import type { Candidate } from "./market-selection.js";

export interface DiscoveryConfig {
  slugs: readonly string[];
  eventSlugs: readonly string[];
  filters: { tag: readonly string[]; vertical: readonly string[]; stage: readonly string[] };
  maxMarkets: number;
}

export interface DiscoveryResult {
  candidates: Candidate[];
  /** Names that could not be resolved, with why; `transient`: the read failed (5xx, 429, no answer, open circuit), the name may well exist. */
  problems: { name: string; message: string; transient: boolean }[];
}

function problemOf(name: string, e: unknown): { name: string; message: string; transient: boolean } {
  const transient = !isApiError(e) || e.status === 0 || e.status === 429 || e.status >= 500;
  return { name, message: e instanceof Error ? e.message : String(e), transient };
}

/** How many rows of the open list to read when selecting from it (the cap is applied later). */
const OPEN_LIST_ROWS = 500;

type Api = Pick<PartnerClient, "markets" | "events">;

/**
 * `knownSlug`: the slug of a market already followed under that name (a symbol), so a market named
 * by symbol stays found once it leaves the open list (closed, paused, resolved: still followed).
 */
export async function discoverCandidates(
  api: Api,
  cfg: DiscoveryConfig,
  walletMarkets: readonly string[],
  knownSlug: (name: string) => string | undefined = () => undefined,
): Promise<DiscoveryResult> {
  const candidates: Candidate[] = [];
  const problems: DiscoveryResult["problems"] = [];
  let openList: MarketSummary[] | undefined;
  const open = async (): Promise<MarketSummary[]> => (openList ??= await readOpenList(api, Number.MAX_SAFE_INTEGER));

  const byName = async (name: string, source: "wallet" | "slug"): Promise<void> => {
    try {
      candidates.push({ market: (await api.markets.get(knownSlug(name) ?? name)).data, source });
      return;
    } catch (e) {
      if (!isApiError(e) || e.status !== 404) {
        problems.push(problemOf(name, e));
        return;
      }
    }
    try {
      const hit = (await open()).find((m) => m.symbol === name || m.slug === name);
      if (hit !== undefined) candidates.push({ market: hit, source });
      else problems.push({ name, message: "no market with this slug or symbol", transient: false });
    } catch (e) {
      problems.push(problemOf(name, e));
    }
  };

  for (const name of walletMarkets) await byName(name, "wallet");
  for (const name of cfg.slugs) await byName(name, "slug");
  for (const slug of cfg.eventSlugs) {
    try {
      for (const m of (await api.events.get(slug)).data.markets) candidates.push({ market: m, source: "event" });
    } catch (e) {
      problems.push(problemOf(slug, e));
    }
  }
  const f = cfg.filters;
  const filtered = f.tag.length > 0 || f.vertical.length > 0 || f.stage.length > 0;
  if (filtered) {
    const filters = {
      ...(f.tag.length > 0 ? { tag: [...f.tag] } : {}),
      ...(f.vertical.length > 0 ? { vertical: [...f.vertical] } : {}),
      ...(f.stage.length > 0 ? { stage: [...f.stage] } : {}),
    };
    try {
      for await (const ev of api.events.walk(filters)) for (const m of ev.markets) candidates.push({ market: m, source: "filter" });
    } catch (e) {
      problems.push(problemOf("markets.filters", e));
    }
  }
  if (!filtered && cfg.slugs.length === 0 && cfg.eventSlugs.length === 0 && walletMarkets.length === 0) {
    try {
      for (const m of await readOpenList(api, OPEN_LIST_ROWS)) candidates.push({ market: m, source: "all" });
    } catch (e) {
      problems.push(problemOf("markets list", e));
    }
  }
  return { candidates, problems };
}

/** The open markets list, up to `maxRows` rows. */
export async function readOpenList(api: Pick<PartnerClient, "markets">, maxRows: number): Promise<MarketSummary[]> {
  const out: MarketSummary[] = [];
  for await (const m of api.markets.iterate({ limit: 500 })) {
    out.push(m);
    if (out.length >= maxRows) break;
  }
  return out;
}

/**
 * Fresh rows of the markets we follow: the open list, plus a detail read (by slug) for each
 * followed market missing from it (closed, resolving, settled). Markets whose detail fails keep
 * their old row (the caller decides what staleness means).
 */
export async function refreshRows(
  api: Pick<PartnerClient, "markets">,
  followed: readonly Pick<MarketSummary, "id" | "slug" | "symbol">[],
): Promise<{ rows: MarketSummary[]; failed: string[] }> {
  if (followed.length === 0) return { rows: [], failed: [] };
  const want = new Map(followed.map((m) => [m.id, m]));
  const rows: MarketSummary[] = [];
  const seen = new Set<string>();
  for await (const m of api.markets.iterate({ limit: 500 })) {
    if (!want.has(m.id) || seen.has(m.id)) continue;
    seen.add(m.id);
    rows.push(m);
    if (seen.size === want.size) break;
  }
  const failed: string[] = [];
  for (const m of followed) {
    if (seen.has(m.id)) continue;
    try {
      rows.push((await api.markets.get(m.slug)).data);
    } catch {
      failed.push(m.symbol);
    }
  }
  return { rows, failed };
}
