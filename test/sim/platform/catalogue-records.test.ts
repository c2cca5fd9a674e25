/**
 * Building the catalogue's records (src/sim/platform/catalogue-records.ts): tags declared or
 * created from the events' tags, events and markets with every default filled in, a fixture's
 * match (title and team labels defaulted, scheduled at the kickoff unless told), symbols and
 * token ids, frozen records, the same records for the same seed, and bad input refused with
 * PlatformSetupError naming where. (The catalogue's lookups are in catalogue.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { buildCatalogueRecords, type EventInput } from "../../../src/sim/platform/catalogue-records.js";
import { PlatformSetupError } from "../../../src/sim/platform/errors.js";
import { T0 } from "./fixtures.js";

const W = { preMarketStartsAtMs: null, opensAtMs: T0, closesAtMs: null };
const build = (events: EventInput[], tags?: { slug: string; name: string; color?: string | null; iconUrl?: string | null; isFeatured?: boolean }[], seed = 1) =>
  buildCatalogueRecords({ rng: new Rng(seed), events, createdAtMs: T0, ...(tags ? { tags } : {}) });

describe("tags", () => {
  it("keeps declared tags with their defaults, and creates the events' other tags, named from the slug", () => {
    const r = build([{ title: "E", tags: ["football", "Premier League"], markets: [{ title: "m", window: W }] }], [{ slug: "Football", name: "Soccer", isFeatured: true }]);
    expect(r.tags).toEqual([
      { slug: "football", name: "Soccer", color: null, iconUrl: null, isFeatured: true },
      { slug: "premier-league", name: "Premier League", color: null, iconUrl: null, isFeatured: false },
    ]);
    expect(r.events[0]!.tagSlugs).toEqual(["football", "premier-league"]);
  });

  it("refuses a declared tag whose slug has nothing kebab-able in it", () => {
    expect(() => build([], [{ slug: "!!!", name: "Bang" }])).toThrow(new PlatformSetupError('bad tag slug "!!!"'));
  });
});

describe("events and markets", () => {
  it("fill in every default", () => {
    const r = build([{ title: "Arsenal vs Chelsea", markets: [{ title: "Will Arsenal win?", window: W }] }]);
    const e = r.events[0]!;
    expect(e).toMatchObject({
      slug: "arsenal-vs-chelsea",
      title: "Arsenal vs Chelsea",
      vertical: null,
      sport: null,
      tagSlugs: [],
      stage: null,
      group: null,
      homeCountry: null,
      awayCountry: null,
      kickoffMs: null,
      resolutionCriteriaUrl: null,
      match: null,
      cryptoSeries: null,
      cryptoLongSeries: null,
      createdAtMs: T0,
    });
    const { market: m, window } = r.markets[0]!;
    expect(window).toBe(W);
    expect(m).toMatchObject({
      eventId: e.id,
      slug: "arsenal-vs-chelsea-will-arsenal-win",
      symbol: "ARSENAL-VS-CHELSEA-WILL-ARSENAL-WIN",
      groupItemTitle: null,
      outcomeLabels: ["Yes", "No"],
      outcomeCount: 2,
      feeTakerBps: null,
      negRiskEligible: false,
      marketType: null,
      vertical: null,
      kickoffMs: null,
      isNewMarketType: false,
      crypto: null,
      cryptoWindow: null,
      currentReviewRound: 0,
      createdAtMs: T0,
    });
    expect(e.marketIds).toEqual([m.id]);
    expect([m.yesTokenId, m.noTokenId]).toEqual(m.outcomeTokenIds);
  });

  it("a market takes the event's vertical and kickoff unless it has its own kickoff, null included", () => {
    const r = build([
      {
        title: "E",
        vertical: "football",
        kickoffMs: T0 + 1,
        markets: [
          { title: "a", window: W },
          { title: "b", kickoffMs: T0 + 2, window: W },
          { title: "c", kickoffMs: null, window: W },
        ],
      },
    ]);
    expect(r.markets.map(({ market: m }) => [m.vertical, m.kickoffMs])).toEqual([
      ["football", T0 + 1],
      ["football", T0 + 2],
      ["football", null],
    ]);
  });

  it("a multi-outcome market has no YES / NO token ids", () => {
    const m = build([{ title: "E", markets: [{ title: "Who?", outcomeLabels: ["A", "B", "C"], symbol: "WHO", window: W }] }]).markets[0]!.market;
    expect(m).toMatchObject({ symbol: "WHO", outcomeCount: 3, yesTokenId: null, noTokenId: null });
    expect(m.outcomeTokenIds).toHaveLength(3);
  });

  it("records are frozen, and copies of the crypto objects given", () => {
    const crypto = { productType: "PRICE_EVENT", direction: "ABOVE" as const, targetPrice: "100000", instrumentId: "BTC-USD" };
    const series = { id: "s" };
    const r = build([{ title: "E", cryptoSeries: series, markets: [{ title: "m", crypto, cryptoWindow: { index: 0 }, window: W }] }]);
    const { market: m } = r.markets[0]!;
    expect(Object.isFrozen(m) && Object.isFrozen(m.outcomeTokenIds) && Object.isFrozen(r.events[0]) && Object.isFrozen(m.crypto)).toBe(true);
    expect(m.crypto).toEqual(crypto);
    expect(m.crypto).not.toBe(crypto);
    expect(r.events[0]!.cryptoSeries).toEqual(series);
    expect(r.events[0]!.cryptoSeries).not.toBe(series);
  });

  it("the same input and seed give the same ids; another seed others", () => {
    const events: EventInput[] = [{ title: "E", markets: [{ title: "m", window: W }] }];
    const ids = (seed: number) => build(events, undefined, seed).markets.map(({ market: m }) => [m.id, m.eventId, m.conditionId]);
    expect(ids(1)).toEqual(ids(1));
    expect(ids(2)[0]![0]).not.toBe(ids(1)[0]![0]);
  });
});

describe("a fixture's match", () => {
  it("defaults its title from the team labels, a label to the code, and its time to the kickoff", () => {
    const r = build([{ title: "E", kickoffMs: T0 + 5, match: { slug: "ars-che", teamA: { code: "ARS", label: "Arsenal" }, teamB: { code: "CHE" } }, markets: [{ title: "m", window: W }] }]);
    expect(r.events[0]!.match).toEqual({
      slug: "ars-che",
      title: "Arsenal vs CHE",
      teamA: { code: "ARS", label: "Arsenal", logo: null },
      teamB: { code: "CHE", label: "CHE", logo: null },
      scheduledAtMs: T0 + 5,
    });
  });

  it("keeps a title, logos and a scheduled time of its own", () => {
    const r = build([
      { title: "E", kickoffMs: T0 + 5, match: { slug: "m", title: "Derby", teamA: { code: "A", logo: "a.png" }, teamB: { code: "B" }, scheduledAtMs: T0 + 9 }, markets: [{ title: "m", window: W }] },
      { title: "F", match: { slug: "m", teamA: { code: "A" }, teamB: { code: "B" } }, markets: [{ title: "m", window: W }] },
    ]);
    expect(r.events[0]!.match).toMatchObject({ title: "Derby", teamA: { logo: "a.png" }, scheduledAtMs: T0 + 9 });
    expect(r.events[1]!.match!.scheduledAtMs).toBeNull();
  });
});

describe("refusals", () => {
  it("name where the bad market or event is", () => {
    const m = (over: object) => [{ title: "E", markets: [{ title: "ok", window: W }, { title: "m", window: W, ...over }] }];
    expect(() => build(m({ outcomeLabels: ["Only"] }))).toThrow(new PlatformSetupError("events[0].markets[1].outcomeLabels needs at least 2 labels"));
    expect(() => build(m({ slug: "Not Kebab" }))).toThrow('events[0].markets[1].slug "Not Kebab" is taken or not lowercase kebab-case');
    expect(() => build(m({ slug: "e-ok" }))).toThrow('events[0].markets[1].slug "e-ok" is taken or not lowercase kebab-case');
    expect(() => build(m({ symbol: "E-OK" }))).toThrow("events[0].markets[1].symbol E-OK is not unique");
    expect(() => build(m({ window: { ...W, closesAtMs: T0 } }))).toThrow("events[0].markets[1]: closesAt must be after opensAt");
    expect(() => build(m({ window: { ...W, preMarketStartsAtMs: T0 } }))).toThrow("events[0].markets[1]: preMarketStartsAt must be before opensAt");
    expect(() => build([{ title: "A", slug: "x", markets: [] }, { title: "B", slug: "x", markets: [] }])).toThrow('events[1].slug "x" is taken or not lowercase kebab-case');
  });

  it("derive unique slugs when none is given", () => {
    const r = build([
      { title: "Same", markets: [{ title: "Q", window: W }, { title: "Q", symbol: "Q2", window: W }] },
      { title: "Same", markets: [] },
    ]);
    expect(r.events.map((e) => e.slug)).toEqual(["same", "same-2"]);
    expect(r.markets.map(({ market: m }) => m.slug)).toEqual(["same-q", "same-q-2"]);
  });
});
