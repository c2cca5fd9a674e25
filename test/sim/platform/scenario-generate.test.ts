/**
 * Generated catalogues (src/sim/platform/scenario-generate.ts): how a market reaches each status
 * at the start (window and actions, checked end to end on a started simulator), what each block
 * kind expands to (events across verticals and statuses, matches with their four roll-ups, Up/Down
 * days with day-aligned windows and voided days), and the blocks' refusals at their key.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { MARKET_STATUSES } from "../../../src/sim/platform/lifecycle.js";
import { eventMatchSchema, expandBlock, generateBlockSchema, statusSetup, type RawEvent } from "../../../src/sim/platform/scenario-generate.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { T0 } from "./fixtures.js";

const expand = (block: Record<string, unknown>): RawEvent[] => expandBlock(generateBlockSchema.parse(block));
interface RawMarket {
  symbol: string;
  title: string;
  groupItemTitle?: string;
  marketType: string | null;
  tradingWindow: Record<string, string | null>;
  actions: { at: string; action: string; payoutNumerators?: number[] }[];
  flow: { enabled: boolean };
}
const marketsOf = (e: RawEvent): RawMarket[] => e["markets"] as RawMarket[];

describe("statusSetup", () => {
  const OPEN = { preMarketStartsAt: null, opensAt: "-1h", closesAt: "+30d" };
  const CLOSED = { preMarketStartsAt: null, opensAt: "-3h", closesAt: "-1h" };
  const now = (action: string, extra = {}) => [{ at: "now", action, ...extra }];

  it.each([
    ["PRE_MARKET", { preMarketStartsAt: "-1h", opensAt: "+2d", closesAt: "+30d" }, []],
    ["OPEN", OPEN, []],
    ["PAUSED", OPEN, now("pause")],
    ["SUSPENDED", OPEN, now("suspend")],
    ["POSTPONED", OPEN, now("postpone")],
    ["CLOSED", CLOSED, []],
    ["DELAYED", CLOSED, now("delay")],
    ["PENDING_RESOLUTION", CLOSED, now("await_resolution")],
    ["DISPUTED", CLOSED, now("dispute")],
    ["RESOLVED", CLOSED, now("resolve", { payoutNumerators: [1, 0, 0] })],
    ["VOIDED", CLOSED, now("void")],
  ] as const)("%s: the window and the actions at the start", (status, tradingWindow, actions) => {
    expect(statusSetup(status, 3)).toEqual({ tradingWindow, actions });
  });

  it("every status is reached on a started simulator", async () => {
    const scenario = parseScenario(
      `start: "${new Date(T0).toISOString()}"\ngenerate:\n  - { kind: events, count: ${MARKET_STATUSES.length}, verticals: [politics] }\n`,
      "gen.yaml",
    );
    const clock = new VirtualClock(T0);
    const sim = new Simulator(scenario, { clock, pepper: new Uint8Array(32), flow: false });
    sim.start();
    await clock.advance(0);
    const cat = sim.platform.catalogue;
    const reached = MARKET_STATUSES.map((_, i) => cat.status(cat.marketBySymbol(`GEN-${String(i).padStart(4, "0")}-0`, true)!.id));
    sim.stop();
    expect(reached).toEqual([...MARKET_STATUSES]);
  });
});

describe("kind: events", () => {
  const events = expand({ kind: "events", count: 3, verticals: ["football", "tennis"], statuses: ["OPEN", "PAUSED"], marketsPerEvent: 2 });

  it("cycles verticals; football events get a stage, a group on group stage and teams on every third", () => {
    expect(events.map((e) => [e["slug"], e["title"], e["vertical"], e["sport"], e["stage"], e["group"], e["homeCountry"], e["awayCountry"], e["kickoff"]])).toEqual([
      ["gen-0000", "Football event 0", "football", "football", "group", "A", "BRA", "ARG", "+1h"],
      ["gen-0001", "Tennis event 1", "tennis", "tennis", null, null, null, null, "+2h"],
      ["gen-0002", "Football event 2", "football", "football", "quarter_finals", null, null, null, "+3h"],
    ]);
    expect(events[1]!["tags"]).toEqual(["tennis"]);
  });

  it("cycles the statuses over the markets in order, named and typed by vertical, flow off", () => {
    const ms = events.flatMap(marketsOf);
    expect(ms.map((m) => [m.symbol, m.title, m.groupItemTitle, m.marketType, m.actions.map((a) => a.action).join()])).toEqual([
      ["GEN-0000-0", "football question 0.0?", "Item 0", "MATCH_WINNER", ""],
      ["GEN-0000-1", "football question 0.1?", "Item 1", "MATCH_WINNER", "pause"],
      ["GEN-0001-0", "tennis question 1.0?", "Item 0", null, ""],
      ["GEN-0001-1", "tennis question 1.1?", "Item 1", null, "pause"],
      ["GEN-0002-0", "football question 2.0?", "Item 0", "MATCH_WINNER", ""],
      ["GEN-0002-1", "football question 2.1?", "Item 1", "MATCH_WINNER", "pause"],
    ]);
    expect(ms.every((m) => m.flow.enabled === false)).toBe(true);
  });

  it("a vertical that is not a sport has no sport; one market per event has no groupItemTitle; the prefix is upper-cased in symbols", () => {
    const [e] = expand({ kind: "events", count: 1, slugPrefix: "pol-x", verticals: ["politics"] });
    expect(e).toMatchObject({ slug: "pol-x-0000", sport: null, stage: null });
    expect(marketsOf(e!)[0]).not.toHaveProperty("groupItemTitle");
    expect(marketsOf(e!)[0]!.symbol).toBe("POL-X-0000-0");
  });
});

describe("kind: matches", () => {
  const events = expand({ kind: "matches", count: 4 });

  it("pairs teams into matches of two fixtures each, with the match's teams and title", () => {
    expect(events.map((e) => e["slug"])).toEqual([
      "match-bra-arg-0-winner",
      "match-bra-arg-0-prop-1",
      "match-fra-ger-1-winner",
      "match-fra-ger-1-prop-1",
      "match-esp-eng-2-winner",
      "match-esp-eng-2-prop-1",
      "match-por-ned-3-winner",
      "match-por-ned-3-prop-1",
    ]);
    expect(events[0]).toMatchObject({
      title: "Brazil vs Argentina: Winner",
      stage: "group",
      group: "A",
      homeCountry: "BRA",
      awayCountry: "ARG",
      kickoff: "+2h",
      match: { slug: "match-bra-arg-0", title: "BRA v ARG", teamA: { code: "BRA", label: "Brazil" }, teamB: { code: "ARG", label: "Argentina" } },
    });
    expect(marketsOf(events[1]!)[0]).toMatchObject({ title: "Brazil vs Argentina Prop 1?", symbol: "MATCH-0-1", marketType: "MATCH_WINNER" });
  });

  it("cycles the roll-ups: scheduled, one fixture postponed, one voided, all resolved", () => {
    const actions = events.map((e) => marketsOf(e)[0]!.actions.map((a) => a.action).join() || "-");
    expect(actions).toEqual(["-", "-", "postpone", "-", "void", "-", "resolve", "resolve"]);
    expect(events[6]!["kickoff"]).toBe("-6h");
    expect(events.map((e) => e["stage"])).toEqual(["group", "group", "r16", "r16", "quarter_finals", "quarter_finals", "semi_finals", "semi_finals"]);
  });
});

describe("kind: updown", () => {
  it("one event per day, one binary window per step, listed ahead, resolved two minutes after its end, UP and DOWN alternating", () => {
    const [day] = expand({ kind: "updown", asset: "ETH", cadenceMinutes: 5, days: [-1], listedMinutesBefore: 30 });
    expect(day).toMatchObject({
      slug: "eth-up-down-5m-day-minus-1",
      vertical: "crypto",
      tags: ["crypto"],
      cryptoSeries: { id: "eth-up-down-5m", asset: "ETH", cadenceMinutes: 5, dayOffset: -1, windows: 288 },
    });
    const ws = marketsOf(day!);
    expect(ws).toHaveLength(288);
    expect(ws[0]).toMatchObject({
      title: "ETH up or down, window 1 of 288",
      symbol: "ETH-UD5-DM1-000",
      outcomeLabels: ["Up", "Down"],
      marketType: "CRYPTO_UP_DOWN",
      cryptoWindow: { seriesId: "eth-up-down-5m", index: 0 },
      tradingWindow: { preMarketStartsAt: "day-2+1410m", opensAt: "day-1+0m", closesAt: "day-1+5m" },
      actions: [{ at: "day-1+7m", action: "resolve", payoutNumerators: [1, 0] }],
    });
    expect(ws[1]!.actions[0]!.payoutNumerators).toEqual([0, 1]);
    expect(ws[287]).toMatchObject({ symbol: "ETH-UD5-DM1-287", tradingWindow: { opensAt: "day-1+1435m", closesAt: "day-1+1440m" } });
  });

  it("voids every window of a voided day a minute after it opens", () => {
    const days = expand({ kind: "updown", asset: "BTC", days: [0, 2], voidedDays: [2] });
    expect(days.map((d) => d["slug"])).toEqual(["btc-up-down-15m-day-0", "btc-up-down-15m-day-2"]);
    expect(marketsOf(days[0]!)).toHaveLength(96);
    expect(marketsOf(days[0]!)[0]!.tradingWindow.preMarketStartsAt).toBe("day-1+1380m");
    expect(marketsOf(days[1]!)[3]).toMatchObject({ symbol: "BTC-UD15-DP2-003", actions: [{ at: "day+2+46m", action: "void" }] });
  });
});

describe("refusals", () => {
  const problem = (block: Record<string, unknown>): string => {
    const r = generateBlockSchema.safeParse(block);
    if (r.success) throw new Error(`accepted ${JSON.stringify(block)}`);
    const i = r.error.issues[0]!;
    return `${i.path.join(".")}: ${i.message}`;
  };

  it.each([
    [{ kind: "events", count: 0 }, /^count: /],
    [{ kind: "events", count: 5001 }, /^count: /],
    [{ kind: "events", count: 1, slugPrefix: "Gen_1" }, /^slugPrefix: use lowercase kebab-case$/],
    [{ kind: "events", count: 1, statuses: ["LIVE"] }, /^statuses\.0: /],
    [{ kind: "events", count: 1, marketsPerEvent: 21 }, /^marketsPerEvent: /],
    [{ kind: "matches", count: 1, eventsPerMatch: 0 }, /^eventsPerMatch: /],
    [{ kind: "updown", asset: "btc" }, /^asset: expected an upper-case ticker$/],
    [{ kind: "updown", asset: "BTC", cadenceMinutes: 10 }, /^cadenceMinutes: /],
    [{ kind: "updown", asset: "BTC", days: [31] }, /^days\.0: /],
    [{ kind: "updown", asset: "BTC", days: [0, 1], voidedDays: [1, 5] }, /^voidedDays\.1: day 5 is not one of days \[0, 1\]$/],
    [{ kind: "series", count: 1 }, /^kind: /],
    [{ kind: "events", count: 1, colour: "red" }, /^: /],
  ])("%j", (block, expected) => {
    expect(problem(block)).toMatch(expected);
  });

  it("an event's match needs kebab slugs, three-letter codes and a time spec", () => {
    const ok = { slug: "ars-che", teamA: { code: "ARS" }, teamB: { code: "CHE" } };
    expect(eventMatchSchema.parse(ok)).toEqual({ slug: "ars-che", teamA: { code: "ARS", logo: null }, teamB: { code: "CHE", logo: null } });
    const first = (v: unknown) => {
      const r = eventMatchSchema.safeParse(v);
      return r.success ? "accepted" : `${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`;
    };
    expect(first({ ...ok, slug: "Ars-Che" })).toBe("slug: use lowercase kebab-case");
    expect(first({ ...ok, teamA: { code: "ARSE" } })).toBe("teamA.code: expected a three-letter team code");
    expect(first({ ...ok, scheduledAt: "whenever" })).toBe("scheduledAt: expected a relative time (+2m, -1h, now) or ISO-8601");
    expect(first({ ...ok, scheduledAt: "+90m" })).toBe("accepted");
  });
});
