/**
 * Auto-merge as metrics (src/bot/engine/auto-merge-runner.ts, EngineEvent `vault_merge`):
 *
 *   mm_vault_merges_total{wallet,result}    merges started, confirmed by the platform, failed (and unlocked)
 *   mm_vault_merged_shares_total{wallet}    YES+NO pairs turned into cash by confirmed merges (shares = collateral units)
 *
 * Registered once per registry, by MetricSet (metric-set.ts).
 */
import { Counter, type Registry } from "prom-client";
import { microsToNumber, type Micros } from "../core/money.js";
import { onePer } from "../core/memo.js";

export const VAULT_MERGE_RESULTS = ["started", "confirmed", "failed"] as const;
export type VaultMergeResult = (typeof VAULT_MERGE_RESULTS)[number];

export class VaultMergeMetrics {
  readonly merges: Counter<"wallet" | "result">;
  readonly merged: Counter<"wallet">;

  constructor(registry: Registry) {
    this.merges = new Counter({
      name: "mm_vault_merges_total",
      help: "Auto-merges of YES+NO pairs into collateral, by result: started (sent and accepted), confirmed by the platform, failed (chain tx not confirmed; the lock was unlocked).",
      labelNames: ["wallet", "result"],
      registers: [registry],
    });
    this.merged = new Counter({
      name: "mm_vault_merged_shares_total",
      help: "YES+NO pairs turned into collateral by confirmed auto-merges (one pair of shares = one unit of collateral).",
      labelNames: ["wallet"],
      registers: [registry],
    });
  }

  record(wallet: string, result: VaultMergeResult, amount: Micros): void {
    this.merges.inc({ wallet, result });
    if (result === "confirmed") this.merged.inc({ wallet }, microsToNumber(amount));
  }
}

const byRegistry = onePer((registry: Registry) => new VaultMergeMetrics(registry));

/** The registry's auto-merge metrics, registered on first use. */
export function vaultMergeMetrics(registry: Registry): VaultMergeMetrics {
  return byRegistry(registry);
}
