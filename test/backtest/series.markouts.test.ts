/**
 * Markouts of hand-made fills against a hand-made mid path (series.ts, markouts.ts): each fill's
 * signed markout per share at every horizon is the mid in effect at fill + h minus the price (buy)
 * or the price minus it (sell), exactly; the groups sum them x qty; horizons past the end are
 * missing; the PnL decomposition adds up; days split at UTC midnight.
 */
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { SeriesRecorder, dailyStats, isqrt, type SeriesProbe } from "../../src/backtest/series.js";

const S = 1_000_000n;
const T0 = Date.UTC(2026, 5, 1, 23, 59, 0);

/** A one-market binary probe whose mid, PnL and position the test sets. */
function probe() {
  const state = { mid: 500_000n as bigint | undefined, realised: 0n, unrealised: 0n, fees: 0n, pos: 0n, live: true };
  const p: SeriesProbe = {
    markets: () => ["MKT"],
    labels: () => ["Yes", "No"],
    mid: (_m, o) => (state.mid === undefined ? undefined : o === 0 ? state.mid : S - state.mid),
    pnl: () => ({ realised: state.realised, unrealised: state.unrealised, fees: state.fees }),
    position: (_m, o) => (o === 0 ? state.pos : 0n),
    quotes: () => (state.live ? [{ outcome: 0, side: "BUY" as const, price: 490_000n }] : []),
    tradable: () => true,
  };
  return { state, p };
}

describe("markouts of hand-made fills", () => {
  it("are the mid at fill + h against the price, signed, exactly", () => {
    const { state, p } = probe();
    const r = new SeriesRecorder(p);
    r.advance(T0);
    // t0: buy 10 at 0.49 (mid 0.50), maker; sell 4 at 0.515 at t0 + 2 s, taker with a fee.
    r.fill({ ts: T0, marketId: "MKT", outcome: 0, side: "BUY", role: "maker", price: 490_000n, qty: 10n * S, fee: 0n });
    // mid path: 0.503 from t0 + 500 ms, 0.5125 from t0 + 3 s, 0.47 from t0 + 40 s, 0.6005 from t0 + 100 s
    r.advance(T0 + 500);
    state.mid = 503_000n;
    r.advance(T0 + 2_000);
    state.fees = 12_345n;
    r.fill({ ts: T0 + 2_000, marketId: "MKT", outcome: 0, side: "SELL", role: "taker", price: 515_000n, qty: 4n * S + 1n, fee: 12_345n });
    r.advance(T0 + 3_000);
    state.mid = 512_500n;
    r.advance(T0 + 40_000);
    state.mid = 470_000n;
    r.advance(T0 + 100_000);
    state.mid = 600_500n;
    const out = r.finish(T0 + 200_000);

    const D = Decimal;
    const mids: [number, string][] = [
      [0, "0.5"],
      [500, "0.503"],
      [3_000, "0.5125"],
      [40_000, "0.47"],
      [100_000, "0.6005"],
    ];
    const midAt = (t: number): string => [...mids].reverse().find(([at]) => at <= t)![1];
    const fills = [
      { t: 0, side: "BUY", price: "0.49", qty: "10" },
      { t: 2_000, side: "SELL", price: "0.515", qty: "4.000001" },
    ];
    const horizons = [1_000, 5_000, 30_000, 60_000, 300_000];
    expect(out.horizonsMs).toEqual(horizons);
    horizons.forEach((h, hi) => {
      fills.forEach((f, fi) => {
        const due = f.t + h;
        const want = due > 200_000 ? null : (f.side === "BUY" ? new D(midAt(due)).minus(f.price) : new D(f.price).minus(midAt(due))).toFixed();
        expect(out.fills.markouts[hi]![fi], `fill ${fi} at ${h} ms`).toBe(want === null ? null : want === "0" ? "0" : want);
      });
    });
    // Buy at 1 s: mid 0.503 -> +0.013 per share; sell at 1 s (t0 + 3 s): 0.515 - 0.5125 = +0.0025.
    expect(out.fills.markouts[0]).toEqual(["0.013", "0.0025"]);
    // 5 min: past the end for both.
    expect(out.fills.markouts[4]).toEqual([null, null]);
    expect(out.markoutsMissing).toBe(2);
    // Group sums: all at 1 s = 10 x 0.013 + 4.000001 x 0.0025 = 0.1400000025 -> 0.14 (floor).
    const all1 = out.markouts.find((g) => g.side === "all" && g.horizonMs === 1_000)!;
    expect(all1).toMatchObject({ fills: 2, shares: "14.000001", value: "0.14" });
    expect(all1.perShare).toBe(new D("0.1400000025").div("14.000001").toDecimalPlaces(6, Decimal.ROUND_FLOOR).toFixed());
    const buyMaker60 = out.markouts.find((g) => g.side === "BUY" && g.role === "maker" && g.horizonMs === 60_000)!;
    expect(buyMaker60).toMatchObject({ fills: 1, shares: "10", value: "-0.2", perShare: "-0.02" });
    // Spread captured at the fill mids: 10 x (0.5 - 0.49) + 4.000001 x (0.515 - 0.503) = 0.148000012 -> 0.148.
    expect(out.fills.mid).toEqual(["0.5", "0.503"]);
    expect(out.pnlDecomposition.spreadCaptured).toBe("0.148");
    const d = out.pnlDecomposition;
    expect(new D(d.spreadCaptured).plus(d.inventoryMarkToMarket).minus(d.fees).plus(d.settlement).toFixed()).toBe(new D(d.net).toFixed());
  });

  it("splits days at UTC midnight with the equity there, and keeps the sample count bounded", () => {
    const { state, p } = probe();
    const r = new SeriesRecorder(p, { maxPoints: 16 });
    r.advance(T0);
    state.realised = 5n * S;
    r.fill({ ts: T0, marketId: "MKT", outcome: 0, side: "BUY", role: "maker", price: 490_000n, qty: 10n * S, fee: 0n });
    r.advance(T0 + 120_000); // crosses midnight at T0 + 60 s
    state.realised = 2n * S;
    const out = r.finish(T0 + 180_000);
    expect(out.days.map((x) => [x.day, x.pnl, x.fills, x.volume])).toEqual([
      ["2026-06-01", "5", 1, "4.9"],
      ["2026-06-02", "-3", 0, "0"],
    ]);
    expect(out.days[1]!.maxDrawdown).toBe("3");
    expect(out.samples.t.length).toBeLessThanOrEqual(17);
    expect(out.samples.t.length).toBeGreaterThanOrEqual(8);
    expect(out.samples.t[out.samples.t.length - 1]).toBe(T0 + 180_000);
    for (const l of [...out.samples.inventory, ...out.samples.mid, ...out.samples.bid, ...out.samples.quoting]) expect(l.values.length).toBe(out.samples.t.length);
    expect(out.samples.inventory.map((l) => l.label)).toEqual(["Yes", "No"]);
    expect(out.drawdown.max).toBe("3");
    expect(out.uptime[0]).toMatchObject({ marketId: "MKT", fraction: "1.0000" });
  });

  it("daily mean and sample stdev exactly", () => {
    const pnl = [1_000_000n, -500_000n, 2_250_000n, 0n];
    const D = Decimal.clone({ precision: 50 });
    const xs = pnl.map((x) => new D(x.toString()).div(1e6));
    const mean = xs.reduce((a, b) => a.plus(b), new D(0)).div(xs.length);
    const sd = xs.reduce((a, b) => a.plus(b.minus(mean).pow(2)), new D(0)).div(xs.length - 1).sqrt();
    const s = dailyStats(pnl);
    expect(s.meanPnl).toBe(mean.toDecimalPlaces(6, Decimal.ROUND_FLOOR).toFixed());
    expect(s.stdevPnl).toBe(sd.toDecimalPlaces(6, Decimal.ROUND_FLOOR).toFixed());
    expect(s.meanOverStdev).toBe(mean.div(sd.toDecimalPlaces(6, Decimal.ROUND_FLOOR)).toDecimalPlaces(4, Decimal.ROUND_FLOOR).toFixed(4));
    expect(isqrt(10n ** 30n + 5n)).toBe(10n ** 15n);
  });
});
