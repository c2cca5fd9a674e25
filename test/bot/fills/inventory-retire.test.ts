/**
 * Retirement of settled markets from the inventory (inventory.ts, "Retirement"): once a settled
 * market can change no more, its positions are forgotten and folded into the wallet's retired
 * totals. Every figure is compared, exactly (bigint equality), with a control inventory fed the same
 * facts that never retires anything.
 */
import { describe, expect, it } from "vitest";
import { compactWallet } from "../../../src/bot/fills/fill-compaction.js";
import { FillLedger, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory, RETIRED_MARKET, type InventoryFill, type Marks } from "../../../src/bot/fills/inventory.js";
import { ONE, formatMicros, parseMicros, type Micros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import type { Balances, Position } from "../../../src/wire/portfolio.js";

const m = parseMicros;
const W1 = "0x" + "ab".repeat(20);
const W2 = "0x" + "cd".repeat(20);
const WALLETS = [W1, W2];
const SETTLED_AT = 10_000;
/** Every fill of the scenarios is at or below it: compaction folds them all. */
const WATERMARK = { ts: 20_000, tradeId: "t~" };

/** Apply the same call to both inventories. */
function both(a: Inventory, b: Inventory, fn: (inv: Inventory) => void): void {
  fn(a);
  fn(b);
}

function marksOf(prices: Record<string, Micros>): Marks {
  return (market, outcome) => {
    const p = prices[market];
    if (p === undefined) return undefined;
    return outcome === 0 ? p : outcome === 1 ? ONE - p : undefined;
  };
}

/** What the platform would list: the control inventory's non-zero positions. */
function platformOf(inv: Inventory, wallet: string): Position[] {
  return inv
    .positions(wallet)
    .filter((p) => p.qty !== 0n)
    .map((p) => ({ marketId: p.marketId, tokenId: String(p.outcome), outcome: p.outcome, quantity: formatMicros(p.qty), locked: "0", avgPrice: null }));
}

const balances = (wallet: string, total: Micros): Balances => ({ walletAddress: wallet, vaultAddress: wallet, collateral: { total: formatMicros(total), locked: "0", available: formatMicros(total) } });

/** Every figure a report reads of a wallet, in exact micros. */
function figures(inv: Inventory, wallet: string, marks: Marks, platform: readonly Position[], platformCash: Micros) {
  const positions = inv.positions(wallet);
  const sum = (k: "realisedPnl" | "fees" | "payout" | "fillsAfterSettlement") => positions.reduce((a, p) => a + BigInt(p[k]), 0n);
  // The metrics' way (engine-state.ts): per-market pnl over the markets positions() lists.
  const markets = [...new Set(positions.map((p) => p.marketId))];
  const perMarket = markets.map((mk) => inv.pnl(wallet, marks, mk));
  return {
    pnl: inv.pnl(wallet, marks),
    cashDelta: inv.cashDelta(wallet),
    expectedCash: inv.expectedCash(wallet),
    positionSums: { realised: sum("realisedPnl"), fees: sum("fees"), payout: sum("payout"), afterSettlement: sum("fillsAfterSettlement") },
    // Holdings (a position reopened after retirement carries only its new part of fees and realised PnL).
    held: positions.filter((p) => p.qty !== 0n).map((p) => ({ market: p.marketId, outcome: p.outcome, qty: p.qty, avgCost: p.avgCost, costBasis: p.costBasis, settled: p.settled })),
    perMarketSums: {
      realised: perMarket.reduce((a, p) => a + p.realised, 0n),
      unrealised: perMarket.reduce((a, p) => a + p.unrealised, 0n),
      fees: perMarket.reduce((a, p) => a + p.fees, 0n),
      net: perMarket.reduce((a, p) => a + p.net, 0n),
    },
    drift: inv.checkAgainst(wallet, platform, balances(wallet, platformCash)),
  };
}

function expectSameFigures(a: Inventory, b: Inventory, marks: Marks): void {
  for (const w of WALLETS) {
    const platform = platformOf(b, w);
    const cash = b.expectedCash(w)!;
    expect(figures(a, w, marks, platform, cash)).toEqual(figures(b, w, marks, platform, cash));
    // A platform off by one micro of cash and one share is reported identically too.
    const off = [...platform, { marketId: "M0", tokenId: "0", outcome: 0, quantity: "1", locked: "0", avgPrice: null }];
    expect(figures(a, w, marks, off, cash - 1n).drift).toEqual(figures(b, w, marks, off, cash - 1n).drift);
  }
}

/** Random fills over six markets (M5 with three outcomes), two wallets, few orders (cash rounding per order). */
function randomFills(rng: Rng, n: number): InventoryFill[] {
  const out: InventoryFill[] = [];
  for (let i = 0; i < n; i++) {
    const market = rng.int(6);
    out.push({
      tradeId: `t${String(i).padStart(4, "0")}`,
      wallet: WALLETS[rng.int(2)]!,
      orderId: `o${rng.int(12)}`,
      marketId: `M${market}`,
      outcome: rng.int(market === 5 ? 3 : 2),
      side: rng.bool(0.6) ? "BUY" : "SELL",
      price: BigInt(10 + rng.int(981)) * 1_000n + BigInt(rng.int(1000)),
      qty: BigInt(1 + rng.int(40_000_000)),
      fee: BigInt(rng.int(20_000)),
      ts: 1_000 + i * 10,
    });
  }
  return out;
}

/** Two inventories anchored alike (cash, and a held position in M1). */
function pair(opts: { retiredMemory?: number } = {}): { a: Inventory; b: Inventory } {
  const a = new Inventory(opts);
  const b = new Inventory(opts);
  both(a, b, (inv) => {
    inv.anchor(W1, 500, [{ marketId: "M1", outcome: 1, qty: m("7.5"), avgPrice: m("0.3") }], m("1000"));
    inv.anchor(W2, 500, [], m("250"));
  });
  return { a, b };
}

/** Settle M0..M4 (M4 voided), compact everything, cover past the settlement. */
function settleAndCompact(a: Inventory, b: Inventory, nums: readonly (readonly bigint[])[]): void {
  both(a, b, (inv) => {
    for (let i = 0; i < 4; i++) inv.resolve(`M${i}`, nums[i]!, SETTLED_AT);
    inv.voidMarket("M4", 2, SETTLED_AT);
    for (const w of WALLETS) inv.compact(w, WATERMARK);
    for (const w of WALLETS) inv.coveredUntil(w, WATERMARK.ts + 1);
  });
}

const NUMS = [[1n, 0n], [0n, 1n], [1n, 1n], [2n, 1n], [3n, 5n]] as const;

describe("Inventory retirement: figures unchanged to the micro", () => {
  it("fills in several markets that settle: every wallet figure equal before and after forgetting (50 seeds)", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const rng = new Rng(seed);
      const { a, b } = pair();
      const fills = randomFills(rng, 80);
      // Delivered out of order (refolds), the same to both.
      const order = fills.map((_, i) => i).sort(() => rng.float() - 0.5);
      for (const i of order) both(a, b, (inv) => void inv.applyFill(fills[i]!));
      const nums = [0, 1, 2, 3].map(() => NUMS[rng.int(NUMS.length)]!);
      settleAndCompact(a, b, nums);
      const marks = marksOf({ M5: m("0.37") });
      const before = WALLETS.map((w) => figures(a, w, marks, platformOf(b, w), b.expectedCash(w)!));
      const state = a.marketState;
      for (let i = 0; i < 5; i++) expect(a.retireWhenSafe(`M${i}`, WALLETS), `seed ${seed} M${i}`).toBe(true);
      // Forgotten: only M5's positions remain, the settlements are gone.
      expect(a.marketState.positions).toBe(a.positions().filter((p) => p.marketId === "M5").length);
      expect(a.marketState.positions).toBeLessThan(state.positions);
      expect(a.marketState.settlements).toBe(0);
      expect(a.counters.retiredMarkets).toBe(5);
      for (let i = 0; i < 5; i++) expect(a.positions(undefined, `M${i}`)).toEqual([]);
      expectSameFigures(a, b, marks);
      expect(a.positions(undefined, "M5")).toEqual(b.positions(undefined, "M5"));
      // The same figures as the retiring inventory itself showed before.
      expect(WALLETS.map((w) => figures(a, w, marks, platformOf(b, w), b.expectedCash(w)!)).map((f) => ({ ...f, drift: undefined }))).toEqual(
        before.map((f) => ({ ...f, drift: undefined })),
      );
    }
  });

  it("the retired positions are listed as one flat settled position per wallet, whose sums are the forgotten ones'", () => {
    const { a, b } = pair();
    const fills = randomFills(new Rng(7), 60);
    for (const f of fills) both(a, b, (inv) => void inv.applyFill(f));
    settleAndCompact(a, b, NUMS.slice(0, 4));
    for (let i = 0; i < 5; i++) a.retireWhenSafe(`M${i}`, WALLETS);
    for (const w of WALLETS) {
      const gone = b.positions(w).filter((p) => p.marketId !== "M5");
      const [row] = a.positions(w, RETIRED_MARKET);
      expect(row).toEqual({
        wallet: w,
        marketId: RETIRED_MARKET,
        outcome: 0,
        qty: 0n,
        avgCost: null,
        costBasis: 0n,
        realisedPnl: gone.reduce((x, p) => x + p.realisedPnl, 0n),
        fees: gone.reduce((x, p) => x + p.fees, 0n),
        payout: gone.reduce((x, p) => x + p.payout, 0n),
        settled: true,
        fillsAfterSettlement: 0,
      });
      expect(a.retiredTotals(w)).toMatchObject({ fees: row!.fees, payout: row!.payout, positions: gone.length, markets: new Set(gone.map((p) => p.marketId)).size });
      // The unsettled market is untouched.
      expect(a.positions(w, "M5")).toEqual(b.positions(w, "M5"));
    }
  });
});

describe("Inventory retirement: only when nothing can change the market any more", () => {
  const setup = () => {
    const { a, b } = pair();
    const fill = (over: Partial<InventoryFill>): InventoryFill => ({ tradeId: "t1", wallet: W1, orderId: "o1", marketId: "M0", outcome: 0, side: "BUY", price: m("0.4"), qty: m("10"), fee: m("0.01"), ts: 1_000, ...over });
    both(a, b, (inv) => {
      inv.applyFill(fill({}));
      inv.applyFill(fill({ tradeId: "t2", wallet: W2, orderId: "o2", outcome: 1, price: m("0.55"), qty: m("3.333333"), ts: 1_100 }));
      inv.resolve("M0", [1n, 0n], SETTLED_AT);
    });
    return { a, b, fill };
  };

  it("a market not settled is not retired, nor remembered", () => {
    const { a } = pair();
    a.applyFill({ tradeId: "t1", wallet: W1, orderId: "o1", marketId: "OPEN", outcome: 0, side: "BUY", price: m("0.4"), qty: m("1"), fee: 0n, ts: 1_000 });
    a.compact(W1, WATERMARK);
    for (const w of WALLETS) a.coveredUntil(w, WATERMARK.ts + 1);
    expect(a.retireWhenSafe("OPEN", WALLETS)).toBe(false);
    expect(a.retiring("OPEN")).toBe(false);
    expect(a.positions(W1, "OPEN")).toHaveLength(1);
  });

  it("waits for: fills folded, every wallet covered past the settlement, the payout; then retires at the next coverage", () => {
    const { a, b } = setup();
    // Fills not compacted yet.
    expect(a.retireWhenSafe("M0", WALLETS)).toBe(false);
    expect(a.retiring("M0")).toBe(true);
    both(a, b, (inv) => {
      inv.compact(W1, WATERMARK);
      inv.compact(W2, WATERMARK);
    });
    // W1 covered past the settlement, W2 not yet: a fill of W2 stamped before it could still come.
    both(a, b, (inv) => inv.coveredUntil(W1, SETTLED_AT + 1));
    both(a, b, (inv) => inv.coveredUntil(W2, SETTLED_AT));
    expect(a.positions(undefined, "M0")).toHaveLength(2);
    // A wallet of the daemon this inventory has heard nothing of blocks it too.
    const W3 = "0x" + "ef".repeat(20);
    expect(a.retireWhenSafe("M0", [...WALLETS, W3])).toBe(false);
    both(a, b, (inv) => inv.coveredUntil(W2, SETTLED_AT + 1));
    expect(a.positions(undefined, "M0")).toHaveLength(2);
    both(a, b, (inv) => inv.coveredUntil(W3, SETTLED_AT + 1));
    expect(a.counters.retiredMarkets).toBe(1);
    expect(a.positions(undefined, "M0")).toEqual([]);
    expect(a.retiring("M0")).toBe(false);
    expectSameFigures(a, b, marksOf({}));
  });

  it("an awaited payout (or losing shares still listed) keeps the market until it arrives", () => {
    const { a, b } = setup();
    both(a, b, (inv) => {
      inv.awaitPayout(W1, "M0", m("10"));
      inv.awaitPayout(W2, "M0", 0n);
      for (const w of WALLETS) inv.compact(w, WATERMARK);
      for (const w of WALLETS) inv.coveredUntil(w, WATERMARK.ts + 1);
    });
    expect(a.retireWhenSafe("M0", WALLETS)).toBe(false);
    both(a, b, (inv) => inv.payoutArrived(W1, "M0"));
    both(a, b, (inv) => inv.coveredUntil(W1, WATERMARK.ts + 2));
    expect(a.positions(undefined, "M0")).toHaveLength(2);
    both(a, b, (inv) => inv.payoutArrived(W2, "M0"));
    both(a, b, (inv) => inv.coveredUntil(W1, WATERMARK.ts + 3));
    expect(a.positions(undefined, "M0")).toEqual([]);
    expectSameFigures(a, b, marksOf({}));
  });

  it("a position not flat after the settlement (a fill stamped after it) keeps the market", () => {
    const { a, b, fill } = setup();
    both(a, b, (inv) => {
      inv.applyFill(fill({ tradeId: "t3", orderId: "o3", ts: SETTLED_AT + 5 }));
      for (const w of WALLETS) inv.compact(w, WATERMARK);
      for (const w of WALLETS) inv.coveredUntil(w, WATERMARK.ts + 1);
    });
    expect(a.retireWhenSafe("M0", WALLETS)).toBe(false);
    expect(a.positions(W1, "M0")[0]).toMatchObject({ qty: m("10"), settled: true, fillsAfterSettlement: 1 });
    expectSameFigures(a, b, marksOf({ M0: m("0.5") }));
  });
});

describe("Inventory retirement: what still arrives for a forgotten market", () => {
  const retired = () => {
    const { a, b } = pair();
    const fill = (over: Partial<InventoryFill>): InventoryFill => ({ tradeId: "t1", wallet: W1, orderId: "o1", marketId: "M0", outcome: 0, side: "BUY", price: m("0.4"), qty: m("10"), fee: m("0.01"), ts: 1_000, ...over });
    both(a, b, (inv) => {
      inv.applyFill(fill({}));
      inv.applyFill(fill({ tradeId: "t2", orderId: "o1", side: "SELL", price: m("0.45"), qty: m("4.000001"), ts: 1_050 }));
      inv.resolve("M0", [0n, 1n], SETTLED_AT);
      for (const w of WALLETS) inv.compact(w, WATERMARK);
      for (const w of WALLETS) inv.coveredUntil(w, WATERMARK.ts + 1);
    });
    expect(a.retireWhenSafe("M0", WALLETS)).toBe(true);
    return { a, b, fill };
  };

  it("a fill delivered again (stamped before the settlement, so at or below the watermark) is a duplicate", () => {
    const { a, b, fill } = retired();
    for (const inv of [a, b]) {
      expect(inv.applyFill(fill({}))).toBe(false);
      expect(inv.applyFill(fill({ tradeId: "t9", orderId: "o9", ts: SETTLED_AT - 1 }))).toBe(false);
    }
    expect(a.counters.duplicates).toBe(2);
    expect(a.positions(undefined, "M0")).toEqual([]);
    expectSameFigures(a, b, marksOf({}));
  });

  it("a fill stamped after the settlement gets the settlement back, is counted, and folds as if nothing was forgotten", () => {
    const { a, b, fill } = retired();
    const late = fill({ tradeId: "t99", orderId: "o99", side: "SELL", qty: m("2.5"), price: m("0.3"), fee: m("0.002"), ts: WATERMARK.ts + 100 });
    both(a, b, (inv) => void inv.applyFill(late));
    expect(a.counters.afterRetirement).toBe(1);
    expect(b.counters.afterRetirement).toBe(0);
    const [p] = a.positions(W1, "M0");
    const [q] = b.positions(W1, "M0");
    // Same holding and fold; the forgotten part (fees, realised, payout, anomaly count) is in the retired row.
    expect(p).toMatchObject({ qty: q!.qty, avgCost: q!.avgCost, costBasis: q!.costBasis, settled: true, fillsAfterSettlement: 1 });
    expect(q!.fillsAfterSettlement).toBe(1);
    expectSameFigures(a, b, marksOf({ M0: m("0.2") }));
    // It stays (a short position on a settled market: the drift check and /status show it).
    for (const w of WALLETS) a.coveredUntil(w, WATERMARK.ts + 1_000);
    expect(a.positions(W1, "M0")).toHaveLength(1);
  });

  it("a drift check naming a forgotten market reports exactly what it reported before", () => {
    const { a, b } = retired();
    const anchored: Position = { marketId: "M1", tokenId: "1", outcome: 1, quantity: "7.5", locked: "0", avgPrice: null };
    const listed: Position[] = [{ marketId: "M0", tokenId: "0", outcome: 0, quantity: "6", locked: "0", avgPrice: null }, anchored];
    const ra = a.checkAgainst(W1, listed, balances(W1, b.expectedCash(W1)!));
    const rb = b.checkAgainst(W1, listed, balances(W1, b.expectedCash(W1)!));
    expect(ra).toEqual(rb);
    expect(ra.positions).toEqual([{ wallet: W1, marketId: "M0", outcome: 0, ours: 0n, theirs: m("6"), diff: m("6") }]);
    expect(a.checkAgainst(W1, [anchored], balances(W1, b.expectedCash(W1)!))).toEqual({ positions: [], clean: true });
  });

  it("remembers only the last `retiredMemory` settlements; an older market's late fill opens a position with the same figures", () => {
    const { a, b } = pair({ retiredMemory: 2 });
    const fill = (market: string, over: Partial<InventoryFill> = {}): InventoryFill => ({ tradeId: `t-${market}`, wallet: W1, orderId: `o-${market}`, marketId: market, outcome: 0, side: "BUY", price: m("0.4"), qty: m("10"), fee: m("0.01"), ts: 1_000, ...over });
    for (const k of ["A", "B", "C"]) {
      both(a, b, (inv) => {
        inv.applyFill(fill(k));
        inv.resolve(k, [1n, 0n], SETTLED_AT);
        for (const w of WALLETS) inv.compact(w, WATERMARK);
        for (const w of WALLETS) inv.coveredUntil(w, WATERMARK.ts + 1);
      });
      expect(a.retireWhenSafe(k, WALLETS)).toBe(true);
    }
    expect(a.marketState.retiredRemembered).toBe(2);
    both(a, b, (inv) => void inv.applyFill(fill("A", { tradeId: "late-A", orderId: "late-A", ts: WATERMARK.ts + 5 })));
    both(a, b, (inv) => void inv.applyFill(fill("C", { tradeId: "late-C", orderId: "late-C", ts: WATERMARK.ts + 6 })));
    // C was remembered: counted, settled. A was not: a plain position (same quantities and money).
    expect(a.counters.afterRetirement).toBe(1);
    expect(a.positions(W1, "C")[0]).toMatchObject({ settled: true, fillsAfterSettlement: 1 });
    expect(a.positions(W1, "A")[0]).toMatchObject({ settled: false, fillsAfterSettlement: 0, qty: m("10") });
    const marks = marksOf({ A: m("0.9"), C: m("0.1") });
    for (const w of WALLETS) {
      expect(a.pnl(w, marks)).toEqual(b.pnl(w, marks));
      expect(a.cashDelta(w)).toBe(b.cashDelta(w));
    }
  });
});

describe("Inventory retirement: bounded over many settle / forget rounds", () => {
  it("2,000 daily markets traded, settled, paid and forgotten: the per-market state stays bounded, the figures exact", () => {
    const { a, b } = pair({ retiredMemory: 16 });
    const rng = new Rng(42);
    const ROUNDS = 2_000;
    const DAY = 86_400_000;
    let peak = 0;
    for (let d = 0; d < ROUNDS; d++) {
      const t0 = 1_000 + d * DAY;
      const market = `DAY-${d}`;
      const fills: InventoryFill[] = [];
      for (let i = 0; i < 6; i++) {
        fills.push({
          tradeId: `d${d}-${i}`,
          wallet: WALLETS[i % 2]!,
          orderId: `d${d}-o${i % 3}`,
          marketId: market,
          outcome: rng.int(2),
          side: i < 4 ? "BUY" : "SELL",
          price: BigInt(100 + rng.int(800)) * 1_000n + BigInt(rng.int(1000)),
          qty: BigInt(1 + rng.int(5_000_000)),
          fee: BigInt(rng.int(5_000)),
          ts: t0 + i * 1_000,
        });
      }
      const settledAt = t0 + 3_600_000;
      const nums = rng.bool() ? [1n, 0n] : [0n, 1n];
      both(a, b, (inv) => {
        for (const f of fills) inv.applyFill(f);
        inv.resolve(market, nums, settledAt);
        for (const w of WALLETS) inv.awaitPayout(w, market, 1n);
      });
      // The daemon forgets the market while its payout is awaited? No: it keeps it (payoutAwaited);
      // here the inventory is told anyway, and waits.
      expect(a.retireWhenSafe(market, WALLETS)).toBe(false);
      both(a, b, (inv) => {
        for (const w of WALLETS) inv.payoutArrived(w, market);
        // The next day's sync: compaction folds the day, the cut is past the settlement.
        for (const w of WALLETS) inv.compact(w, { ts: settledAt + 1, tradeId: "~" });
        for (const w of WALLETS) inv.coveredUntil(w, settledAt + 2);
      });
      peak = Math.max(peak, a.marketState.positions);
      // Only the anchored M1 position is left (its market never settles here).
      expect(a.marketState).toEqual({ positions: 1, pairs: 1, settlements: 0, releasing: 0, retiredRemembered: Math.min(d + 1, 16) });
    }
    expect(a.positions().filter((p) => p.marketId !== RETIRED_MARKET).map((p) => p.marketId)).toEqual(["M1"]);
    expect(a.counters.retiredMarkets).toBe(ROUNDS);
    // The control grew by a position (or more) per market.
    expect(b.marketState.positions).toBeGreaterThanOrEqual(ROUNDS);
    expect(b.marketState.settlements).toBe(ROUNDS);
    expect(peak).toBe(1);
    expect(a.held.fills).toBe(0);
    expectSameFigures(a, b, marksOf({ M1: m("0.5") }));
  });
});

describe("Inventory retirement through compactWallet", () => {
  const HOUR = 3_600_000;
  const tuning = { fillRetentionMs: HOUR, tradePullMarginMs: 5_000 };

  function run(keep: boolean): Inventory {
    const ledger = new FillLedger({ keepCompacted: keep });
    const inv = new Inventory();
    const fill: Fill = { tradeId: "t1", wallet: W1, orderId: "o1", marketId: "M0", outcome: 0, side: "BUY", price: m("0.4"), qty: m("10"), fee: 0n, role: "maker", ts: 1_000, source: "trades_pull" };
    ledger.beginPull(W1);
    inv.applyLedgerResult(ledger.add(fill));
    ledger.endPull(W1);
    inv.resolve("M0", [1n, 0n], 2_000);
    inv.retireWhenSafe("M0", [W1]);
    // A later complete pull moves the coverage on: the cut passes the settlement.
    ledger.beginPull(W1);
    inv.applyLedgerResult(ledger.add({ ...fill, tradeId: "t2", marketId: "M1", ts: 3 * HOUR }));
    ledger.endPull(W1);
    compactWallet(ledger, inv, W1, 3 * HOUR, tuning);
    return inv;
  }

  it("a daemon's ledger says how far it is covered: the settled market is retired", () => {
    const inv = run(false);
    expect(inv.positions(undefined, "M0")).toEqual([]);
    expect(inv.counters.retiredMarkets).toBe(1);
  });

  it("a ledger that keeps every compacted record (backtests: reports list every market) retires nothing", () => {
    const inv = run(true);
    expect(inv.positions(undefined, "M0")).toHaveLength(1);
    expect(inv.retiring("M0")).toBe(true);
    expect(inv.counters.retiredMarkets).toBe(0);
  });
});

describe("Inventory options", () => {
  it("rejects a retiredMemory that is not a non-negative integer", () => {
    expect(() => new Inventory({ retiredMemory: -1 })).toThrow(/retiredMemory/);
    expect(() => new Inventory({ retiredMemory: 1.5 })).toThrow(/retiredMemory/);
    expect(() => new Inventory().coveredUntil(W1, Number.NaN)).toThrow(/coveredUntil/);
  });
});
