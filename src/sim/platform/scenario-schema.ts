/**
 * The zod schema of a simulator scenario file (YAML). Validation errors name the key path
 * (`partners[0].keys[1].key`); cross-field rules (unique ids, references, key issuance
 * rules of spec 5.3, window order) are checked here too so a bad file fails at load, not
 * halfway through a run.
 */
import { z } from "zod";
import { privateKeyToAccount } from "viem/accounts";
import { MAX_FEE_RATE_BPS } from "../../core/amounts.js";
import { WALLET_RE } from "./derive.js";
import { FAULT_KINDS } from "./faults.js";
import { keyIssuanceProblem, parseApiKey, SCOPES } from "./keys.js";
import { MARKET_STATUSES } from "./lifecycle.js";
import { KNOWN_STAGES as STAGES } from "../../wire/enums.js";
import { bucketOverridesSchema } from "../../ratelimit/overrides.js";
import type { Partner, PARTNER_KINDS } from "./partners.js";
import { parseTimeSpec, resolveTimeSpec, type TimeSpec } from "./time.js";
import { flowSchema } from "./flow-schema.js";
import { amount, duration, probabilityPrice, quantity } from "./scenario-values.js";
import { eventMatchSchema, expandBlock, generateBlockSchema } from "./scenario-generate.js";
import { challengeSchema, checkChallenges } from "./challenges-schema.js";

/** The stage enum of spec 2.2, as the wire contract lists it. */
export { STAGES };

const timeSpec = z.string().transform((s, ctx): TimeSpec => {
  const t = parseTimeSpec(s);
  if (!t) {
    ctx.addIssue({ code: "custom", message: `expected a relative time (+2m, -1h, now) or ISO-8601, got ${JSON.stringify(s)}` });
    return z.NEVER;
  }
  return t;
});

const address = z.string().regex(WALLET_RE, "expected 0x followed by 40 hex characters");
const nullableText = z.string().nullable().default(null);

const platformSchema = z.strictObject({
  env: z.string().regex(/^[A-Za-z0-9]+$/).default("sim"),
  keyPrefix: z.string().regex(/^[A-Za-z0-9]+$/).default("pmk"),
  chainId: z.number().int().positive().default(31337),
  apiVersion: z.string().min(1).default("2026-10-09"),
  defaultFeeTakerBps: z.number().int().min(0).max(MAX_FEE_RATE_BPS).default(100),
  domain: z.strictObject({ name: z.string().default("PartnerExchange"), version: z.string().default("1") }).prefault({}),
  contracts: z
    .strictObject({
      exchange: z.strictObject({ binary: address.optional(), negRisk: address.optional() }).prefault({}),
      vaultFactory: address.optional(),
      collateral: address.optional(),
    })
    .prefault({}),
  /** The environment's own numbers for 8.2 buckets (src/ratelimit/overrides.ts); absent: the spec's defaults. */
  rateLimits: bucketOverridesSchema().optional(),
});

const keySchema = z.strictObject({
  key: z.string().refine((k) => parseApiKey(k) !== undefined, "expected <key_prefix>_<env>_<keyId>_<secret>, each part [A-Za-z0-9]+"),
  scopes: z.array(z.enum(SCOPES)).min(1),
  expiresAt: timeSpec.nullable().default(null),
  revoked: z.boolean().default(false),
  ipAllowlist: z.array(z.string().min(1)).nullable().default(null),
  label: nullableText,
});

const partnerSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9._-]+$/, "use letters, digits, '.', '_' or '-'"),
  name: z.string().min(1),
  kind: z.enum(["single_wallet", "multi_wallet"] satisfies typeof PARTNER_KINDS),
  requirePerWalletKyc: z.boolean().default(true),
  rateLimitPerMin: z.number().int().positive().default(600),
  /** An address, or the `name` of a wallet of this file. */
  associatedWallet: z.string().nullable().default(null),
  suspended: z.boolean().default(false),
  keys: z.array(keySchema).default([]),
});

const walletSchema = z.strictObject({
  name: z.string().min(1).optional(),
  privateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "expected 0x followed by 64 hex characters").optional(),
  address: address.optional(),
  partner: z.string().nullable().default(null),
  kyc: z.strictObject({ approved: z.boolean().default(false), tier: z.number().int().min(0).default(0) }).prefault({}),
  banned: z.boolean().default(false),
  onboarded: z.boolean().default(true),
  balances: z
    .strictObject({
      collateral: amount.default(0n),
      positions: z
        .array(z.strictObject({ market: z.string().min(1), outcome: z.number().int().min(0), quantity }))
        .default([]),
    })
    .prefault({}),
});

const actionSchema = z.strictObject({
  at: timeSpec,
  action: z.enum(["pause", "resume", "suspend", "postpone", "close", "delay", "await_resolution", "dispute", "set_status", "resolve", "void"]),
  status: z.enum(MARKET_STATUSES).optional(),
  payoutNumerators: z.array(z.number().int().min(0)).optional(),
});

const marketSchema = z.strictObject({
  title: z.string().min(1),
  groupItemTitle: z.string().nullable().default(null),
  slug: z.string().optional(),
  symbol: z.string().regex(/^[A-Za-z0-9._-]+$/, "use letters, digits, '.', '_' or '-'").optional(),
  outcomeLabels: z.array(z.string().min(1)).min(2).default(["Yes", "No"]),
  feeTakerBps: z.number().int().min(0).max(MAX_FEE_RATE_BPS).nullable().default(null),
  negRiskEligible: z.boolean().default(false),
  marketType: nullableText,
  resolutionWindowHours: z.number().int().positive().nullable().default(null),
  officialDataSource: nullableText,
  sourceMatchId: nullableText,
  resolutionCriteria: nullableText,
  /** Spec 2.7: non-null on every crypto market. */
  crypto: z
    .strictObject({
      productType: z.string().min(1),
      direction: z.enum(["ABOVE", "BELOW"]).nullable().default(null),
      targetPrice: z.string().regex(/^\d+(\.\d+)?$/, "expected a decimal string").nullable().default(null),
      instrumentId: nullableText,
    })
    .nullable()
    .default(null),
  /** Up/Down windows (shape not shown): served with startsAt/endsAt from the trading window. */
  cryptoWindow: z.record(z.string(), z.unknown()).nullable().default(null),
  kickoff: timeSpec.nullable().optional(),
  tradingWindow: z.strictObject({
    preMarketStartsAt: timeSpec.nullable().default(null),
    opensAt: timeSpec,
    closesAt: timeSpec.nullable().default(null),
  }),
  /** Fair value of each outcome (binary: one value for YES is enough). */
  fairValue: z.union([probabilityPrice, z.array(probabilityPrice).min(1)]).optional(),
  flow: flowSchema.prefault({}),
  /** Administrative moves at set times (pause at +5m, resolve at +10m, ...). */
  actions: z.array(actionSchema).default([]),
});

const eventSchema = z.strictObject({
  slug: z.string().optional(),
  title: z.string().min(1),
  vertical: nullableText,
  sport: nullableText,
  tags: z.array(z.string().min(1)).default([]),
  stage: z.enum(STAGES).nullable().default(null),
  group: nullableText,
  homeCountry: nullableText,
  awayCountry: nullableText,
  kickoff: timeSpec.nullable().default(null),
  resolutionCriteriaUrl: nullableText,
  /** The match this fixture belongs to (spec 2.2); events with the same match slug form one match. */
  match: eventMatchSchema.nullable().default(null),
  /** Spec 2.8: non-null on an Up/Down series day; its markets are the day's windows. */
  cryptoSeries: z.record(z.string(), z.unknown()).nullable().default(null),
  /** Spec 2.8: one period of a recurring long-dated crypto series. */
  cryptoLongSeries: z.record(z.string(), z.unknown()).nullable().default(null),
  markets: z.array(marketSchema).min(1),
});

/** A fault rule; `time` parses the window bounds (scenario files resolve them, the control route keeps text). */
export function faultRuleSchema<T extends z.ZodType>(time: T) {
  return z.strictObject({
    id: z.string().min(1).optional(),
    route: z.string().min(1),
    kind: z.enum(FAULT_KINDS),
    probability: z.number().min(0).max(1).optional(),
    window: z.strictObject({ from: time.nullable().optional(), to: time.nullable().optional() }).optional(),
    nextCalls: z.number().int().min(0).optional(),
    retryAfterSec: z.number().int().min(0).optional(),
    latencyMs: z.number().int().min(0).optional(),
    completeAfterMs: z.number().int().min(0).optional(),
    execute: z.union([z.boolean(), z.number().min(0).max(1)]).optional(),
    rawBody: z.boolean().optional(),
    upstreamStatus: z.number().int().min(100).max(599).optional(),
    upstreamBody: z.unknown().optional(),
    copies: z.number().int().min(2).optional(),
    reorderWindow: z.number().int().min(2).optional(),
  });
}

const faultSchema = faultRuleSchema(timeSpec);

const startSchema = z
  .string()
  .default("now")
  .transform((s, ctx): { kind: "now" } | { kind: "absolute"; atMs: number } => {
    if (s === "now") return { kind: "now" };
    const t = parseTimeSpec(s);
    if (!t || t.kind !== "absolute") {
      ctx.addIssue({ code: "custom", message: `start must be "now" or an ISO-8601 date-time, got ${JSON.stringify(s)}` });
      return z.NEVER;
    }
    return t;
  });

const baseSchema = z.strictObject({
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  start: startSchema,
  platform: platformSchema.prefault({}),
  onboarding: z.strictObject({ vaultDeployMs: duration.default(10_000), limitsConfirmMs: duration.default(25_000) }).prefault({}),
  tags: z
    .array(
      z.strictObject({
        slug: z.string().min(1),
        name: z.string().min(1),
        color: nullableText,
        iconUrl: nullableText,
        isFeatured: z.boolean().default(false),
      }),
    )
    .default([]),
  partners: z.array(partnerSchema).default([]),
  wallets: z.array(walletSchema).default([]),
  events: z.array(eventSchema).default([]),
  /** Generated catalogue blocks (scenario-generate.ts), appended to `events` in order. */
  generate: z.array(generateBlockSchema).default([]),
  faults: z.array(faultSchema).default([]),
  /** Resolution challenges (spec 4.9, challenges-schema.ts). */
  challenges: z.array(challengeSchema).default([]),
});

type Base = z.output<typeof baseSchema>;
type Ctx = z.RefinementCtx;

function issue(ctx: Ctx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", message, path });
}

/** Wallet addresses (lowercase), derived from private keys where given; undefined when unusable. */
function walletAddresses(s: Base, ctx: Ctx): (string | undefined)[] {
  return s.wallets.map((w, i) => {
    let derived: string | undefined;
    if (w.privateKey) {
      try {
        derived = privateKeyToAccount(w.privateKey as `0x${string}`).address.toLowerCase();
      } catch {
        issue(ctx, ["wallets", i, "privateKey"], "not a valid secp256k1 private key");
        return undefined;
      }
    }
    if (!derived && !w.address) {
      issue(ctx, ["wallets", i], "a wallet needs a privateKey or an address");
      return undefined;
    }
    if (derived && w.address && w.address.toLowerCase() !== derived) {
      issue(ctx, ["wallets", i, "address"], `does not match the private key (which gives ${derived})`);
    }
    return derived ?? w.address!.toLowerCase();
  });
}

function checkPartnersAndWallets(s: Base, ctx: Ctx): void {
  const addresses = walletAddresses(s, ctx);
  const seenWallets = new Map<string, number>();
  addresses.forEach((a, i) => {
    if (a === undefined) return;
    if (seenWallets.has(a)) issue(ctx, ["wallets", i], `duplicate wallet ${a} (also wallets[${seenWallets.get(a)}])`);
    seenWallets.set(a, i);
  });
  const names = new Map<string, number>();
  s.wallets.forEach((w, i) => {
    if (w.name === undefined) return;
    if (names.has(w.name)) issue(ctx, ["wallets", i, "name"], `duplicate wallet name ${w.name}`);
    names.set(w.name, i);
  });
  const partnerIds = new Set<string>();
  s.partners.forEach((p, i) => {
    if (partnerIds.has(p.id)) issue(ctx, ["partners", i, "id"], `duplicate partner id ${p.id}`);
    partnerIds.add(p.id);
  });
  s.wallets.forEach((w, i) => {
    if (w.partner !== null && !partnerIds.has(w.partner)) issue(ctx, ["wallets", i, "partner"], `unknown partner ${w.partner}`);
  });
  const keyIds = new Set<string>();
  s.partners.forEach((p, pi) => {
    let assoc: string | null = null;
    if (p.associatedWallet !== null) {
      const byName = names.get(p.associatedWallet);
      assoc = byName !== undefined ? (addresses[byName] ?? null) : WALLET_RE.test(p.associatedWallet) ? p.associatedWallet.toLowerCase() : null;
      if (assoc === null) issue(ctx, ["partners", pi, "associatedWallet"], "expected a 0x address or the name of a wallet in this file");
    }
    const assocIndex = assoc === null ? undefined : seenWallets.get(assoc);
    const assocWallet = assocIndex === undefined ? undefined : s.wallets[assocIndex];
    const own = s.wallets.filter((w) => w.partner === p.id && !w.banned && (!p.requirePerWalletKyc || (w.kyc.approved && w.kyc.tier >= 1)));
    const asPartner: Partner = { ...p, associatedWallet: assoc, createdAtMs: 0 };
    p.keys.forEach((k, ki) => {
      const parsed = parseApiKey(k.key);
      if (!parsed) return;
      if (parsed.prefix !== s.platform.keyPrefix || parsed.env !== s.platform.env) {
        issue(ctx, ["partners", pi, "keys", ki, "key"], `key must start with ${s.platform.keyPrefix}_${s.platform.env}_`);
      }
      if (keyIds.has(parsed.keyId)) issue(ctx, ["partners", pi, "keys", ki, "key"], `duplicate key id ${parsed.keyId}`);
      keyIds.add(parsed.keyId);
      const problem = keyIssuanceProblem(asPartner, k.scopes, {
        associatedWalletKycApproved: !!assocWallet && assocWallet.kyc.approved && assocWallet.kyc.tier >= 1 && !assocWallet.banned,
        activeTradingWallets: own.length,
      });
      if (problem) issue(ctx, ["partners", pi, "keys", ki, "scopes"], problem);
    });
  });
  if (s.onboarding.limitsConfirmMs < s.onboarding.vaultDeployMs) {
    issue(ctx, ["onboarding", "limitsConfirmMs"], "must be at least vaultDeployMs");
  }
}

function comparable(t: TimeSpec, startMs: number | undefined): number | undefined {
  if (t.kind === "absolute") return startMs === undefined ? undefined : t.atMs;
  return resolveTimeSpec(t, startMs ?? 0);
}

function checkMarkets(s: Base, ctx: Ctx): void {
  const startMs = s.start.kind === "absolute" ? s.start.atMs : undefined;
  const slugs = new Set<string>();
  const symbols = new Set<string>();
  s.events.forEach((e, ei) => {
    if (e.slug !== undefined) {
      if (slugs.has(`e:${e.slug}`)) issue(ctx, ["events", ei, "slug"], `duplicate event slug ${e.slug}`);
      slugs.add(`e:${e.slug}`);
    }
    e.markets.forEach((m, mi) => {
      const at = (...p: (string | number)[]) => ["events", ei, "markets", mi, ...p];
      if (new Set(m.outcomeLabels).size !== m.outcomeLabels.length) issue(ctx, at("outcomeLabels"), "labels must be unique");
      if (m.slug !== undefined) {
        if (slugs.has(`m:${m.slug}`)) issue(ctx, at("slug"), `duplicate market slug ${m.slug}`);
        slugs.add(`m:${m.slug}`);
      }
      if (m.symbol !== undefined) {
        if (symbols.has(m.symbol)) issue(ctx, at("symbol"), `duplicate symbol ${m.symbol}`);
        symbols.add(m.symbol);
      }
      if (Array.isArray(m.fairValue) && m.fairValue.length !== m.outcomeLabels.length && !(m.outcomeLabels.length === 2 && m.fairValue.length === 1)) {
        issue(ctx, at("fairValue"), `needs one value per outcome (${m.outcomeLabels.length})`);
      }
      const w = m.tradingWindow;
      const pre = w.preMarketStartsAt ? comparable(w.preMarketStartsAt, startMs) : undefined;
      const open = comparable(w.opensAt, startMs);
      const close = w.closesAt ? comparable(w.closesAt, startMs) : undefined;
      if (pre !== undefined && open !== undefined && pre >= open) issue(ctx, at("tradingWindow", "preMarketStartsAt"), "must be before opensAt");
      if (close !== undefined && open !== undefined && close <= open) issue(ctx, at("tradingWindow", "closesAt"), "must be after opensAt");
      m.actions.forEach((a, ai) => {
        if (a.action === "set_status" && a.status === undefined) issue(ctx, at("actions", ai, "status"), "set_status needs a status");
        if (a.action === "resolve" && a.payoutNumerators?.length !== m.outcomeLabels.length) {
          issue(ctx, at("actions", ai, "payoutNumerators"), `resolve needs ${m.outcomeLabels.length} payout numerators`);
        }
      });
    });
  });
}

/** `events` followed by the events of every `generate` block (each parsed like a written one). */
function withGenerated(s: Base): Base {
  if (s.generate.length === 0) return s;
  const generated = s.generate.flatMap((b) => expandBlock(b).map((raw) => eventSchema.parse(raw)));
  return { ...s, events: [...s.events, ...generated] };
}

export const scenarioSchema = baseSchema.transform(withGenerated).superRefine((s, ctx) => {
  checkPartnersAndWallets(s, ctx);
  checkMarkets(s, ctx);
  const markets = new Map(s.events.flatMap((e) => e.markets.flatMap((m) => (m.symbol === undefined ? [] : [[m.symbol, m.outcomeLabels.length] as const]))));
  const walletNames = new Set(s.wallets.flatMap((w) => (w.name === undefined ? [] : [w.name])));
  checkChallenges(s.challenges, { startMs: s.start.kind === "absolute" ? s.start.atMs : undefined, markets, walletNames }, (path, message) => issue(ctx, path, message));
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioPartner = Scenario["partners"][number];
export type ScenarioWallet = Scenario["wallets"][number];
export type ScenarioEvent = Scenario["events"][number];
export type ScenarioMarket = ScenarioEvent["markets"][number];
export type FlowParams = ScenarioMarket["flow"];
export type { InformedParams, MakersParams, NewsParams, NoiseParams } from "./flow-schema.js";
export type ScenarioAction = ScenarioMarket["actions"][number];
export type ScenarioFault = Scenario["faults"][number];

/** A parsed scenario wallet's address, lower-cased: derived from its private key when it has one. */
export function scenarioWalletAddress(w: Pick<ScenarioWallet, "privateKey" | "address">): string {
  return (w.privateKey ? privateKeyToAccount(w.privateKey as `0x${string}`).address : w.address!).toLowerCase();
}
