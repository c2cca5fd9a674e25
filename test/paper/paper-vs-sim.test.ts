import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notional, type Micros } from "../../src/core/money.js";
import { paperHarness, runFor, type Harness } from "./harness.js";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";
import { formatPaperSummary, htmlFromPaper } from "../../src/paper/report.js";

/** One paper run of 3 virtual minutes against the in-process simulator, shared by the checks. */
let h: Harness;
let shutdown: ShutdownReport;
beforeAll(async () => {
  h = paperHarness();
  h.run.daemon.ledger.keepCompacted();
  shutdown = await runFor(h, 3 * 60_000);
}, 120_000);
afterAll(() => {
  h.run.close();
  h.sim.stop();
});

describe("paper mode against the simulator", () => {
  it("produces fills while no order route of the simulator is ever called", () => {
    const report = h.run.report();
    expect(report.totals.fills).toBeGreaterThan(0);
    expect(h.run.account.counts.placed).toBeGreaterThan(0);
    // Counted at the simulator's transport: only public GETs reached it.
    expect(h.upstream.keyed()).toEqual([]);
    expect(h.upstream.paths.get("GET /api/markets") ?? 0).toBeGreaterThan(0);
    expect([...h.upstream.paths.keys()].some((k) => k.endsWith("/orderbook"))).toBe(true);
    // And the simulator's own books and ledger never saw an order of the paper wallets.
    for (const w of h.config.wallets) expect(h.sim.sim.engine.balance(w.address.toLowerCase()).total).toBe(0n);
    expect(h.run.transport.answered.get("POST /api/orders/place-batch") ?? 0).toBeGreaterThan(0);
  });

  it("keeps each wallet's cash and positions exactly consistent with its fills", () => {
    const a = h.run.account;
    let fills = 0;
    for (const w of a.wallets()) {
      let cash: Micros = h.config.paper.startingCash;
      const pos = new Map<string, Micros>();
      for (const f of a.fills(w)) {
        fills++;
        if (f.side === "BUY") cash -= notional(f.price, f.qty, "ceil") + f.fee;
        else cash += notional(f.price, f.qty, "floor") - f.fee;
        const k = `${f.marketId}|${f.outcome}`;
        pos.set(k, (pos.get(k) ?? 0n) + (f.side === "BUY" ? f.qty : -f.qty));
      }
      expect(a.cash(w)).toBe(cash);
      const held = new Map(a.positions(w).map((p) => [`${p.marketId}|${p.outcome}`, p.qty]));
      for (const [k, q] of pos) expect(held.get(k) ?? 0n).toBe(q);
      for (const q of held.values()) expect(q > 0n).toBe(true);
      // Everything ended at shutdown: nothing locked.
      expect(a.liveOrders(w)).toEqual([]);
      expect(a.lockedCash(w)).toBe(0n);
    }
    expect(fills).toBe(h.run.report().totals.fills);
  });

  it("the daemon saw every paper fill once, through the stream and the trade pulls, and shut down clean", () => {
    const a = h.run.account;
    for (const w of a.wallets()) {
      const mine = a.fills(w).map((f) => `${f.tradeId}|${f.orderId}|${f.qty}`).sort();
      const daemon = h.run.daemon.ledger.fills(w).map((f) => `${f.tradeId}|${f.orderId}|${f.qty}`).sort();
      expect(daemon).toEqual(mine);
      for (const p of a.positions(w)) expect(h.run.daemon.inventory.summary(w, p.marketId, p.outcome).qty).toBe(p.qty);
    }
    expect(shutdown.exitCode).toBe(0);
  });

  it("reports like a backtest: per-market figures, series with markouts", () => {
    const r = h.run.report();
    expect(r.engine).toBe("paper");
    expect(r.markets.reduce((n, m) => n + m.fills, 0)).toBe(r.totals.fills);
    expect(r.series?.fills.t.length).toBe(r.totals.fills);
    expect(r.series?.horizonsMs.length).toBeGreaterThan(0);
    expect(r.series?.fills.markouts.length).toBe(r.series?.horizonsMs.length);
    expect(formatPaperSummary(r)).toContain(`${r.totals.fills}`);
    const html = htmlFromPaper(r);
    expect(html).toContain("Paper trading: paper: http://sim.invalid");
    expect(html.startsWith("<!doctype html>") || html.startsWith("<!DOCTYPE html>")).toBe(true);
  });
});
