/**
 * The daemon config schema. Every section has defaults so a short file works; every object is
 * strict so a misspelt key is an error instead of a silently ignored setting.
 *
 * `mode` selects the shape: `live` needs `platform` (URL, API key) and wallets with private keys;
 * `simulator` runs against the embedded simulator and may omit keys (see wallets.ts).
 */
import { z } from "zod";
import { moneyField, pathField, priceField, secretField, textField, type LoadContext } from "./fields.js";
import { liveWalletsSchema, simulatorWalletsSchema } from "./wallets.js";
import { recordSectionSchema } from "./record-section.js";
import { autoMergeSectionSchema } from "./auto-merge-section.js";
import { settlementSectionSchema } from "./settlement-section.js";
import { controlsSectionSchema } from "./controls-section.js";
import { adverseSectionSchema } from "./adverse-section.js";
import { paperPlatformFields, paperSectionSchema } from "./paper-section.js";
import { bucketOverridesSchema } from "../ratelimit/overrides.js";
import { checkShardId, localAddressSchema, shardSchema } from "./shard-section.js";

const int = (min: number, max = Number.MAX_SAFE_INTEGER): z.ZodInt => z.int().min(min).max(max);
const names = (pattern: RegExp, what: string): z.ZodArray<z.ZodString> =>
  z.array(z.string().regex(pattern, what));

/** The spec caps each events-list filter at 20 distinct values (too_many_<field>). */
const filterValues = z.array(z.string().min(1)).max(20);


/**
 * Reject codes with an ordinary explanation, never counted towards a reject storm: a post-only
 * quote crossing a book that moved (the normal race of a maker), a market that closed or paused
 * under the order, a wallet whose vault is still deploying. `risk.explainedRejectCodes` defaults
 * to these, and so does a Risk built without a config.
 */
export const DEFAULT_EXPLAINED_REJECT_CODES: readonly string[] = ["post_only_would_cross", "market_not_open", "vault_not_deployed"];
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function platformRateFields(): {
  partnerKind: z.ZodDefault<z.ZodLiteral<"multi_wallet">>;
  rateLimitPerMin: z.ZodDefault<z.ZodInt>;
  requestTimeoutMs: z.ZodDefault<z.ZodInt>;
  rateSafetyMargin: z.ZodDefault<z.ZodNumber>;
  localAddress: z.ZodOptional<z.ZodString>;
  rateLimits: z.ZodOptional<ReturnType<typeof bucketOverridesSchema>>;
} {
  return {
    /** Only multi_wallet partners are supported by the daemon (one key, many X-User-Wallet). */
    partnerKind: z.literal("multi_wallet").default("multi_wallet"),
    /** The partner's `rateLimitPerMin` tier (spec 8.2): scales every per-wallet bucket. */
    rateLimitPerMin: int(1, 1_000_000).default(600),
    requestTimeoutMs: int(100, 300_000).default(10_000),
    /** Fraction of each rate bucket left unused as headroom. */
    rateSafetyMargin: z.number().min(0).max(0.5).default(0.1),
    /** Outgoing HTTP and WebSocket connections leave from this local IP (shard-section.ts). */
    localAddress: localAddressSchema(),
    /** The environment's own numbers for 8.2 buckets (bucket id -> { limit, windowSec }); absent: the spec's defaults. */
    rateLimits: bucketOverridesSchema().optional(),
  };
}

function livePlatformSchema(ctx: LoadContext) {
  return z.strictObject({
    baseUrl: textField(ctx).pipe(z.url({ protocol: /^https?$/, error: "expected an http(s) URL" })),
    /** The user stream URL; absent: derived from baseUrl (ws(s)://host/ws/user). */
    wsUrl: textField(ctx)
      .pipe(z.url({ protocol: /^wss?$/, error: "expected a ws(s) URL" }))
      .optional(),
    apiKey: secretField(ctx, "apiKey"),
    ...platformRateFields(),
  });
}

/** The embedded simulator issues its own key and has no URL; the rate tier still applies. */
function simulatorPlatformSchema() {
  return z.strictObject(platformRateFields()).prefault({});
}

function simulatorSchema(ctx: LoadContext) {
  return z
    .strictObject({
      /** Scenario file for the embedded simulator; absent: the simulator's built-in scenario. */
      scenario: pathField(ctx).optional(),
      seed: int(0, 0xffff_ffff).default(1),
      clock: z.enum(["realtime", "virtual"]).default("realtime"),
      /** Virtual clock only: simulated milliseconds per real millisecond. */
      speed: z.number().positive().max(1_000_000).optional(),
    })
    .prefault({});
}

function instanceSchema() {
  return z
    .strictObject({
      /**
       * Prefix of every clientOrderId this daemon sends. One running daemon per id and partner:
       * orders of this prefix from an earlier (crashed) run are adopted at start-up, but a second
       * daemon with the same id refuses to start when it sees the first one place orders, and a
       * running daemon that sees another one's orders halts (instance_conflict). Use a distinct id
       * per daemon (docs/operations.md).
       */
      id: z.string().regex(/^[a-z0-9-]{1,16}$/, "expected 1-16 characters of [a-z0-9-]"),
      /**
       * When a wallet holds orders of this id from another session at start-up: how long to watch
       * for a live daemon placing them, beyond the late-recording window (request timeout + 10 s),
       * before adopting them. 0: no watch (adopt at once; the running checks remain).
       */
      startupWatchSec: int(0, 600).default(10),
    })
    .prefault({ id: "mm1" });
}

function marketsSchema() {
  return z
    .strictObject({
      /** Markets quoted by slug (or symbol), on top of whatever the filters select. */
      slugs: names(/^\S+$/, "expected a market slug without spaces").default([]),
      /** Every market of these events. */
      eventSlugs: names(/^\S+$/, "expected an event slug without spaces").default([]),
      filters: z
        .strictObject({
          tag: filterValues.default([]),
          vertical: filterValues.default([]),
          stage: filterValues.default([]),
        })
        .prefault({}),
      refreshSec: int(5, 86_400).default(60),
      maxMarkets: int(1, 10_000).default(20),
    })
    .prefault({});
}

function strategySchema() {
  return z.strictObject({
    name: z.string().regex(/^[a-z][a-z0-9_-]*$/, "expected a strategy name such as \"ladder\""),
    /** Checked later against the strategy's own params schema. */
    params: z.record(z.string(), z.unknown()).default({}),
  });
}

function quotingSchema() {
  return z
    .strictObject({
      refreshMs: int(50, 3_600_000).default(1_000),
      /** Cancel every quote this long before a market's closesAt. */
      pullBeforeCloseSec: int(0, 86_400).default(60),
      /** Replace an order older than this even when it is still at the desired price. */
      maxOrderAgeSec: int(1, 86_400 * 30).default(600),
      /** Keep a live order whose price is within this many ticks of the desired price. */
      priceToleranceTicks: int(0, 999).default(0),
      /** Keep a live order whose size is within this fraction of the desired size. */
      sizeTolerance: z.number().min(0).max(1).default(0.1),
      /** Sign orders GTD with this lifetime; absent: GTC. */
      orderExpirySec: int(10, 86_400 * 365).optional(),
    })
    .prefault({});
}

/** Load shedding when the event loop falls behind (src/bot/guards/load-shedder.ts). */
function capacitySchema() {
  return z
    .strictObject({
      enabled: z.boolean().default(true),
      /** Behind: the event-loop lag (90th percentile of the last stepSec) over this. */
      maxLagMs: int(10, 60_000).default(250),
      /** Keeping up (lag at most half of maxLagMs) this long undoes one step. */
      recoverySec: int(1, 3_600).default(30),
      /** At most one shedding step this often. */
      stepSec: int(1, 600).default(10),
      /** First step: the quote refresh runs every refreshFactor x quoting.refreshMs. */
      refreshFactor: int(1, 100).default(4),
      /** Each later step sheds this fraction of the quoted markets (at least one). */
      shedFraction: z.number().gt(0).max(1).default(0.25),
    })
    .prefault({});
}

function riskSchema() {
  return z
    .strictObject({
      /** Shares of one outcome token held, per market and wallet. */
      maxPositionPerMarket: moneyField({ positive: true }).prefault("500"),
      /** Worst-case loss per neg-risk event group and wallet (src/bot/risk/event-group.ts); absent: no event cap. */
      maxEventLoss: moneyField({ positive: true }).optional(),
      /** Settlement-token notional of open BUY orders plus positions, per wallet. */
      maxNotionalPerWallet: moneyField({ positive: true }).prefault("1000"),
      maxNotionalTotal: moneyField({ positive: true }).prefault("5000"),
      maxOpenOrdersPerMarket: int(1, 1_000).default(10),
      /** Shares per order. */
      maxOrderSize: moneyField({ positive: true }).prefault("100"),
      /** Never quote outside this band. */
      priceBand: z
        .strictObject({ min: priceField().prefault("0.02"), max: priceField().prefault("0.98") })
        .prefault({}),
      /** Realised plus unrealised loss since 00:00 UTC that halts quoting. */
      dailyLossLimit: moneyField({ positive: true }).prefault("200"),
      /** Pull quotes on a market whose data is older than this. */
      staleDataSec: int(1, 3_600).default(30),
      /** Pull all quotes when the user stream has been down this long. */
      streamDownSec: int(1, 3_600).default(20),
      /**
       * The dead-man switch: a wallet whose user stream AND REST requests have both failed this
       * long, or every wallet after the event loop stalled this long, is halted (dead_man) and its
       * quotes pulled with cancel-all once the platform answers; quoting resumes after a full sync.
       */
      deadManSec: int(1, 3_600).default(30),
      /** Halt when more order rejections than this arrive within a minute. */
      maxRejectsPerMin: int(1, 100_000).default(30),
      /** A reject_storm halt clears after this many seconds without an unexplained reject. */
      rejectQuietSec: int(1, 86_400).default(60),
      /** Reject codes with an ordinary explanation: never counted towards a reject storm. */
      explainedRejectCodes: z
        .array(z.string().regex(/^[a-z][a-z0-9_]*$/, "expected an error code such as post_only_would_cross"))
        .default([...DEFAULT_EXPLAINED_REJECT_CODES]),
      /** Drifted positions one reconciliation tolerates before halting the wallet. */
      driftTolerance: int(0, 1_000_000).default(0),
      /** A quote a limit shrinks below this many shares is dropped instead (no dust orders). */
      minQuoteSize: moneyField({ positive: true }).prefault("1"),
    })
    .prefault({});
}

function commonSections(ctx: LoadContext) {
  return {
    instance: instanceSchema(),
    shard: shardSchema(ctx),
    markets: marketsSchema(),
    strategy: strategySchema(),
    quoting: quotingSchema(),
    capacity: capacitySchema(),
    risk: riskSchema(),
    /** Strategy-independent quoting controls (controls-section.ts); all off by default. */
    controls: controlsSectionSchema(),
    metrics: z
      .strictObject({
        host: textField(ctx).pipe(z.string().min(1)).default("127.0.0.1"),
        /** 0 picks a free port (tests). */
        port: int(0, 65_535).default(9464),
        /** Node process metrics (process_*, nodejs_*) next to the daemon's own; absent: true. */
        processMetrics: z.boolean().optional(),
        /** Bearer token of GET /status (`mm status`): "${ENV}" or { file }; absent: /status is off (404). */
        statusToken: secretField(ctx, "token").optional(),
      })
      .prefault({}),
    admin: z.strictObject({ token: secretField(ctx, "token").optional() }).prefault({}),
    log: z.strictObject({ level: z.enum(LOG_LEVELS).default("info") }).prefault({}),
    shutdown: z.strictObject({ cancelDeadlineSec: int(1, 600).default(15) }).prefault({}),
    record: recordSectionSchema(ctx).optional(),
    /** Checking that payouts of settled markets arrive (settlement-section.ts). */
    settlement: settlementSectionSchema(),
    adverse: adverseSectionSchema(),
    /** Merging YES+NO pairs back into collateral (auto-merge-section.ts); off by default. */
    autoMerge: autoMergeSectionSchema(),
  };
}

interface CrossFieldView {
  /** Undefined: the section is invalid (its own issues say why); its rules are skipped. */
  risk: { priceBand: { min: bigint; max: bigint }; maxNotionalPerWallet: bigint; maxNotionalTotal: bigint } | undefined;
  wallets: readonly { name: string; markets?: string[] | undefined }[] | undefined;
}

/** Cross-field rules that one field's schema cannot see. */
function checkCommon(cfg: CrossFieldView, ctx: Pick<z.core.$RefinementCtx, "addIssue">): void {
  if (cfg.risk !== undefined) checkRisk(cfg.risk, ctx);
  if (cfg.wallets !== undefined) checkMarketOwners(cfg.wallets, ctx);
}

function checkRisk(risk: NonNullable<CrossFieldView["risk"]>, ctx: Pick<z.core.$RefinementCtx, "addIssue">): void {
  const band = risk.priceBand;
  if (band.min >= band.max) {
    ctx.addIssue({ code: "custom", path: ["risk", "priceBand"], message: "min must be below max" });
  }
  if (risk.maxNotionalPerWallet > risk.maxNotionalTotal) {
    ctx.addIssue({
      code: "custom",
      path: ["risk", "maxNotionalPerWallet"],
      message: "must not exceed risk.maxNotionalTotal",
    });
  }
}

function checkMarketOwners(wallets: NonNullable<CrossFieldView["wallets"]>, ctx: Pick<z.core.$RefinementCtx, "addIssue">): void {
  const owner = new Map<string, string>();
  wallets.forEach((w, i) => {
    (w.markets ?? []).forEach((m, j) => {
      const other = owner.get(m);
      if (other !== undefined && other !== w.name) {
        ctx.addIssue({
          code: "custom",
          path: ["wallets", i, "markets", j],
          message: `market ${m} is already assigned to wallet ${other} (one wallet per market avoids self-trades)`,
        });
      } else owner.set(m, w.name);
    });
  });
}

/**
 * The cross-field rules over the sections that are valid on their own, for a config that fails
 * elsewhere: they run in the same pass as the other problems instead of after those are fixed
 * (zod runs a refinement only over a value that parsed). Each: the dotted path and the message.
 */
export function crossFieldIssues(value: unknown, ctx: LoadContext): { path: PropertyKey[]; message: string }[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const v = value as Record<string, unknown>;
  const risk = riskSchema().safeParse(v["risk"]);
  const wallets = (v["mode"] === "live" ? liveWalletsSchema(ctx) : simulatorWalletsSchema(ctx)).safeParse(v["wallets"]);
  const out: { path: PropertyKey[]; message: string }[] = [];
  checkCommon(
    { risk: risk.success ? risk.data : undefined, wallets: wallets.success ? wallets.data : undefined },
    { addIssue: (issue) => void out.push({ path: typeof issue === "string" ? [] : [...(issue.path ?? [])], message: typeof issue === "string" ? issue : (issue.message ?? "invalid") }) },
  );
  return out;
}

/** The schema for one load: secrets and `${VAR}` resolve against `ctx`. */
export function buildConfigSchema(ctx: LoadContext) {
  const live = z.strictObject({
    mode: z.literal("live"),
    platform: livePlatformSchema(ctx),
    wallets: liveWalletsSchema(ctx),
    ...commonSections(ctx),
  });
  const simulator = z.strictObject({
    mode: z.literal("simulator"),
    simulator: simulatorSchema(ctx),
    platform: simulatorPlatformSchema(),
    wallets: simulatorWalletsSchema(ctx),
    ...commonSections(ctx),
  });
  // Paper trading (paper-section.ts): a real platform's public data, orders matched locally.
  const paper = z.strictObject({
    mode: z.literal("paper"),
    paper: paperSectionSchema(),
    platform: z.strictObject({ ...paperPlatformFields(ctx), ...platformRateFields() }),
    wallets: simulatorWalletsSchema(ctx),
    ...commonSections(ctx),
  });
  return z.discriminatedUnion("mode", [live, simulator, paper]).superRefine(checkCommon).superRefine(checkShardId);
}

export type ConfigSchema = ReturnType<typeof buildConfigSchema>;
/** Parsed simulator-mode config, before wallet keys are filled in (see finalizeWallets). */
export type ParsedConfig = z.output<ConfigSchema>;
