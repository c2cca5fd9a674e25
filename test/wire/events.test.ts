/**
 * Events and matches (spec 2.2, 2.5, 2.8) and their pages: the spec's rows parse, event-level
 * nullable keys are present-with-null (omitting one is refused), an unknown stage is tolerated
 * while an unknown schedule status is not, and a bad nested field is named by its whole path.
 */
import { describe, expect, it } from "vitest";
import { event, eventsPage, match, matchEvent, matchesPage } from "../../src/wire/events.js";
import { EVENT_ID, exampleEvent, exampleMarket, exampleMatch, exampleMatchEvent, exampleTeamRef } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

describe("Match and MatchEvent (2.2, 2.5)", () => {
  it("parse a final with its nested event and market", () => {
    const parsed = expectValid(match, exampleMatch());
    expect(parsed.events[0]!.markets[0]!.status).toBe("OPEN");
    expect(parsed.state).toBe("LIVE");
    expect(expectValid(matchesPage, { matches: [exampleMatch()] }).matches).toHaveLength(1);
  });

  it("a group-stage match carries its group letter; a postponed one its schedule status", () => {
    expectValid(match, exampleMatch({ stage: "group", group: "C", scheduleStatus: "POSTPONED", kickoffAt: null }));
    expectValid(matchEvent, exampleMatchEvent({ stage: "group", group: "C", scheduledAt: null }));
  });

  it("tolerates a new stage, refuses a schedule status outside 3.4", () => {
    expectValid(match, exampleMatch({ stage: "club_world_cup" }));
    expectInvalidAt(match, exampleMatch({ scheduleStatus: "DELAYED" as never }), "scheduleStatus");
  });

  it.each([
    [["id"], "m-1", "id", "expected a uuid"],
    [["kickoffAt"], "20:00", "kickoffAt", "expected an ISO-8601 date-time"],
    [["teamA", "logo"], undefined, "teamA.logo", "Invalid input: expected string, received undefined"],
    [["events", 0, "scheduledAt"], "tonight", "events[0].scheduledAt", "expected an ISO-8601 date-time"],
    [["events", 0, "markets", 0, "feeTakerBps"], "100", "events[0].markets[0].feeTakerBps", "Invalid input: expected number, received string"],
    [["tags", 0, "slug"], null, "tags[0].slug", "Invalid input: expected string, received null"],
  ] as [(string | number)[], unknown, string, string][])("Match refuses %j, naming %s", (path, bad, named, message) => {
    const broken = bad === undefined ? withPath(exampleMatch(), path, undefined, true) : withPath(exampleMatch(), path, bad);
    expect(issueAt(match, broken, named)).toBe(message);
  });

  it("a MatchEvent needs both teams", () => {
    expectInvalidAt(matchEvent, withPath(exampleMatchEvent(), ["teamB"], undefined, true), "teamB");
    expectInvalidAt(matchEvent, exampleMatchEvent({ teamA: { ...exampleTeamRef(), code: 1 as never } }), "teamA.code");
  });
});

describe("Event (2.8)", () => {
  it("parses a match fixture, and a match-less fixture with match null", () => {
    expect(expectValid(event, exampleEvent()).id).toBe(EVENT_ID);
    expectValid(event, exampleEvent({ match: null, stage: "group", group: "A" }));
  });

  it("parses a crypto Up/Down day: cryptoSeries set, extra event keys kept", () => {
    const parsed = expectValid(event, { ...exampleEvent({ sport: null, homeCountry: null, awayCountry: null, stage: null, match: null, cryptoSeries: { id: "btc-15m", cadenceMinutes: 15 }, totalMarketCount: 96 }), vertical: "crypto" });
    expect(parsed.cryptoSeries).toEqual({ id: "btc-15m", cadenceMinutes: 15 });
    expect(parsed.vertical).toBe("crypto");
  });

  it("every named event-level key is present (null, not omitted)", () => {
    for (const key of ["sport", "homeCountry", "awayCountry", "stage", "group", "match", "cryptoSeries", "cryptoLongSeries", "resolutionCriteriaUrl"]) {
      expectInvalidAt(event, withPath(exampleEvent(), [key], undefined, true), key);
    }
  });

  it("refuses bad counters, a match that is not an object, and a bad nested market", () => {
    expect(issueAt(event, exampleEvent({ openMarketCount: -1 }), "openMarketCount")).toBe("expected an integer >= 0");
    expectInvalidAt(event, exampleEvent({ totalMarketCount: "1" as never }), "totalMarketCount");
    expectInvalidAt(event, exampleEvent({ match: "fifa-wc-2026-final-arg-fra" as never }), "match");
    expectInvalidAt(event, exampleEvent({ markets: [exampleMarket(), exampleMarket({ status: "HALTED" as never })] }), "markets[1].status");
  });
});

describe("events page (docs/spec-gaps.md)", () => {
  it("the counters and facets only on a first page: both forms parse", () => {
    expectValid(eventsPage, { events: [exampleEvent()], total: 1, openMarketCount: 1, totalMarketCount: 1, facets: { tag: { "world-cup": 1 } } });
    expectValid(eventsPage, { events: [] });
  });

  it("refuses a missing events list and a negative total", () => {
    expectInvalidAt(eventsPage, { total: 0 }, "events");
    expectInvalidAt(eventsPage, { events: [], total: -2 }, "total");
    expectInvalidAt(eventsPage, { events: [exampleEvent({ slug: null as never })] }, "events[0].slug");
  });
});
