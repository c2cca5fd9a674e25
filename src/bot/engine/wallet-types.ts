/** The options and status of a WalletRunner (wallet-runner.ts). */
import type { TradeSource } from "../market/trade-feed.js";
import type { SecretLike, SocketConnector, WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Logger } from "../../log/index.js";
import type { RateGate } from "../../ratelimit/index.js";
import type { OrderSigner, SaltSource } from "../../signing/index.js";
import type { StrategyRunner } from "../../../strategies/registry.js";
import type { FillLedger } from "../fills/fill-ledger.js";
import type { Inventory } from "../fills/inventory.js";
import type { ClientOrderIds } from "../orders/ids.js";
import type { InstanceFence } from "../guards/instance-fence.js";
import type { EventSeq, MarketDataSource } from "../market/market-data.js";
import type { MarketRegistry } from "../market/market-registry.js";
import type { TrackerSizes } from "../orders/order-tracker.js";
import type { EngineObserver, WalletState } from "../observer.js";
import type { CoreRisk } from "../risk/core-risk.js";
import type { EngineView, RiskHook } from "../risk/risk-hook.js";
import type { PlatformInfo } from "./startup.js";
import type { EngineTuning } from "./tuning.js";
import type { AutoMergeSettings } from "../../config/auto-merge-section.js";
import type { QuotingParams } from "../quote/cycle.js";
import type { LiveParams } from "./live-params.js";

/** The risk a wallet's cycles consult: the daemon's core risk, then the extra hook of DaemonDeps.risk if given. */
export interface WalletRisk {
  core: CoreRisk;
  hook?: RiskHook | undefined;
}

export interface WalletRunnerOptions {
  index: number;
  name: string;
  /** Checksummed address from the config. */
  address: string;
  api: WalletClient;
  signer: OrderSigner;
  apiKey: string | SecretLike;
  connector: SocketConnector;
  /** User-stream path when not the default `/ws/user`. */
  streamPath?: string | undefined;
  clock: Clock;
  rng: Rng;
  log: Logger;
  observer: EngineObserver;
  risk: WalletRisk;
  registry: MarketRegistry;
  data: MarketDataSource;
  /** Public trades of the markets (the strategies' `recentTrades`); absent: none. */
  trades?: TradeSource | undefined;
  ledger: FillLedger;
  inventory: Inventory;
  strategy: StrategyRunner;
  quoting: QuotingParams;
  /** The daemon's active parameters (live-params.ts): a reload replaces the policy the cycles read; absent: `strategy` and `quoting` for good. */
  params?: LiveParams | undefined;
  /** `autoMerge:` of the config (auto-merge-runner.ts); absent or disabled: no merges. */
  autoMerge?: AutoMergeSettings | undefined;
  ids: ClientOrderIds;
  gate?: RateGate | undefined;
  saltSource: SaltSource;
  platform: () => PlatformInfo;
  instanceId: string;
  /** One owner per instance id (instance-fence.ts); absent: every order of our prefix is adopted. */
  fence?: InstanceFence | undefined;
  /** Shed for capacity now (capacity-guard.ts): such a market is not cycled while nothing of ours is live there. */
  shed?: ((symbol: string) => boolean) | undefined;
  sessionStartMs: number;
  tuning: EngineTuning;
  /**
   * How far back the own-order history must reach: the oldest book snapshot quotes may still be
   * built from (staleness limit plus a request timeout). At least 60 s is kept.
   */
  bookHistoryMs?: number;
  /** A lookup 404 ends an unknown placement only this long after its last send (notRecordedWindowMs). */
  notRecordedAfterMs?: number;
  /** Monotonic ms for latency figures only (never for decisions). */
  monotonic: () => number;
  /** Shared with the book source. */
  seq: EventSeq;
  /** The whole engine, read-only (handed to the risk hook). */
  engine: EngineView;
}

export interface WalletStatus {
  name: string;
  wallet: string;
  state: WalletState;
  vault: string | undefined;
  liveOrders: number;
  unknownOrders: number;
  streamSubscribed: boolean;
  markets: string[];
  /** Adverse selection acting (adverse:): sides widened and pulled, markets cooling after a jump; absent when none. */
  adverse?: { widen: number; pull: number; cooling: number } | undefined;
}

/** What one wallet holds per order, orderId or market (WalletRunner.memoryFigures). */
export interface WalletMemoryFigures extends TrackerSizes {
  unknownSince: number;
  ownOrders: number;
  ownOrderMarkets: number;
  presigned: number;
  /** Buffered orderIds the upkeep has looked at (bounded by the buffer's ids). */
  claimMarks: number;
  foreignSeen: number;
  strategyStates: number;
}
