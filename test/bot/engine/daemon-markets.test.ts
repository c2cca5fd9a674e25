/**
 * The daemon's markets over time (src/bot/engine/daemon-markets.ts), over a scripted registry and
 * data source and the virtual clock: events routed to the wallets, books and trades followed and
 * dropped with the selection, phase timers, settlements applied once, deselected markets forgotten
 * only when nothing is left there, and the settled markets remembered no longer than their market.
 */
import { describe, expect, it } from "vitest";
import { MarketTimeline, type MarketTimelineParts } from "../../../src/bot/engine/daemon-markets.js";
import type { WalletRunner } from "../../../src/bot/engine/wallet-runner.js";
import type { Inventory } from "../../../src/bot/fills/inventory.js";
import type { MarketDataSource } from "../../../src/bot/market/market-data.js";
import type { MarketRegistry, SelectionChange } from "../../../src/bot/market/market-registry.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { createLogger } from "../../../src/log/index.js";
import type { MarketSummary } from "../../../src/wire/index.js";
import { T0, marketRow } from "./fakes.js";

type What = "selected" | "deselected" | "row" | "phase" | "wallet";
type Entry = { row: MarketSummary; selected: boolean; wallet: number | undefined };

function world(over: { active?: boolean } = {}) {
  const clock = new VirtualClock(T0);
  const calls: string[] = [];
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const log = createLogger({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as { level: string; msg: string }) });

  const entries = new Map<string, Entry>();
  /** Boundaries per market; nextBoundary answers the first after now, as the registry does. */
  const boundaries = new Map<string, number[]>();
  const phases = new Map<string, string>();
  let change: SelectionChange = { added: [], removed: [], moved: [], problems: [] };
  let listener: ((symbol: string, what: What) => void) | undefined;
  const registry = {
    onChange: (l: typeof listener) => ((listener = l), () => undefined),
    get: (s: string) => entries.get(s),
    all: () => [...entries.values()],
    selected: () => [...entries.values()].filter((e) => e.selected),
    phase: (s: string) => (entries.has(s) ? { phase: phases.get(s) ?? "open" } : undefined),
    nextBoundary: (s: string) => (boundaries.get(s) ?? []).filter((t) => t > clock.now()).sort((a, b) => a - b)[0],
    refreshSelection: () => Promise.resolve((calls.push("refreshSelection"), change)),
    refreshStatus: (symbols: string[]) => Promise.resolve(void calls.push(`refreshStatus:${symbols.join(",")}`)),
    forget: (s: string) => (calls.push(`forget:${s}`), entries.delete(s)),
  } as unknown as MarketRegistry;

  let onUpdate: ((s: string) => void) | undefined;
  let onStale: ((s: string, outcome: number) => void) | undefined;
  const data = {
    onUpdate: (l: typeof onUpdate) => void (onUpdate = l),
    onStale: (l: typeof onStale) => void (onStale = l),
    track: (s: string, outcomes: number[]) => void calls.push(`data.track:${s}:${outcomes.join(",")}`),
    untrack: (s: string) => void calls.push(`data.untrack:${s}`),
  } as unknown as MarketDataSource;
  const trades = {
    track: (s: string, n: number) => void calls.push(`trades.track:${s}:${n}`),
    untrack: (s: string) => void calls.push(`trades.untrack:${s}`),
  };

  const held = new Map<string, bigint>();
  const awaited = new Set<string>();
  /** retireWhenSafe calls: symbol and the wallets named. */
  const retireCalls: string[] = [];
  const counters = { afterRetirement: 0 };
  const inventory = {
    positions: (_w: undefined, s: string) => [{ qty: held.get(s) ?? 0n }],
    payoutAwaited: (s: string) => awaited.has(s),
    retireWhenSafe: (s: string, wallets: readonly string[]) => (retireCalls.push(`${s}:${wallets.join(",")}`), false),
    counters,
    resolve: (s: string, nums: readonly bigint[], at: number) => void calls.push(`resolve:${s}:${nums.join("/")}@${at - T0}`),
    voidMarket: (s: string, n: number, at: number) => void calls.push(`void:${s}:${n}@${at - T0}`),
  } as unknown as Inventory;

  const live = new Map<string, number>();
  const runner = (name: string) =>
    ({
      trigger: (s: string, why: string) => void calls.push(`${name}.trigger:${s}:${why}`),
      wallet: `0x${name}`,
      tracker: { liveOrders: (s: string) => (name === "w0" ? Array.from({ length: live.get(s) ?? 0 }) : []) },
    }) as unknown as WalletRunner;

  let active = over.active ?? true;
  const parts: MarketTimelineParts = {
    clock,
    log,
    registry,
    data,
    trades,
    inventory,
    runners: [runner("w0"), runner("w1")],
    active: () => active,
    later: (fn, ms) => void clock.setTimeout(fn, ms),
    onSettled: (s, kind, nums, n, at, id) => void calls.push(`settled:${s}:${kind}:${nums?.join("/") ?? "null"}:${n}@${at - T0}:${id}`),
  };
  const timeline = new MarketTimeline(parts);
  const add = (symbol: string, e: Partial<Entry> = {}, row: Partial<MarketSummary> = {}) => entries.set(symbol, { row: marketRow({ symbol, ...row }), selected: true, wallet: undefined, ...e });
  return {
    clock,
    calls,
    lines,
    timeline,
    entries,
    boundaries,
    phases,
    held,
    awaited,
    retireCalls,
    counters,
    live,
    add,
    setChange: (c: Partial<SelectionChange>) => (change = { added: [], removed: [], moved: [], problems: [], ...c }),
    setActive: (a: boolean) => (active = a),
    emit: (s: string, what: What) => listener!(s, what),
    update: (s: string) => onUpdate!(s),
    stale: (s: string, o: number) => onStale!(s, o),
    take: () => calls.splice(0),
  };
}

describe("MarketTimeline.wire: book and registry events", () => {
  it("a book update or staleness goes to the wallet that owns the market only (staleness warned)", () => {
    const w = world();
    w.timeline.wire();
    w.add("A", { wallet: 1 });
    w.add("B", { wallet: undefined });
    w.update("A");
    w.update("B");
    w.update("unknown");
    w.stale("A", 0);
    expect(w.take()).toEqual(["w1.trigger:A:book", "w1.trigger:A:stale"]);
    expect(w.lines.filter((l) => l.level === "warn").map((l) => [l.msg, l.market, l.outcome])).toEqual([["market data stale: pulling quotes", "A", 0]]);
  });

  it.each<{ what: What; outcomes: number; want: string[] }>([
    { what: "selected", outcomes: 2, want: ["data.track:M:0", "trades.track:M:2"] },
    { what: "selected", outcomes: 3, want: ["data.track:M:0,1,2", "trades.track:M:3"] },
    { what: "deselected", outcomes: 2, want: ["data.untrack:M", "trades.untrack:M"] },
    { what: "phase", outcomes: 2, want: [] },
    { what: "wallet", outcomes: 2, want: [] },
  ])("registry change $what ($outcomes outcomes): $want, then every wallet cycles the market", ({ what, outcomes, want }) => {
    const w = world();
    w.timeline.wire();
    w.add("M", {}, { outcomeCount: outcomes });
    w.emit("M", what);
    expect(w.take()).toEqual([...want, "w0.trigger:M:market", "w1.trigger:M:market"]);
  });

  it("a change about a market the registry no longer has is ignored", () => {
    const w = world();
    w.timeline.wire();
    w.emit("gone", "selected");
    expect(w.take()).toEqual([]);
  });
});

describe("MarketTimeline: settlement", () => {
  it("a RESOLVED row with payouts: told, then the inventory resolves it at resolvedAt, once", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("M", {}, { status: "RESOLVED", payoutNumerators: ["1", "0"], lifecycle: { closedAt: null, pausedAt: null, resolvedAt: new Date(T0 - 5_000).toISOString(), voidedAt: null } });
    w.emit("M", "row");
    w.emit("M", "row");
    const id = w.entries.get("M")!.row.id;
    expect(w.take().filter((c) => !c.includes("trigger"))).toEqual([`settled:M:resolved:1/0:2@-5000:${id}`, "resolve:M:1/0@-5000"]);
  });

  it("a RESOLVED row without payouts yet: nothing (until a later row brings them)", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("M", {}, { status: "RESOLVED", payoutNumerators: null });
    w.emit("M", "row");
    expect(w.take().filter((c) => !c.includes("trigger"))).toEqual([]);
    w.entries.get("M")!.row = { ...w.entries.get("M")!.row, payoutNumerators: ["0", "1"] };
    w.emit("M", "row");
    expect(w.take().filter((c) => c.startsWith("resolve"))).toEqual(["resolve:M:0/1@0"]);
  });

  it.each([
    { name: "at voidedAt", voidedAt: new Date(T0 - 1_000).toISOString(), at: -1_000 },
    { name: "at the clock's time when the row has no voidedAt", voidedAt: null, at: 0 },
  ])("a VOIDED row: voided in the inventory $name, once", async ({ voidedAt, at }) => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("M", {}, { status: "VOIDED", outcomeCount: 3, lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt } });
    w.emit("M", "row");
    w.emit("M", "row");
    const id = w.entries.get("M")!.row.id;
    expect(w.take().filter((c) => !c.includes("trigger"))).toEqual([`settled:M:voided:null:3@${at}:${id}`, `void:M:3@${at}`]);
  });

  it("only a row change looks at settlement", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("M", {}, { status: "VOIDED" });
    w.emit("M", "selected");
    expect(w.take().filter((c) => c.startsWith("void") || c.startsWith("settled"))).toEqual([]);
  });

  it("before start-up has anchored the inventories nothing is settled; settleKnown then settles what is already settled, once", async () => {
    const w = world();
    w.timeline.wire();
    w.add("M", {}, { status: "VOIDED", lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt: new Date(T0 - 2_000).toISOString() } });
    w.emit("M", "row");
    expect(w.take().filter((c) => c.startsWith("void") || c.startsWith("settled"))).toEqual([]);
    await w.timeline.settleKnown();
    w.emit("M", "row");
    const id = w.entries.get("M")!.row.id;
    expect(w.take().filter((c) => c.startsWith("void") || c.startsWith("settled"))).toEqual([`settled:M:voided:null:2@-2000:${id}`, "void:M:2@-2000"]);
  });

  it("settleKnown first follows the markets where shares are held and nothing follows them", async () => {
    const w = world();
    const followed: string[][] = [];
    const reg = (w.timeline as unknown as { p: { registry: MarketRegistry; inventory: Inventory } }).p;
    reg.inventory.positions = (() => [{ marketId: "KNOWN", qty: 1n }, { marketId: "GONE", qty: 2n }, { marketId: "GONE", qty: 3n }, { marketId: "EMPTY", qty: 0n }]) as never;
    (reg.registry as unknown as { followHeld: (s: string[]) => Promise<string[]> }).followHeld = (symbols) => {
      followed.push(symbols);
      w.add("GONE", { selected: false }, { status: "RESOLVED", payoutNumerators: ["1", "0"], lifecycle: { closedAt: null, pausedAt: null, resolvedAt: new Date(T0 - 3_000).toISOString(), voidedAt: null } });
      return Promise.resolve(["GONE"]);
    };
    w.add("KNOWN");
    await w.timeline.settleKnown();
    expect(followed).toEqual([["GONE"]]);
    expect(w.take().filter((c) => c.startsWith("resolve"))).toEqual(["resolve:GONE:1/0@-3000"]);
  });
});

describe("MarketTimeline: phase timers", () => {
  it("at the next boundary (+1 ms): every wallet cycles the market, its row is re-read 1 s later, the next boundary is scheduled", async () => {
    const w = world();
    w.timeline.wire();
    w.add("M");
    w.boundaries.set("M", [T0 + 10_000, T0 + 30_000]);
    w.emit("M", "phase");
    w.take();
    await w.clock.advance(10_000);
    expect(w.take()).toEqual([]);
    await w.clock.advance(1);
    expect(w.take()).toEqual(["w0.trigger:M:phase", "w1.trigger:M:phase"]);
    await w.clock.advance(1_000);
    expect(w.take()).toEqual(["refreshStatus:M"]);
    await w.clock.advance(19_000);
    expect(w.take()).toEqual(["w0.trigger:M:phase", "w1.trigger:M:phase"]);
    await w.clock.advance(1_000);
    expect(w.take()).toEqual(["refreshStatus:M"]);
    // no boundary left: no timer left
    expect(w.clock.pending()).toBe(0);
  });

  it("a boundary further than 6 h is approached in steps, with no cycle on the way", async () => {
    const w = world();
    w.timeline.wire();
    w.add("M");
    const at = T0 + 15 * 3_600_000;
    w.boundaries.set("M", [at]);
    w.emit("M", "phase");
    w.take();
    await w.clock.advanceTo(at);
    expect(w.take()).toEqual([]);
    await w.clock.advance(1);
    expect(w.take()).toEqual(["w0.trigger:M:phase", "w1.trigger:M:phase"]);
    await w.clock.advance(1_000);
    expect(w.take()).toEqual(["refreshStatus:M"]);
    // no boundary left: no timer left
    expect(w.clock.pending()).toBe(0);
  });

  it("a new change replaces the market's timer: one timer per market", async () => {
    const w = world();
    w.timeline.wire();
    w.add("M");
    w.boundaries.set("M", [T0 + 5_000]);
    w.emit("M", "phase");
    w.emit("M", "row");
    w.emit("M", "phase");
    expect(w.clock.pending()).toBe(1);
    w.take();
    await w.clock.advance(5_001);
    expect(w.take()).toEqual(["w0.trigger:M:phase", "w1.trigger:M:phase"]);
  });

  it("once the daemon is stopping no timer is set; clearTimers drops those set", async () => {
    const w = world();
    w.timeline.wire();
    w.add("A");
    w.add("B");
    w.boundaries.set("A", [T0 + 1_000]);
    w.boundaries.set("B", [T0 + 1_000]);
    w.emit("A", "phase");
    w.setActive(false);
    w.emit("B", "phase");
    expect(w.clock.pending()).toBe(1);
    w.timeline.clearTimers();
    expect(w.clock.pending()).toBe(0);
    w.take();
    await w.clock.advance(5_000);
    expect(w.take()).toEqual([]);
  });
});

describe("MarketTimeline.refreshSelection", () => {
  it("the first change is logged at debug, later ones at info; no change, no line", async () => {
    const w = world();
    w.setChange({ added: ["A"] });
    await w.timeline.refreshSelection();
    w.setChange({});
    await w.timeline.refreshSelection();
    w.setChange({ removed: ["A"], moved: ["B"] });
    await w.timeline.refreshSelection();
    expect(w.lines.filter((l) => l.msg === "market selection").map((l) => [l.level, l.added, l.removed, l.moved])).toEqual([
      ["debug", ["A"], [], []],
      ["info", [], ["A"], ["B"]],
    ]);
  });

  it("a deselected market is forgotten (and its phase timer cleared) only when nothing is left there", async () => {
    const w = world();
    w.timeline.wire();
    w.add("SEL");
    for (const s of ["FREE", "HELD", "PAYOUT", "ORDERS", "TIMED"]) w.add(s, { selected: false });
    w.held.set("HELD", 5n);
    w.awaited.add("PAYOUT");
    w.live.set("ORDERS", 1);
    w.boundaries.set("TIMED", [T0 + 1_000]);
    w.emit("TIMED", "phase");
    expect(w.clock.pending()).toBe(1);
    w.take();
    await w.timeline.refreshSelection();
    expect(w.take().filter((c) => c.startsWith("forget"))).toEqual(["forget:FREE", "forget:TIMED"]);
    expect(w.clock.pending()).toBe(0);
    expect([...w.entries.keys()]).toEqual(["SEL", "HELD", "PAYOUT", "ORDERS"]);
  });

  it("shares in a market already settled no longer keep it", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("M", { selected: false }, { status: "VOIDED" });
    w.held.set("M", 5n);
    await w.timeline.refreshSelection();
    expect(w.take().filter((c) => c.startsWith("forget"))).toEqual([]);
    w.emit("M", "row");
    await w.timeline.refreshSelection();
    expect(w.take().filter((c) => c.startsWith("forget"))).toEqual(["forget:M"]);
  });
});

describe("MarketTimeline: the settled markets it remembers", () => {
  const settledSet = (w: ReturnType<typeof world>) => (w.timeline as unknown as { settled: ReadonlySet<string> }).settled;
  const resolved = { status: "RESOLVED" as const, payoutNumerators: ["1", "0"], lifecycle: { closedAt: null, pausedAt: null, resolvedAt: new Date(T0 - 1_000).toISOString(), voidedAt: null } };

  it("are bounded by the markets the registry follows: a settled market is dropped with it, however many settle", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("SEL");
    const N = 500;
    for (let i = 0; i < N; i++) {
      const s = `M${i}`;
      w.add(s, { selected: false }, resolved);
      w.held.set(s, 5n);
      w.emit(s, "row");
      w.emit(s, "row");
      expect(settledSet(w).size).toBeLessThanOrEqual(w.entries.size);
      await w.timeline.refreshSelection();
      expect(w.entries.has(s)).toBe(false);
    }
    const calls = w.take();
    // Each settled once while followed, then forgotten (its shares were settled: nothing kept it).
    expect(calls.filter((c) => c.startsWith("resolve:")).length).toBe(N);
    expect(calls.filter((c) => c.startsWith("settled:")).length).toBe(N);
    expect(calls.filter((c) => c.startsWith("forget:")).length).toBe(N);
    expect(settledSet(w).size).toBe(0);
  });

  it("a settled market whose payout is awaited is kept, and settled once however many rows come; dropped once paid", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("P", { selected: false }, resolved);
    w.held.set("P", 5n);
    w.emit("P", "row");
    // The settlement check awaits the payout (and raises the overdue alert if it is late).
    w.awaited.add("P");
    for (let round = 0; round < 20; round++) {
      await w.timeline.refreshSelection();
      w.emit("P", "row");
    }
    expect(w.entries.has("P")).toBe(true);
    expect([...settledSet(w)]).toEqual(["P"]);
    let calls = w.take();
    expect(calls.filter((c) => c.startsWith("resolve:") || c.startsWith("settled:")).length).toBe(2);
    expect(calls.filter((c) => c.startsWith("forget:"))).toEqual([]);
    w.awaited.delete("P");
    await w.timeline.refreshSelection();
    calls = w.take();
    expect(calls.filter((c) => c.startsWith("forget:"))).toEqual(["forget:P"]);
    expect(settledSet(w).size).toBe(0);
  });
});

describe("MarketTimeline: the inventory's retirement of forgotten markets", () => {
  const resolved = { status: "RESOLVED" as const, payoutNumerators: ["1", "0"], lifecycle: { closedAt: null, pausedAt: null, resolvedAt: new Date(T0 - 1_000).toISOString(), voidedAt: null } };

  it("a forgotten market is handed to the inventory with the daemon's wallets; a busy one is not", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    w.add("DONE", { selected: false }, resolved);
    w.add("BUSY", { selected: false }, resolved);
    w.add("SEL");
    w.emit("DONE", "row");
    w.emit("BUSY", "row");
    w.awaited.add("BUSY");
    await w.timeline.refreshSelection();
    expect(w.retireCalls).toEqual(["DONE:0xw0,0xw1"]);
    w.awaited.delete("BUSY");
    await w.timeline.refreshSelection();
    expect(w.retireCalls).toEqual(["DONE:0xw0,0xw1", "BUSY:0xw0,0xw1"]);
  });

  it("fills the inventory applied to markets it had retired are logged once each, as a warning", async () => {
    const w = world();
    w.timeline.wire();
    await w.timeline.settleKnown();
    const warns = () => w.lines.filter((l) => l.level === "warn" && l.msg.startsWith("fills for markets already retired")).map((l) => [l.fills, l.total]);
    await w.timeline.refreshSelection();
    expect(warns()).toEqual([]);
    w.counters.afterRetirement = 2;
    await w.timeline.refreshSelection();
    await w.timeline.refreshSelection();
    w.counters.afterRetirement = 3;
    await w.timeline.refreshSelection();
    expect(warns()).toEqual([
      [2, 2],
      [1, 3],
    ]);
  });
});

describe("MarketTimeline.quotedMarkets", () => {
  it("selected markets in the open or pre-market phase, with the outcomes whose books they quote from", () => {
    const w = world();
    w.add("OPEN");
    w.add("PRE", {}, { outcomeCount: 3 });
    w.add("PULL");
    w.add("STOPPED");
    w.add("UNSELECTED", { selected: false });
    w.phases.set("PRE", "pre_market");
    w.phases.set("PULL", "pull");
    w.phases.set("STOPPED", "stopped");
    expect(w.timeline.quotedMarkets(T0)).toEqual([
      { symbol: "OPEN", outcomes: [0] },
      { symbol: "PRE", outcomes: [0, 1, 2] },
    ]);
  });
});
