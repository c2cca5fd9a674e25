/**
 * The paper run's report (paper/report.ts), following a paper account by hand: each fill into the
 * daemon's PnL arithmetic and the time series as it happens (a listener already on the account
 * still called), the figures per market marked at the mid of the last book read, the counts of
 * books, trades and orders, each wallet's cash and what its open orders lock; the text summary,
 * the JSON and the HTML page.
 */
import { describe, expect, it } from "vitest";
import { parseMicros as m } from "../../src/core/money.js";
import { PaperAccount, type PaperFill, type PlaceRequest } from "../../src/paper/account.js";
import { PaperReporter, formatPaperSummary, htmlFromPaper, paperReportJson, type PaperReport } from "../../src/paper/report.js";

const T0 = Date.UTC(2026, 0, 1, 12);
const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

function order(wallet: string, over: Partial<PlaceRequest>): PlaceRequest {
  return { wallet, orderHash: `0x${wallet.slice(-2)}`, clientOrderId: null, marketId: "MKT", outcome: 0, tokenId: "11", side: "BUY", price: m("0.41"), quantity: m("10"), type: "limit", timeInForce: "GTC", postOnly: true, expiration: "0", ...over };
}

/** A takes 20 YES at 0.45 (fee 0.099) one second in; B rests a bid of 10 at 0.41; the report a minute in. */
function run(): { report: PaperReport; earlier: PaperFill[] } {
  const t = { now: T0 };
  const account = new PaperAccount({ wallets: [A, B], startingCash: m("1000"), queue: { kind: "risk-averse" }, now: () => t.now });
  const earlier: PaperFill[] = [];
  account.onFill = (f) => void earlier.push(f);
  const reporter = new PaperReporter(account, { source: "paper: https://api.example.test", queueModel: "risk-averse", latency: "20,20 ms", startingCash: m("1000") });
  account.observeMarket({ symbol: "MKT", status: "OPEN", outcomeCount: 2, feeTakerBps: 200, negRiskEligible: false, tokenIds: ["11", "12"], labels: ["Up", "Down"] });
  reporter.advance(T0);
  account.observeBook("MKT", 0, [[m("0.40"), m("100")]], [[m("0.45"), m("50")]]);
  t.now = T0 + 1_000;
  account.place(order(A, { price: m("0.46"), quantity: m("20"), postOnly: false }));
  account.place(order(B, {}));
  return { report: reporter.finish(T0 + 60_000), earlier };
}

describe("the paper report", () => {
  const { report, earlier } = run();

  it("follows the account's fills, keeping a listener already there", () => {
    expect(earlier.map((f) => [f.wallet, f.role, f.qty])).toEqual([[A, "taker", m("20")]]);
    expect(report.series!.fills.t).toEqual([T0 + 1_000]);
    expect(report.series!.fills.role).toEqual(["taker"]);
  });

  it("states the run and counts what the account saw and did", () => {
    expect(report).toMatchObject({
      engine: "paper",
      source: "paper: https://api.example.test",
      queueModel: "risk-averse",
      latency: "20,20 ms",
      startingCash: "1000",
      firstTs: T0,
      lastTs: T0 + 60_000,
      events: { book: 1, trade: 0 },
      orders: { placed: 2, accepted: 2, rejected: 0, rejectCodes: {}, cancels: 0 },
    });
  });

  it("marks the figures at the last book's mid, and gives each wallet's cash and locks", () => {
    // 20 held at 0.45 (9), marked at (0.40 + 0.45) / 2 = 0.425: -0.5; fee 0.02 x 0.45 x 0.55 x 20 = 0.099
    expect(report.markets).toEqual([
      { symbol: "MKT", fills: 1, makerFills: 0, takerFills: 1, volume: "20", boughtShares: "20", soldShares: "0", buyNotional: "9", sellNotional: "0", fees: "0.099", realised: "0", unrealised: "-0.5", net: "-0.599", positions: { "0": "20" } },
    ]);
    expect(report.totals).toEqual({ fills: 1, volume: "20", fees: "0.099", realised: "0", unrealised: "-0.5", net: "-0.599" });
    // B's bid locks 4.1 and the largest fee 10 shares can pay (0.02 x 0.25 x 10 = 0.05)
    expect(report.wallets).toEqual([
      { address: A, cash: "990.901", locked: "0" },
      { address: B, cash: "1000", locked: "4.15" },
    ]);
  });

  it("keeps the same time series as the engines, labelled from the market row", () => {
    const s = report.series!;
    expect(s.markets).toEqual([{ marketId: "MKT", labels: ["Up", "Down"] }]);
    expect(s.samples.netPnl.at(-1)).toBe("-0.599");
    expect(s.pnlDecomposition).toMatchObject({ net: "-0.599", fees: "0.099" });
    // the fill at 0.45 against a mid of 0.425: -0.025 x 20 = -0.5 of spread
    expect(s.pnlDecomposition.spreadCaptured).toBe("-0.5");
    // a sample a second, T0 to T0 + 60 s: B's bid rests from the second one on (60 of 61)
    expect(s.uptime).toEqual([{ marketId: "MKT", samples: 61, live: 60, fraction: "0.9836" }]);
  });

  it("summarises in text: the run, the counts, a row per market, the wallets", () => {
    const lines = formatPaperSummary(report).split("\n");
    expect(lines[0]).toBe("paper trading: paper: https://api.example.test; 2026-01-01T12:00:00.000Z .. 2026-01-01T12:01:00.000Z; queue model risk-averse; latency 20,20 ms; start 1000 per wallet");
    expect(lines[1]).toBe("seen: 1 books, 0 public trades; orders (never sent): 2 placed, 2 accepted, 0 rejected, 0 cancelled");
    expect(lines[4]!.trim().split(/\s{2,}/)).toEqual(["MKT", "1", "0", "1", "20", "0.099", "-0.599", "Up 20"]);
    expect(lines).toContain("net = realised + unrealised (marked at the last book's mid) - fees; decimal units of the settlement token");
    expect(lines).toContain(`wallet ${A}: cash 990.901 (locked by open orders 0)`);
    expect(lines).toContain(`wallet ${B}: cash 1000 (locked by open orders 4.15)`);
    expect(lines.some((l) => l.startsWith("max drawdown "))).toBe(true);
    const quiet = formatPaperSummary({ ...report, firstTs: null, orders: { ...report.orders, rejected: 2, rejectCodes: { market_not_open: 2 } } });
    expect(quiet).toContain("; no data; ");
    expect(quiet).toContain(", 2 rejected (market_not_open 2), ");
  });

  it("writes JSON with two-space indents and a newline", () => {
    const json = paperReportJson(report);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(report)));
    expect(json.startsWith('{\n  "engine": "paper",')).toBe(true);
    expect(json.endsWith("}\n")).toBe(true);
  });

  it("draws the HTML page, and refuses a report without a series", () => {
    const html = htmlFromPaper(report);
    expect(html).toContain("<title>Paper trading: paper: https://api.example.test</title>");
    expect(html).toContain("<div>paper trading (orders never sent), 2026-01-01T12:00:00.000Z .. 2026-01-01T12:01:00.000Z, queue model risk-averse, latency 20,20 ms</div><div>1 books, 0 public trades, 2 orders placed</div>");
    expect(html).toContain('"marketRows":[["MKT",1,0,1,"20","0.099","-0.599","Up 20"]]');
    expect(() => htmlFromPaper({ ...report, series: undefined })).toThrow("paper report: no series to draw");
  });
});
