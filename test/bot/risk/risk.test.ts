/**
 * The risk facade (src/bot/risk/risk.ts) as the engine uses it: what evaluate, filter, kill, halt,
 * condition, resume and forget return and change. The halts' raise and clear rules one by one are
 * in halts.test.ts; this file pins the facade's own contract around them: the changes it returns
 * and reports, the defaults it fills in, the scope and reason filters of resume, the snapshot
 * commit of filter, and the state it forgets.
 */
import { describe, expect, it } from "vitest";
import {
  GLOBAL,
  OPERATOR_REASONS,
  Risk,
  RiskSnapshot,
  type Halt,
  type HaltChange,
  type HaltScope,
  type RiskOptions,
} from "../../../src/bot/risk/index.js";
import { bid, exposure, limits, live, m, NOW, sizes } from "./fixtures.js";

const W1 = "maker-1";
const W2 = "maker-2";
const A = "BTC-UP";
const B = "ETH-UP";
const DAY = NOW - (NOW % 86_400_000);

const wallet = (w: string): HaltScope => ({ kind: "wallet", wallet: w });
const market = (mk: string): HaltScope => ({ kind: "market", market: mk });

function make(over: Partial<RiskOptions> = {}) {
  const seen: { change: HaltChange; activeThen: Halt[] }[] = [];
  const risk: Risk = new Risk({
    limits: limits(),
    onChange: (change) => seen.push({ change, activeThen: risk.halts() }),
    ...over,
  });
  return { risk, seen };
}

const reasons = (cs: readonly HaltChange[]) => cs.map((c) => `${c.type}:${c.halt.reason}`);

describe("evaluate", () => {
  it("returns nothing and reports nothing for observations that carry no news", () => {
    const { risk, seen } = make();
    expect(risk.evaluate({}, NOW)).toEqual([]);
    expect(risk.evaluate({ breaker: "closed", marketData: [], streams: [], reconciliations: [], rejects: [], pnl: [] }, NOW)).toEqual([]);
    expect(seen).toEqual([]);
    expect(risk.halts()).toEqual([]);
  });

  it("returns every raise of one batch, and reports each after the book changed", () => {
    const { risk, seen } = make();
    const out = risk.evaluate(
      {
        breaker: "open",
        marketData: [{ market: A, lastUpdateMs: undefined }],
        reconciliations: [{ wallet: W1, drifted: 1, atMs: NOW }],
      },
      NOW,
    );
    expect(reasons(out)).toEqual(["raised:circuit_open", "raised:stale_market_data", "raised:reconciliation_drift"]);
    expect(out.map((c) => c.atMs)).toEqual([NOW, NOW, NOW]);
    expect(seen.map((s) => s.change)).toEqual(out);
    // The observer already sees the halt it is told about in the book.
    for (const s of seen) expect(s.activeThen).toContainEqual(s.change.halt);
    // Raising again the same batch is a no-op: nothing returned, nothing reported.
    expect(risk.evaluate({ breaker: "half_open" }, NOW + 1)).toEqual([]);
    expect(seen).toHaveLength(3);
  });

  it("a clear returned by evaluate carries the halt as raised and the rule as its cause", () => {
    const { risk } = make();
    risk.evaluate({ breaker: "open" }, NOW);
    const [cleared] = risk.evaluate({ breaker: "closed" }, NOW + 2_500);
    expect(cleared).toEqual({
      type: "cleared",
      by: "rule",
      atMs: NOW + 2_500,
      halt: { scope: GLOBAL, reason: "circuit_open", sinceMs: NOW, detail: "circuit breaker open" },
    });
  });

  it("fills the tuning it is not given from the defaults", () => {
    const { risk } = make({ tuning: { driftTolerance: 2 } });
    expect(risk.tuning.driftTolerance).toBe(2);
    expect(risk.tuning.rejectWindowMs).toBe(60_000);
    expect(risk.tuning.explainedRejectCodes).toEqual(["post_only_would_cross", "market_not_open", "vault_not_deployed"]);
    expect(risk.evaluate({ reconciliations: [{ wallet: W1, drifted: 2, atMs: NOW }] }, NOW)).toEqual([]);
    expect(reasons(risk.evaluate({ reconciliations: [{ wallet: W1, drifted: 3, atMs: NOW }] }, NOW))).toEqual(["raised:reconciliation_drift"]);
  });

  it("forgives the rejects of a storm once it clears: only rejects after it count towards the next", () => {
    // A quiet period shorter than the window, so the storm's rejects are still inside it when it clears.
    const { risk } = make({ limits: limits({ maxRejectsPerMin: 3 }), tuning: { rejectQuietMs: 10_000 } });
    const rejects = (n: number, at: number) => Array.from({ length: n }, () => ({ wallet: W1, code: "insufficient_funds", atMs: at }));
    expect(reasons(risk.evaluate({ rejects: rejects(4, NOW) }, NOW))).toEqual(["raised:reject_storm"]);
    expect(reasons(risk.evaluate({}, NOW + 10_000))).toEqual(["cleared:reject_storm"]);
    // Three more within the same minute: four in the window counting the storm's, but the storm's are forgiven.
    expect(risk.evaluate({ rejects: rejects(3, NOW + 11_000) }, NOW + 11_000)).toEqual([]);
    expect(risk.gate(W1).quote).toBe(true);
    expect(reasons(risk.evaluate({ rejects: rejects(1, NOW + 12_000) }, NOW + 12_000))).toEqual(["raised:reject_storm"]);
  });
});

describe("filter", () => {
  it("commits what an allowed market rests into the cycle's snapshot", () => {
    const { risk } = make({ limits: limits({ maxNotionalPerWallet: m("10") }) });
    const snap = new RiskSnapshot([exposure(W1, A), exposure(W1, B)]);
    const a = risk.filter(W1, A, [bid("0.5", "12")], snap);
    expect(a.verdict).toEqual({ quote: true });
    expect(a.restingBuyNotional).toBe(m("6"));
    expect(snap.walletNotional(W1)).toBe(m("6"));
    // The second market of the cycle sees only the 4 left.
    expect(sizes(risk.filter(W1, B, [bid("0.5", "12")], snap).allowed)).toEqual(["BUY:0@0.5x8"]);
    expect(snap.walletNotional(W1)).toBe(m("10"));
  });

  it("halted: allows nothing, names the halt, and leaves the snapshot as it was (the live orders still count)", () => {
    const { risk } = make();
    risk.halt(wallet(W1), "checking", NOW);
    const snap = new RiskSnapshot([exposure(W1, A, { openOrders: [live("a1", "0.5", "8")] })]);
    const before = snap.walletNotional(W1);
    const r = risk.filter(W1, A, [bid("0.48"), bid("0.47")], snap);
    expect(r.allowed).toEqual([]);
    expect(r.dropped.map((d) => d.reason)).toEqual(["halted", "halted"]);
    expect(r.verdict).toMatchObject({ quote: false, reason: "manual", scope: wallet(W1) });
    expect(r.restingBuyNotional).toBe(m("4"));
    expect(snap.walletNotional(W1)).toBe(before);
    expect(before).toBe(m("4"));
  });

  it("a wallet's halt does not touch another wallet's quotes", () => {
    const { risk } = make();
    risk.halt(wallet(W1), "", NOW);
    const snap = new RiskSnapshot([]);
    expect(risk.filter(W2, A, [bid("0.5")], snap).allowed).toHaveLength(1);
  });
});

describe("kill and halt", () => {
  it("name a default cause when the operator gives none", () => {
    const { risk } = make();
    expect(risk.kill("", NOW)[0]?.halt).toEqual({ scope: GLOBAL, reason: "kill_switch", sinceMs: NOW, detail: "kill switch" });
    expect(risk.halt(market(A), "", NOW)[0]?.halt).toEqual({ scope: market(A), reason: "manual", sinceMs: NOW, detail: "manual halt" });
  });

  it("a second halt of the same scope keeps the first one's time and cause", () => {
    const { risk, seen } = make();
    risk.halt(wallet(W1), "first", NOW);
    expect(risk.halt(wallet(W1), "second", NOW + 5)).toEqual([]);
    expect(risk.halts()).toEqual([{ scope: wallet(W1), reason: "manual", sinceMs: NOW, detail: "first" }]);
    expect(seen).toHaveLength(1);
  });

  it("only a global halt makes the process not ready; a wallet's gate ignores market halts when no market is named", () => {
    const { risk } = make();
    risk.halt(market(A), "", NOW);
    risk.halt(wallet(W2), "", NOW);
    expect(risk.globallyHalted()).toBe(false);
    expect(risk.gate(W1)).toEqual({ quote: true });
    expect(risk.gate(W1, A)).toMatchObject({ quote: false, scope: market(A) });
    expect(risk.gate(W2)).toMatchObject({ quote: false, scope: wallet(W2) });
    risk.kill("stop", NOW);
    expect(risk.globallyHalted()).toBe(true);
  });
});

describe("condition (halts observed outside the risk layer)", () => {
  it("raises with the detail given, keeps the first raise, and clears an automatic reason on null", () => {
    const { risk, seen } = make();
    expect(reasons(risk.condition(wallet(W1), "auth_refused", "api_key_revoked", NOW))).toEqual(["raised:auth_refused"]);
    expect(risk.condition(wallet(W1), "auth_refused", "api_key_expired", NOW + 1)).toEqual([]);
    expect(risk.halts()).toEqual([{ scope: wallet(W1), reason: "auth_refused", sinceMs: NOW, detail: "api_key_revoked" }]);
    const cleared = risk.condition(wallet(W1), "auth_refused", null, NOW + 2);
    expect(cleared).toMatchObject([{ type: "cleared", by: "rule", atMs: NOW + 2 }]);
    expect(risk.halts()).toEqual([]);
    expect(seen.map((s) => s.change.type)).toEqual(["raised", "cleared"]);
  });

  it("null on a condition that is not raised changes nothing", () => {
    const { risk, seen } = make();
    expect(risk.condition(GLOBAL, "dead_man", null, NOW)).toEqual([]);
    expect(seen).toEqual([]);
  });

  it("an operator-only reason raised this way stays until a resume, whatever the condition says", () => {
    const { risk } = make();
    risk.condition(GLOBAL, "instance_conflict", "another daemon with id mm-1", NOW);
    expect(risk.condition(GLOBAL, "instance_conflict", null, NOW + 1)).toEqual([]);
    expect(risk.globallyHalted()).toBe(true);
    expect(risk.resume(NOW + 2)).toMatchObject([{ type: "cleared", by: "operator", halt: { reason: "instance_conflict" } }]);
    expect(risk.globallyHalted()).toBe(false);
  });
});

describe("resume", () => {
  it("clears only the operator reasons: kill_switch, daily_loss, manual, instance_conflict", () => {
    expect([...OPERATOR_REASONS].sort()).toEqual(["daily_loss", "instance_conflict", "kill_switch", "manual"]);
  });

  it("limited to a scope, leaves the operator halts of other scopes", () => {
    const { risk } = make();
    risk.halt(wallet(W1), "", NOW);
    risk.halt(wallet(W2), "", NOW);
    risk.halt(market(A), "", NOW);
    const out = risk.resume(NOW + 1, { scope: wallet(W2) });
    expect(out.map((c) => c.halt.scope)).toEqual([wallet(W2)]);
    expect(risk.halts().map((h) => h.scope)).toEqual([wallet(W1), market(A)]);
  });

  it("limited to reasons, clears only those; an automatic reason asked for is ignored", () => {
    const { risk } = make();
    risk.kill("stop", NOW);
    risk.halt(market(A), "", NOW);
    risk.evaluate({ breaker: "open" }, NOW);
    expect(reasons(risk.resume(NOW + 1, { reasons: ["manual", "circuit_open"] }))).toEqual(["cleared:manual"]);
    expect(risk.halts().map((h) => h.reason)).toEqual(["kill_switch", "circuit_open"]);
    expect(reasons(risk.resume(NOW + 2, { reasons: ["kill_switch"] }))).toEqual(["cleared:kill_switch"]);
    expect(risk.halts().map((h) => h.reason)).toEqual(["circuit_open"]);
  });

  it("acknowledges a wallet's daily loss as it stands at the resume, for that wallet only", () => {
    const { risk } = make({ limits: limits({ dailyLossLimit: m("100") }) });
    risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: DAY, pnl: m("-120") }, { wallet: W2, dayStartMs: DAY, pnl: m("-100") }] }, NOW);
    expect(risk.halts().map((h) => h.scope)).toEqual([wallet(W1), wallet(W2)]);
    // W1 recovered a little before the operator looked: the acknowledgement is the loss then, 80.
    risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: DAY, pnl: m("-80") }] }, NOW + 1);
    expect(reasons(risk.resume(NOW + 2, { scope: wallet(W1) }))).toEqual(["cleared:daily_loss"]);
    expect(risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: DAY, pnl: m("-179.99") }] }, NOW + 3)).toEqual([]);
    const again = risk.evaluate({ pnl: [{ wallet: W1, dayStartMs: DAY, pnl: m("-180") }] }, NOW + 4);
    expect(again).toMatchObject([{ type: "raised", halt: { scope: wallet(W1), detail: "daily loss 180.00 beyond 80.00 acknowledged reached limit 100.00" } }]);
    // W2 was never resumed: still halted, nothing acknowledged for it.
    expect(risk.gate(W2)).toMatchObject({ quote: false, reason: "daily_loss" });
  });
});

describe("forget", () => {
  it("a wallet no longer quoted loses its automatic halts and its reject history, not its operator halts", () => {
    const { risk } = make({ limits: limits({ maxRejectsPerMin: 3 }) });
    const rejects = (n: number, at: number) => Array.from({ length: n }, () => ({ wallet: W1, code: "x", atMs: at }));
    risk.evaluate({ rejects: rejects(3, NOW) }, NOW);
    risk.evaluate({ streams: [{ wallet: W1, connected: false, downSinceMs: NOW - 60_000 }] }, NOW);
    risk.halt(wallet(W1), "hold", NOW);
    expect(reasons(risk.forget(wallet(W1), NOW + 1))).toEqual(["cleared:stream_down"]);
    expect(risk.halts().map((h) => h.reason)).toEqual(["manual"]);
    // The three rejects before are gone: one more is not a storm.
    expect(risk.evaluate({ rejects: rejects(1, NOW + 2) }, NOW + 2)).toEqual([]);
  });

  it("a market forgotten keeps its wallet's reject history", () => {
    const { risk } = make({ limits: limits({ maxRejectsPerMin: 3 }) });
    const rejects = (n: number, at: number) => Array.from({ length: n }, () => ({ wallet: W1, market: A, code: "x", atMs: at }));
    risk.evaluate({ rejects: rejects(3, NOW) }, NOW);
    expect(risk.forget(market(A), NOW + 1)).toEqual([]);
    expect(reasons(risk.evaluate({ rejects: rejects(1, NOW + 2) }, NOW + 2))).toEqual(["raised:reject_storm"]);
  });
});
