/**
 * The daemon's wallets from the config: one WalletRunner each, with its signer (checked against
 * the configured address), its client view, client-order ids, Rng fork and log, over the parts
 * the daemon shares between them (markets, data, ledger, inventory, gate, risk, strategy).
 */
import type { PartnerClient } from "../../api/index.js";
import { notRecordedWindowMs } from "../orders/order-tracker.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Logger } from "../../log/index.js";
import type { StartReport } from "./daemon-types.js";
import type { Config } from "../../config/index.js";
import type { RateGate } from "../../ratelimit/index.js";
import { WalletSigner, type OrderSigner } from "../../signing/index.js";
import { createStrategyRunner } from "../../../strategies/registry.js";
import { ClientOrderIds } from "../orders/ids.js";
import { buildControls } from "../quote/controls/index.js";
import { adverseOptionsOf } from "../quote/adverse/adverse-book.js";
import type { TradeSource } from "../market/trade-feed.js";
import { WalletRunner } from "./wallet-runner.js";
import type { WalletRunnerOptions } from "./wallet-types.js";

/** The shared parts every runner gets as they are, plus what each runner's own parts come from. */
export interface DaemonWalletParts
  extends Pick<
    WalletRunnerOptions,
    | "apiKey" | "connector" | "streamPath" | "clock" | "log" | "observer" | "risk" | "registry" | "data" | "ledger"
    | "inventory" | "saltSource" | "platform" | "sessionStartMs" | "tuning" | "monotonic" | "seq" | "engine" | "fence" | "shed" | "params"
  > {
  config: Config;
  client: PartnerClient;
  /** The daemon's Rng: each wallet gets its own fork. */
  rng: Rng;
  trades: TradeSource;
  gate: RateGate;
  session: string;
  /** DaemonDeps.orderSigners (backtests only); absent: each wallet signs with its configured key. */
  orderSigners?: ((wallet: { name: string; address: string }) => OrderSigner) | undefined;
}

/** One runner per configured wallet, in config order (the wallet index is the position). */
export function buildWalletRunners(p: DaemonWalletParts): WalletRunner[] {
  const { config } = p;
  const strategy = createStrategyRunner(config.strategy.name, config.strategy.params);
  return config.wallets.map((w, index) => {
    const signer = p.orderSigners?.({ name: w.name, address: w.address }) ?? WalletSigner.fromPrivateKey(w.privateKey.reveal(), { expectedAddress: w.address, source: `wallet ${w.name} privateKey` });
    return new WalletRunner({
      index,
      name: w.name,
      address: w.address,
      api: p.client.forWallet(w.address),
      signer,
      apiKey: p.apiKey,
      connector: p.connector,
      streamPath: p.streamPath,
      clock: p.clock,
      rng: p.rng.fork(`wallet:${index}`),
      log: p.log.child({ wallet: w.address.toLowerCase(), walletName: w.name }),
      observer: p.observer,
      risk: p.risk,
      registry: p.registry,
      // A book read up to the staleness limit old (plus the request's own time) may still be quoted from.
      bookHistoryMs: config.risk.staleDataSec * 1000 + config.platform.requestTimeoutMs,
      notRecordedAfterMs: notRecordedWindowMs(config.platform.requestTimeoutMs),
      data: p.data,
      trades: p.trades,
      ledger: p.ledger,
      inventory: p.inventory,
      strategy,
      quoting: {
        priceToleranceTicks: config.quoting.priceToleranceTicks,
        sizeTolerance: config.quoting.sizeTolerance,
        maxOrderAgeMs: config.quoting.maxOrderAgeSec * 1000,
        orderExpirySec: config.quoting.orderExpirySec,
        controls: buildControls(config),
        adverse: adverseOptionsOf(config.adverse),
      },
      params: p.params,
      autoMerge: config.autoMerge,
      ids: new ClientOrderIds(config.instance.id, index, p.session),
      gate: p.gate,
      saltSource: p.saltSource,
      platform: p.platform,
      instanceId: config.instance.id,
      fence: p.fence,
      shed: p.shed,
      sessionStartMs: p.sessionStartMs,
      tuning: p.tuning,
      monotonic: p.monotonic,
      seq: p.seq,
      engine: p.engine,
    });
  });
}

/** Shard hand-off (shard-handoff.ts): undefined to start the wallet now, else when to start it. */
export type WalletHold = (wallet: string, signal: AbortSignal) => Promise<{ until: Promise<void> } | undefined>;

/**
 * Start every wallet at once; resolves when all are ready (or failed) or `waitMs` has passed,
 * whichever comes first, with each wallet's outcome so far. A wallet still starting goes on.
 */
export async function startWallets(runners: readonly WalletRunner[], signal: AbortSignal, clock: Clock, waitMs: number, log: Logger, hold?: WalletHold): Promise<StartReport["wallets"]> {
  const results: StartReport["wallets"] = runners.map((r) => ({ name: r.name, ready: false }));
  const failed = (r: WalletRunner, i: number) => (e: unknown) => {
    results[i]!.error = e instanceof Error ? e.message : String(e);
    if (!signal.aborted) log.error({ wallet: r.wallet, err: results[i]!.error }, "wallet start-up failed");
  };
  const starts = runners.map(async (r, i) => {
    // A sharded replica's wallet still held by its previous owner starts later, without holding the rest back.
    const held = hold === undefined ? undefined : await hold(r.wallet, signal).catch(() => undefined);
    if (held !== undefined) return void held.until.then(() => r.start(signal)).catch(failed(r, i));
    await r.start(signal).then(() => (results[i]!.ready = true), failed(r, i));
  });
  let waitTimer: TimerHandle | undefined;
  await Promise.race([Promise.all(starts), new Promise<void>((resolve) => (waitTimer = clock.setTimeout(resolve, waitMs)))]);
  clock.clearTimeout(waitTimer);
  return results;
}
