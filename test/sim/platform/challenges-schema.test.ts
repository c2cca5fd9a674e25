/**
 * The `challenges:` part of a scenario (src/sim/platform/challenges-schema.ts): one challenge's
 * fields and defaults (bond 0, status OPEN, no resolvedAt), and the cross-field rules checked at
 * load with the key path: unique ids, a market written in the file and one of its outcomes, a
 * wallet name or address, resolvedAt exactly when decided and never before createdAt.
 */
import { describe, expect, it } from "vitest";
import { CHALLENGE_STATUSES, challengeSchema, checkChallenges, type ChallengeRefs, type ScenarioChallenge } from "../../../src/sim/platform/challenges-schema.js";

const BASE = { market: "WIN", challenger: "mm-1", proposedOutcome: 1, reason: "Offside.", createdAt: "-2h" };
const START = Date.UTC(2026, 5, 1, 12);
const REFS: ChallengeRefs = { startMs: START, markets: new Map([["WIN", 3]]), walletNames: new Set(["mm-1"]) };

function issues(list: Record<string, unknown>[], refs: ChallengeRefs = REFS): string[] {
  const out: string[] = [];
  const parsed = list.map((c) => challengeSchema.parse(c));
  checkChallenges(parsed, refs, (path, message) => out.push(`${path.join(".")}: ${message}`));
  return out;
}

describe("challengeSchema", () => {
  it("fills in bond 0, status OPEN and no resolvedAt, and parses the times", () => {
    const c: ScenarioChallenge = challengeSchema.parse(BASE);
    expect(c).toEqual({ ...BASE, bond: 0n, status: "OPEN", createdAt: { kind: "relative", offsetMs: -7_200_000 }, resolvedAt: null });
    expect(CHALLENGE_STATUSES).toEqual(["OPEN", "UPHELD", "DISMISSED", "WITHDRAWN"]);
  });

  it("reads every field", () => {
    const c = challengeSchema.parse({ ...BASE, id: "cwc-final.1_b", bond: "250.5", status: "UPHELD", resolvedAt: "2026-06-01T11:30:00Z" });
    expect(c).toMatchObject({ id: "cwc-final.1_b", bond: 250_500_000n, status: "UPHELD", resolvedAt: { kind: "absolute", atMs: Date.UTC(2026, 5, 1, 11, 30) } });
  });

  it.each([
    [{ id: "has space" }, "id", "use 1 to 64 letters, digits, '.', '_' or '-'"],
    [{ id: "x".repeat(65) }, "id", "use 1 to 64 letters, digits, '.', '_' or '-'"],
    [{ createdAt: "whenever" }, "createdAt", 'expected a relative time (+2m, -1h, now) or ISO-8601, got "whenever"'],
    [{ bond: "-1" }, "bond", 'expected a non-negative decimal string with at most 6 decimals, got "-1"'],
    [{ status: "PENDING" }, "status", undefined],
    [{ proposedOutcome: -1 }, "proposedOutcome", undefined],
    [{ reason: "" }, "reason", undefined],
    [{ extra: 1 }, "", undefined],
  ])("refuses %j at its key", (patch, path, message) => {
    const r = challengeSchema.safeParse({ ...BASE, ...patch });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.error.issues[0]!.path.join(".")).toBe(path);
    if (message !== undefined) expect(r.error.issues[0]!.message).toBe(message);
  });
});

describe("checkChallenges", () => {
  it("accepts good challenges: a wallet name or a 0x address, decided ones with resolvedAt", () => {
    expect(
      issues([
        { ...BASE, id: "a" },
        { ...BASE, id: "b", challenger: "0x1111111111111111111111111111111111111111", status: "DISMISSED", resolvedAt: "-1h" },
        { ...BASE, status: "WITHDRAWN", resolvedAt: "-2h" },
      ]),
    ).toEqual([]);
  });

  it("names a duplicate id and where it was first used", () => {
    expect(issues([{ ...BASE, id: "x" }, { ...BASE, id: "y" }, { ...BASE, id: "x" }])).toEqual(["challenges.2.id: duplicate challenge id x (also challenges[0])"]);
  });

  it("refuses a market not written in the file, and an outcome the market does not have", () => {
    expect(issues([{ ...BASE, market: "NOPE" }])).toEqual(['challenges.0.market: unknown market "NOPE": use the symbol of a market written in this file']);
    expect(issues([{ ...BASE, proposedOutcome: 3 }])).toEqual(["challenges.0.proposedOutcome: market WIN has 3 outcomes (0..2)"]);
  });

  it("refuses a challenger that is neither a wallet name of the file nor an address", () => {
    expect(issues([{ ...BASE, challenger: "mm-2" }])).toEqual(["challenges.0.challenger: expected a 0x address or the name of a wallet in this file"]);
  });

  it("wants resolvedAt exactly when the challenge is decided", () => {
    expect(issues([{ ...BASE, resolvedAt: "-1h" }])).toEqual(["challenges.0.resolvedAt: an OPEN challenge has no resolvedAt"]);
    expect(issues([{ ...BASE, status: "UPHELD" }])).toEqual(["challenges.0.resolvedAt: a UPHELD challenge needs resolvedAt"]);
  });

  it("refuses a resolvedAt before createdAt, comparing relative and absolute times from the start", () => {
    expect(issues([{ ...BASE, status: "UPHELD", createdAt: "-1h", resolvedAt: "-2h" }])).toEqual(["challenges.0.resolvedAt: must not be before createdAt"]);
    expect(issues([{ ...BASE, status: "UPHELD", createdAt: "-1h", resolvedAt: "2026-06-01T10:00:00Z" }])).toEqual(["challenges.0.resolvedAt: must not be before createdAt"]);
    expect(issues([{ ...BASE, status: "UPHELD", createdAt: "-1h", resolvedAt: "2026-06-01T11:00:00Z" }])).toEqual([]);
  });

  it("cannot order an absolute time against a relative one when the start is `now`, so lets it pass", () => {
    const nowStart = { ...REFS, startMs: undefined };
    expect(issues([{ ...BASE, status: "UPHELD", createdAt: "-1h", resolvedAt: "2020-01-01T00:00:00Z" }], nowStart)).toEqual([]);
    expect(issues([{ ...BASE, status: "UPHELD", createdAt: "-1h", resolvedAt: "-2h" }], nowStart)).toEqual(["challenges.0.resolvedAt: must not be before createdAt"]);
  });
});
