/**
 * The exposure book against its definition: after random sequences of order events (through a real
 * OrderTracker), fills, anchors, settlements and compactions (through a real Inventory), markets
 * followed and dropped, and marks moving, every figure of a snapshot the book hands out equals the
 * snapshot built from scratch (scratchSnapshot), the cycle's own pair laid over it or not, and a
 * snapshot taken earlier still equals what it equalled then (later changes and commits never reach it).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import type { PositionView } from "../../../src/bot/quote/quotes.js";
import type { MarketFigures, RiskSnapshot } from "../../../src/bot/risk/exposure.js";
import { ExposureBook, scratchSnapshot, trackerVersion, type SnapshotContext } from "../../../src/bot/risk/exposure-book.js";
import type { EngineView } from "../../../src/bot/risk/risk-hook.js";
import type { Side } from "../../../src/core/amounts.js";
import type { Micros } from "../../../src/core/money.js";

const WALLETS = ["a", "b", "c"].map((name, i) => ({ name, address: `0x${String(i + 1).repeat(40)}` }));
/** D's positions come without an average cost: valued at the mark, which moves with its book. */
const POOL = ["A", "B", "C", "D"];
const OUTCOMES: Record<string, number> = { A: 2, B: 2, C: 3, D: 2 };

type Op =
  | { k: "place"; w: number; m: number; o: number; side: Side; price: number; size: number; ack: boolean }
  | { k: "ack"; i: number }
  | { k: "fill"; i: number; part: number }
  | { k: "cancel"; i: number; done: boolean }
  | { k: "fillOnly"; w: number; m: number; o: number; side: Side; price: number; qty: number }
  | { k: "follow"; m: number }
  | { k: "mark"; m: number; o: number; price: number }
  | { k: "anchor"; w: number; m: number; o: number; qty: number; avg: number | null }
  | { k: "resolve"; m: number }
  | { k: "compact"; w: number }
  | { k: "check"; ctx: { w: number; m: number; commit: number } | null; keep: boolean };

const w = fc.nat(2);
const mk = fc.nat(3);
const o = fc.nat(2);
const side = fc.constantFrom<Side>("BUY", "SELL");
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant("place" as const), w, m: mk, o, side, price: fc.integer({ min: 1, max: 999 }), size: fc.integer({ min: 1, max: 50 }), ack: fc.boolean() }), weight: 5 },
  { arbitrary: fc.record({ k: fc.constant("ack" as const), i: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("fill" as const), i: fc.nat(), part: fc.integer({ min: 1, max: 100 }) }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant("cancel" as const), i: fc.nat(), done: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant("fillOnly" as const), w, m: mk, o, side, price: fc.integer({ min: 1, max: 999 }), qty: fc.integer({ min: 1, max: 30 }) }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant("follow" as const), m: mk }), weight: 2 },
  // Mostly D's marks: the only ones a figure reads.
  { arbitrary: fc.record({ k: fc.constant("mark" as const), m: fc.oneof(fc.constant(3), mk), o: fc.nat(1), price: fc.integer({ min: 0, max: 999 }) }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant("anchor" as const), w, m: mk, o, qty: fc.integer({ min: 0, max: 40 }), avg: fc.option(fc.integer({ min: 1, max: 999 }), { nil: null }) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("resolve" as const), m: mk }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant("compact" as const), w }), weight: 1 },
  {
    arbitrary: fc.record({ k: fc.constant("check" as const), ctx: fc.option(fc.record({ w, m: mk, commit: fc.nat(500) }), { nil: null }), keep: fc.boolean() }),
    weight: 4,
  },
);

const M = (units: number): Micros => BigInt(units) * 1_000_000n;
const P = (ticks: number): Micros => BigInt(ticks) * 1000n;

/** A world: trackers and an inventory, and the view both snapshots read. */
function world() {
  const trackers = new Map(WALLETS.map((x) => [x.address, new OrderTracker(x.address)]));
  const inv = new Inventory();
  const followed = new Set(["A", "B", "C"]);
  const marks = new Map<string, Micros>();
  const unpriced = (ps: readonly PositionView[], market: string): PositionView[] => ps.map((p) => ({ outcome: p.outcome, qty: p.qty, avgCost: market === "D" ? null : p.avgCost }));
  const view: Pick<EngineView, "markets" | "liveOrders" | "positions" | "mark" | "outcomeCount"> = {
    markets: () => POOL.filter((m) => followed.has(m)),
    liveOrders: (wallet, market) => trackers.get(wallet)!.liveOrders(market),
    positions: (wallet, market) => inv.positions(wallet, market).map((p) => ({ ...p, avgCost: p.marketId === "D" ? null : p.avgCost })),
    mark: (market, outcome) => marks.get(`${market}:${outcome}`),
    outcomeCount: (market) => (followed.has(market) ? OUTCOMES[market] : undefined),
  };
  const ctxOf = (wi: number, mi: number): SnapshotContext => {
    const x = WALLETS[wi]!;
    const market = POOL[mi]!;
    return { wallet: x.address, walletName: x.name, marketId: market, outcomeCount: OUTCOMES[market]!, inventory: unpriced(inv.positionViews(x.address, market), market), live: trackers.get(x.address)!.liveOrders(market) };
  };
  return { trackers, inv, followed, marks, view, ctxOf };
}

type World = ReturnType<typeof world>;

function bookOf(wd: World, perMarket = true): ExposureBook {
  const book = new ExposureBook({
    wallets: WALLETS,
    markets: wd.view.markets,
    outcomeCount: wd.view.outcomeCount,
    mark: wd.view.mark,
    liveOrders: wd.view.liveOrders,
    ordersVersion: (a) => trackerVersion(wd.trackers.get(a)!.counters),
    ...(perMarket ? { liveVersion: (a: string, m: string) => wd.trackers.get(a)!.liveVersion(m) } : {}),
    positions: (a, m) => wd.view.positions(a, m),
    positionMarkets: (a) => new Set(wd.view.positions(a).map((p) => p.marketId)),
  });
  wd.inv.onPositionChange((a, m) => book.positionChanged(a, m));
  return book;
}

/** A new world, nothing placed yet, and a book over it (per-market live versions or the wallet's version only). */
function fresh(perMarket: boolean) {
  const wd = world();
  return { wd, placed: [] as Placed[], clock: { t: Date.UTC(2026, 5, 1), n: 0 }, book: bookOf(wd, perMarket) };
}

/**
 * A fresh book with two acknowledged BUY orders of 10 at 0.400, the first on market 0 (wallet 0),
 * the second on market 1 of wallet `secondWallet`; snapshotted once, and a second snapshot checked
 * to re-read nothing. `first`: the recompute count after it.
 */
function primed(perMarket: boolean, secondWallet: number) {
  const f = fresh(perMarket);
  run(f.wd, [{ k: "place", w: 0, m: 0, o: 0, side: "BUY", price: 400, size: 10, ack: true }, { k: "place", w: secondWallet, m: 1, o: 0, side: "BUY", price: 400, size: 10, ack: true }], f.placed, f.clock);
  f.book.snapshot();
  const first = f.book.recomputed;
  f.book.snapshot();
  expect(f.book.recomputed).toBe(first);
  return { ...f, first };
}

interface Placed {
  cid: string;
  wallet: string;
  market: string;
  outcome: number;
  side: Side;
  price: Micros;
  size: Micros;
  filled: Micros;
  acked: boolean;
}

function run(wd: World, ops: readonly Op[], placed: Placed[], clock: { t: number; n: number }, book?: ExposureBook, kept?: { snap: RiskSnapshot; want: ReturnType<typeof figures> }[]): void {
  for (const x of ops) {
    const t = (clock.t += 1000);
    const n = ++clock.n;
    switch (x.k) {
      case "place": {
        const wallet = WALLETS[x.w]!.address;
        const market = POOL[x.m]!;
        const outcome = x.o % OUTCOMES[market]!;
        const p: Placed = { cid: `c${n}`, wallet, market, outcome, side: x.side, price: P(x.price), size: M(x.size), filled: 0n, acked: false };
        placed.push(p);
        wd.trackers.get(wallet)!.apply({ kind: "sent", clientOrderId: p.cid, orderHash: `0x${n.toString(16).padStart(64, "0")}`, intent: { marketId: market, outcome, side: x.side, price: p.price, size: p.size, postOnly: true }, nowMs: t });
        if (x.ack) ack(wd, p, t);
        break;
      }
      case "ack": {
        const open = placed.filter((p) => !p.acked);
        if (open.length > 0) ack(wd, open[x.i % open.length]!, t);
        break;
      }
      case "fill": {
        const open = placed.filter((p) => p.acked && p.filled < p.size);
        if (open.length === 0) break;
        const p = open[x.i % open.length]!;
        const qty = ((p.size - p.filled) * BigInt(x.part)) / 100n || 1n;
        p.filled += qty;
        wd.trackers.get(p.wallet)!.apply({ kind: "trade", fill: { tradeId: `t${n}`, orderId: `o-${p.cid}`, clientOrderId: p.cid, qty, ts: t } });
        wd.inv.applyFill({ tradeId: `t${n}`, wallet: p.wallet, orderId: `o-${p.cid}`, marketId: p.market, outcome: p.outcome, side: p.side, price: p.price, qty, fee: 0n, ts: t });
        break;
      }
      case "cancel": {
        const open = placed.filter((p) => p.acked);
        if (open.length === 0) break;
        const p = open[x.i % open.length]!;
        const tr = wd.trackers.get(p.wallet)!;
        tr.apply({ kind: "cancel_requested", clientOrderId: p.cid, nowMs: t });
        if (x.done) tr.apply({ kind: "cancel_result", clientOrderId: p.cid, result: { kind: "done", status: "CANCELLED", filledQty: p.filled }, serverTimeMs: t, nowMs: t });
        break;
      }
      case "fillOnly": {
        const market = POOL[x.m]!;
        wd.inv.applyFill({ tradeId: `t${n}`, wallet: WALLETS[x.w]!.address, orderId: `foreign${n}`, marketId: market, outcome: x.o % OUTCOMES[market]!, side: x.side, price: P(x.price), qty: M(x.qty), fee: 0n, ts: t });
        break;
      }
      case "follow": {
        const market = POOL[x.m]!;
        if (!wd.followed.delete(market)) wd.followed.add(market);
        break;
      }
      case "mark":
        if (x.price === 0) wd.marks.delete(`${POOL[x.m]!}:${x.o}`);
        else wd.marks.set(`${POOL[x.m]!}:${x.o}`, P(x.price));
        break;
      case "anchor": {
        const market = POOL[x.m]!;
        wd.inv.anchor(WALLETS[x.w]!.address, t, [{ marketId: market, outcome: x.o % OUTCOMES[market]!, qty: M(x.qty), avgPrice: x.avg === null ? null : P(x.avg) }]);
        break;
      }
      case "resolve": {
        const market = POOL[x.m]!;
        wd.inv.resolve(market, Array.from({ length: OUTCOMES[market]! }, (_, i) => (i === 0 ? 1 : 0)), t);
        break;
      }
      case "compact":
        wd.inv.compact(WALLETS[x.w]!.address, { ts: t - 2500, tradeId: "~" });
        break;
      case "check": {
        if (book === undefined) break;
        const ctx = x.ctx === null ? undefined : wd.ctxOf(x.ctx.w, x.ctx.m);
        const got = book.snapshot(ctx === undefined ? [] : [scratchCtx(wd, ctx)]);
        const want = scratchSnapshot(wd.view, WALLETS, ctx);
        expect(figures(got)).toEqual(figures(want));
        if (ctx !== undefined && x.ctx !== null) {
          // A commit (risk.filter's) changes that snapshot only.
          got.commit(ctx.walletName, ctx.marketId, BigInt(x.ctx.commit) * 1_000_000n);
          want.commit(ctx.walletName, ctx.marketId, BigInt(x.ctx.commit) * 1_000_000n);
          expect(figures(got)).toEqual(figures(want));
        }
        if (x.keep) kept?.push({ snap: got, want: figures(want) });
        for (const k of kept ?? []) expect(figures(k.snap)).toEqual(k.want);
        break;
      }
    }
  }
}

function scratchCtx(wd: World, ctx: SnapshotContext) {
  return scratchSnapshot({ ...wd.view, markets: () => [], positions: () => [], liveOrders: () => [] }, [], ctx).market(ctx.walletName, ctx.marketId)!.exposure;
}

function ack(wd: World, p: Placed, t: number): void {
  p.acked = true;
  wd.trackers.get(p.wallet)!.apply({ kind: "ack", clientOrderId: p.cid, result: { orderId: `o-${p.cid}`, status: "OPEN", filledQty: "0", remainingQty: "0", trades: [] }, serverTimeMs: t });
}

/** Every figure a snapshot answers, over every wallet and market of the pool. */
function figures(s: RiskSnapshot) {
  const one = (f: MarketFigures | undefined) =>
    f === undefined
      ? null
      : {
          positionNotional: f.positionNotional,
          openBuyNotional: f.openBuyNotional,
          cancellingBuyNotional: f.cancellingBuyNotional,
          cancellingBuy: [...f.cancellingBuy].sort(),
          cancellingSell: [...f.cancellingSell].sort(),
          outcomeCount: f.exposure.outcomeCount,
          positions: f.exposure.positions,
          openOrders: f.exposure.openOrders,
        };
  return {
    total: s.totalNotional(),
    wallets: WALLETS.map((x) => s.walletNotional(x.name)),
    markets: WALLETS.flatMap((x) => POOL.map((m) => one(s.market(x.name, m)))),
  };
}

describe("ExposureBook", () => {
  for (const perMarket of [true, false]) {
    it(`after random changes every snapshot equals the one built from scratch, and earlier snapshots never change (${perMarket ? "per-market live versions" : "wallet version only"})`, () => {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 15 }), fc.array(op, { minLength: 1, maxLength: 80 }), (before, after) => {
          const wd = world();
          const placed: Placed[] = [];
          const clock = { t: Date.UTC(2026, 5, 1), n: 0 };
          // Positions and orders from before the book exists (a restart's anchor, adopted orders).
          run(wd, before, placed, clock);
          const book = bookOf(wd, perMarket);
          run(wd, [...after, { k: "check", ctx: null, keep: false }], placed, clock, book, []);
        }),
        { numRuns: 300, seed: 11 },
      );
    });
  }

  it("with per-market live versions an order event re-reads its own market only", () => {
    const { wd, placed, clock, book, first } = primed(true, 0);
    // A partial fill of the order on A: A re-read (its position and its order), not B or C.
    run(wd, [{ k: "fill", i: 0, part: 50 }], placed, clock);
    expect(figures(book.snapshot())).toEqual(figures(scratchSnapshot(wd.view, WALLETS)));
    expect(book.recomputed).toBe(first + 1);
    // A new order on C: C alone.
    run(wd, [{ k: "place", w: 0, m: 2, o: 0, side: "BUY", price: 300, size: 5, ack: false }], placed, clock);
    expect(figures(book.snapshot())).toEqual(figures(scratchSnapshot(wd.view, WALLETS)));
    expect(book.recomputed).toBe(first + 2);
  });

  it("re-reads only what changed: a fill or an order event touches its own wallet, nothing else", () => {
    const { wd, placed, clock, book, first } = primed(false, 1);
    run(wd, [{ k: "fillOnly", w: 2, m: 2, o: 0, side: "BUY", price: 300, qty: 5 }], placed, clock);
    book.snapshot();
    expect(book.recomputed).toBe(first + 1);
    run(wd, [{ k: "fill", i: 0, part: 50 }], placed, clock);
    book.snapshot();
    // The order's wallet: its followed markets (A, B, C) re-read once.
    expect(book.recomputed).toBe(first + 1 + 3);
  });

  it("a cycle's snapshot does not re-read its own pair: the pair laid over it cancels the book's figure out", () => {
    const { wd, placed, clock, book } = fresh(false);
    book.snapshot();
    const first = book.recomputed;
    run(wd, [{ k: "place", w: 0, m: 0, o: 0, side: "BUY", price: 400, size: 10, ack: true }], placed, clock);
    const ctx = wd.ctxOf(0, 0);
    const got = book.snapshot([scratchCtx(wd, ctx)]);
    expect(book.recomputed).toBe(first + 2); // B and C, not A
    expect(figures(got)).toEqual(figures(scratchSnapshot(wd.view, WALLETS, ctx)));
    // A later snapshot without the pair reads it then.
    expect(figures(book.snapshot())).toEqual(figures(scratchSnapshot(wd.view, WALLETS)));
    expect(book.recomputed).toBe(first + 3);
  });
});

describe("ExposureBook marks", () => {
  it("a position valued at the mark follows the mark", () => {
    const wd = world();
    const placed: Placed[] = [];
    const clock = { t: Date.UTC(2026, 5, 1), n: 0 };
    const book = bookOf(wd);
    run(wd, [{ k: "fillOnly", w: 0, m: 3, o: 0, side: "BUY", price: 300, qty: 5 }, { k: "check", ctx: null, keep: false }, { k: "mark", m: 3, o: 0, price: 700 }, { k: "check", ctx: null, keep: false }], placed, clock, book, []);
  });
});
