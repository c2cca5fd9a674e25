/** The dependencies and reports of a Daemon (daemon.ts). */
import type { SecretLike, SocketConnector, Transport } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Logger } from "../../log/index.js";
import type { RateGate } from "../../ratelimit/index.js";
import type { OrderSigner, SaltSource } from "../../signing/index.js";
import type { EngineObserver } from "../observer.js";
import type { RiskHook } from "../risk/risk-hook.js";
import type { WalletShutdownReport } from "./shutdown.js";
import type { EngineTuning } from "./tuning.js";
import type { LeaseApi } from "../guards/k8s-lease-client.js";

export interface DaemonDeps {
  clock?: Clock;
  /** Seeded in tests and simulations; default seeded from the OS. */
  rng?: Rng;
  /** Where REST goes (in-process simulator, loopback); default a FetchTransport to platform.baseUrl. */
  transport?: Transport;
  /**
   * Wraps the REST transport beneath everything the daemon adds (the in-daemon recorder's order and
   * latency log, src/record/daemon-recording.ts): it sees every request and answer as sent.
   */
  wrapTransport?: (transport: Transport) => Transport;
  /** Where the user streams go; default a WsConnector to the platform. */
  connector?: SocketConnector;
  /** The partner API key; live configs carry it (platform.apiKey), simulator runs pass it here. */
  apiKey?: string | SecretLike;
  logger?: Logger;
  observer?: EngineObserver | readonly EngineObserver[];
  /** An extra risk hook, run after the core risk (which is always on). */
  risk?: RiskHook;
  /** A rate gate to share; default one built from platform.rateLimitPerMin / rateSafetyMargin. */
  gate?: RateGate;
  saltSource?: SaltSource;
  tuning?: Partial<EngineTuning>;
  /** Monotonic ms for latency figures. Default performance.now. */
  monotonic?: () => number;
  /**
   * Backtests only (src/backtest, signatures off): each wallet's order signer instead of one built
   * from its configured private key. No config key, env var or flag sets it; `mm run` never does.
   */
  orderSigners?: (wallet: { name: string; address: string }) => OrderSigner;
  /** shard.lease's Kubernetes API (tests: a fake server); default the pod's in-cluster API server. */
  leaseApi?: LeaseApi;
}

export interface StartReport {
  markets: string[];
  wallets: { name: string; ready: boolean; error?: string }[];
}

export interface ShutdownReport {
  reason: string;
  wallets: WalletShutdownReport[];
  exitCode: number;
}
