/**
 * Generated catalogues: a compact `generate:` section of a scenario that stands for many
 * hand-written events. Each block expands, in order, into ordinary scenario events (appended
 * after `events:`) before the scenario's cross-field checks run, so a generated event is
 * validated like a written one and one file and seed always give the same catalogue.
 *
 *   generate:
 *     - kind: events          # plain fixtures across verticals, markets cycling through statuses
 *       count: 160
 *       slugPrefix: gen
 *       verticals: [football, tennis, basketball, politics, crypto]
 *       statuses: [OPEN, PRE_MARKET, PAUSED, ...]     # default: every status of 3.1
 *       marketsPerEvent: 2
 *     - kind: matches         # fixtures grouped into matches (teams, stage, scheduleStatus roll-up)
 *       count: 8
 *       eventsPerMatch: 2
 *
 * Statuses are reached the way the platform reaches them: the trading window (PRE_MARKET, OPEN,
 * CLOSED) and administrative actions at the scenario start (pause, suspend, postpone, delay,
 * await_resolution, dispute, resolve, void); the simulator must be started for the actions to run.
 */
import { z } from "zod";
import { MARKET_STATUSES, type MarketStatus } from "./lifecycle.js";
import { parseTimeSpec } from "./time.js";

const teamCode = z.string().regex(/^[A-Z]{3}$/, "expected a three-letter team code");

export const teamRefSchema = z.strictObject({
  code: teamCode,
  label: z.string().min(1).optional(),
  logo: z.string().nullable().default(null),
});

/** An event's match (spec 2.2): events with the same slug form one match. */
export const eventMatchSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use lowercase kebab-case"),
  title: z.string().min(1).optional(),
  teamA: teamRefSchema,
  teamB: teamRefSchema,
  /** When this event is scheduled, if not the match kickoff (partial-game props). */
  scheduledAt: z
    .string()
    .refine((t) => parseTimeSpec(t) !== undefined, "expected a relative time (+2m, -1h, now) or ISO-8601")
    .optional(),
});

const VERTICALS = ["football", "tennis", "basketball", "politics", "crypto", "esports"] as const;
const SPORTS: ReadonlySet<string> = new Set(["football", "tennis", "basketball", "esports"]);

const eventsBlock = z.strictObject({
  kind: z.literal("events"),
  count: z.number().int().min(1).max(5000),
  slugPrefix: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use lowercase kebab-case").default("gen"),
  verticals: z.array(z.string().regex(/^[a-z0-9-]+$/)).min(1).default([...VERTICALS]),
  statuses: z.array(z.enum(MARKET_STATUSES)).min(1).default([...MARKET_STATUSES]),
  marketsPerEvent: z.number().int().min(1).max(20).default(1),
});

const matchesBlock = z.strictObject({
  kind: z.literal("matches"),
  count: z.number().int().min(1).max(500),
  slugPrefix: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use lowercase kebab-case").default("match"),
  eventsPerMatch: z.number().int().min(1).max(10).default(2),
});

const updownBlock = z.strictObject({
  kind: z.literal("updown"),
  /** Ticker, e.g. BTC. */
  asset: z.string().regex(/^[A-Z0-9]{2,10}$/, "expected an upper-case ticker"),
  cadenceMinutes: z.union([z.literal(5), z.literal(15)]).default(15),
  /** UTC days relative to the start's day (0: that day). */
  days: z.array(z.number().int().min(-30).max(30)).min(1).default([-1, 0, 1]),
  /** How long before its start a window is listed (post-only until it opens). Minutes. */
  listedMinutesBefore: z.number().int().min(1).max(1440).default(60),
  /** Days (of `days`) whose every window is VOIDED a minute after it opens instead of resolving (spec 2.8 exception). */
  voidedDays: z.array(z.number().int()).default([]),
}).superRefine((b, ctx) => {
  b.voidedDays.forEach((d, i) => {
    if (!b.days.includes(d)) ctx.addIssue({ code: "custom", path: ["voidedDays", i], message: `day ${d} is not one of days [${b.days.join(", ")}]` });
  });
});

export const generateBlockSchema = z.discriminatedUnion("kind", [eventsBlock, matchesBlock, updownBlock]);
export type GenerateBlock = z.output<typeof generateBlockSchema>;

/** A raw scenario event, as it would be written in YAML. */
export type RawEvent = Record<string, unknown>;

interface StatusSetup {
  tradingWindow: Record<string, string | null>;
  actions: Record<string, unknown>[];
}

/** How a market reaches `status` at the scenario start. */
export function statusSetup(status: MarketStatus, outcomes: number): StatusSetup {
  const open = { preMarketStartsAt: null, opensAt: "-1h", closesAt: "+30d" };
  const closed = { preMarketStartsAt: null, opensAt: "-3h", closesAt: "-1h" };
  const at = (action: string, extra: Record<string, unknown> = {}) => [{ at: "now", action, ...extra }];
  switch (status) {
    case "PRE_MARKET":
      return { tradingWindow: { preMarketStartsAt: "-1h", opensAt: "+2d", closesAt: "+30d" }, actions: [] };
    case "OPEN":
      return { tradingWindow: open, actions: [] };
    case "PAUSED":
      return { tradingWindow: open, actions: at("pause") };
    case "SUSPENDED":
      return { tradingWindow: open, actions: at("suspend") };
    case "POSTPONED":
      return { tradingWindow: open, actions: at("postpone") };
    case "CLOSED":
      return { tradingWindow: closed, actions: [] };
    case "DELAYED":
      return { tradingWindow: closed, actions: at("delay") };
    case "PENDING_RESOLUTION":
      return { tradingWindow: closed, actions: at("await_resolution") };
    case "DISPUTED":
      return { tradingWindow: closed, actions: at("dispute") };
    case "RESOLVED":
      return { tradingWindow: closed, actions: at("resolve", { payoutNumerators: Array.from({ length: outcomes }, (_, i) => (i === 0 ? 1 : 0)) }) };
    case "VOIDED":
      return { tradingWindow: closed, actions: at("void") };
  }
}

const STAGES = ["group", "r16", "quarter_finals", "semi_finals", "final", null] as const;
const GROUPS = ["A", "B", "C", "D"];
const TEAMS: readonly [string, string][] = [
  ["BRA", "Brazil"], ["ARG", "Argentina"], ["FRA", "France"], ["GER", "Germany"], ["ESP", "Spain"], ["ENG", "England"],
  ["POR", "Portugal"], ["NED", "Netherlands"], ["ITA", "Italy"], ["URU", "Uruguay"], ["MEX", "Mexico"], ["USA", "United States"],
  ["JPN", "Japan"], ["KOR", "Korea Republic"], ["MAR", "Morocco"], ["SEN", "Senegal"],
];

function market(title: string, symbol: string, status: MarketStatus, extra: Record<string, unknown> = {}): RawEvent {
  const s = statusSetup(status, 2);
  return { title, symbol, tradingWindow: s.tradingWindow, actions: s.actions, flow: { enabled: false }, ...extra };
}

function expandEvents(b: z.output<typeof eventsBlock>): RawEvent[] {
  const out: RawEvent[] = [];
  const upper = b.slugPrefix.toUpperCase();
  for (let i = 0; i < b.count; i++) {
    const vertical = b.verticals[i % b.verticals.length]!;
    const n = String(i).padStart(4, "0");
    const football = vertical === "football";
    const stage = football ? STAGES[i % STAGES.length]! : null;
    const markets: RawEvent[] = [];
    for (let j = 0; j < b.marketsPerEvent; j++) {
      const status = b.statuses[(i * b.marketsPerEvent + j) % b.statuses.length]!;
      markets.push(
        market(`${vertical} question ${i}.${j}?`, `${upper}-${n}-${j}`, status, {
          marketType: football ? "MATCH_WINNER" : null,
          ...(b.marketsPerEvent > 1 ? { groupItemTitle: `Item ${j}` } : {}),
        }),
      );
    }
    out.push({
      slug: `${b.slugPrefix}-${n}`,
      title: `${vertical[0]!.toUpperCase()}${vertical.slice(1)} event ${i}`,
      vertical,
      sport: SPORTS.has(vertical) ? vertical : null,
      tags: [vertical],
      stage,
      group: stage === "group" ? GROUPS[i % GROUPS.length]! : null,
      homeCountry: football && i % 3 === 0 ? TEAMS[i % TEAMS.length]![0] : null,
      awayCountry: football && i % 3 === 0 ? TEAMS[(i + 1) % TEAMS.length]![0] : null,
      kickoff: `+${(i % 72) + 1}h`,
      markets,
    });
  }
  return out;
}

/**
 * Matches cycle through the four roll-ups of 3.4 (i % 4): SCHEDULED (markets open), POSTPONED
 * (one event postponed), CANCELLED (one event's markets voided), PLAYED (every event settled).
 */
function expandMatches(b: z.output<typeof matchesBlock>): RawEvent[] {
  const out: RawEvent[] = [];
  const upper = b.slugPrefix.toUpperCase();
  for (let i = 0; i < b.count; i++) {
    const [aCode, aLabel] = TEAMS[(2 * i) % TEAMS.length]!;
    const [bCode, bLabel] = TEAMS[(2 * i + 1) % TEAMS.length]!;
    const slug = `${b.slugPrefix}-${aCode.toLowerCase()}-${bCode.toLowerCase()}-${i}`;
    const stage = STAGES[i % (STAGES.length - 1)]!;
    const roll = i % 4;
    for (let j = 0; j < b.eventsPerMatch; j++) {
      let status: MarketStatus = "OPEN";
      if (roll === 1 && j === 0) status = "POSTPONED";
      if (roll === 2 && j === 0) status = "VOIDED";
      if (roll === 3) status = "RESOLVED";
      const label = j === 0 ? "Winner" : `Prop ${j}`;
      out.push({
        slug: `${slug}-${label.toLowerCase().replace(/\s+/g, "-")}`,
        title: `${aLabel} vs ${bLabel}: ${label}`,
        vertical: "football",
        sport: "football",
        tags: ["football"],
        stage,
        group: stage === "group" ? GROUPS[i % GROUPS.length]! : null,
        homeCountry: aCode,
        awayCountry: bCode,
        kickoff: roll === 3 ? "-6h" : `+${i + 2}h`,
        match: { slug, title: `${aCode} v ${bCode}`, teamA: { code: aCode, label: aLabel }, teamB: { code: bCode, label: bLabel } },
        markets: [market(`${aLabel} vs ${bLabel} ${label}?`, `${upper}-${i}-${j}`, status, { marketType: "MATCH_WINNER" })],
      });
    }
  }
  return out;
}

/**
 * An Up/Down series (spec 2.8): one event per UTC day, one binary window per cadence step
 * (96 at 15 minutes), each listed `listedMinutesBefore` ahead (post-only), open for its step,
 * then CLOSED and resolved two minutes later (UP and DOWN alternate); on a `voidedDays` day every
 * window is voided a minute after it opens instead (2.8's all-VOIDED day). Times are day-aligned
 * (`day+N+15m`), so the series sits on UTC days whatever the start.
 */
function expandUpDown(b: z.output<typeof updownBlock>): RawEvent[] {
  const out: RawEvent[] = [];
  const seriesId = `${b.asset.toLowerCase()}-up-down-${b.cadenceMinutes}m`;
  const steps = (24 * 60) / b.cadenceMinutes;
  for (const d of b.days) {
    const day = `day${d >= 0 ? "+" : "-"}${Math.abs(d)}`;
    const at = (minutes: number): string => (minutes >= 0 ? `${day}+${minutes}m` : `day${d - 1 >= 0 ? "+" : "-"}${Math.abs(d - 1)}+${1440 + minutes}m`);
    const markets: RawEvent[] = [];
    for (let k = 0; k < steps; k++) {
      const start = k * b.cadenceMinutes;
      const end = start + b.cadenceMinutes;
      markets.push({
        title: `${b.asset} up or down, window ${k + 1} of ${steps}`,
        symbol: `${b.asset}-UD${b.cadenceMinutes}-D${d < 0 ? "M" : "P"}${Math.abs(d)}-${String(k).padStart(3, "0")}`,
        outcomeLabels: ["Up", "Down"],
        marketType: "CRYPTO_UP_DOWN",
        crypto: { productType: "UP_DOWN_WINDOW", direction: null, targetPrice: null, instrumentId: `${b.asset}-USD` },
        cryptoWindow: { seriesId, index: k },
        resolutionCriteria: `Up if the ${b.asset}-USD price at the end of the window is above its price at the start.`,
        tradingWindow: { preMarketStartsAt: at(start - b.listedMinutesBefore), opensAt: at(start), closesAt: at(end) },
        actions: b.voidedDays.includes(d)
          ? [{ at: at(start + 1), action: "void" }]
          : [{ at: at(end + 2), action: "resolve", payoutNumerators: k % 2 === 0 ? [1, 0] : [0, 1] }],
        flow: { enabled: false },
      });
    }
    out.push({
      slug: `${seriesId}-day${d < 0 ? "-minus-" : "-"}${Math.abs(d)}`,
      title: `${b.asset} up or down (${b.cadenceMinutes}-minute windows), day ${d}`,
      vertical: "crypto",
      tags: ["crypto"],
      cryptoSeries: { id: seriesId, asset: b.asset, cadenceMinutes: b.cadenceMinutes, dayOffset: d, windows: steps },
      markets,
    });
  }
  return out;
}

/** The events a block stands for, in order. */
export function expandBlock(b: GenerateBlock): RawEvent[] {
  if (b.kind === "events") return expandEvents(b);
  if (b.kind === "matches") return expandMatches(b);
  return expandUpDown(b);
}
