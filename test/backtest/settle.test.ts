/**
 * A backtest in which markets settle and the daemon takes liquidity (fixtures/settle-*.yaml, six
 * virtual minutes): BT-A closes then resolves YES, BT-B is voided while open (and jumps often, so
 * the non-post-only ladder crosses it: taker fills and fees), BT-M (three outcomes) is voided,
 * BT-N (three outcomes) resolves to its second outcome, BT-C closes after 40 s and stays closed.
 * The report's money figures are checked against an independent decimal.js recomputation from
 * the simulator's raw trades (recompute.ts), its inventory check against the simulator's books,
 * and the settlement, mark-age and shutdown facts against the simulator directly.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "../../src/core/money.js";
import { formatSummary, runBacktest, STALE_MARK_MS, type BacktestReport } from "../../src/backtest/index.js";
import { capture, recompute, type RawCapture } from "./recompute.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(HERE, "fixtures", "settle-config.yaml");

let r: BacktestReport;
let raw: RawCapture;
let simOpenOrders: number[] = [];
let settlementCancels = 0;

beforeAll(async () => {
  r = await runBacktest({
    configPath: CONFIG,
    durationMs: 6 * 60_000,
    onFinish: ({ daemon, sim }) => {
      const wallets = daemon.runners.map((w) => w.wallet);
      raw = capture(sim, wallets);
      simOpenOrders = wallets.map((w) => sim.engine.openOrders(w).length);
      const ours = new Set(wallets.map((w) => w.toLowerCase()));
      for (const s of sim.settlements.values()) settlementCancels += s.cancelled.filter((o) => ours.has(o.wallet.toLowerCase())).length;
    },
  });
}, 60_000);

const market = (id: string): BacktestReport["markets"][number] => {
  const m = r.markets.find((x) => x.marketId === id);
  if (m === undefined) throw new Error(`no market ${id} in the report`);
  return m;
};

describe("a backtest with settlements and taker fills", () => {
  it("finishes cleanly, with every check passing", () => {
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.consistency.ok).toBe(true);
    for (const w of r.wallets) {
      expect(w.inventoryCheck.ok).toBe(true);
      expect(w.inventoryCheck.cashDifference).toBe("0");
      expect(w.inventoryCheck.positionDifferenceCount).toBe(0);
      expect(w.platformCheck?.ok).toBe(true);
    }
  });

  it("settles a resolved, a voided and two three-outcome markets at their payout", () => {
    expect(market("BT-A")).toMatchObject({ status: "RESOLVED", outcomeCount: 2, mark: { source: "resolution", prices: ["1", "0"], stale: false } });
    expect(market("BT-B")).toMatchObject({ status: "VOIDED", mark: { source: "void", prices: ["0.5", "0.5"] } });
    expect(market("BT-M")).toMatchObject({ status: "VOIDED", outcomeCount: 3, mark: { source: "void", prices: ["0.333333", "0.333333", "0.333333"] } });
    expect(market("BT-N")).toMatchObject({ status: "RESOLVED", outcomeCount: 3, mark: { source: "resolution", prices: ["0", "1", "0"] } });
    expect(market("BT-A").mark.asOf).toBe("2026-03-02T09:03:00.000Z");
    expect(market("BT-M").mark.asOf).toBe("2026-03-02T09:04:00.000Z");
    for (const id of ["BT-A", "BT-B", "BT-M", "BT-N"]) {
      const m = market(id);
      expect(m.figures.fills.count, id).toBeGreaterThan(0);
      // Settled: nothing held, everything realised.
      expect(m.figures.grossFinalShares, id).toBe("0");
      expect(m.figures.pnl.unrealised, id).toBe("0");
    }
  });

  it("took liquidity: taker fills paying fees", () => {
    expect(r.totals.fills.taker).toBeGreaterThan(10);
    expect(market("BT-B").figures.fills.taker).toBeGreaterThan(10);
    expect(parseMicros(r.totals.pnl.fees)).toBeGreaterThan(0n);
  });

  it("matches an independent decimal.js recomputation from the simulator's raw trades", () => {
    const x = recompute(raw);
    expect(x.totals.fills).toBe(r.totals.fills.count);
    expect(x.totals.taker).toBe(r.totals.fills.taker);
    expect({ realised: x.totals.realised, unrealised: x.totals.unrealised, fees: x.totals.fees }).toEqual({
      realised: r.totals.pnl.realised,
      unrealised: r.totals.pnl.unrealised,
      fees: r.totals.pnl.fees,
    });
    for (const m of r.markets) {
      const mine = x.markets.get(m.marketId);
      expect(mine, m.marketId).toBeDefined();
      expect({ realised: mine!.realised, unrealised: mine!.unrealised, fees: mine!.fees, fills: mine!.fills }, m.marketId).toEqual({
        realised: m.figures.pnl.realised,
        unrealised: m.figures.pnl.unrealised,
        fees: m.figures.pnl.fees,
        fills: m.figures.fills.count,
      });
      const marks = x.marks.get(m.marketId);
      if (marks !== undefined) expect(m.mark.prices, m.marketId).toEqual(marks);
    }
    for (const w of r.wallets) {
      expect(x.cash.get(w.address), w.name).toBe(w.inventoryCheck.platformCashDelta);
      expect(x.cash.get(w.address), w.name).toBe(w.inventoryCheck.inventoryCashDelta);
    }
  });

  it("dates the mark of a market that closed and never resolved, and flags it as stale", () => {
    const c = market("BT-C");
    expect(c.status).toBe("CLOSED");
    expect(c.mark.source).toBe("book_mid");
    expect(c.mark.asOf).toBe("2026-03-02T09:00:40.000Z");
    expect(c.mark.ageMs).toBe(6 * 60_000 - 40_000);
    expect(c.mark.ageMs!).toBeGreaterThan(STALE_MARK_MS);
    expect(c.mark.stale).toBe(true);
    expect(c.figures.grossFinalShares).not.toBe("0");
    expect(r.warnings.some((w) => w.startsWith("market BT-C (CLOSED): held position(s) valued at a book_mid mark"))).toBe(true);
    expect(formatSummary(r)).toMatch(/^BT-C .*book_mid \(5m old\)$/m);
    // The sensitivity figure at the hidden fair value is labelled as such.
    expect(r.atFairValue.note).toMatch(/HIDDEN fair value .*not a market price/);
    expect(c.atFairValue).not.toBeNull();
  });

  it("counts the orders the platform cancelled on settlement and checks the book is empty after shutdown", () => {
    expect(r.totals.orders.cancelledBySettlement).toBe(settlementCancels);
    expect(simOpenOrders.every((n) => n === 0)).toBe(true);
    for (const w of r.run.shutdown.wallets) expect(w.platformOpenOrders).toBe(0);
  });

  it("reports halts and drift in the report and the summary without failing the run", () => {
    const raised = r.events.halts.filter((h) => h.action === "raised").length;
    expect(r.events.haltSummary.reduce((n, h) => n + h.raised, 0)).toBe(raised);
    const text = formatSummary(r);
    expect(text).toMatch(/^halts: /m);
    expect(text).toMatch(/^drift: .*reconciliation \d+ check\(s\)/m);
    expect(text).toContain("inventory check OK");
    for (const h of r.events.haltSummary) expect(text).toContain(`${h.reason} ${h.raised} raised`);
  });

  it("does not take a settlement the daemon has not read yet for inventory drift (no reconciliation_drift halt)", () => {
    expect(r.events.haltSummary.filter((h) => h.reason === "reconciliation_drift")).toEqual([]);
  });
});
