/**
 * The daemon's side of `shard.lease` (src/bot/guards/wallet-lease.ts): building the per-wallet
 * Leases from the config and the pod's service account, stopping a wallet whose lease was lost,
 * ending each wallet at shutdown by whether its lease is ours, and releasing the leases after;
 * the leases as metric rows. (The way back of a lost wallet: Daemon.rejoinAfterLoss over
 * ShardHandoff.rejoin.)
 */
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { ShardSettings } from "../../config/shard-section.js";
import { HttpLeaseApi, inClusterTarget, type InClusterSource, type LeaseApi } from "../guards/k8s-lease-client.js";
import { WalletLeases } from "../guards/wallet-lease.js";
import type { LeaseMetricRow } from "../../metrics/lease-metrics.js";
import { shardBase } from "./shard-handoff.js";
import { isClean, type WalletShutdownReport } from "./shutdown-report.js";

/** Longest a lease request may take (never longer than one renewal period). */
const LEASE_REQUEST_TIMEOUT_MS = 5_000;

/**
 * The per-wallet leases of a sharded replica with `shard.lease`, or undefined when off. Without
 * `api` (tests hand one in) the pod's in-cluster API server and service account are used; a
 * missing piece (not in a pod, no token mounted, no namespace) throws with what is missing, so the
 * replica refuses to start rather than run without the guarantee it was configured for.
 */
export function walletLeasesFor(
  config: { shard?: ShardSettings | undefined; instance: { id: string } },
  opts: { api?: LeaseApi | undefined; inCluster?: InClusterSource | undefined; clock: Clock; log: Logger; onLost: (wallet: string, why: string) => void },
): WalletLeases | undefined {
  const shard = config.shard;
  const lease = shard?.lease;
  if (shard === undefined || lease === undefined) return undefined;
  let api = opts.api;
  if (api === undefined) {
    const target = inClusterTarget(opts.inCluster ?? { env: process.env });
    if (typeof target === "string") throw new Error(target);
    const namespace = lease.namespace ?? target.namespace;
    if (namespace === undefined) throw new Error("shard.lease: no namespace: set shard.lease.namespace, or mount the service account (its namespace file)");
    api = new HttpLeaseApi({ baseUrl: target.baseUrl, namespace, token: target.token, ca: target.ca, timeoutMs: Math.min(LEASE_REQUEST_TIMEOUT_MS, lease.renewSec * 1000) });
  }
  return new WalletLeases({
    api,
    identity: config.instance.id,
    prefix: shardBase(config.instance.id, shard.index),
    durationSec: lease.durationSec,
    renewSec: lease.renewSec,
    skewMarginSec: lease.skewMarginSec,
    clock: opts.clock,
    log: opts.log.child({ component: "lease" }),
    onLost: opts.onLost,
  });
}

/** The leases as the metrics read them (src/metrics/lease-metrics.ts), at `nowMs`. */
export function leaseMetricRows(leases: WalletLeases, nowMs: number): LeaseMetricRow[] {
  return leases.views().map((v) => ({
    wallet: v.wallet,
    state: v.state,
    renewAgeSec: v.renewedAtMs === undefined ? undefined : Math.max(0, nowMs - v.renewedAtMs) / 1000,
    losses: v.losses,
  }));
}

/** What a wallet's shutdown reports when its lease was never this replica's: nothing of ours to end. */
export function notOursReport(wallet: string, name: string): WalletShutdownReport {
  return { wallet, name, cancelled: 0, unconfirmed: [], leftover: [], unresolved: [], notRecorded: [], finalWalk: { ok: true, open: 0 }, rounds: 0, errors: [] };
}

interface StoppableWallet {
  readonly wallet: string;
  readonly name: string;
  shutdown(deadlineAtMs: number): Promise<WalletShutdownReport>;
  abandon(): void;
}

/**
 * One wallet's end at shutdown with leases on: a wallet stopped when its lease was lost gives
 * that stop's report (never a second cancel-all: another replica may quote it by now); a wallet
 * whose lease this replica never got is dropped without cancelling anything (it is another
 * replica's); the rest stop as always (every order ended).
 */
export function stopLeasedWallet(r: StoppableWallet, deadlineAtMs: number, leases: WalletLeases, lostStops: ReadonlyMap<string, Promise<WalletShutdownReport>>, log: Logger): Promise<WalletShutdownReport> {
  const lost = lostStops.get(r.wallet);
  if (lost !== undefined) return lost;
  if (!leases.holds(r.wallet)) {
    r.abandon();
    log.info({ wallet: r.wallet, lease: leases.nameOf(r.wallet) }, "shard lease: the wallet's lease was never ours; nothing of it cancelled");
    return Promise.resolve(notOursReport(r.wallet, r.name));
  }
  return r.shutdown(deadlineAtMs);
}

/** After the wallets stopped: release the lease of each wallet whose orders all ended; the others expire. */
export async function releaseLeases(leases: WalletLeases, reports: readonly WalletShutdownReport[], log: Logger): Promise<void> {
  await Promise.all(
    reports.map(async (r) => {
      if (!leases.holds(r.wallet)) return;
      if (isClean(r)) await leases.release(r.wallet);
      else log.warn({ wallet: r.wallet, lease: leases.nameOf(r.wallet) }, "shard lease: not released (orders not confirmed ended); it expires by itself");
    }),
  );
  leases.stop();
}
