/**
 * Matches (src/sim/desk/matches.ts): events grouped by match slug in catalogue order; an event's
 * schedule status from its listed markets (CANCELLED all voided, POSTPONED one postponed, PLAYED all
 * past trading, else SCHEDULED) and the 3.4 roll-up; the match JSON (earliest kickoff, the first
 * event's group, tags merged, nested events and market rows, updatedAt following lifecycle moves);
 * a match with no listed market is not public.
 */
import { describe, expect, it } from "vitest";
import { eventScheduleStatus, matchGroups, matchJson, publicMatches, rollUp } from "../../../src/sim/desk/matches.js";
import { matchIdOf, NO_QUOTES } from "../../../src/sim/platform/market-json.js";
import { catalogueWorld, D, H, iso, T0 } from "./catalogue-world.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
type Json = any;
type Row = Record<string, unknown>;

function world() {
  const w = catalogueWorld();
  const cat = w.sim.platform.catalogue;
  const ev = (slug: string) => cat.eventBySlug(slug)!;
  const status = (slug: string) => eventScheduleStatus(cat, ev(slug));
  const match = (slug: string): Json => matchJson(cat, slug, matchGroups(cat).get(slug)!, NO_QUOTES, w.clock.now());
  return { ...w, cat, ev, status, match };
}

describe("rollUp (spec 3.4)", () => {
  it("CANCELLED wins, then POSTPONED, then PLAYED when every child is played, else SCHEDULED", () => {
    expect(rollUp(["PLAYED", "POSTPONED", "CANCELLED"])).toBe("CANCELLED");
    expect(rollUp(["SCHEDULED", "POSTPONED", "PLAYED"])).toBe("POSTPONED");
    expect(rollUp(["PLAYED", "PLAYED"])).toBe("PLAYED");
    expect(rollUp(["PLAYED", "SCHEDULED"])).toBe("SCHEDULED");
    expect(rollUp([])).toBe("SCHEDULED");
  });
});

describe("matchGroups", () => {
  it("groups every event with a match by slug, in catalogue order, listed or not", () => {
    const { cat } = world();
    const groups = matchGroups(cat);
    expect([...groups.keys()]).toEqual(["ars-che", "liv-mun"]);
    expect(groups.get("ars-che")!.map((e) => e.slug)).toEqual(["ars-che-result", "ars-che-goals"]);
    expect(groups.get("liv-mun")!.map((e) => e.slug)).toEqual(["liv-mun-final"]);
  });
});

describe("eventScheduleStatus", () => {
  it("is SCHEDULED while markets trade, and for an event with no listed market", () => {
    const w = world();
    expect([w.status("ars-che-result"), w.status("liv-mun-final")]).toEqual(["SCHEDULED", "SCHEDULED"]);
  });

  it("is POSTPONED when one market is postponed", () => {
    const w = world();
    expect(w.sim.setMarketStatus("ARS-DRAW", "postpone").ok).toBe(true);
    expect(w.status("ars-che-result")).toBe("POSTPONED");
  });

  it("is CANCELLED only when every listed market is voided", () => {
    const w = world();
    w.sim.voidMarket("ARS-WIN");
    expect(w.status("ars-che-result")).toBe("SCHEDULED");
    w.sim.voidMarket("ARS-DRAW");
    expect(w.status("ars-che-result")).toBe("CANCELLED");
  });

  it("is PLAYED once every listed market is past trading (closed, resolved or voided alike)", async () => {
    const w = world();
    w.sim.resolveMarket("ARS-WIN", [1, 0]);
    expect(w.status("ars-che-result")).toBe("SCHEDULED");
    await w.clock.advance(2 * H);
    expect(w.cat.status(w.cat.marketBySymbol("ARS-DRAW")!.id)).toBe("CLOSED");
    expect(w.status("ars-che-result")).toBe("PLAYED");
  });
});

describe("matchJson", () => {
  it("builds the match from its events: earliest kickoff, the first event's group, tags once, nested events and markets", () => {
    const w = world();
    const m = w.match("ars-che");
    const football = { slug: "football", name: "Football", color: null, iconUrl: "https://img.example/football.png" };
    const pl = { slug: "premier-league", name: "Premier League", color: "#3d195b", iconUrl: "https://img.example/pl.png" };
    const { events, ...head } = m;
    expect(head).toEqual({
      id: matchIdOf("ars-che"),
      slug: "ars-che",
      title: "Arsenal vs Chelsea",
      teamA: { code: "ARS", label: "Arsenal", logo: null },
      teamB: { code: "CHE", label: "Chelsea", logo: null },
      group: "A",
      tags: [football, pl],
      stage: "group",
      kickoffAt: iso(T0 + 2 * H),
      state: "LIVE",
      scheduleStatus: "SCHEDULED",
      createdAt: iso(T0),
      updatedAt: iso(T0),
    });
    expect(events.map((e: Row) => [e.slug, e.group, e.stage, e.scheduledAt, (e.tags as Row[]).map((t: Row) => t.slug), (e.markets as Row[]).map((r: Row) => r.symbol)])).toEqual([
      ["ars-che-result", "A", "group", iso(T0 + 2 * H), ["football", "premier-league"], ["ARS-WIN", "ARS-DRAW"]],
      ["ars-che-goals", "B", "group", iso(T0 + 3 * H), ["football", "premier-league"], ["GOALS"]],
    ]);
    expect(events[0]).toMatchObject({ id: w.ev("ars-che-result").id, title: "Arsenal v Chelsea", teamA: head.teamA, teamB: head.teamB, createdAt: iso(T0) });
  });

  it("updatedAt follows the newest lifecycle move of its markets, on the match and on that event only", async () => {
    const w = world();
    await w.clock.advance(10 * 60_000);
    w.sim.setMarketStatus("GOALS", "postpone");
    const m = w.match("ars-che");
    expect(m.updatedAt).toBe(iso(T0 + 10 * 60_000));
    expect(m.events[1].updatedAt).toBe(iso(T0 + 10 * 60_000));
    expect(Date.parse(m.events[0].updatedAt)).toBeLessThan(T0 + 10 * 60_000);
    expect(m.scheduleStatus).toBe("POSTPONED");
  });

  it("rolls the events' statuses up: CANCELLED over POSTPONED", () => {
    const w = world();
    w.sim.setMarketStatus("GOALS", "postpone");
    w.sim.voidMarket("ARS-WIN");
    w.sim.voidMarket("ARS-DRAW");
    expect(w.match("ars-che").scheduleStatus).toBe("CANCELLED");
  });

  it("is PLAYED only when every event is played", async () => {
    const w = world();
    await w.clock.advance(2 * H);
    expect(w.match("ars-che").scheduleStatus).toBe("SCHEDULED");
    await w.clock.advance(H);
    expect(w.match("ars-che").scheduleStatus).toBe("PLAYED");
  });

  it("is undefined for a match with no listed market (404 match_not_found); listed once its market is", async () => {
    const w = world();
    expect(w.match("liv-mun")).toBeUndefined();
    await w.clock.advance(2 * D);
    const m = w.match("liv-mun");
    expect(m).toMatchObject({ slug: "liv-mun", title: "LIV vs MUN", group: null, stage: "final", kickoffAt: iso(T0 + D) });
    expect(m.events[0].markets.map((r: Row) => [r.symbol, r.status])).toEqual([["LIV-WIN", "PRE_MARKET"]]);
  });
});

describe("publicMatches", () => {
  it("lists only the matches with a listed market, in catalogue order", async () => {
    const w = world();
    expect(publicMatches(w.cat, NO_QUOTES, T0).map((m) => m.slug)).toEqual(["ars-che"]);
    await w.clock.advance(2 * D);
    expect(publicMatches(w.cat, NO_QUOTES, w.clock.now()).map((m) => m.slug)).toEqual(["ars-che", "liv-mun"]);
  });
});
