/**
 * `PartnerClient`: the composition of the endpoint groups over one pipeline.
 *
 * One instance serves many wallets: the API key belongs to the client (held in a private field,
 * sent only on authenticated calls, never in an error), the wallet to a view. Public groups
 * (markets, events, tags, platform) hang off the client; wallet-scoped groups (orders, portfolio,
 * vault) hang off `client.forWallet(address)`, which sends `X-User-Wallet` on each call. The
 * client's own `orders` / `portfolio` / `vault` use `defaultWallet` (none for single_wallet
 * partners, whose effective wallet is the key's associated one).
 *
 * All waiting goes through `clock`, all jitter through `rng`: on a VirtualClock with a seeded Rng
 * a run is deterministic.
 */
import { randomBytes } from "node:crypto";
import type { Clock } from "../core/clock.js";
import { RealClock } from "../core/clock.js";
import { Rng } from "../core/rng.js";
import type { RetryOptions } from "./backoff.js";
import { DEFAULT_RETRY } from "./backoff.js";
import type { BreakerOptions } from "./breaker.js";
import { CircuitBreaker } from "./breaker.js";
import type { SecretLike } from "./core.js";
import { ApiCore } from "./core.js";
import { ChallengesApi, ComplianceApi, LeaderboardApi, MatchesApi, PartnerFeedsApi, SearchApi, UpcomingApi, UsersApi } from "./discovery.js";
import { EventsApi, TagsApi } from "./events.js";
import { FetchTransport } from "./fetch-transport.js";
import type { RequestGate } from "./gate.js";
import { NOOP_GATE } from "./gate.js";
import { MarketsApi } from "./markets.js";
import { OrdersApi } from "./orders.js";
import { PlatformApi } from "./platform.js";
import { PortfolioApi } from "./portfolio.js";
import type { Health, Readiness } from "../wire/index.js";
import type { CallOptions, Ok } from "./results.js";
import type { Transport } from "../wire/transport.js";
import { assertWallet } from "./validate.js";
import { VaultApi } from "./vault.js";
import { WithdrawalsApi } from "./withdrawals.js";

export interface ClientOptions {
  /** Where requests go. Give this, or `baseUrl` for a FetchTransport. */
  transport?: Transport;
  baseUrl?: string;
  /** FetchTransport per-request timeout (only with `baseUrl`). Default 10 s. */
  timeoutMs?: number;
  /** `X-Api-Key`: a string or a Secret (anything with `reveal()`). */
  apiKey?: string | SecretLike;
  /** Default RealClock. */
  clock?: Clock;
  /** Jitter source. Default: an Rng seeded from crypto (so processes do not retry in lockstep). */
  rng?: Rng;
  /** Rate gate (src/ratelimit's RateGate fits). Default: admit everything. */
  gate?: RequestGate;
  retry?: Partial<RetryOptions>;
  /** Breaker options, or a breaker to share between clients. */
  breaker?: Partial<BreakerOptions> | CircuitBreaker;
  /** Wallet of `client.orders` / `portfolio` / `vault`; omit for single_wallet partners. */
  defaultWallet?: string;
  /** Check request bodies with the wire schemas before sending. Default true. */
  validateRequests?: boolean;
}

/** The wallet-scoped groups, bound to one `X-User-Wallet`. */
export class WalletClient {
  readonly orders: OrdersApi;
  readonly portfolio: PortfolioApi;
  readonly vault: VaultApi;
  readonly withdrawals: WithdrawalsApi;
  /** The leaderboard with this wallet's `me` entry (the key and wallet are sent). */
  readonly leaderboard: LeaderboardApi;

  constructor(
    core: ApiCore,
    readonly wallet: string | undefined,
  ) {
    this.orders = new OrdersApi(core, wallet);
    this.portfolio = new PortfolioApi(core, wallet);
    this.vault = new VaultApi(core, wallet);
    this.withdrawals = new WithdrawalsApi(core, wallet);
    this.leaderboard = new LeaderboardApi(core, { wallet, auth: true });
  }
}

export class PartnerClient {
  readonly markets: MarketsApi;
  readonly events: EventsApi;
  readonly tags: TagsApi;
  readonly platform: PlatformApi;
  readonly matches: MatchesApi;
  /** Anonymous leaderboard (`me` null); `forWallet(w).leaderboard` fills `me`. */
  readonly leaderboard: LeaderboardApi;
  readonly upcoming: UpcomingApi;
  readonly search: SearchApi;
  readonly compliance: ComplianceApi;
  readonly users: UsersApi;
  readonly challenges: ChallengesApi;
  /** Partner-level feeds (key only, no wallet). */
  readonly partner: PartnerFeedsApi;
  readonly orders: OrdersApi;
  readonly portfolio: PortfolioApi;
  readonly vault: VaultApi;
  readonly withdrawals: WithdrawalsApi;
  /** Observable circuit breaker: `state()`, `stats()`, `onChange(listener)`. */
  readonly breaker: CircuitBreaker;
  readonly clock: Clock;
  private readonly core: ApiCore;
  private readonly views = new Map<string, WalletClient>();

  constructor(opts: ClientOptions) {
    const clock = opts.clock ?? new RealClock();
    let transport = opts.transport;
    if (transport === undefined) {
      if (opts.baseUrl === undefined) throw new TypeError("createClient: give a transport or a baseUrl");
      transport = new FetchTransport({ baseUrl: opts.baseUrl, clock, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}) });
    }
    this.breaker = opts.breaker instanceof CircuitBreaker ? opts.breaker : new CircuitBreaker(clock, opts.breaker);
    this.clock = clock;
    this.core = new ApiCore({
      transport,
      apiKey: opts.apiKey,
      clock,
      rng: opts.rng ?? new Rng(randomBytes(4).readUInt32LE(0)),
      gate: opts.gate ?? NOOP_GATE,
      breaker: this.breaker,
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      validateRequests: opts.validateRequests ?? true,
    });
    this.markets = new MarketsApi(this.core);
    this.events = new EventsApi(this.core);
    this.tags = new TagsApi(this.core);
    this.platform = new PlatformApi(this.core);
    this.matches = new MatchesApi(this.core);
    this.leaderboard = new LeaderboardApi(this.core, { wallet: undefined, auth: false });
    this.upcoming = new UpcomingApi(this.core);
    this.search = new SearchApi(this.core);
    this.compliance = new ComplianceApi(this.core);
    this.users = new UsersApi(this.core);
    this.challenges = new ChallengesApi(this.core);
    this.partner = new PartnerFeedsApi(this.core);
    if (opts.defaultWallet !== undefined) assertWallet(opts.defaultWallet);
    const self = new WalletClient(this.core, opts.defaultWallet);
    this.orders = self.orders;
    this.portfolio = self.portfolio;
    this.vault = self.vault;
    this.withdrawals = self.withdrawals;
  }

  /** The wallet-scoped groups for `wallet` (sent as `X-User-Wallet`); one cached view per wallet. */
  forWallet(wallet: string): WalletClient {
    assertWallet(wallet);
    const key = wallet.toLowerCase();
    let view = this.views.get(key);
    if (view === undefined) {
      view = new WalletClient(this.core, wallet);
      this.views.set(key, view);
    }
    return view;
  }

  health(opts?: CallOptions): Promise<Ok<Health>> {
    return this.platform.health(opts);
  }

  ready(opts?: CallOptions): Promise<Ok<Readiness>> {
    return this.platform.ready(opts);
  }

  /** Whether a key is configured (never the key itself). */
  get hasApiKey(): boolean {
    return this.core.hasApiKey;
  }

  toJSON(): Record<string, unknown> {
    return { type: "PartnerClient", hasApiKey: this.hasApiKey, breaker: this.breaker.state() };
  }
}

export function createClient(opts: ClientOptions): PartnerClient {
  return new PartnerClient(opts);
}
