/**
 * Resolution challenges (spec 4.9: GET /api/challenges, GET /api/markets/{symbol}/challenges;
 * `cursor`, `limit` default 50) from the `challenges:` part of configs/scenarios/catalogue-large.yaml
 * at 12:00 UTC: shapes of docs/spec-gaps.md, newest first, keyset cursor paging, a challenge shown
 * from its createdAt and OPEN until its resolvedAt; and the scenario part's validation errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengesPage } from "../../../src/wire/public-reads.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { ValidationError } from "../../../src/core/validation.js";
import { bootLibrary, type Library } from "./library-harness.js";
import { T0, type Json } from "./harness.js";

const HOUR = 3_600_000;
let lib: Library;
beforeAll(async () => {
  lib = await bootLibrary("catalogue-large");
});
afterAll(async () => {
  await lib.close();
});

async function ok(path: string): Promise<Json> {
  const r = await lib.send(path);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  return r.body;
}

const ids = (body: Json): string[] => (body.challenges as Json[]).map((c): string => String(c.id));

describe("catalogue-large.yaml: challenges", () => {
  it("GET /api/challenges: the filed challenges, newest first, with the shape of spec-gaps.md", async () => {
    const body = await ok("/api/challenges");
    challengesPage.parse(body);
    expect(ids(body)).toEqual(["gen-0008-late-goal", "gen-0019-decided-later", "gen-0009-wrong-source", "gen-0020-withdrawn"]);
    expect(body.nextCursor).toBeNull();
    const [late, later, dismissed] = body.challenges as Json[];
    const m = lib.sim.platform.catalogue.marketBySymbol("GEN-0008-0")!;
    const market = await ok(`/api/markets/${m.slug}`);
    expect(late).toEqual({
      id: "gen-0008-late-goal",
      marketId: market.id,
      marketSymbol: "GEN-0008-0",
      marketSlug: market.slug,
      eventSlug: "gen-0008",
      challenger: String(lib.sim.platform.walletSecrets.find((w) => w.name === "mm-1")!.address).toLowerCase(),
      proposedOutcome: 1,
      proposedOutcomeLabel: "No",
      reason: "The result was recorded before extra time ended.",
      bond: "100",
      status: "OPEN",
      createdAt: new Date(T0 - HOUR / 2).toISOString(),
      resolvedAt: null,
    });
    expect(market.status).toBe("DISPUTED");
    // decided after the start: OPEN until then
    expect(later).toMatchObject({ status: "OPEN", resolvedAt: null });
    expect(dismissed).toMatchObject({ status: "DISMISSED", resolvedAt: new Date(T0 - HOUR).toISOString(), challenger: "0x00000000000000000000000000000000000c4a11" });
  });

  it("pages with an opaque cursor until nextCursor is null; a foreign cursor is 400", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const body: Json = await ok(`/api/challenges?limit=3${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`);
      seen.push(...ids(body));
      cursor = body.nextCursor as string | null;
      if (cursor === null) break;
    }
    expect(seen).toEqual(ids(await ok("/api/challenges")));
    const bad = await lib.send("/api/challenges?cursor=bm90LWEtY3Vyc29y");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect((await lib.send("/api/challenges?limit=0")).body.error.code).toBe("invalid_limit");
  });

  it("GET /api/markets/{symbol}/challenges: that market's only; none is an empty page; unknown symbol 404", async () => {
    expect(ids(await ok("/api/markets/GEN-0008-0/challenges"))).toEqual(["gen-0008-late-goal"]);
    expect(await ok("/api/markets/WC-WINNER/challenges")).toEqual({ challenges: [], nextCursor: null });
    const r = await lib.send("/api/markets/NO-SUCH/challenges");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("market_not_found");
  });

  it("on the clock: a challenge appears at its createdAt, and shows its status from its resolvedAt", async () => {
    await lib.clock.advance(2 * HOUR);
    const body = await ok("/api/challenges");
    expect(ids(body)[0]).toBe("gen-0008-not-yet-filed");
    const decided = (body.challenges as Json[]).find((c) => c.id === "gen-0019-decided-later");
    expect(decided).toMatchObject({ status: "UPHELD", resolvedAt: new Date(T0 + HOUR).toISOString() });
    expect(ids(await ok("/api/markets/GEN-0008-0/challenges"))).toEqual(["gen-0008-not-yet-filed", "gen-0008-late-goal"]);
  });
});

describe("scenario challenges: validation", () => {
  const base = `
wallets:
  - name: w1
    address: "0x00000000000000000000000000000000000000a1"
events:
  - slug: e1
    title: E1
    markets:
      - { title: M1, symbol: M1, tradingWindow: { opensAt: -1h, closesAt: +1h } }
`;
  function problems(challenges: string): string[] {
    try {
      parseScenario(base + "challenges:\n" + challenges, "test.yaml");
    } catch (e) {
      if (e instanceof ValidationError) return e.issues.map((i) => `${i.path}: ${i.message}`);
      throw e;
    }
    return [];
  }

  it("a valid part loads", () => {
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 1, reason: r, createdAt: -1h }\n`)).toEqual([]);
  });

  it("names the key of each problem", () => {
    expect(problems(`  - { market: NOPE, challenger: w1, proposedOutcome: 0, reason: r, createdAt: -1h }\n`)).toEqual([
      expect.stringMatching(/^challenges\[0\]\.market: unknown market "NOPE"/),
    ]);
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 2, reason: r, createdAt: -1h }\n`)).toEqual([
      expect.stringMatching(/^challenges\[0\]\.proposedOutcome: market M1 has 2 outcomes/),
    ]);
    expect(problems(`  - { market: M1, challenger: nobody, proposedOutcome: 0, reason: r, createdAt: -1h }\n`)).toEqual([
      expect.stringMatching(/^challenges\[0\]\.challenger: expected a 0x address or the name of a wallet/),
    ]);
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 0, reason: r, status: UPHELD, createdAt: -1h }\n`)).toEqual([
      "challenges[0].resolvedAt: a UPHELD challenge needs resolvedAt",
    ]);
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 0, reason: r, status: DISMISSED, createdAt: -1h, resolvedAt: -2h }\n`)).toEqual([
      "challenges[0].resolvedAt: must not be before createdAt",
    ]);
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 0, reason: r, createdAt: -1h, resolvedAt: now }\n`)).toEqual([
      "challenges[0].resolvedAt: an OPEN challenge has no resolvedAt",
    ]);
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 0, reason: r, createdAt: -1h, status: LOST }\n`)[0]).toMatch(/^challenges\[0\]\.status/);
    expect(problems(`  - { market: M1, challenger: w1, proposedOutcome: 0, reason: r, createdAt: -1h, judge: x }\n`)).toEqual(["challenges[0].judge: unknown key"]);
    expect(
      problems(`  - { id: a, market: M1, challenger: w1, proposedOutcome: 0, reason: r, createdAt: -1h }\n  - { id: a, market: M1, challenger: w1, proposedOutcome: 0, reason: r, createdAt: -1h }\n`),
    ).toEqual(["challenges[1].id: duplicate challenge id a (also challenges[0])"]);
  });
});
