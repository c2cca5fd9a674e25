/**
 * Each halt tripped from observations: the halted scope gets no quotes, so the reconciler's plan
 * cancels every live order there and places nothing; other scopes keep quoting; and the halt
 * clears by its documented rule (CLEAR_RULES), not before.
 */
import { describe, expect, it } from "vitest";
import type { LiveOrder } from "../../../src/bot/quote/quotes.js";
import {
  CLEAR_RULES,
  HALT_REASONS,
  Risk,
  RiskSnapshot,
  type HaltChange,
  type HaltReason,
  type RiskObservations,
} from "../../../src/bot/risk/index.js";
import { ask, bid, exposure, held, limits, live, m, NOW, planFor, sizes } from "./fixtures.js";

const W1 = "maker-1";
const W2 = "maker-2";
const A = "BTC-UP"; // quoted by W1
const B = "ETH-UP"; // quoted by W1
const C = "SOL-UP"; // quoted by W2

const DESIRED = [bid("0.48"), bid("0.47", "10", { level: 1 }), ask("0.52")];
const LIVE: Record<string, LiveOrder[]> = {
  [A]: [live("a1", "0.48"), live("a2", "0.46"), live("a3", "0.52", "10", { side: "SELL" })],
  [B]: [live("b1", "0.48")],
  [C]: [live("c1", "0.48")],
};
const OWNER: Record<string, string> = { [A]: W1, [B]: W1, [C]: W2 };

function fresh(now: number): RiskObservations {
  return {
    breaker: "closed",
    marketData: [A, B, C].map((market) => ({ market, lastUpdateMs: now - 1_000 })),
    streams: [W1, W2].map((wallet) => ({ wallet, connected: true, connectedSinceMs: NOW - 60_000, reconciledAtMs: NOW - 50_000 })),
  };
}

function setup(changes: HaltChange[] = []) {
  const logs: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const risk = new Risk({
    limits: limits(),
    onChange: (c) => changes.push(c),
    log: {
      warn: (obj, msg) => logs.push({ level: "warn", obj: obj as Record<string, unknown>, msg }),
      info: (obj, msg) => logs.push({ level: "info", obj: obj as Record<string, unknown>, msg }),
    },
  });
  expect(risk.evaluate(fresh(NOW), NOW)).toEqual([]);
  return { risk, logs, changes };
}

function snapshot(): RiskSnapshot {
  return new RiskSnapshot(
    [A, B, C].map((mk) => exposure(OWNER[mk]!, mk, { positions: [held(0, "20")], openOrders: LIVE[mk]! })),
  );
}

/** The engine's cycle for one market: filter, then reconcile against what is live. */
function cycle(risk: Risk, market: string) {
  const r = risk.filter(OWNER[market]!, market, DESIRED, snapshot());
  return { result: r, plan: planFor(r.allowed, LIVE[market]!) };
}

function expectPulled(risk: Risk, market: string, reason: HaltReason): void {
  const { result, plan } = cycle(risk, market);
  expect(result.allowed).toEqual([]);
  expect(result.verdict).toMatchObject({ quote: false, reason });
  expect(result.dropped.every((d) => d.reason === "halted")).toBe(true);
  expect(plan.places).toEqual([]);
  expect(plan.cancels.map((o) => o.clientOrderId).sort()).toEqual(LIVE[market]!.map((o) => o.clientOrderId).sort());
}

function expectQuoting(risk: Risk, market: string): void {
  const { result, plan } = cycle(risk, market);
  expect(result.verdict).toEqual({ quote: true });
  expect(result.allowed.length).toBe(DESIRED.length);
  expect(plan.places.length + plan.keep.length).toBe(DESIRED.length);
}

describe("circuit_open (the client's circuit breaker)", () => {
  it("halts every wallet while open or half-open, clears when closed", () => {
    const { risk } = setup();
    risk.evaluate({ breaker: "open" }, NOW + 1);
    for (const mk of [A, B, C]) expectPulled(risk, mk, "circuit_open");
    expect(risk.globallyHalted()).toBe(true);
    risk.evaluate({ breaker: "half_open" }, NOW + 60_000);
    expectPulled(risk, C, "circuit_open");
    const cleared = risk.evaluate({ breaker: "closed" }, NOW + 61_000);
    expect(cleared).toMatchObject([{ type: "cleared", by: "rule", halt: { reason: "circuit_open" } }]);
    for (const mk of [A, B, C]) expectQuoting(risk, mk);
  });
});

describe("stale_market_data", () => {
  it("pulls only the stale market, and clears when fresh data arrives", () => {
    const { risk } = setup();
    const t = NOW + 40_000;
    risk.evaluate({ marketData: [{ market: A, lastUpdateMs: NOW - 1_000 }, { market: B, lastUpdateMs: t - 5_000 }] }, t);
    expectPulled(risk, A, "stale_market_data");
    expectQuoting(risk, B);
    expectQuoting(risk, C);
    risk.evaluate({ marketData: [{ market: A, lastUpdateMs: t - 29_000 }] }, t);
    expectQuoting(risk, A);
  });

  it("counts a market without any data as stale, and exactly staleDataSec old as fresh", () => {
    const { risk } = setup();
    risk.evaluate({ marketData: [{ market: B, lastUpdateMs: undefined }, { market: A, lastUpdateMs: NOW - 30_000 }] }, NOW);
    expect(risk.gate(W1, B)).toMatchObject({ quote: false, reason: "stale_market_data" });
    expect(risk.gate(W1, A)).toEqual({ quote: true });
  });
});

describe("stream_down", () => {
  it("halts the wallet after streamDownSec, and clears only after reconnect AND a reconciliation", () => {
    const { risk } = setup();
    const down = NOW + 1_000;
    risk.evaluate({ streams: [{ wallet: W1, connected: false, downSinceMs: down }] }, down + 19_999);
    expectQuoting(risk, A);
    risk.evaluate({ streams: [{ wallet: W1, connected: false, downSinceMs: down }] }, down + 20_000);
    expectPulled(risk, A, "stream_down");
    expectPulled(risk, B, "stream_down");
    expectQuoting(risk, C);

    const up = down + 30_000;
    // Reconnected, but the last reconciliation predates the reconnect: frames may be missing.
    risk.evaluate({ streams: [{ wallet: W1, connected: true, connectedSinceMs: up, reconciledAtMs: NOW - 50_000 }] }, up + 1);
    expectPulled(risk, A, "stream_down");
    risk.evaluate({ streams: [{ wallet: W1, connected: true, connectedSinceMs: up }] }, up + 2);
    expectPulled(risk, A, "stream_down");
    risk.evaluate({ streams: [{ wallet: W1, connected: true, connectedSinceMs: up, reconciledAtMs: up + 500 }] }, up + 600);
    expectQuoting(risk, A);
  });

  it("a process-wide stream (no wallet) halts globally", () => {
    const { risk } = setup();
    risk.evaluate({ streams: [{ connected: false, downSinceMs: NOW }] }, NOW + 25_000);
    expectPulled(risk, C, "stream_down");
    expect(risk.globallyHalted()).toBe(true);
  });
});

describe("reconciliation_drift", () => {
  it("halts the wallet on unexplained drift, clears at the next clean reconciliation", () => {
    const { risk } = setup();
    risk.evaluate({ reconciliations: [{ wallet: W2, drifted: 2, atMs: NOW + 1 }] }, NOW + 1);
    expectPulled(risk, C, "reconciliation_drift");
    expectQuoting(risk, A);
    risk.evaluate({ reconciliations: [{ wallet: W2, drifted: 1, atMs: NOW + 2 }] }, NOW + 2);
    expectPulled(risk, C, "reconciliation_drift");
    risk.evaluate({ reconciliations: [{ wallet: W2, drifted: 0, atMs: NOW + 3 }] }, NOW + 3);
    expectQuoting(risk, C);
  });

  it("tolerates driftTolerance records", () => {
    const risk = new Risk({ limits: limits(), tuning: { driftTolerance: 2 } });
    risk.evaluate({ reconciliations: [{ wallet: W1, drifted: 2, atMs: NOW }] }, NOW);
    expect(risk.gate(W1, A)).toEqual({ quote: true });
    risk.evaluate({ reconciliations: [{ wallet: W1, drifted: 3, atMs: NOW }] }, NOW);
    expect(risk.gate(W1, A)).toMatchObject({ quote: false, reason: "reconciliation_drift" });
  });
});

describe("reject_storm", () => {
  const rejects = (n: number, start: number, code = "insufficient_funds", wallet = W1) =>
    Array.from({ length: n }, (_, i) => ({ wallet, market: A, code, atMs: start + i * 100 }));

  it("halts the wallet past maxRejectsPerMin unexplained rejects, clears after a quiet minute", () => {
    const { risk } = setup();
    risk.evaluate({ rejects: rejects(30, NOW) }, NOW + 3_000);
    expectQuoting(risk, A);
    risk.evaluate({ rejects: rejects(1, NOW + 3_100) }, NOW + 3_200);
    expectPulled(risk, A, "reject_storm");
    expectQuoting(risk, C);
    const last = NOW + 3_100;
    risk.evaluate({}, last + 59_999);
    expectPulled(risk, A, "reject_storm");
    risk.evaluate({}, last + 60_000);
    expectQuoting(risk, A);
  });

  it("a reject during the quiet period restarts it", () => {
    const { risk } = setup();
    risk.evaluate({ rejects: rejects(31, NOW) }, NOW + 3_100);
    risk.evaluate({ rejects: rejects(1, NOW + 40_000) }, NOW + 40_000);
    risk.evaluate({}, NOW + 70_000);
    expectPulled(risk, A, "reject_storm");
    risk.evaluate({}, NOW + 100_000);
    expectQuoting(risk, A);
  });

  it("ignores explained rejects and rejects spread beyond the window", () => {
    const { risk } = setup();
    risk.evaluate({ rejects: rejects(100, NOW, "post_only_would_cross") }, NOW + 10_000);
    expectQuoting(risk, A);
    for (let i = 0; i < 40; i++) risk.evaluate({ rejects: [{ wallet: W1, code: "other_thing", atMs: NOW + i * 2_001 }] }, NOW + i * 2_001);
    expectQuoting(risk, A);
  });
});

describe("daily_loss", () => {
  it("halts a wallet at its daily loss limit and never clears by itself", () => {
    const { risk } = setup();
    const day = NOW - (NOW % 86_400_000);
    risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: day, pnl: m("-199.99") }] }, NOW + 1);
    expectQuoting(risk, A);
    risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: day, pnl: m("-200") }] }, NOW + 2);
    expectPulled(risk, A, "daily_loss");
    expectQuoting(risk, C);
    risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: day, pnl: m("50") }] }, NOW + 3);
    expectPulled(risk, A, "daily_loss");
  });

  it("total loss halts globally; resume acknowledges it until another full limit is lost; a new day resets", () => {
    const { risk } = setup();
    const day = NOW - (NOW % 86_400_000);
    risk.evaluate({ pnl: [{ dayStartMs: day, pnl: m("-250") }] }, NOW + 1);
    expect(risk.globallyHalted()).toBe(true);
    expectPulled(risk, C, "daily_loss");
    const resumed = risk.resume(NOW + 2);
    expect(resumed).toMatchObject([{ type: "cleared", by: "operator", halt: { reason: "daily_loss" } }]);
    risk.evaluate({ pnl: [{ dayStartMs: day, pnl: m("-449.99") }] }, NOW + 3);
    expectQuoting(risk, C);
    risk.evaluate({ pnl: [{ dayStartMs: day, pnl: m("-450") }] }, NOW + 4);
    expectPulled(risk, C, "daily_loss");
    risk.resume(NOW + 5);
    risk.evaluate({ pnl: [{ dayStartMs: day + 86_400_000, pnl: m("-200") }] }, NOW + 6);
    expectPulled(risk, C, "daily_loss");
  });
});

describe("kill switch and manual halts", () => {
  it("kill halts everything until resumed, whatever the observations say", () => {
    const { risk, changes } = setup();
    expect(risk.kill("operator signal SIGUSR2", NOW + 1)).toMatchObject([
      { type: "raised", halt: { reason: "kill_switch", scope: { kind: "global" }, detail: "operator signal SIGUSR2" } },
    ]);
    expect(risk.kill("again", NOW + 2)).toEqual([]);
    for (const mk of [A, B, C]) expectPulled(risk, mk, "kill_switch");
    risk.evaluate(fresh(NOW + 3), NOW + 3);
    expectPulled(risk, A, "kill_switch");
    // Resuming a scope that holds no kill switch changes nothing.
    expect(risk.resume(NOW + 4, { scope: { kind: "wallet", wallet: W1 } })).toEqual([]);
    expect(risk.resume(NOW + 5)).toMatchObject([{ type: "cleared", by: "operator" }]);
    for (const mk of [A, B, C]) expectQuoting(risk, mk);
    expect(changes.map((c) => c.type)).toEqual(["raised", "cleared"]);
  });

  it("a restart (a new Risk) starts with no halt", () => {
    const { risk } = setup();
    risk.kill("stop", NOW);
    expect(new Risk({ limits: limits() }).halts()).toEqual([]);
  });

  it("resume leaves automatic halts to their own rule", () => {
    const { risk } = setup();
    risk.evaluate({ breaker: "open" }, NOW);
    risk.halt({ kind: "market", market: B }, "checking a quote", NOW);
    expectPulled(risk, B, "manual");
    expect(risk.resume(NOW + 1).map((c) => c.halt.reason)).toEqual(["manual"]);
    expectPulled(risk, B, "circuit_open");
    expectPulled(risk, A, "circuit_open");
  });

  it("forgetting a market drops its automatic halts, not the operator's", () => {
    const { risk } = setup();
    risk.evaluate({ marketData: [{ market: B, lastUpdateMs: undefined }] }, NOW);
    risk.halt({ kind: "market", market: B }, "hold", NOW);
    expect(risk.forget({ kind: "market", market: B }, NOW + 1).map((c) => c.halt.reason)).toEqual(["stale_market_data"]);
    expect(risk.halts().map((h) => h.reason)).toEqual(["manual"]);
  });

  it("a manual market halt pulls that market only", () => {
    const { risk } = setup();
    risk.halt({ kind: "market", market: B }, "", NOW);
    expectPulled(risk, B, "manual");
    expectQuoting(risk, A);
  });
});

describe("halted scopes in a cycle's snapshot", () => {
  it("a halted market keeps counting its live buys, so another market cannot take that headroom", () => {
    const risk = new Risk({ limits: limits({ maxNotionalPerWallet: m("30") }) });
    risk.halt({ kind: "market", market: A }, "", NOW);
    const snap = new RiskSnapshot([exposure(W1, A, { openOrders: [live("a1", "0.5", "40")] }), exposure(W1, B)]);
    expect(risk.filter(W1, A, [bid("0.5", "40")], snap).allowed).toEqual([]);
    expect(sizes(risk.filter(W1, B, [bid("0.5", "40")], snap).allowed)).toEqual(["BUY:0@0.5x20"]);
  });
});

describe("visibility", () => {
  it("logs every raise with its reason and clearing rule, and every clear", () => {
    const { risk, logs } = setup();
    risk.evaluate({ reconciliations: [{ wallet: W1, drifted: 4, atMs: NOW }] }, NOW);
    risk.evaluate({ reconciliations: [{ wallet: W1, drifted: 0, atMs: NOW + 10 }] }, NOW + 10);
    expect(logs).toEqual([
      {
        level: "warn",
        msg: "risk halt raised: quotes pulled",
        obj: expect.objectContaining({
          haltScope: "wallet",
          target: W1,
          reason: "reconciliation_drift",
          clearsBy: CLEAR_RULES.reconciliation_drift.rule,
        }),
      },
      { level: "info", msg: "risk halt cleared", obj: expect.objectContaining({ reason: "reconciliation_drift", by: "rule", haltedMs: 10 }) },
    ]);
  });

  it("names the most serious halt first in a gate verdict", () => {
    const { risk } = setup();
    risk.evaluate({ marketData: [{ market: A, lastUpdateMs: undefined }] }, NOW);
    risk.evaluate({ breaker: "open" }, NOW);
    risk.kill("stop", NOW);
    const v = risk.gate(W1, A);
    expect(v.quote).toBe(false);
    if (!v.quote) {
      expect(v.reason).toBe("kill_switch");
      expect(v.halts.map((h) => h.reason)).toEqual(["kill_switch", "circuit_open", "stale_market_data"]);
    }
  });

  it("documents a clearing rule for every reason", () => {
    for (const r of HALT_REASONS) expect(CLEAR_RULES[r].rule.length).toBeGreaterThan(10);
    expect(HALT_REASONS.filter((r) => !CLEAR_RULES[r].automatic)).toEqual(["kill_switch", "daily_loss", "manual", "instance_conflict"]);
  });
});
