/**
 * The text `mm backtest` prints (summary.ts), from a hand-made report: the run facts, one row per
 * market and a total row (money at two decimals, signed where it is a gain or loss, uptime rounded
 * down to a tenth of a percent, an old mark's age), the fair-value line, orders, drawdown and
 * markouts from the series, the checks passed, failed or skipped, warnings and problems; the
 * borderless table; and the progress lines on a pipe with the time left.
 */
import { describe, expect, it } from "vitest";
import type { SeriesReport } from "../../src/backtest/series.js";
import { formatSummary, labelsOf, progressReporter, remainingText, seriesLines, textTable } from "../../src/backtest/summary.js";
import type { BacktestReport, MarketFigures, PlatformCheck, WalletReport } from "../../src/backtest/types.js";

function figures(marketId: string, over: { fills: [number, number, number]; volume: string; fees: string; realised: string; unrealised: string; net: string; inventory: [number, string][]; uptime: string | null }): MarketFigures {
  const [count, maker, taker] = over.fills;
  return {
    marketId,
    fills: { count, maker, taker, unknownRole: 0, boughtShares: "0", soldShares: "0", buyNotional: "0", sellNotional: "0", volume: over.volume },
    orders: { placed: 0, cancelled: 0, cancelTooLate: 0, cancelledBySettlement: 0, rejected: {}, rejectedTotal: 0, unknown: 0 },
    pnl: { fees: over.fees, realised: over.realised, unrealised: over.unrealised, net: over.net, unmarked: 0 },
    inventory: over.inventory.map(([outcome, final]) => ({ outcome, final, maxAbs: final, avgCost: null })),
    grossFinalShares: "0",
    quoteUptime: over.uptime,
  };
}

const A = figures("BT-A", { fills: [12, 7, 5], volume: "4.567", fees: "0.005", realised: "1.234", unrealised: "-0.5", net: "0.729", inventory: [[0, "10"], [1, "0"]], uptime: "0.9995" });
const B = figures("BT-B", { fills: [1, 1, 0], volume: "0.4", fees: "0", realised: "0", unrealised: "-0.1", net: "-0.1", inventory: [[1, "-2.5"]], uptime: null });

function wallet(name: string, check: PlatformCheck | null, skipped?: string): WalletReport {
  return {
    name,
    address: "0x00000000000000000000000000000000000000aa",
    markets: [],
    totals: { fills: A.fills, orders: A.orders, pnl: A.pnl, grossFinalShares: "0" },
    inventoryCheck: { inventoryCashDelta: "0", platformCashDelta: "0", cashDifference: "0", positionsCompared: 0, positionDifferences: [], positionDifferenceCount: 0, ok: true },
    platformCheck: check,
    ...(skipped === undefined ? {} : { platformCheckSkipped: skipped }),
  };
}

const SERIES = {
  horizonsMs: [1_000, 30_000, 60_000, 300_000],
  markets: [{ marketId: "BT-A", labels: ["Yes", "No"] }],
  drawdown: { max: "1.234", at: null, peakAt: null },
  pnlDecomposition: { spreadCaptured: "0.5", inventoryMarkToMarket: "-0.3", fees: "0.05", settlement: "0", net: "0.15", fillsWithoutMid: 0 },
  markouts: [
    { side: "all", role: "all", horizonMs: 1_000, fills: 3, shares: "3", value: "0.0375", perShare: "0.0125" },
    { side: "all", role: "all", horizonMs: 30_000, fills: 3, shares: "3", value: "-0.06", perShare: "-0.02" },
    { side: "BUY", role: "maker", horizonMs: 60_000, fills: 1, shares: "1", value: "9", perShare: "9" },
  ],
} as unknown as SeriesReport;

function report(over: Partial<BacktestReport> = {}): BacktestReport {
  return {
    version: 3,
    ok: false,
    problems: ["something broke"],
    warnings: ["look at this"],
    run: {
      config: "cfg.yaml",
      scenario: "sc.yaml",
      seed: 3,
      strategy: { name: "ladder", params: {} },
      virtualStart: "2026-03-02T09:00:00.000Z",
      virtualEnd: "2026-03-02T09:03:00.000Z",
      duration: "3m",
      signatures: "on",
    } as BacktestReport["run"],
    markMethod: "",
    markets: [
      { marketId: "BT-A", outcomeCount: 2, status: "OPEN", mark: { source: "book_mid", sources: ["book_mid", "book_mid"], prices: ["0.5", "0.5"], asOf: null, ageMs: 0, stale: false }, fairValue: null, atFairValue: null, figures: A },
      { marketId: "BT-B", outcomeCount: 2, status: "CLOSED", mark: { source: "last_trade", sources: ["last_trade", "last_trade"], prices: ["0.4", "0.6"], asOf: null, ageMs: 3_725_000, stale: true }, fairValue: null, atFairValue: null, figures: B },
    ],
    wallets: [wallet("quoter", { cashDelta: "0", positionsValue: "0", net: "0", difference: "0.000002", tolerance: "0.000009", ok: true }), wallet("second", null, "no starting balance was read")],
    totals: {
      fills: { ...A.fills, count: 13, maker: 8, taker: 5, volume: "4.967" },
      orders: { placed: 20, cancelled: 5, cancelTooLate: 0, cancelledBySettlement: 1, rejected: { post_only_would_cross: 2, rate_limited: 1 }, rejectedTotal: 3, unknown: 0 },
      pnl: { fees: "0.005", realised: "1.234", unrealised: "-0.6", net: "0.629", unmarked: 0 },
      grossFinalShares: "12.5",
    },
    consistency: { ok: true, ledgerFills: 13, platformFills: 13, platformTradeIds: 13 } as BacktestReport["consistency"],
    atFairValue: { note: "", unrealised: "0.1", net: "-0.2", unmarked: 0 },
    events: { halts: [], haltSummary: [], trackerAnomalies: 0, drift: {}, inventory: { fills: 13, preAnchor: 0, corrected: 0, repeatDeliveries: 13 }, reconciliation: { checks: 2, differing: 0, positions: 0, cash: 0 }, fillsAfterSettlement: 0 },
    series: SERIES,
    timing: { wallMs: 1_500, speed: 120, virtualHoursPerWallSecond: 0.033 },
    ...over,
  };
}

const cells = (line: string): string[] => line.trim().split(/\s{2,}/);

describe("the summary", () => {
  const text = formatSummary(report());
  const lines = text.split("\n");

  it("opens with the run's facts", () => {
    expect(lines.slice(0, 4)).toEqual([
      "backtest 3m of virtual time (2026-03-02T09:00:00.000Z .. 2026-03-02T09:03:00.000Z), seed 3",
      "  config cfg.yaml (strategy ladder), scenario sc.yaml",
      "  wall 1.5 s, 120x real time",
      "",
    ]);
    expect(text.endsWith("\n")).toBe(true);
  });

  it("has a row per market and a total row: two decimals, signed PnL, labels, uptime rounded down, old marks aged", () => {
    const row = (name: string): string[] => cells(lines.find((l) => l.startsWith(`${name} `))!);
    expect(cells(lines[4]!)).toEqual(["market", "fills", "mk/tk", "volume", "fees", "realised", "unrealised", "net", "final inventory", "uptime", "mark"]);
    // 0.005 rounds half away from zero to 0.01; 0.9995 is 99.9%, not 100.0%.
    expect(row("BT-A")).toEqual(["BT-A", "12", "7/5", "4.57", "0.01", "+1.23", "-0.50", "+0.73", "Yes +10.00", "99.9%", "book_mid"]);
    // No labels for BT-B; its mark 1h2m5s old shows whole minutes.
    expect(row("BT-B")).toEqual(["BT-B", "1", "1/0", "0.40", "0.00", "0.00", "-0.10", "-0.10", "outcome 1 -2.50", "-", "last_trade (1h2m old)"]);
    expect(row("TOTAL")).toEqual(["TOTAL", "13", "8/5", "4.97", "0.01", "+1.23", "-0.60", "+0.63", "12.50 shares"]);
  });

  it("then the fair value, orders, series, events, checks, warnings and problems", () => {
    const tail = lines.slice(lines.findIndex((l) => l.startsWith("TOTAL")) + 1);
    expect(tail).toEqual([
      "",
      "(N old) after a mark: that price was N old at the end of trading (mark.asOf), e.g. the book of a market that stopped trading",
      "",
      "at the simulator's hidden fair value (not a market price): unrealised +0.10, net -0.20",
      "orders: 20 placed, 5 cancelled, 1 cancelled by settlement, 3 rejected (post_only_would_cross 2, rate_limited 1), 0 unknown",
      "max drawdown 1.23; PnL = spread captured +0.50 + inventory mark-to-market -0.30 - fees 0.05 + settlement 0.00 = +0.15 (to the end of trading, at the mids)",
      "markout per share, all fills (mid after the fill against its price, + good for us): 1s +0.01, 30s -0.02, 1m -, 5m -",
      "halts: none",
      "drift: none; reconciliation 2 check(s), 0 with a difference (0 position, 0 cash record(s)); tracker anomalies 0; fills after settlement 0; fills before the anchor 0",
      "consistency OK: ledger 13 fills = platform 13 fills (13 trades)",
      "inventory check OK: the daemon's cash and positions equal the simulator's exactly (2 wallet(s))",
      "PnL cross-check OK: wallet quoter: difference 0.000002 (tolerance 0.000009)",
      "PnL cross-check SKIPPED: wallet second: no starting balance was read",
      "WARNING: look at this",
      "PROBLEM: something broke",
      "",
    ]);
  });

  it("says when signatures were off, and names a failed check", () => {
    const bad = wallet("quoter", { cashDelta: "0", positionsValue: "0", net: "0", difference: "-1", tolerance: "0.000003", ok: false });
    bad.inventoryCheck = { ...bad.inventoryCheck, ok: false, cashDifference: "0.5", positionDifferenceCount: 2 };
    const r = report({ run: { ...report().run, signatures: "off" }, wallets: [bad], series: undefined, markets: [report().markets[0]!] });
    const t = formatSummary(r);
    expect(t).toContain("\n  signatures OFF: orders neither signed nor verified (backtest only; same matching, fills and PnL)\n");
    expect(t).toContain("\nINVENTORY CHECK FAILED: wallet quoter: cash difference 0.5, 2 position(s) differ\n");
    expect(t).toContain("\nPnL cross-check FAILED: wallet quoter: difference -1 (tolerance 0.000003)\n");
    expect(t).not.toContain("(N old)");
    expect(t).not.toContain("max drawdown");
  });
});

describe("the parts", () => {
  it("labels outcomes from the series' market rows, else by number", () => {
    const label = labelsOf({ series: SERIES });
    expect(label("BT-A", 1)).toBe("No");
    expect(label("BT-A", 2)).toBe("outcome 2");
    expect(label("BT-B", 0)).toBe("outcome 0");
    expect(labelsOf({})("BT-A", 0)).toBe("outcome 0");
  });

  it("has no series lines without a series", () => {
    expect(seriesLines(undefined)).toEqual([]);
  });

  it("draws a borderless table, numeric columns right-aligned, two spaces apart, lines trimmed", () => {
    expect(textTable([["market", "n"], ["xx", "5"], ["yyyyy", "123"]], new Set([1]))).toBe(["market    n", "xx        5", "yyyyy   123"].join("\n"));
    expect(textTable([["a", "b"], ["1", "2"]], new Set())).toBe(["a  b", "1  2"].join("\n"));
  });
});

describe("progress", () => {
  it("estimates the time left from the pace so far, whole seconds", () => {
    expect(remainingText({ virtualMs: 0, durationMs: 60_000, wallMs: 100, fills: 0 })).toBe("");
    expect(remainingText({ virtualMs: 10_000, durationMs: 60_000, wallMs: 0, fills: 0 })).toBe("");
    // 10 s of wall for 30 s of virtual time: 90 s left take 30 s.
    expect(remainingText({ virtualMs: 30_000, durationMs: 120_000, wallMs: 10_000, fills: 0 })).toBe("30s");
    // 1 s of wall for 60 s of virtual time: the 90 s left take 1.5 s, shown as 2 s.
    expect(remainingText({ virtualMs: 60_000, durationMs: 150_000, wallMs: 1_000, fills: 0 })).toBe("2s");
    expect(remainingText({ virtualMs: 60_000, durationMs: 60_000, wallMs: 1_000, fills: 0 })).toBe("0s");
  });

  it("on a pipe, writes one plain line per report, ten a run", () => {
    const out: string[] = [];
    const p = progressReporter({ tty: false, write: (t) => void out.push(t) });
    p.update({ virtualMs: 30_000, durationMs: 120_000, wallMs: 10_000, fills: 7 });
    p.update({ virtualMs: 0, durationMs: 120_000, wallMs: 0, fills: 0 });
    p.update({ virtualMs: 0, durationMs: 0, wallMs: 5, fills: 0 });
    p.stop();
    expect(out).toEqual([
      "mm backtest: 30s / 2m virtual (25%), 10.0 s wall, 7 fills, about 30s left\n",
      "mm backtest: 0s / 2m virtual (0%), 0.0 s wall, 0 fills\n",
      "mm backtest: 0s / 0s virtual (100%), 0.0 s wall, 0 fills\n",
    ]);
    expect(p.everyMs(600_000, 1_000)).toBe(60_000);
    expect(p.everyMs(5_000, 1_000)).toBe(1_000);
  });

  it("on a terminal, reports two hundred times a run and draws nothing before the first report", () => {
    const written: string[] = [];
    const stream = { write: (t: string) => void written.push(t) } as unknown as NodeJS.WriteStream;
    const p = progressReporter({ tty: true, write: (t) => void written.push(t), stream });
    expect(p.everyMs(600_000, 1_000)).toBe(3_000);
    expect(p.everyMs(60_000, 1_000)).toBe(1_000);
    p.stop();
    expect(written).toEqual([]);
  });
});
