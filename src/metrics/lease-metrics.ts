/**
 * The per-wallet Kubernetes Leases of a sharded replica (`shard.lease`, src/bot/guards/wallet-lease.ts)
 * as metrics, read at scrape time:
 *
 *   mm_shard_lease_state{wallet,state}        1 for the wallet's lease state now, 0 for the others
 *                                             (held, waiting, lost, released)
 *   mm_shard_lease_renew_age_seconds{wallet}  seconds since this replica's last successful write of
 *                                             the lease (acquire or renewal); absent before the first
 *   mm_shard_lease_losses_total{wallet}       leases lost (not renewed in time, or taken) in this process
 *
 * Labels are bounded: the configured wallet name (through the label guard: an unknown wallet is
 * "other") and the four states; the holder's identity is only in /status (it is free text). Every
 * series is absent until the engine attaches its leases with `follow` (shard.lease off: never).
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { LabelGuard } from "./labels.js";

export const LEASE_METRIC_STATES = ["held", "waiting", "lost", "released"] as const;

export interface LeaseMetricRow {
  /** The wallet's address (or name): labelled by the label guard. */
  wallet: string;
  state: (typeof LEASE_METRIC_STATES)[number];
  /** Seconds since the last successful write; undefined: never held in this process. */
  renewAgeSec: number | undefined;
  losses: number;
}

export class LeaseMetrics {
  private source: () => readonly LeaseMetricRow[] = () => [];

  constructor(registry: Registry, labels: LabelGuard) {
    const read = (): readonly LeaseMetricRow[] => this.source();
    new Gauge({
      name: "mm_shard_lease_state",
      help: "1 for the state of the wallet's Kubernetes Lease as this replica sees it (held, waiting, lost, released), 0 for the others (shard.lease).",
      labelNames: ["wallet", "state"],
      registers: [registry],
      collect() {
        this.reset();
        for (const r of read()) {
          const wallet = labels.wallet(r.wallet);
          // Wallets folding into "other" are summed (as the other per-wallet series).
          for (const state of LEASE_METRIC_STATES) this.inc({ wallet, state }, state === r.state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: "mm_shard_lease_renew_age_seconds",
      help: "Seconds since this replica last wrote the wallet's Lease successfully (acquire or renewal); absent before the first (shard.lease).",
      labelNames: ["wallet"],
      registers: [registry],
      collect() {
        this.reset();
        const oldest = new Map<string, number>();
        for (const r of read()) {
          if (r.renewAgeSec === undefined) continue;
          const wallet = labels.wallet(r.wallet);
          oldest.set(wallet, Math.max(oldest.get(wallet) ?? 0, r.renewAgeSec));
        }
        for (const [wallet, age] of oldest) this.set({ wallet }, age);
      },
    });
    new Counter({
      name: "mm_shard_lease_losses_total",
      help: "Wallet Leases lost by this replica (not renewed within durationSec - skewMarginSec, or taken by another replica) since it started (shard.lease).",
      labelNames: ["wallet"],
      registers: [registry],
      collect() {
        this.reset();
        for (const r of read()) this.inc({ wallet: labels.wallet(r.wallet) }, r.losses);
      },
    });
  }

  /** Read the replica's leases at each scrape from now on. */
  follow(source: () => readonly LeaseMetricRow[]): void {
    this.source = source;
  }
}
