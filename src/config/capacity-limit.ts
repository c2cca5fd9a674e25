/**
 * What one daemon process was measured to hold (bench/capacity.bench.ts, docs/operations.md), and
 * the check `mm check-config` makes against it. The cost of a daemon grows with wallets x markets
 * (every wallet's risk snapshot covers every followed market, and each market's cycles go through
 * it), so the limit is on that product.
 */

/** The measured figures (2 shared cores, the simulator in the same process: a safe side). */
export const MEASURED_CAPACITY = {
  cores: 2,
  /** Held: event-loop lag and CPU well inside the bounds. */
  held: { wallets: 20, markets: 50, lagP99Ms: 41, cpuShare: 0.2 },
  /** Not held: the loop stalls, stale-data halts and unknown orders follow. */
  failed: { wallets: 50, markets: 100, lagMaxMs: 7500, cpuShare: 0.9 },
} as const;

/** Wallets x markets beyond this draws the warning. */
export const MAX_WALLET_MARKETS = MEASURED_CAPACITY.held.wallets * MEASURED_CAPACITY.held.markets;

export interface CapacityInput {
  wallets: readonly { markets?: readonly string[] | undefined }[];
  markets: { slugs: readonly string[]; eventSlugs: readonly string[]; filters: { tag: readonly string[]; vertical: readonly string[]; stage: readonly string[] }; maxMarkets: number };
}

/**
 * The most markets the config can quote at once: its explicit markets (slugs and wallets' lists)
 * when that is all it names, else markets.maxMarkets (events and filters may select up to it).
 */
export function marketsUpperBound(c: CapacityInput): number {
  const m = c.markets;
  const f = m.filters;
  const open = m.eventSlugs.length + f.tag.length + f.vertical.length + f.stage.length > 0;
  const explicit = new Set([...m.slugs, ...c.wallets.flatMap((w) => w.markets ?? [])]).size;
  if (open || explicit === 0) return m.maxMarkets;
  return Math.min(explicit, m.maxMarkets);
}

/** A warning when wallets x markets exceeds what one process was measured to hold; else undefined. */
export function capacityWarning(c: CapacityInput): string | undefined {
  const wallets = c.wallets.length;
  const markets = marketsUpperBound(c);
  const product = wallets * markets;
  if (product <= MAX_WALLET_MARKETS) return undefined;
  const { cores, held, failed } = MEASURED_CAPACITY;
  return (
    `warning: ${wallets} wallets x ${markets} markets = ${product} wallet-markets, more than one process was measured to hold ` +
    `(${held.wallets} x ${held.markets} = ${MAX_WALLET_MARKETS} on ${cores} cores: event-loop lag p99 ${held.lagP99Ms} ms, ${Math.round(held.cpuShare * 100)}% CPU; ` +
    `${failed.wallets} x ${failed.markets} stalled the loop up to ${failed.lagMaxMs / 1000} s at ${Math.round(failed.cpuShare * 100)}% CPU). ` +
    `Split the wallets over several daemons (each with its own instance.id) or lower markets.maxMarkets; ` +
    `a daemon that falls behind sheds markets (capacity.*) rather than quote late.`
  );
}
