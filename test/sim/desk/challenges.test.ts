/**
 * Resolution challenges (src/sim/desk/challenges.ts) from a scenario's `challenges:` part: records
 * with times resolved against the start and challengers by wallet name (lower-case), computed once
 * per platform; the JSON shown at a time (hidden before createdAt or while its market is unlisted,
 * OPEN until resolvedAt, then its scenario status); pages newest first (createdAt, then id) with a
 * keyset, optionally of one market.
 */
import { describe, expect, it } from "vitest";
import { challengeJson, challengePage, challengeRecords } from "../../../src/sim/desk/challenges.js";
import { uuidOf } from "../../../src/sim/platform/derive.js";
import { catalogueWorld, CHALLENGER, H, iso, T0, W1 } from "./catalogue-world.js";

describe("challengeRecords", () => {
  it("resolves times against the start, wallet names to lower-case addresses, and gives id-less challenges a derived uuid", () => {
    const { sim } = catalogueWorld();
    const recs = challengeRecords(sim.platform);
    expect(recs.map((c) => [c.id, c.marketSymbol, c.challenger, c.status, c.createdAtMs, c.resolvedAtMs, c.bond])).toEqual([
      ["c-old", "ARS-WIN", W1, "UPHELD", T0 - 2 * H, T0 + H, 250_000_000n],
      ["c-old2", "ARS-DRAW", W1, "DISMISSED", T0 - 2 * H, T0 - H, 0n],
      ["c-new", "ELECT", CHALLENGER.toLowerCase(), "OPEN", T0 - H / 2, null, 0n],
      [uuidOf("challenge:3"), "GOALS", W1, "OPEN", T0 + H, null, 0n],
      ["c-unlisted", "LIV-WIN", W1, "OPEN", T0 - H, null, 0n],
    ]);
  });

  it("is computed once per platform", () => {
    const { sim } = catalogueWorld();
    expect(challengeRecords(sim.platform)).toBe(challengeRecords(sim.platform));
    expect(challengeRecords(catalogueWorld().sim.platform)).not.toBe(challengeRecords(sim.platform));
  });
});

describe("challengeJson", () => {
  it("shows a decided challenge as OPEN with no resolvedAt until its resolvedAt, then its status", () => {
    const { sim } = catalogueWorld();
    const cat = sim.platform.catalogue;
    const rec = challengeRecords(sim.platform)[0]!;
    const m = cat.marketBySymbol("ARS-WIN")!;
    const before = {
      id: "c-old",
      marketId: m.id,
      marketSymbol: "ARS-WIN",
      marketSlug: "ars-win",
      eventSlug: "ars-che-result",
      challenger: W1,
      proposedOutcome: 1,
      proposedOutcomeLabel: "No",
      reason: "Offside",
      bond: "250",
      status: "OPEN",
      createdAt: iso(T0 - 2 * H),
      resolvedAt: null,
    };
    expect(challengeJson(cat, rec, T0)).toEqual(before);
    expect(challengeJson(cat, rec, T0 + H - 1)).toEqual(before);
    expect(challengeJson(cat, rec, T0 + H)).toEqual({ ...before, status: "UPHELD", resolvedAt: iso(T0 + H) });
  });

  it("is hidden before its createdAt, shown from it on", () => {
    const { sim } = catalogueWorld();
    const rec = challengeRecords(sim.platform)[3]!;
    expect(challengeJson(sim.platform.catalogue, rec, T0 + H - 1)).toBeUndefined();
    expect(challengeJson(sim.platform.catalogue, rec, T0 + H)).toMatchObject({ marketSymbol: "GOALS", status: "OPEN", proposedOutcomeLabel: "Yes" });
  });

  it("is hidden while its market is unlisted", () => {
    const { sim } = catalogueWorld();
    expect(challengeJson(sim.platform.catalogue, challengeRecords(sim.platform)[4]!, T0)).toBeUndefined();
  });

  it("a proposed outcome without a label shows a null label", () => {
    const { sim } = catalogueWorld();
    const rec = { ...challengeRecords(sim.platform)[0]!, proposedOutcome: 5 };
    expect(challengeJson(sim.platform.catalogue, rec, T0)?.proposedOutcomeLabel).toBeNull();
  });
});

describe("challengePage", () => {
  it("lists the shown challenges newest first, createdAt ties broken by id descending", () => {
    const { sim } = catalogueWorld();
    const p = challengePage(sim.platform, T0, { limit: 10 });
    expect(p.rows.map((r) => r.id)).toEqual(["c-new", "c-old2", "c-old"]);
    expect(p.rows.map((r) => r.status)).toEqual(["OPEN", "DISMISSED", "OPEN"]);
    expect(p.more).toBe(false);
    expect(p.last).toEqual({ createdAtMs: T0 - 2 * H, id: "c-old" });
  });

  it("pages after a key; `more` says whether another page follows", () => {
    const { sim } = catalogueWorld();
    const p1 = challengePage(sim.platform, T0, { limit: 2 });
    expect([p1.rows.map((r) => r.id), p1.more, p1.last]).toEqual([["c-new", "c-old2"], true, { createdAtMs: T0 - 2 * H, id: "c-old2" }]);
    const p2 = challengePage(sim.platform, T0, { limit: 2, after: p1.last! });
    expect([p2.rows.map((r) => r.id), p2.more]).toEqual([["c-old"], false]);
    const p3 = challengePage(sim.platform, T0, { limit: 2, after: p2.last! });
    expect(p3).toEqual({ rows: [], last: undefined, more: false });
  });

  it("filters to one market by symbol", () => {
    const { sim } = catalogueWorld();
    expect(challengePage(sim.platform, T0, { symbol: "ARS-WIN", limit: 10 }).rows.map((r) => r.id)).toEqual(["c-old"]);
    expect(challengePage(sim.platform, T0, { symbol: "LIV-WIN", limit: 10 }).rows).toEqual([]);
    expect(challengePage(sim.platform, T0, { symbol: "NOPE", limit: 10 }).rows).toEqual([]);
  });

  it("a later time shows the challenges created since, first", () => {
    const { sim } = catalogueWorld();
    const rows = challengePage(sim.platform, T0 + H, { limit: 10 }).rows;
    expect(rows.map((r) => [r.marketSymbol, r.status])).toEqual([
      ["GOALS", "OPEN"],
      ["ELECT", "OPEN"],
      ["ARS-DRAW", "DISMISSED"],
      ["ARS-WIN", "UPHELD"],
    ]);
  });
});
