/**
 * The market label's slots: at most `cap` market symbols hold a label at once, and the slots
 * follow the markets the daemon follows now rather than the first `cap` it ever saw (markets
 * close, resolve and are replaced on a long run).
 *
 * A slot is
 * - live: the market is in use (the usage source lists it: selected, live orders, shares held,
 *   halted), or was labelled since the last sweep;
 * - idle: out of use since `idleSince`; its series stay;
 * - retired: idle for `graceMs` with no other market wanting its slot. Its gauge series are
 *   removed; its counter series stay until the slot goes to another market, so a market that
 *   comes back resumes its counters instead of resetting them.
 *
 * A market without a slot gets one while fewer than `cap` are held; else it takes the slot of
 * the market retired the longest, else of the market idle the longest (the grace period is for
 * when nobody needs the slot). Otherwise it is "other": more markets in use at once than `cap`.
 * A market whose slot is taken loses its series, but counters a scrape has not rendered since
 * it went idle stay ("leaving") until one has, so no increment goes unseen: one scrape may then
 * show up to 2 x `cap` market values. Leaving markets are capped at `cap` too (oldest dropped).
 *
 * Without a usage source (`track` never called) every slot stays live: first come, first
 * served, never recycled.
 */
export const OTHER = "other";

export type MarketSlotState = "live" | "idle" | "retired";

/**
 * released: retired (its gauges go); evicted: its slot given away (its series go, counters once a
 * scrape rendered them); exported: a leaving market's counters were rendered (they go now).
 */
export type MarketSlotChange = "released" | "evicted" | "exported";

export interface MarketLabelsOptions {
  cap: number;
  /** Symbol shape; anything else is "other". */
  accept: (raw: string) => boolean;
  /** How long an idle market keeps its gauges and its slot when nobody needs it (default 5 min). */
  graceMs?: number;
  /** Least time between two periodic sweeps (`sweep(false)`; default 1 s). */
  sweepEveryMs?: number;
  /** Time source for idleness (the daemon's clock). */
  now?: () => number;
}

interface Slot {
  state: MarketSlotState;
  /** When it went idle (idle, retired). */
  idleSince: number;
  /** When it was retired (retired). */
  retiredAt: number;
  /** A scrape rendered its series since it went idle (idle, retired). */
  exported: boolean;
}

export const DEFAULT_MARKET_GRACE_MS = 300_000;
const DEFAULT_SWEEP_EVERY_MS = 1_000;

export class MarketLabels {
  private readonly slots = new Map<string, Slot>();
  /** Slot given away before a scrape rendered its counters since it went idle (oldest first). */
  private readonly leaving = new Set<string>();
  private readonly cap: number;
  private readonly accept: (raw: string) => boolean;
  private readonly graceMs: number;
  private readonly sweepEveryMs: number;
  private readonly now: () => number;
  private usage: (() => ReadonlySet<string>) | undefined;
  private onChange: ((label: string, change: MarketSlotChange) => void) | undefined;
  private lastSweep = Number.NEGATIVE_INFINITY;
  /** Inside `afterSweep`: the state was just read, a market wanting a slot does not re-read it. */
  private fresh = false;

  constructor(opts: MarketLabelsOptions) {
    this.cap = opts.cap;
    this.accept = opts.accept;
    this.graceMs = opts.graceMs ?? DEFAULT_MARKET_GRACE_MS;
    this.sweepEveryMs = opts.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS;
    this.now = opts.now ?? (() => 0);
  }

  /**
   * Recycle slots: `usage` lists the markets in use now (raw symbols); `onChange` hears each
   * release and eviction (to remove the series).
   */
  track(usage: () => ReadonlySet<string>, onChange?: (label: string, change: MarketSlotChange) => void): void {
    this.usage = usage;
    this.onChange = onChange;
  }

  /** The label of `raw`, taking a slot for it when one is free or can be freed. */
  label(raw: string | undefined): string {
    if (raw === undefined || raw === OTHER) return OTHER;
    const slot = this.slots.get(raw);
    if (slot !== undefined) {
      // A late event (a fill found by a trade pull) brings a retired market back: it holds its
      // slot already, and its counters resume where they were.
      if (slot.state === "retired") this.slots.set(raw, liveSlot());
      return raw;
    }
    if (!this.accept(raw) || !this.makeRoom()) return OTHER;
    // Back before its counters went: they resume.
    this.leaving.delete(raw);
    this.slots.set(raw, liveSlot());
    return raw;
  }

  /** The label of `raw` if it holds a live or idle slot, else "other"; never takes a slot. */
  peek(raw: string | undefined): string {
    if (raw === undefined) return OTHER;
    const s = this.slots.get(raw)?.state;
    return s === "live" || s === "idle" ? raw : OTHER;
  }

  /**
   * Compare the slots with the markets in use: live ones out of use turn idle, idle ones in use
   * turn live, idle ones past the grace period are retired. `sweep(false)` (periodic) is
   * throttled; a scrape and a market wanting a slot sweep at once (a selection refresh leaves
   * and selects markets in the same instant).
   */
  sweep(force = true): void {
    if (this.usage === undefined) return;
    const now = this.now();
    if (!force && now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    let used: ReadonlySet<string>;
    try {
      used = this.usage();
    } catch {
      // A source not ready (engine mid-build) says nothing: keep the slots as they are.
      return;
    }
    for (const [label, s] of this.slots) {
      if (used.has(label)) {
        if (s.state !== "live") this.slots.set(label, liveSlot());
      } else if (s.state === "live") {
        s.state = "idle";
        s.idleSince = now;
        s.exported = false;
      } else if (s.state === "idle" && now - s.idleSince >= this.graceMs) {
        s.state = "retired";
        s.retiredAt = now;
        this.onChange?.(label, "released");
      }
    }
  }

  /**
   * Sweep, then run `fn` (a scrape's collectors: many labels, no engine change in between)
   * without a sweep per market wanting a slot.
   */
  afterSweep(fn: () => void): void {
    this.sweep();
    this.fresh = true;
    try {
      fn();
    } finally {
      this.fresh = false;
    }
  }

  /** Left markets not rendered since: capture before rendering a scrape, then pass to `markExported`. */
  unexported(): string[] {
    const idle = [...this.slots].filter(([, s]) => s.state !== "live" && !s.exported).map(([l]) => l);
    return [...idle, ...this.leaving];
  }

  /** A scrape rendered these markets' series: leaving ones may go now. */
  markExported(labels: readonly string[]): void {
    for (const l of labels) {
      const s = this.slots.get(l);
      if (s !== undefined) {
        if (s.state !== "live") s.exported = true;
      } else if (this.leaving.delete(l)) this.onChange?.(l, "exported");
    }
  }

  state(label: string): MarketSlotState | undefined {
    return this.slots.get(label)?.state;
  }

  /** Its gauge series stay: a live or idle slot. */
  keepsGauges(label: string): boolean {
    const s = this.slots.get(label)?.state;
    return s === "live" || s === "idle";
  }

  /** Its counter series stay: a slot, or leaving (not rendered yet). */
  keepsCounters(label: string): boolean {
    return this.slots.has(label) || this.leaving.has(label);
  }

  /** Markets whose slot was taken before their counters were rendered. */
  leavingLabels(): string[] {
    return [...this.leaving];
  }

  /** Markets holding a slot, in the order they took it. */
  held(): string[] {
    return [...this.slots.keys()];
  }

  get size(): number {
    return this.slots.size;
  }

  private makeRoom(): boolean {
    if (this.slots.size < this.cap) return true;
    if (this.evict("retired")) return true;
    if (this.usage === undefined) return false;
    if (!this.fresh) this.sweep();
    return this.evict("retired") || this.evict("idle");
  }

  /** Free the slot of the oldest retired market, or of the longest idle (rendered ones first). */
  private evict(kind: "retired" | "idle"): boolean {
    let best: string | undefined;
    let bestKey = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const [label, s] of this.slots) {
      if (s.state !== kind) continue;
      const key = kind === "retired" ? [0, s.retiredAt] : [s.exported ? 0 : 1, s.idleSince];
      if (key[0]! < bestKey[0]! || (key[0] === bestKey[0] && key[1]! < bestKey[1]!)) {
        best = label;
        bestKey = key;
      }
    }
    if (best === undefined) return false;
    const slot = this.slots.get(best)!;
    this.slots.delete(best);
    if (!slot.exported) this.leave(best);
    this.onChange?.(best, "evicted");
    return true;
  }

  private leave(label: string): void {
    this.leaving.add(label);
    if (this.leaving.size <= this.cap) return;
    const oldest = this.leaving.values().next().value as string;
    this.leaving.delete(oldest);
    this.onChange?.(oldest, "evicted");
  }
}

function liveSlot(): Slot {
  return { state: "live", idleSince: 0, retiredAt: 0, exported: false };
}
