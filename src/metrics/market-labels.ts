/**
 * The market label's slots: at most `cap` market symbols hold a label at once, and the slots
 * follow the markets the daemon quotes now rather than the first `cap` it ever saw (markets
 * close, resolve and are replaced on a long run).
 *
 * The usage source lists the markets in use in two ranks: quoted (selected and assigned, live
 * orders, a market halt) and held (shares held, nothing quoted: a market pulled before it closes
 * keeps its shares until it resolves, hours or days). A slot is
 * - live: quoted, or labelled since the last sweep;
 * - held: only holds shares;
 * - idle: out of use since `since`; its series stay;
 * - retired: idle for `graceMs` with no other market wanting its slot. Its gauge series are
 *   removed; its counter series stay until the slot goes to another market, so a market that
 *   comes back resumes its counters instead of resetting them.
 *
 * A market without a slot gets one while fewer than `cap` are held; else it takes the slot of the
 * market retired the longest, else idle the longest (the grace period is for when nobody needs
 * the slot), else - if it is quoted - the slot of a market only holding shares (that one's series
 * go; its position and PnL are summed into "other"). Otherwise it is "other": more markets quoted
 * at once than `cap` (or a held market while every slot is quoted or held).
 *
 * No increment goes unseen: every counter update touches its slot, and a slot whose last touch a
 * scrape has not rendered keeps its counters when the slot is given away ("leaving") until a
 * scrape has rendered them; one scrape may then show up to 2 x `cap` market values. Leaving
 * markets are capped at `cap` too (oldest dropped).
 *
 * Cost: an event of a labelled market is O(1). A market wanting a slot while all are taken reads
 * the usage at once (a sweep: a walk of the engine's state) unless a sweep forced that way came
 * back without room since the last periodic sweep (at most once per `sweepEveryMs`) or
 * `usageChanged()`; markets in use at the last sweep and markets not in use then (just selected?)
 * are counted apart, so a market refused in an overflow does not stop a newly selected one from
 * looking. An overflow costs O(1) per event; a sweep that frees a slot is paid once per slot.
 *
 * Without a usage source (`track` never called) every slot stays live: first come, first
 * served, never recycled.
 */
export const OTHER = "other";

export type MarketSlotState = "live" | "held" | "idle" | "retired";

/**
 * released: retired (its gauges go); evicted: its slot given away (its series go, counters once a
 * scrape rendered them); exported: a leaving market's counters were rendered (they go now).
 */
export type MarketSlotChange = "released" | "evicted" | "exported";

/** The markets in use now (raw symbols). A plain set: all quoted. */
export interface MarketUsage {
  /** Selected and assigned, with live orders, or under a market halt. */
  quoted: ReadonlySet<string>;
  /** Holding shares (a market in both sets is quoted). */
  held: ReadonlySet<string>;
}

/** What a scrape is about to render: from `unexported()`, for `markExported()`. */
export interface ExportMarks {
  readonly slots: ReadonlyMap<string, number>;
  readonly leaving: ReadonlyMap<string, number>;
}

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
  /** When it entered its state (held, idle, retired). */
  since: number;
  /** Touch number of its last counter update (0: none). */
  touched: number;
  /** Touch number a scrape rendered it at: exported when >= touched. */
  rendered: number;
}

export const DEFAULT_MARKET_GRACE_MS = 300_000;
const DEFAULT_SWEEP_EVERY_MS = 1_000;
const EMPTY: ReadonlySet<string> = new Set();

export class MarketLabels {
  private readonly slots = new Map<string, Slot>();
  private readonly count: Record<MarketSlotState, number> = { live: 0, held: 0, idle: 0, retired: 0 };
  /** Slot given away before a scrape rendered its last counter update (oldest first): its touch. */
  private readonly leaving = new Map<string, number>();
  private readonly cap: number;
  private readonly accept: (raw: string) => boolean;
  readonly graceMs: number;
  private readonly sweepEveryMs: number;
  private readonly now: () => number;
  private usage: (() => ReadonlySet<string> | MarketUsage) | undefined;
  private onChange: ((label: string, change: MarketSlotChange) => void) | undefined;
  private lastSweep = Number.NEGATIVE_INFINITY;
  private quoted: ReadonlySet<string> = EMPTY;
  private heldOnly: ReadonlySet<string> = EMPTY;
  /** Counter updates so far: touch numbers are unique, so a slot given away and taken again never matches an old mark. */
  private touches = 0;
  /**
   * A forced sweep came back without room for a market in use at the last sweep (known) / not
   * in use then (new): until the periodic sweep or `usageChanged()`, such markets do not force
   * another one.
   */
  private starved = false;
  private starvedNew = false;
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
  track(usage: () => ReadonlySet<string> | MarketUsage, onChange?: (label: string, change: MarketSlotChange) => void): void {
    this.usage = usage;
    this.onChange = onChange;
  }

  /**
   * The label of `raw`, taking a slot for it when one is free or can be freed. `counter`: the
   * caller updates a counter with it (false for gauges set from state at a scrape), so the slot
   * keeps its counters until a scrape has rendered this update.
   */
  label(raw: string | undefined, counter = true): string {
    if (raw === undefined || raw === OTHER) return OTHER;
    const slot = this.slots.get(raw);
    if (slot !== undefined) {
      // A late event (a fill found by a trade pull) brings a retired market back: it holds its
      // slot already, and its counters resume where they were.
      if (slot.state === "retired") this.setState(slot, this.heldOnly.has(raw) ? "held" : "live");
      if (counter) slot.touched = ++this.touches;
      return raw;
    }
    if (!this.accept(raw) || !this.makeRoom(raw)) return OTHER;
    // Back before its counters went: they resume.
    this.leaving.delete(raw);
    const s: Slot = { state: "live", since: this.now(), touched: counter ? ++this.touches : 0, rendered: 0 };
    this.count.live++;
    this.slots.set(raw, s);
    if (this.heldOnly.has(raw)) this.setState(s, "held");
    return raw;
  }

  /** The label of `raw` if it holds a live, held or idle slot, else "other"; never takes a slot. */
  peek(raw: string | undefined): string {
    if (raw === undefined) return OTHER;
    return this.keepsGauges(raw) ? raw : OTHER;
  }

  /**
   * Compare the slots with the markets in use: quoted ones turn live, share-only ones held, the
   * rest idle, idle ones past the grace period are retired. `sweep(false)` (periodic) is
   * throttled; a scrape sweeps at once, a market wanting a slot when that can help (above).
   */
  sweep(force = true): void {
    if (this.usage === undefined) return;
    const now = this.now();
    if (!force && now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    let used: ReadonlySet<string> | MarketUsage;
    try {
      used = this.usage();
    } catch {
      // A source not ready (engine mid-build) says nothing: keep the slots as they are.
      return;
    }
    if (!force) this.starved = this.starvedNew = false;
    const quoted = isUsage(used) ? used.quoted : used;
    const held = isUsage(used) ? used.held : EMPTY;
    this.quoted = quoted;
    this.heldOnly = held;
    for (const [label, s] of this.slots) {
      if (quoted.has(label)) {
        if (s.state !== "live") this.setState(s, "live");
      } else if (held.has(label)) {
        if (s.state !== "held") this.setState(s, "held");
      } else if (s.state === "live" || s.state === "held") {
        this.setState(s, "idle");
      } else if (s.state === "idle" && now - s.since >= this.graceMs) {
        this.setState(s, "retired");
        this.onChange?.(label, "released");
      }
    }
  }

  /** The markets in use changed (a selection refresh, a market closing): the next market wanting a slot looks at once. */
  usageChanged(): void {
    this.starved = this.starvedNew = false;
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

  /** Markets with counter updates not rendered yet: capture before rendering a scrape, then pass to `markExported`. */
  unexported(): ExportMarks {
    const slots = new Map<string, number>();
    for (const [l, s] of this.slots) if (s.rendered < s.touched) slots.set(l, s.touched);
    return { slots, leaving: new Map(this.leaving) };
  }

  /** A scrape rendered these markets' series: updates made since the capture stay unexported. */
  markExported(marks: ExportMarks): void {
    for (const [l, touched] of marks.slots) {
      const s = this.slots.get(l);
      if (s !== undefined && s.touched === touched) s.rendered = touched;
    }
    for (const [l, touched] of marks.leaving) {
      if (this.leaving.get(l) !== touched) continue;
      this.leaving.delete(l);
      this.onChange?.(l, "exported");
    }
  }

  state(label: string): MarketSlotState | undefined {
    return this.slots.get(label)?.state;
  }

  /** Its gauge series stay: a live, held or idle slot. */
  keepsGauges(label: string): boolean {
    const s = this.slots.get(label)?.state;
    return s !== undefined && s !== "retired";
  }

  /** Its counter series stay: a slot, or leaving (not rendered yet). */
  keepsCounters(label: string): boolean {
    return this.slots.has(label) || this.leaving.has(label);
  }

  /** Markets whose slot was taken before their counters were rendered. */
  leavingLabels(): string[] {
    return [...this.leaving.keys()];
  }

  /** Markets holding a slot, in the order they took it. */
  held(): string[] {
    return [...this.slots.keys()];
  }

  get size(): number {
    return this.slots.size;
  }

  private setState(s: Slot, state: MarketSlotState): void {
    this.count[s.state]--;
    this.count[state]++;
    s.state = state;
    s.since = this.now();
  }

  private makeRoom(raw: string): boolean {
    if (this.slots.size < this.cap) return true;
    if (this.evict("retired")) return true;
    if (this.usage === undefined) return false;
    let known = true;
    if (!this.fresh) {
      known = this.quoted.has(raw) || this.heldOnly.has(raw);
      // Known and refused by the last sweep: only a change of the usage can help. New: maybe just
      // selected, look at once.
      this.sweep(!(known ? this.starved : this.starvedNew));
    }
    const ok = this.evict("retired") || this.evict("idle") || (this.quoted.has(raw) && this.evict("held"));
    if (!ok) {
      if (known) this.starved = true;
      else this.starvedNew = true;
    }
    return ok;
  }

  /** Free the slot of the oldest retired market, or of the longest idle or held (rendered ones first). */
  private evict(kind: "retired" | "idle" | "held"): boolean {
    if (this.count[kind] === 0) return false;
    let best: string | undefined;
    let bestKey = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const [label, s] of this.slots) {
      if (s.state !== kind) continue;
      const key = kind === "retired" ? [0, s.since] : [s.rendered >= s.touched ? 0 : 1, s.since];
      if (key[0]! < bestKey[0]! || (key[0] === bestKey[0] && key[1]! < bestKey[1]!)) {
        best = label;
        bestKey = key;
      }
    }
    if (best === undefined) return false;
    const slot = this.slots.get(best)!;
    this.slots.delete(best);
    this.count[slot.state]--;
    if (slot.rendered < slot.touched) this.leave(best, slot.touched);
    this.onChange?.(best, "evicted");
    return true;
  }

  private leave(label: string, touched: number): void {
    this.leaving.set(label, touched);
    if (this.leaving.size <= this.cap) return;
    const oldest = this.leaving.keys().next().value as string;
    this.leaving.delete(oldest);
    this.onChange?.(oldest, "evicted");
  }
}

function isUsage(u: ReadonlySet<string> | MarketUsage): u is MarketUsage {
  return "quoted" in u && "held" in u;
}
