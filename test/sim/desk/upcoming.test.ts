/**
 * The upcoming calendar (src/sim/desk/upcoming.ts): one announcement per competition (an event's
 * last tag; its first tag is the broad `tag`; untagged events are announced nowhere); startsAt the
 * earliest trading start of the group's markets, listed or not; endsAt the latest close or kickoff;
 * counts of events and markets that trade now; active while a market is unsettled; served when it
 * overlaps [from, to]; earliest start first.
 */
import { describe, expect, it } from "vitest";
import { upcomingEntries } from "../../../src/sim/desk/upcoming.js";
import { uuidOf } from "../../../src/sim/platform/derive.js";
import { catalogueWorld, D, H, iso, T0 } from "./catalogue-world.js";

const WIDE = [T0 - 400 * D, T0 + 400 * D] as const;

describe("upcomingEntries", () => {
  it("announces each competition with its window, counts and names", () => {
    const { sim } = catalogueWorld();
    expect(upcomingEntries(sim.platform.catalogue, ...WIDE)).toEqual([
      {
        id: uuidOf("upcoming:politics"),
        title: "Politics",
        description: null,
        imageUrl: null,
        category: "politics",
        startsAt: iso(T0 - D),
        endsAt: iso(T0 + 30 * D),
        competition: { slug: "politics", name: "Politics" },
        tag: { slug: "politics", name: "Politics" },
        counts: { events: 1, markets: 1 },
      },
      {
        id: uuidOf("upcoming:premier-league"),
        title: "Premier League",
        description: null,
        imageUrl: "https://img.example/pl.png",
        category: "football",
        // the earliest opensAt; LIV-WIN's opensAt (+3d, no close) is the latest end
        startsAt: iso(T0 - H),
        endsAt: iso(T0 + 3 * D),
        competition: { slug: "premier-league", name: "Premier League" },
        tag: { slug: "football", name: "Football" },
        // ars-che-result (2 markets) and ars-che-goals (1); liv-mun-final has no tradeable market yet
        counts: { events: 2, markets: 3 },
      },
    ]);
  });

  it("serves an entry whose [startsAt, endsAt] overlaps the window, bounds included", () => {
    const { sim } = catalogueWorld();
    const cat = sim.platform.catalogue;
    const slugs = (from: number, to: number) => upcomingEntries(cat, from, to).map((e) => e.competition.slug);
    expect(slugs(T0 + 3 * D, T0 + 4 * D)).toEqual(["politics", "premier-league"]);
    expect(slugs(T0 + 3 * D + 1, T0 + 4 * D)).toEqual(["politics"]);
    expect(slugs(T0 - 2 * D, T0 - D)).toEqual(["politics"]);
    expect(slugs(T0 - 2 * D, T0 - D - 1)).toEqual([]);
    expect(slugs(T0 + 31 * D, T0 + 40 * D)).toEqual([]);
  });

  it("counts follow the markets' statuses: a paused market still trades (open set), a closed one does not", async () => {
    const { sim, clock } = catalogueWorld();
    const cat = sim.platform.catalogue;
    sim.setMarketStatus("GOALS", "pause");
    expect(upcomingEntries(cat, ...WIDE)[1]!.counts).toEqual({ events: 2, markets: 3 });
    await clock.advance(2 * H);
    // ARS-WIN and ARS-DRAW closed at +2h: only GOALS (paused) is left
    expect(upcomingEntries(cat, ...WIDE)[1]!.counts).toEqual({ events: 1, markets: 1 });
  });

  it("a competition whose markets are all settled is no longer announced", () => {
    const { sim } = catalogueWorld();
    sim.voidMarket("ELECT");
    expect(upcomingEntries(sim.platform.catalogue, ...WIDE).map((e) => e.competition.slug)).toEqual(["premier-league"]);
  });

  it("an unlisted market keeps its competition announced in the coming-soon state (0 events)", () => {
    const { sim } = catalogueWorld();
    for (const s of ["ARS-WIN", "ARS-DRAW", "GOALS"]) expect(sim.resolveMarket(s, [1, 0]).ok).toBe(true);
    const pl = upcomingEntries(sim.platform.catalogue, ...WIDE).find((e) => e.competition.slug === "premier-league");
    expect(pl?.counts).toEqual({ events: 0, markets: 0 });
    expect(pl?.startsAt).toBe(iso(T0 - H));
  });

  it("events without tags are announced nowhere", () => {
    const { sim } = catalogueWorld();
    const all = upcomingEntries(sim.platform.catalogue, ...WIDE);
    expect(all.map((e) => e.competition.slug)).not.toContain("misc");
    expect(all).toHaveLength(2);
  });
});
