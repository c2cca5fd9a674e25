/**
 * Public discovery resources: the leaderboard (spec 2.10) and the upcoming calendar (2.11). The
 * spec's rows parse (EIP-55 vault addresses, negative pnl, a caller with no rank yet, an entry in
 * its coming-soon state); a bad row is refused naming the field.
 */
import { describe, expect, it } from "vitest";
import { leaderboard, leaderboardEntry, leaderboardMe, upcoming, upcomingEntry } from "../../src/wire/discovery.js";
import { exampleLeaderboard, exampleLeaderboardEntry, exampleUpcoming } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

describe("leaderboard (2.10)", () => {
  it("parses a page with an anonymous-profile entry, a negative pnl and the caller's unranked row", () => {
    const parsed = expectValid(leaderboard, exampleLeaderboard());
    expect(parsed.entries.map((e) => [e.rank, e.username, e.pnl])).toEqual([
      [1, "quantfox", "1532.25"],
      [2, null, "-12.5"],
    ]);
    expect(parsed.me?.rank).toBeNull();
  });

  it("me is null for anonymous callers; nextCursor is a string until the last page", () => {
    expectValid(leaderboard, exampleLeaderboard({ me: null, nextCursor: "eyJyIjoyfQ" }));
    expectInvalidAt(leaderboard, withPath(exampleLeaderboard(), ["me"], undefined, true), "me");
    expectInvalidAt(leaderboard, withPath(exampleLeaderboard(), ["nextCursor"], undefined, true), "nextCursor");
  });

  it("an entry's rank is an integer (null only on me); pnl and volume are decimal strings", () => {
    expectValid(leaderboardMe, { ...exampleLeaderboardEntry(), rank: null });
    expectInvalidAt(leaderboardEntry, exampleLeaderboardEntry({ rank: null as never }), "rank");
    expect(issueAt(leaderboardEntry, exampleLeaderboardEntry({ rank: 1.5 }), "rank")).toBe("expected an integer");
    expect(issueAt(leaderboardEntry, exampleLeaderboardEntry({ pnl: "1,532.25" }), "pnl")).toBe('expected a decimal string such as "0.55"');
    expectInvalidAt(leaderboardEntry, exampleLeaderboardEntry({ volume: 98211.5 as never }), "volume");
    expect(issueAt(leaderboardEntry, exampleLeaderboardEntry({ vaultAddress: "0xAb58" }), "vaultAddress")).toBe("expected a 0x-prefixed 20-byte hex address");
  });

  it("refuses a period outside today, week, month, all, and a negative total", () => {
    expectInvalidAt(leaderboard, exampleLeaderboard({ period: "year" as never }), "period");
    expect(issueAt(leaderboard, exampleLeaderboard({ total: -1 }), "total")).toBe("expected an integer >= 0");
    expectInvalidAt(leaderboard, exampleLeaderboard({ snapshotAt: "now" }), "snapshotAt");
    expectInvalidAt(leaderboard, withPath(exampleLeaderboard(), ["entries", 1, "username"], 42), "entries[1].username");
  });
});

describe("upcoming (2.11)", () => {
  it("parses an entry in its coming-soon state (counts.events 0)", () => {
    const parsed = expectValid(upcoming, exampleUpcoming());
    expect(parsed.upcoming[0]!.counts).toEqual({ events: 0, markets: 0 });
  });

  it("description, imageUrl and category have no shown type: anything, or absent", () => {
    const entry = exampleUpcoming().upcoming[0]!;
    const { description: _d, imageUrl: _i, category: _c, ...bare } = entry;
    expectValid(upcomingEntry, bare);
    expectValid(upcomingEntry, { ...entry, description: null, imageUrl: { src: "x" }, category: 7 });
  });

  it("refuses a missing competition or tag slug, and negative or fractional counts", () => {
    const value = exampleUpcoming();
    expectInvalidAt(upcoming, withPath(value, ["upcoming", 0, "competition", "slug"], undefined, true), "upcoming[0].competition.slug");
    expectInvalidAt(upcoming, withPath(value, ["upcoming", 0, "tag"], undefined, true), "upcoming[0].tag");
    expect(issueAt(upcoming, withPath(value, ["upcoming", 0, "counts", "markets"], -1), "upcoming[0].counts.markets")).toBe("expected an integer >= 0");
    expect(issueAt(upcoming, withPath(value, ["upcoming", 0, "counts", "events"], 0.5), "upcoming[0].counts.events")).toBe("expected an integer");
    expectInvalidAt(upcoming, {}, "upcoming");
  });
});
