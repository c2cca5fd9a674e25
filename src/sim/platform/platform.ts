/**
 * SimPlatform: the platform layer built from a scenario, in one object the HTTP/WS routes,
 * the engine, the flow generator and the /sim control routes share.
 *
 *   const platform = createSimPlatform(loadScenario(defaultScenarioPath()), { clock });
 *   const auth = platform.authorize({ apiKeyHeader, userWalletHeader, ip, requiredScopes });
 *   if (!auth.ok) -> error envelope (auth.status, auth.code, auth.message, auth.details)
 *   platform.tradingCheck(auth.wallet, auth.partner) before placing / signing
 *   platform.catalogue.admitOrder(marketId, { postOnly })
 *   platform.faults.decide("POST /api/orders/place", clock.now())
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Micros } from "../../core/money.js";
import { SCALE } from "../../core/money.js";
import { Rng } from "../../core/rng.js";
import { Authenticator, type AuthRequest, type AuthResult, type WsAuthRequest } from "./auth.js";
import { Catalogue, type EventInput, type Market } from "./catalogue.js";
import { addressFromLabel } from "./derive.js";
import { failure, PlatformSetupError, type PlatformFailure, type PlatformOk } from "./errors.js";
import { FaultPlan } from "./faults.js";
import { keyIssuanceProblem, KeyStore, type IssuedKey, type Scope, type ApiKeyRecord } from "./keys.js";
import type { Transition, TransitionArgs } from "./lifecycle.js";
import { PartnerRegistry, type Partner, type PartnerPatch } from "./partners.js";
import { scenarioStartMs, scenarioWalletAddress, type FlowParams, type Scenario, type ScenarioAction } from "./scenario.js";
import { parseTimeSpec, resolveTimeSpec, type TimeSpec } from "./time.js";
import { WalletRegistry, type WalletRecord } from "./wallets.js";

export interface PlatformSettings {
  env: string;
  keyPrefix: string;
  chainId: number;
  apiVersion: string;
  defaultFeeTakerBps: number;
  /** EIP-712 domain name and version (docs/spec-gaps.md). */
  domain: { name: string; version: string };
  contracts: { exchange: { binary: string; negRisk: string }; vaultFactory: string; collateral: string };
}

export interface WalletSecret {
  address: string;
  name: string | null;
  /** Test private key from the scenario (never a real key). */
  privateKey: `0x${string}` | null;
  partnerId: string | null;
}

export interface StartingBalance {
  wallet: string;
  collateral: Micros;
  positions: { marketId: string; tokenId: string; outcome: number; quantity: Micros }[];
}

export interface MarketSetup {
  marketId: string;
  /** Per outcome, in micros (0 < v < 1). */
  fairValue: Micros[];
  flow: FlowParams;
}

export interface SimPlatformOptions {
  clock: Clock;
  /** Key-hash pepper; random per instance when omitted. */
  pepper?: Uint8Array;
  /** Overrides the scenario start (default: its ISO start, or clock.now() for `start: now`). */
  startMs?: number;
}

export interface AuthorizeSuccess {
  readonly ok: true;
  readonly partner: Partner;
  readonly key: ApiKeyRecord;
  readonly wallet: string | null;
  readonly walletRecord: WalletRecord | null;
  /** True when this request enqueued the wallet's onboarding. */
  readonly onboardingEnqueued: boolean;
}

interface ScheduledAction {
  marketId: string;
  atMs: number;
  action: ScenarioAction;
}

/** A time text the schema already checked (match.scheduledAt). */
function resolveText(text: string, startMs: number): number {
  const t = parseTimeSpec(text);
  if (!t) throw new PlatformSetupError(`bad time ${JSON.stringify(text)}`);
  return resolveTimeSpec(t, startMs);
}

function resolve(t: TimeSpec, startMs: number): number {
  return resolveTimeSpec(t, startMs);
}

function uniformFairValue(n: number): Micros[] {
  return Array.from({ length: n }, () => SCALE / BigInt(n));
}

export class SimPlatform {
  readonly clock: Clock;
  readonly scenario: Scenario;
  readonly startMs: number;
  readonly rng: Rng;
  readonly settings: PlatformSettings;
  readonly partners = new PartnerRegistry();
  readonly wallets: WalletRegistry;
  readonly keys: KeyStore;
  readonly auth: Authenticator;
  readonly catalogue: Catalogue;
  readonly faults: FaultPlan;
  readonly walletSecrets: readonly WalletSecret[];
  readonly startingBalances: readonly StartingBalance[];
  readonly markets: readonly MarketSetup[];
  /** Scheduled scenario actions that the lifecycle refused. */
  readonly actionErrors: { marketId: string; action: string; error: PlatformFailure }[] = [];
  private readonly actions: ScheduledAction[] = [];
  private readonly timers: TimerHandle[] = [];
  private started = false;

  constructor(scenario: Scenario, opts: SimPlatformOptions) {
    this.clock = opts.clock;
    this.scenario = scenario;
    this.startMs = opts.startMs ?? scenarioStartMs(scenario, opts.clock.now());
    this.rng = new Rng(scenario.seed);
    const p = scenario.platform;
    this.settings = {
      env: p.env,
      keyPrefix: p.keyPrefix,
      chainId: p.chainId,
      apiVersion: p.apiVersion,
      defaultFeeTakerBps: p.defaultFeeTakerBps,
      domain: { ...p.domain },
      contracts: {
        exchange: {
          binary: p.contracts.exchange.binary ?? addressFromLabel("sim:exchange:binary"),
          negRisk: p.contracts.exchange.negRisk ?? addressFromLabel("sim:exchange:negRisk"),
        },
        vaultFactory: p.contracts.vaultFactory ?? addressFromLabel("sim:vaultFactory"),
        collateral: p.contracts.collateral ?? addressFromLabel("sim:collateral"),
      },
    };
    this.wallets = new WalletRegistry({ ...scenario.onboarding });
    this.keys = new KeyStore({ rng: this.rng.fork("keys"), prefix: p.keyPrefix, env: p.env, ...(opts.pepper ? { pepper: opts.pepper } : {}) });
    this.auth = new Authenticator(this.keys, this.partners);

    const secrets = this.buildWallets();
    this.walletSecrets = secrets;
    this.buildPartners(secrets);
    this.catalogue = new Catalogue({
      clock: this.clock,
      rng: this.rng,
      defaultFeeTakerBps: p.defaultFeeTakerBps,
      tags: scenario.tags,
      events: this.eventInputs(),
      createdAtMs: this.startMs,
    });
    this.markets = this.marketSetups();
    this.startingBalances = this.balances(secrets);
    this.faults = new FaultPlan({ rng: this.rng, startMs: this.startMs, rules: scenario.faults });
  }

  private buildWallets(): WalletSecret[] {
    const s = this.scenario;
    return s.wallets.map((w) => {
      const address = scenarioWalletAddress(w);
      const partner = s.partners.find((p) => p.id === w.partner);
      this.wallets.register(
        {
          address,
          partnerId: w.partner,
          kycApproved: w.kyc.approved,
          kycTier: w.kyc.tier,
          banned: w.banned,
          onboarded: w.onboarded,
          kycWaived: partner !== undefined && partner.kind === "multi_wallet" && !partner.requirePerWalletKyc,
        },
        this.startMs,
      );
      return { address, name: w.name ?? null, privateKey: (w.privateKey as `0x${string}` | undefined) ?? null, partnerId: w.partner };
    });
  }

  private buildPartners(secrets: readonly WalletSecret[]): void {
    for (const sp of this.scenario.partners) {
      const assoc = sp.associatedWallet === null ? null : (secrets.find((w) => w.name === sp.associatedWallet)?.address ?? sp.associatedWallet);
      this.partners.add({ ...sp, associatedWallet: assoc }, this.startMs);
      for (const k of sp.keys) {
        this.keys.register(k.key, sp.id, k.scopes, {
          nowMs: this.startMs,
          expiresAtMs: k.expiresAt ? resolve(k.expiresAt, this.startMs) : null,
          revokedAtMs: k.revoked ? this.startMs : null,
          ipAllowlist: k.ipAllowlist,
          label: k.label,
        });
      }
    }
  }

  private eventInputs(): EventInput[] {
    const start = this.startMs;
    return this.scenario.events.map((e) => ({
      ...e,
      slug: e.slug,
      kickoffMs: e.kickoff ? resolve(e.kickoff, start) : null,
      match: e.match === null ? null : { ...e.match, scheduledAtMs: e.match.scheduledAt ? resolveText(e.match.scheduledAt, start) : null },
      markets: e.markets.map((m) => ({
        ...m,
        kickoffMs: m.kickoff === undefined ? undefined : m.kickoff === null ? null : resolve(m.kickoff, start),
        window: {
          preMarketStartsAtMs: m.tradingWindow.preMarketStartsAt ? resolve(m.tradingWindow.preMarketStartsAt, start) : null,
          opensAtMs: resolve(m.tradingWindow.opensAt, start),
          closesAtMs: m.tradingWindow.closesAt ? resolve(m.tradingWindow.closesAt, start) : null,
        },
      })),
    }));
  }

  private scenarioMarkets(): { market: Market; def: Scenario["events"][number]["markets"][number] }[] {
    const out: { market: Market; def: Scenario["events"][number]["markets"][number] }[] = [];
    // The catalogue keeps input order, so the i-th built market is the i-th defined one.
    const all = this.catalogue.markets("all", true);
    let k = 0;
    for (const e of this.scenario.events) for (const def of e.markets) out.push({ market: all[k++]!, def });
    return out;
  }

  private marketSetups(): MarketSetup[] {
    return this.scenarioMarkets().map(({ market, def }) => {
      for (const a of def.actions) this.actions.push({ marketId: market.id, atMs: resolve(a.at, this.startMs), action: a });
      let fairValue: Micros[];
      if (def.fairValue === undefined) fairValue = uniformFairValue(market.outcomeCount);
      else if (!Array.isArray(def.fairValue)) fairValue = market.outcomeCount === 2 ? [def.fairValue, SCALE - def.fairValue] : uniformFairValue(market.outcomeCount);
      else if (def.fairValue.length === 1 && market.outcomeCount === 2) fairValue = [def.fairValue[0]!, SCALE - def.fairValue[0]!];
      else fairValue = [...def.fairValue];
      return { marketId: market.id, fairValue, flow: def.flow };
    });
  }

  private balances(secrets: readonly WalletSecret[]): StartingBalance[] {
    return this.scenario.wallets.map((w, i) => ({
      wallet: secrets[i]!.address,
      collateral: w.balances.collateral,
      positions: w.balances.positions.map((pos, j) => {
        const c = this.catalogue;
        const m = c.marketBySymbol(pos.market, true) ?? c.marketBySlug(pos.market, true);
        if (!m) throw new PlatformSetupError(`wallets[${i}].balances.positions[${j}].market: unknown market ${pos.market}`);
        const tokenId = m.outcomeTokenIds[pos.outcome];
        if (tokenId === undefined) throw new PlatformSetupError(`wallets[${i}].balances.positions[${j}].outcome: out of range`);
        return { marketId: m.id, tokenId, outcome: pos.outcome, quantity: pos.quantity };
      }),
    }));
  }

  /** Start the clock-driven parts: lifecycle timers and scheduled scenario actions. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.catalogue.startTimers();
    for (const a of [...this.actions].sort((x, y) => x.atMs - y.atMs)) {
      this.timers.push(this.clock.setTimeout(() => this.runAction(a), Math.max(0, a.atMs - this.clock.now())));
    }
  }

  stop(): void {
    this.started = false;
    this.catalogue.stopTimers();
    for (const t of this.timers.splice(0)) this.clock.clearTimeout(t);
  }

  private runAction(a: ScheduledAction): void {
    const args: TransitionArgs = {};
    if (a.action.status !== undefined) args.status = a.action.status;
    if (a.action.payoutNumerators !== undefined) args.payoutNumerators = a.action.payoutNumerators;
    const r = this.catalogue.transition(a.marketId, a.action.action, args);
    if (!r.ok) this.actionErrors.push({ marketId: a.marketId, action: a.action.action, error: r });
  }

  // -------------------------------------------------------------------------------------
  // Request gates

  /**
   * Authenticate (spec 5.2 order), then record the wallet's first sight (onboarding) and refuse
   * a banned wallet with 403 wallet_banned. `nowMs` defaults to the clock.
   */
  authorize(req: Omit<AuthRequest, "nowMs"> & { nowMs?: number }): AuthorizeSuccess | PlatformFailure {
    const nowMs = req.nowMs ?? this.clock.now();
    return this.afterAuth(this.auth.authenticate({ ...req, nowMs }), nowMs);
  }

  /** The /ws/user upgrade, with the same wallet gates. */
  authorizeWs(req: Omit<WsAuthRequest, "nowMs"> & { nowMs?: number }): AuthorizeSuccess | PlatformFailure {
    const nowMs = req.nowMs ?? this.clock.now();
    return this.afterAuth(this.auth.authenticateWs({ ...req, nowMs }), nowMs);
  }

  private afterAuth(r: AuthResult, nowMs: number): AuthorizeSuccess | PlatformFailure {
    if (!r.ok) return r;
    if (r.wallet === null) return { ...r, walletRecord: null, onboardingEnqueued: false };
    const touched = this.wallets.touch(r.wallet, r.partner, nowMs);
    const banned = this.wallets.complianceCheck(r.wallet);
    if (!banned.ok) return banned;
    return { ...r, walletRecord: touched.record, onboardingEnqueued: touched.enqueued };
  }

  /** vault_not_deployed / kyc_blocked / wallet_banned gate for order placement and vault signatures. */
  tradingCheck(wallet: string, partner: Partner, nowMs = this.clock.now()): PlatformOk | PlatformFailure {
    return this.wallets.tradingCheck(wallet, nowMs, partner);
  }

  // -------------------------------------------------------------------------------------
  // Operator moves (the /sim control routes)

  /** Issue a key under the rules of spec 5.3; the plaintext is in the result only. */
  issueKey(partnerId: string, scopes: readonly Scope[], opts: { expiresAtMs?: number | null; label?: string | null } = {}): IssuedKey {
    const partner = this.partners.require(partnerId);
    const problem = keyIssuanceProblem(partner, scopes, this.issuanceFacts(partner));
    if (problem) throw new PlatformSetupError(problem);
    return this.keys.issue(partnerId, scopes, { nowMs: this.clock.now(), ...opts });
  }

  private issuanceFacts(partner: Partner): { associatedWalletKycApproved: boolean; activeTradingWallets: number } {
    const assoc = partner.associatedWallet ? this.wallets.get(partner.associatedWallet) : undefined;
    const ok = (w: WalletRecord): boolean => !w.banned && (w.kycWaived || (w.kycApproved && w.kycTier >= 1));
    return {
      associatedWalletKycApproved: !!assoc && !assoc.banned && assoc.kycApproved && assoc.kycTier >= 1,
      activeTradingWallets: this.wallets.listByPartner(partner.id).filter(ok).length,
    };
  }

  revokeKey(keyId: string): ApiKeyRecord {
    return this.keys.revoke(keyId, this.clock.now());
  }

  /**
   * Change a partner. Kind, requirePerWalletKyc and associatedWallet change only when no
   * active write key remains (spec 5.3): otherwise 409 invalid_state and nothing changes.
   */
  updatePartner(id: string, patch: PartnerPatch): { ok: true; partner: Partner } | PlatformFailure {
    const old = this.partners.require(id);
    const pinned =
      (patch.kind !== undefined && patch.kind !== old.kind) ||
      (patch.requirePerWalletKyc !== undefined && patch.requirePerWalletKyc !== old.requirePerWalletKyc) ||
      (patch.associatedWallet !== undefined && (patch.associatedWallet?.toLowerCase() ?? null) !== old.associatedWallet);
    const active = this.keys.activeWriteKeys(id, this.clock.now());
    if (pinned && active.length > 0) {
      return failure(409, "invalid_state", "revoke every active orders:write / vault:write key before changing kind, KYC policy or associated wallet", {
        activeWriteKeys: active.map((k) => k.keyId),
      });
    }
    return { ok: true, partner: this.partners.update(id, patch) };
  }

  /** Administrative market move (pause, resume, suspend, postpone, close, resolve, void, set_status, ...). */
  marketTransition(marketId: string, trigger: ScenarioAction["action"], args: TransitionArgs = {}): { ok: true; transition: Transition } | PlatformFailure {
    const r = this.catalogue.transition(marketId, trigger, args);
    return r.ok ? { ok: true, transition: r.transition } : r;
  }
}

export function createSimPlatform(scenario: Scenario, opts: SimPlatformOptions): SimPlatform {
  return new SimPlatform(scenario, opts);
}
