/**
 * The `challenges:` part of a scenario: resolution challenges served by `GET /api/challenges` and
 * `GET /api/markets/{symbol}/challenges` (spec 4.9; shapes not shown, docs/spec-gaps.md):
 *
 *   challenges:
 *     - id: cwc-final-offside          # optional: a uuid derived from the position otherwise
 *       market: WC-FINAL-WINNER        # a symbol written in this file's events
 *       challenger: mm-1               # a wallet name of this file, or a 0x address
 *       proposedOutcome: 1             # the outcome index the challenger says is right
 *       reason: The decisive goal was offside.
 *       bond: "250"                    # settlement token, default "0"
 *       status: UPHELD                 # OPEN (default), UPHELD, DISMISSED, WITHDRAWN
 *       createdAt: -2h                 # shown from this time on
 *       resolvedAt: -30m               # required unless OPEN; until then the challenge shows OPEN
 *
 * Cross-field rules (market, outcome, wallet, times, ids) are checked at load with the key path.
 */
import { z } from "zod";
import { WALLET_RE } from "./derive.js";
import { parseTimeSpec, resolveTimeSpec, type TimeSpec } from "./time.js";
import { amount } from "./scenario-values.js";

export const CHALLENGE_STATUSES = ["OPEN", "UPHELD", "DISMISSED", "WITHDRAWN"] as const;
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

const timeSpec = z.string().transform((s, ctx): TimeSpec => {
  const t = parseTimeSpec(s);
  if (!t) {
    ctx.addIssue({ code: "custom", message: `expected a relative time (+2m, -1h, now) or ISO-8601, got ${JSON.stringify(s)}` });
    return z.NEVER;
  }
  return t;
});

export const challengeSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "use 1 to 64 letters, digits, '.', '_' or '-'").optional(),
  market: z.string().min(1),
  challenger: z.string().min(1),
  proposedOutcome: z.number().int().min(0),
  reason: z.string().min(1),
  bond: amount.default(0n),
  status: z.enum(CHALLENGE_STATUSES).default("OPEN"),
  createdAt: timeSpec,
  resolvedAt: timeSpec.nullable().default(null),
});

export type ScenarioChallenge = z.output<typeof challengeSchema>;

/** What the cross-field check needs of the rest of the scenario. */
export interface ChallengeRefs {
  startMs: number | undefined;
  /** Symbol -> outcome count, for every market written with a symbol. */
  markets: ReadonlyMap<string, number>;
  walletNames: ReadonlySet<string>;
}

type Issue = (path: (string | number)[], message: string) => void;

function comparable(t: TimeSpec, startMs: number | undefined): number | undefined {
  if (t.kind === "absolute") return startMs === undefined ? undefined : t.atMs;
  return resolveTimeSpec(t, startMs ?? 0);
}

export function checkChallenges(challenges: readonly ScenarioChallenge[], refs: ChallengeRefs, issue: Issue): void {
  const ids = new Map<string, number>();
  challenges.forEach((c, i) => {
    const at = (...p: (string | number)[]) => ["challenges", i, ...p];
    if (c.id !== undefined) {
      if (ids.has(c.id)) issue(at("id"), `duplicate challenge id ${c.id} (also challenges[${ids.get(c.id)}])`);
      ids.set(c.id, i);
    }
    const outcomes = refs.markets.get(c.market);
    if (outcomes === undefined) issue(at("market"), `unknown market ${JSON.stringify(c.market)}: use the symbol of a market written in this file`);
    else if (c.proposedOutcome >= outcomes) issue(at("proposedOutcome"), `market ${c.market} has ${outcomes} outcomes (0..${outcomes - 1})`);
    if (!WALLET_RE.test(c.challenger) && !refs.walletNames.has(c.challenger)) {
      issue(at("challenger"), "expected a 0x address or the name of a wallet in this file");
    }
    if (c.status === "OPEN" && c.resolvedAt !== null) issue(at("resolvedAt"), "an OPEN challenge has no resolvedAt");
    if (c.status !== "OPEN" && c.resolvedAt === null) issue(at("resolvedAt"), `a ${c.status} challenge needs resolvedAt`);
    if (c.resolvedAt !== null) {
      const created = comparable(c.createdAt, refs.startMs);
      const resolved = comparable(c.resolvedAt, refs.startMs);
      if (created !== undefined && resolved !== undefined && resolved < created) issue(at("resolvedAt"), "must not be before createdAt");
    }
  });
}
