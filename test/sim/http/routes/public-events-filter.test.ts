/** Multi-value filters of GET /api/events (spec 4.2): CSV + repeated keys, AND/OR, the 20-value cap. */
import { beforeAll, describe, expect, it } from "vitest";
import { errorEnvelopeSchema, eventsPage } from "../../../../src/wire/index.js";
import { EVENT_FILTER_FIELDS } from "../../../../src/sim/http/routes/public-events-query.js";
import { generatedScenario, harness, STAGE_CYCLE, TAG_CYCLE, type GeneratedShape, type Harness } from "./harness.js";

let h: Harness;
let shape: GeneratedShape;

beforeAll(() => {
  const g = generatedScenario(60);
  shape = g.shape;
  h = harness(g.scenario);
});

/** Default-list slugs of generated events whose index passes `pred` (the in-play fixture excluded). */
function where(pred: (i: number) => boolean): string[] {
  return shape.defaultSlugs.filter((s) => /^ev-\d+$/.test(s) && pred(Number(s.slice(3))));
}

async function slugs(q: string): Promise<string[]> {
  const r = await h.get(`/api/events?${q}&limit=100`);
  expect(r.status, q).toBe(200);
  return eventsPage.parse(r.body).events.map((e) => e.slug);
}

async function error(q: string) {
  const r = await h.get(`/api/events?${q}`);
  expect(r.status, q).toBe(400);
  return errorEnvelopeSchema.parse(r.body).error;
}

describe("GET /api/events filters", () => {
  it("one value filters on that field", async () => {
    expect(await slugs("tag=tag-b")).toEqual(where((i) => i % 3 === 1));
    expect(await slugs("vertical=tennis")).toEqual(where((i) => i % 2 === 1));
    expect(await slugs("stage=final")).toEqual(where((i) => STAGE_CYCLE[i % 3] === "final"));
    expect(await slugs("group=C")).toEqual(where((i) => i % 4 === 2));
    expect(await slugs("subcategory=tennis")).toEqual(where((i) => i % 2 === 1));
    expect(await slugs("competition=tag-c")).toEqual(where((i) => i % 3 === 2));
  });

  it("team matches either side, case-insensitively", async () => {
    expect(await slugs("team=t3")).toEqual(where((i) => i % 10 === 3 || (i + 1) % 10 === 3));
  });

  it("values OR within a field: CSV, repeated keys and both mixed give the same list", async () => {
    // The fixture in play (last) is tagged tag-a.
    const want = [...where((i) => TAG_CYCLE[i % 3] !== "tag-c"), "in-play"];
    expect(await slugs("tag=tag-a,tag-b")).toEqual(want);
    expect(await slugs("tag=tag-a&tag=tag-b")).toEqual(await slugs("tag=tag-a,tag-b"));
    const all = await slugs("tag=tag-a,tag-b&tag=tag-c");
    expect(all).toEqual(shape.defaultSlugs);
  });

  it("fields AND together", async () => {
    expect(await slugs("tag=tag-a&vertical=tennis")).toEqual(where((i) => i % 3 === 0 && i % 2 === 1));
    expect(await slugs("tag=tag-a,tag-b&vertical=tennis&group=B")).toEqual(where((i) => i % 3 !== 2 && i % 2 === 1 && i % 4 === 1));
    expect(await slugs("tag=tag-a&tag=nope")).toEqual(await slugs("tag=tag-a"));
    expect(await slugs("tag=nope")).toEqual([]);
  });

  it("fields the simulator has no data for admit no event", async () => {
    for (const f of ["asset", "cadence", "frequency", "predictionType"]) expect(await slugs(`${f}=btc`), f).toEqual([]);
  });

  it("at most 20 distinct values per field; duplicates (any case) are collapsed before counting", async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect(await slugs(`tag=${twenty.join(",")}`)).toEqual([]);
    const dupes = [...twenty, "T0", "t1", " t2 ", "T19"];
    expect(await slugs(`tag=${dupes.slice(0, 12).join(",")}&tag=${dupes.slice(12).join(",")}`)).toEqual([]);
    const e = await error(`tag=${twenty.join(",")}&tag=t20`);
    expect(e.code).toBe("too_many_tag");
    expect(e.details).toMatchObject({ field: "tag", max: 20, got: 21 });
  });

  it("every multi-value field has its own too_many_<field> code (snake_case for predictionType)", async () => {
    const codes: Record<string, string> = {};
    for (const f of EVENT_FILTER_FIELDS) {
      const values = Array.from({ length: 21 }, (_, i) => (f === "stage" ? `s${i}` : `v${i}`));
      codes[f] = (await error(`${f}=${values.join(",")}`)).code;
    }
    expect(codes).toEqual({
      stage: "too_many_stage",
      group: "too_many_group",
      team: "too_many_team",
      tag: "too_many_tag",
      vertical: "too_many_vertical",
      competition: "too_many_competition",
      subcategory: "too_many_subcategory",
      scope: "too_many_scope",
      asset: "too_many_asset",
      cadence: "too_many_cadence",
      frequency: "too_many_frequency",
      predictionType: "too_many_prediction_type",
    });
  });

  it("an unknown stage is 400 invalid_stage with the allowed values", async () => {
    const e = await error("stage=group,semis");
    expect(e.code).toBe("invalid_stage");
    expect(e.details?.allowed).toContain("quarter_finals");
  });

  it("filters apply to the closed list too, and totals count only matching events", async () => {
    const r = await h.get("/api/events?status=closed&vertical=tennis");
    const page = eventsPage.parse(r.body);
    expect(page.events.map((e) => e.slug)).toEqual(shape.closedSlugs); // i % 10 === 9 is odd: tennis
    expect(page.total).toBe(shape.closedSlugs.length);
    const none = eventsPage.parse((await h.get("/api/events?status=closed&vertical=football")).body);
    expect(none).toMatchObject({ events: [], total: 0, openMarketCount: 0, totalMarketCount: 0 });
  });

  it("unknown query parameters are ignored", async () => {
    expect(await slugs("tag=tag-b&colour=red")).toEqual(await slugs("tag=tag-b"));
  });
});
