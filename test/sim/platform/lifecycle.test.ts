import { describe, expect, it } from "vitest";
import {
  admitOrder,
  advance,
  apply,
  initialLifecycle,
  isListed,
  isTradable,
  MARKET_STATUSES,
  nextTimeMoveAt,
  notTradableReasonOf,
  OPEN_SET,
  tradingModeOf,
  TRANSITIONS,
  type LifecycleState,
  type LifecycleStatus,
  type Trigger,
  type TradingWindow,
} from "../../../src/sim/platform/lifecycle.js";
import { T0 } from "./fixtures.js";

const MIN = 60_000;
const window: TradingWindow = { preMarketStartsAtMs: T0 - 60 * MIN, opensAtMs: T0 + 2 * MIN, closesAtMs: T0 + 360 * MIN };

function at(t: number, w = window): LifecycleState {
  return advance(initialLifecycle(w, 2, T0 - 120 * MIN), t).state;
}

function must(state: LifecycleState, trigger: Trigger, t: number, args = {}): LifecycleState {
  const r = apply(state, trigger, t, args);
  if (!r.ok) throw new Error(`${trigger} refused: ${r.message}`);
  return r.state;
}

function withStatus(status: LifecycleStatus, t = T0 + 10 * MIN): LifecycleState {
  return { ...at(t), status };
}

describe("time-driven moves", () => {
  it("SCHEDULED (unlisted) before preMarketStartsAt, PRE_MARKET from it, OPEN at opensAt, CLOSED at closesAt", () => {
    expect(at(T0 - 61 * MIN).status).toBe("SCHEDULED");
    expect(isListed(at(T0 - 61 * MIN))).toBe(false);
    expect(at(T0 - 60 * MIN).status).toBe("PRE_MARKET");
    expect(at(T0 + 2 * MIN - 1).status).toBe("PRE_MARKET");
    expect(at(T0 + 2 * MIN).status).toBe("OPEN");
    const closed = at(T0 + 360 * MIN);
    expect(closed.status).toBe("CLOSED");
    expect(closed.closedAtMs).toBe(T0 + 360 * MIN);
  });

  it("without a pre-market window a market goes straight from SCHEDULED to OPEN", () => {
    const w = { preMarketStartsAtMs: null, opensAtMs: T0, closesAtMs: null };
    expect(at(T0 - 1, w).status).toBe("SCHEDULED");
    expect(at(T0, w).status).toBe("OPEN");
    expect(at(T0 + 10 ** 9, w).status).toBe("OPEN");
  });

  it("a clock jump applies each due move, stamped at its scheduled time", () => {
    const r = advance(initialLifecycle(window, 2, T0 - 120 * MIN), T0 + 1000 * MIN);
    expect(r.transitions.map((t) => [t.trigger, t.to, t.atMs])).toEqual([["time_close", "CLOSED", T0 + 360 * MIN]]);
    const r2 = advance(initialLifecycle(window, 2, T0 - 120 * MIN), T0 + 5 * MIN);
    expect(r2.transitions.map((t) => t.to)).toEqual(["OPEN"]);
  });

  it("administrative holds are not moved by time", () => {
    const paused = must(at(T0 + 10 * MIN), "pause", T0 + 10 * MIN);
    expect(advance(paused, T0 + 1000 * MIN).state.status).toBe("PAUSED");
    const postponed = must(at(T0 - 61 * MIN), "postpone", T0 - 61 * MIN);
    expect(advance(postponed, T0 + 5 * MIN).state.status).toBe("POSTPONED");
  });

  it("nextTimeMoveAt gives the next boundary", () => {
    expect(nextTimeMoveAt(at(T0 - 61 * MIN), T0 - 61 * MIN)).toBe(T0 - 60 * MIN);
    expect(nextTimeMoveAt(at(T0), T0)).toBe(T0 + 2 * MIN);
    expect(nextTimeMoveAt(at(T0 + 3 * MIN), T0 + 3 * MIN)).toBe(T0 + 360 * MIN);
    expect(nextTimeMoveAt(at(T0 + 400 * MIN), T0 + 400 * MIN)).toBeUndefined();
  });
});

describe("administrative moves", () => {
  it("pause writes pausedAt; resume keeps it and follows the window", () => {
    let s = at(T0 + 10 * MIN);
    s = must(s, "pause", T0 + 10 * MIN);
    expect(s.status).toBe("PAUSED");
    expect(s.pausedAtMs).toBe(T0 + 10 * MIN);
    s = must(s, "resume", T0 + 20 * MIN);
    expect(s.status).toBe("OPEN");
    expect(s.pausedAtMs).toBe(T0 + 10 * MIN);
  });

  it("resume picks PRE_MARKET, OPEN or CLOSED from the window at that moment", () => {
    const pausedPre = must(at(T0 - 30 * MIN), "pause", T0 - 30 * MIN);
    expect(must(pausedPre, "resume", T0 - 20 * MIN).status).toBe("PRE_MARKET");
    expect(must(pausedPre, "resume", T0 + 20 * MIN).status).toBe("OPEN");
    const closed = must(pausedPre, "resume", T0 + 400 * MIN);
    expect(closed.status).toBe("CLOSED");
    expect(closed.closedAtMs).toBe(T0 + 400 * MIN);
  });

  it("a second pause overwrites pausedAt with the newest pause", () => {
    let s = must(at(T0 + 10 * MIN), "pause", T0 + 10 * MIN);
    s = must(s, "resume", T0 + 11 * MIN);
    s = must(s, "pause", T0 + 12 * MIN);
    expect(s.pausedAtMs).toBe(T0 + 12 * MIN);
  });

  it("suspend does not write pausedAt", () => {
    const s = must(at(T0 + 10 * MIN), "suspend", T0 + 10 * MIN);
    expect(s.status).toBe("SUSPENDED");
    expect(s.pausedAtMs).toBeNull();
    expect(must(s, "resume", T0 + 11 * MIN)).toMatchObject({ status: "OPEN", pausedAtMs: null });
  });

  it("DELAYED -> close overwrites closedAt with the newest CLOSED time", () => {
    let s = at(T0 + 400 * MIN);
    expect(s.closedAtMs).toBe(T0 + 360 * MIN);
    s = must(s, "delay", T0 + 401 * MIN);
    s = must(s, "close", T0 + 402 * MIN);
    expect(s).toMatchObject({ status: "CLOSED", closedAtMs: T0 + 402 * MIN });
  });

  it("resolve sets resolvedAt and payoutNumerators; void sets voidedAt; both terminal", () => {
    const r = must(at(T0 + 400 * MIN), "resolve", T0 + 500 * MIN, { payoutNumerators: [1, 0] });
    expect(r).toMatchObject({ status: "RESOLVED", resolvedAtMs: T0 + 500 * MIN, voidedAtMs: null, payoutNumerators: [1, 0] });
    const v = must(at(T0 + 10 * MIN), "void", T0 + 11 * MIN);
    expect(v).toMatchObject({ status: "VOIDED", voidedAtMs: T0 + 11 * MIN, resolvedAtMs: null, payoutNumerators: null });
    const triggers: Trigger[] = ["pause", "resume", "suspend", "postpone", "close", "delay", "set_status", "resolve", "void", "time_open"];
    for (const terminal of [r, v]) {
      for (const t of triggers) {
        const res = apply(terminal, t, T0 + 600 * MIN, { status: "OPEN", payoutNumerators: [0, 1] });
        expect(res, `${terminal.status} ${t}`).toMatchObject({ ok: false, status: 409, code: "invalid_transition" });
      }
      expect(advance(terminal, T0 + 10_000 * MIN).state).toBe(terminal);
    }
  });

  it("resolve validates payoutNumerators and changes nothing when they are bad", () => {
    const s = at(T0 + 400 * MIN);
    for (const p of [undefined, [1], [1, 0, 0], [-1, 2], [0, 0], [0.5, 0.5]]) {
      expect(apply(s, "resolve", T0 + 401 * MIN, { payoutNumerators: p }).ok, JSON.stringify(p)).toBe(false);
    }
    expect(s.status).toBe("CLOSED");
  });

  it("impossible transitions are refused, never applied", () => {
    const cases: [LifecycleStatus, Trigger][] = [
      ["OPEN", "resume"],
      ["PAUSED", "pause"],
      ["SUSPENDED", "suspend"],
      ["CLOSED", "suspend"],
      ["OPEN", "await_resolution"],
      ["OPEN", "dispute"],
      ["SCHEDULED", "pause"],
      ["CLOSED", "close"],
    ];
    for (const [from, trigger] of cases) {
      const s = withStatus(from);
      const r = apply(s, trigger, T0 + 11 * MIN);
      expect(r, `${from} ${trigger}`).toMatchObject({ ok: false, code: "invalid_transition", details: { trigger, from } });
    }
  });

  it("set_status moves to any other non-terminal status and stamps on entry", () => {
    const s = at(T0 + 10 * MIN);
    expect(must(s, "set_status", T0 + 11 * MIN, { status: "PAUSED" }).pausedAtMs).toBe(T0 + 11 * MIN);
    expect(must(s, "set_status", T0 + 11 * MIN, { status: "PENDING_RESOLUTION" }).status).toBe("PENDING_RESOLUTION");
    expect(apply(s, "set_status", T0 + 11 * MIN, { status: "RESOLVED" }).ok).toBe(false);
    expect(apply(s, "set_status", T0 + 11 * MIN, { status: "OPEN" }).ok).toBe(false);
    expect(apply(s, "set_status", T0 + 11 * MIN, {}).ok).toBe(false);
  });

  it("the table names only known statuses and every row's sources are non-terminal", () => {
    const known = new Set<string>([...MARKET_STATUSES, "SCHEDULED"]);
    for (const row of TRANSITIONS) {
      for (const f of row.from) {
        expect(known.has(f)).toBe(true);
        expect(["RESOLVED", "VOIDED"]).not.toContain(f);
      }
      if (row.to !== "window" && row.to !== "requested") expect(known.has(row.to)).toBe(true);
    }
  });
});

describe("derived fields", () => {
  const t = T0 + 10 * MIN;
  const expectations: [LifecycleStatus, boolean, string | null, string | null][] = [
    ["SCHEDULED", false, null, "not_open_yet"],
    ["PRE_MARKET", true, "pre_market_post_only", null],
    ["OPEN", true, "normal", null],
    ["PAUSED", false, "paused", "paused"],
    ["SUSPENDED", false, "paused", "suspended"],
    ["POSTPONED", false, null, "postponed"],
    ["CLOSED", false, null, "closed"],
    ["PENDING_RESOLUTION", false, null, "pending_resolution"],
    ["DELAYED", false, null, "delayed"],
    ["DISPUTED", false, null, "disputed"],
    ["RESOLVED", false, null, "resolved"],
    ["VOIDED", false, null, "voided"],
  ];
  for (const [status, tradable, mode, reason] of expectations) {
    it(`${status}: tradable ${tradable}, tradingMode ${mode}, notTradableReason ${reason}`, () => {
      const s = withStatus(status);
      expect(isTradable(s, t)).toBe(tradable);
      expect(tradingModeOf(s, t)).toBe(mode);
      expect(notTradableReasonOf(s, t)).toBe(reason);
    });
  }

  it("an OPEN market past closesAt (before the close move) is not tradable", () => {
    const s = withStatus("OPEN");
    const late = window.closesAtMs!;
    expect(isTradable(s, late)).toBe(false);
    expect(tradingModeOf(s, late)).toBeNull();
    expect(notTradableReasonOf(s, late)).toBe("closed");
  });

  it("the open set is PRE_MARKET, OPEN, PAUSED, POSTPONED", () => {
    expect([...OPEN_SET].sort()).toEqual(["OPEN", "PAUSED", "POSTPONED", "PRE_MARKET"]);
  });
});

describe("order admission", () => {
  const t = T0 + 10 * MIN;
  it("OPEN accepts any order", () => {
    expect(admitOrder(withStatus("OPEN"), { postOnly: false }, t).ok).toBe(true);
    expect(admitOrder(withStatus("OPEN"), { postOnly: true }, t).ok).toBe(true);
  });

  it("PRE_MARKET accepts post-only orders and rejects others as a REJECTED placement", () => {
    expect(admitOrder(withStatus("PRE_MARKET"), { postOnly: true }, t).ok).toBe(true);
    expect(admitOrder(withStatus("PRE_MARKET"), { postOnly: false }, t)).toMatchObject({
      ok: false,
      answer: "reject",
      code: "market_not_open",
      details: { status: "PRE_MARKET", postOnlyRequired: true },
    });
  });

  it("every other status is 409 market_not_open", () => {
    for (const s of MARKET_STATUSES.filter((x) => x !== "OPEN" && x !== "PRE_MARKET")) {
      expect(admitOrder(withStatus(s), { postOnly: true }, t), s).toMatchObject({
        ok: false,
        answer: "http",
        status: 409,
        code: "market_not_open",
        details: { status: s },
      });
    }
    expect(admitOrder(withStatus("SCHEDULED"), { postOnly: true }, t)).toMatchObject({ status: 409, code: "market_not_open" });
  });

  it("orders after closesAt are 409 market_not_open even before the close move ran", () => {
    expect(admitOrder(withStatus("OPEN"), { postOnly: false }, window.closesAtMs! - 1).ok).toBe(true);
    expect(admitOrder(withStatus("OPEN"), { postOnly: false }, window.closesAtMs!)).toMatchObject({
      status: 409,
      code: "market_not_open",
      details: { status: "OPEN" },
    });
  });
});
