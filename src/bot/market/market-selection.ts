/**
 * Which markets the daemon quotes, and with which wallet. Pure: candidates (market rows found by
 * market-discovery.ts) and the time come in, a selection and an assignment go out.
 *
 * Selection. Candidates come from, in order of precedence: markets named in a wallet's own list,
 * `markets.slugs`, the markets of `markets.eventSlugs`, the markets of events matching
 * `markets.filters` (tag AND vertical AND stage, each a list of alternatives), and, when none of
 * those is configured, every market of the open list. A market appears once (its best source
 * wins). Markets that cannot be quoted are skipped with a reason: stopped (CLOSED, RESOLVED, ...,
 * see market-phase.ts), no token id for some outcome (not deployed), or no fee rate to sign. The
 * first `maxMarkets` remaining are selected, in precedence then discovery order; wallet-listed
 * markets are never cut by the cap.
 *
 * Assignment (one wallet per market: two of our wallets on one book could trade with each other).
 * A market in a wallet's list goes to that wallet. Every other selected market goes to one of
 * the wallets that list no markets ("free" wallets): it keeps the wallet it had (so its orders are
 * never orphaned by a refresh), else goes to the free wallet with the fewest markets (lowest
 * index on a tie). With no free wallet such markets are not quoted.
 */
import type { MarketSummary } from "../../wire/index.js";
import { marketPhase } from "./market-phase.js";

export type CandidateSource = "wallet" | "slug" | "event" | "filter" | "all";

export interface Candidate {
  market: MarketSummary;
  source: CandidateSource;
}

const SOURCE_RANK: Readonly<Record<CandidateSource, number>> = { wallet: 0, slug: 1, event: 2, filter: 3, all: 4 };

export type SkipReason = "stopped" | "not_deployed" | "fee_unknown" | "cap";

export interface SelectOptions {
  maxMarkets: number;
  nowMs: number;
  pullBeforeCloseMs: number;
  /** The platform default fee (fee-config), used when a market's feeTakerBps is null. */
  defaultFeeTakerBps: number | null;
}

export interface Selection {
  selected: Candidate[];
  skipped: { symbol: string; reason: SkipReason }[];
}

/** Token ids by outcome (docs/spec-gaps.md `outcomeTokenIds`, else yes/no). */
export function outcomeTokenIds(m: MarketSummary): (string | null)[] {
  if (m.outcomeTokenIds && m.outcomeTokenIds.length > 0) return [...m.outcomeTokenIds];
  if (m.outcomeCount === 2) return [m.yesTokenId, m.noTokenId];
  return Array.from({ length: m.outcomeCount }, () => null);
}

export function skipReason(m: MarketSummary, opts: Omit<SelectOptions, "maxMarkets">): SkipReason | undefined {
  if (marketPhase(m, opts.nowMs, { pullBeforeCloseMs: opts.pullBeforeCloseMs }).phase === "stopped") return "stopped";
  const tokens = outcomeTokenIds(m);
  if (tokens.length < m.outcomeCount || tokens.some((t) => t === null || t === undefined)) return "not_deployed";
  if (m.feeTakerBps === null && opts.defaultFeeTakerBps === null) return "fee_unknown";
  return undefined;
}

export function selectMarkets(candidates: readonly Candidate[], opts: SelectOptions): Selection {
  const best = new Map<string, { c: Candidate; order: number }>();
  candidates.forEach((c, order) => {
    const have = best.get(c.market.id);
    if (have === undefined || SOURCE_RANK[c.source] < SOURCE_RANK[have.c.source]) best.set(c.market.id, { c, order: have?.order ?? order });
  });
  const ranked = [...best.values()].sort((a, b) => SOURCE_RANK[a.c.source] - SOURCE_RANK[b.c.source] || a.order - b.order);
  const selected: Candidate[] = [];
  const skipped: Selection["skipped"] = [];
  for (const { c } of ranked) {
    const why = skipReason(c.market, opts);
    if (why !== undefined) skipped.push({ symbol: c.market.symbol, reason: why });
    else if (c.source !== "wallet" && selected.length >= opts.maxMarkets) skipped.push({ symbol: c.market.symbol, reason: "cap" });
    else selected.push(c);
  }
  return { selected, skipped };
}

export interface WalletMarkets {
  index: number;
  /** Slugs or symbols from the config; undefined: a free wallet. */
  markets?: readonly string[] | undefined;
}

/** Market symbol -> wallet index. */
export type Assignment = Map<string, number>;

export function assignMarkets(
  selected: readonly Pick<MarketSummary, "symbol" | "slug">[],
  wallets: readonly WalletMarkets[],
  previous: ReadonlyMap<string, number> = new Map(),
): Assignment {
  const out: Assignment = new Map();
  const explicit = new Map<string, number>();
  for (const w of wallets) for (const name of w.markets ?? []) if (!explicit.has(name)) explicit.set(name, w.index);
  const free = wallets.filter((w) => w.markets === undefined).map((w) => w.index);
  const load = new Map<number, number>(free.map((i) => [i, 0]));
  const rest: Pick<MarketSummary, "symbol" | "slug">[] = [];
  for (const m of selected) {
    const owner = explicit.get(m.symbol) ?? explicit.get(m.slug);
    if (owner !== undefined) out.set(m.symbol, owner);
    else rest.push(m);
  }
  // Sticky first, so a refresh never moves a market (and its resting orders) to another wallet.
  const fresh: string[] = [];
  for (const m of rest) {
    const prev = previous.get(m.symbol);
    if (prev !== undefined && load.has(prev)) {
      out.set(m.symbol, prev);
      load.set(prev, load.get(prev)! + 1);
    } else fresh.push(m.symbol);
  }
  for (const symbol of fresh) {
    let pick: number | undefined;
    for (const i of free) if (pick === undefined || load.get(i)! < load.get(pick)!) pick = i;
    if (pick === undefined) continue;
    out.set(symbol, pick);
    load.set(pick, load.get(pick)! + 1);
  }
  return out;
}
