/**
 * Paper trading (`mode: paper`, docs/backtest.md "Paper trading"): the unchanged daemon
 * (createDaemon, the config's strategy, risk, tracker, ledger) with two seams replaced:
 *   - REST through `PaperTransport`: public reads go to the real platform, keyed routes are
 *     answered from the paper account (nothing keyed ever leaves);
 *   - the user stream through `PaperConnector`: frames come from the paper account.
 * Orders are still built and signed by the wallets' keys, exactly as live; they stop at the
 * transport. The account matches them with the fast engine's exchange model (latency and queue
 * models as `mm backtest --engine fast`) against the books and trades the daemon reads.
 */
import { keccak256, stringToBytes } from "viem/utils";
import type { Clock } from "../core/clock.js";
import { Rng } from "../core/rng.js";
import { FetchTransport } from "../api/fetch-transport.js";
import type { PaperModeConfig } from "../config/load.js";
import type { Logger } from "../log/index.js";
import { createDaemon, type Daemon } from "../bot/engine/daemon.js";
import type { EngineObserver } from "../bot/observer.js";
import { constantLatency, type LatencyModel } from "../backtest/models/latency.js";
import type { QueueModelSpec } from "../backtest/models/queue.js";
import type { Transport } from "../wire/transport.js";
import { PaperAccount } from "./account.js";
import { PaperConnector } from "./connector.js";
import { PaperReporter, type PaperReport } from "./report.js";
import { PaperTransport } from "./transport.js";

/** The daemon's stand-in partner key: it only ever reaches the paper transport, which drops it. */
export const PAPER_STAND_IN_KEY = "paper-mode-no-key-is-sent";

export interface PaperOptions {
  config: PaperModeConfig;
  clock: Clock;
  /** The real platform; default a FetchTransport to platform.baseUrl. */
  upstream?: Transport;
  logger?: Logger;
  /** The daemon's random source (salts, jitter); default seeded from paper.seed. */
  rng?: Rng;
  /** Overrides of the config's latency and queue models (mm paper --latency, --queue). */
  latency?: { model: LatencyModel; describe: string };
  queue?: QueueModelSpec;
  observer?: EngineObserver;
}

export interface PaperRun {
  daemon: Daemon;
  account: PaperAccount;
  transport: PaperTransport;
  connector: PaperConnector;
  reporter: PaperReporter;
  /** The report now (closes the series: once, after the daemon stopped). */
  report(): PaperReport;
  /** Stop the report's sampling timer. */
  close(): void;
}

/** A deterministic stand-in vault address per wallet (what `/api/me/vault` answers). */
export function paperVaultOf(wallet: string): string {
  return `0x${keccak256(stringToBytes(`mm-paper-vault:${wallet.toLowerCase()}`)).slice(-40)}`;
}

/** The config's queue model as the exchange model's spec. */
export function queueSpecOf(q: PaperModeConfig["paper"]["queue"]): QueueModelSpec {
  switch (q.model) {
    case "risk-averse":
      return { kind: "risk-averse" };
    case "prob-log":
      return { kind: "prob-log" };
    case "prob-power":
      return { kind: "prob-power", n: q.n ?? 1 };
    case "prob-power-fraction":
      return { kind: "prob-power-fraction", n: q.n ?? 1 };
  }
}

/** Build the paper run (the daemon is built, not started). */
export function createPaperRun(o: PaperOptions): PaperRun {
  const { config, clock } = o;
  const p = config.paper;
  const queue = o.queue ?? queueSpecOf(p.queue);
  const latency = o.latency ?? { model: constantLatency(p.latency.entryMs, p.latency.responseMs), describe: `${p.latency.entryMs},${p.latency.responseMs} ms` };
  const root = new Rng(p.seed);
  const account = new PaperAccount({ wallets: config.wallets.map((w) => w.address.toLowerCase()), startingCash: p.startingCash, queue, now: () => clock.now() });
  const apiKey = config.platform.apiKey?.reveal();
  const upstream = o.upstream ?? new FetchTransport({ baseUrl: config.platform.baseUrl, clock, timeoutMs: config.platform.requestTimeoutMs, localAddress: config.platform.localAddress });
  const transport = new PaperTransport({ upstream, account, clock, latency: latency.model, rng: root.fork("paper-rest"), vaultOf: paperVaultOf, ...(apiKey !== undefined ? { apiKey } : {}) });
  const connector = new PaperConnector({ account, clock, latency: latency.model, rng: root.fork("paper-stream") });
  const reporter = new PaperReporter(account, { source: `paper: ${config.platform.baseUrl}`, queueModel: queue.kind, latency: latency.describe, startingCash: p.startingCash });
  const sampler = clock.setInterval(() => reporter.advance(clock.now()), 1_000);
  const daemon = createDaemon(config, {
    clock,
    transport,
    connector,
    apiKey: PAPER_STAND_IN_KEY,
    rng: o.rng ?? root.fork("daemon"),
    ...(o.logger !== undefined ? { logger: o.logger } : {}),
    ...(o.observer !== undefined ? { observer: o.observer } : {}),
  });
  let closed = false;
  return {
    daemon,
    account,
    transport,
    connector,
    reporter,
    report: () => reporter.finish(clock.now()),
    close: () => {
      if (closed) return;
      closed = true;
      clock.clearInterval(sampler);
    },
  };
}
