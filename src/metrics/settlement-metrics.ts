/**
 * Settlement checks as metrics, read at scrape time (src/bot/engine/settlement-watch.ts):
 *
 *   mm_settlement_pending{wallet}           payouts of settled markets awaited (expected or overdue)
 *   mm_settlement_overdue{wallet,market}    1 per payout not shown within settlement.payoutTimeoutSec
 *                                           (at most 50 series; beyond that the rest are summed under market="_other")
 *   mm_settlement_overdue_amount{wallet}    settlement-token units overdue (expected minus received)
 *
 * Every series is 0 / absent until the engine attaches its watcher with `follow`. The alert is
 * MMSettlementPayoutOverdue (configs/prometheus/alerts.yaml).
 */
import { Gauge, type Registry } from "prom-client";
import { microsToNumber, type Micros } from "../core/money.js";

export interface SettlementMetricRow {
  walletName: string;
  marketId: string;
  state: "expected" | "confirmed" | "overdue";
  expected: Micros;
  received: Micros;
}

/** Most overdue (wallet, market) series at once. */
export const MAX_OVERDUE_SERIES = 50;

export class SettlementMetrics {
  private source: () => readonly SettlementMetricRow[] = () => [];

  constructor(registry: Registry) {
    const read = (): readonly SettlementMetricRow[] => this.source();
    new Gauge({
      name: "mm_settlement_pending",
      help: "Payouts of resolved or voided markets awaited from the platform (expected or overdue), per wallet.",
      labelNames: ["wallet"],
      registers: [registry],
      collect() {
        this.reset();
        const counts = new Map<string, number>();
        for (const r of read()) if (r.state !== "confirmed") counts.set(r.walletName, (counts.get(r.walletName) ?? 0) + 1);
        for (const [wallet, n] of counts) this.set({ wallet }, n);
      },
    });
    new Gauge({
      name: "mm_settlement_overdue",
      help: "1 per settled market whose payout the platform has not shown within settlement.payoutTimeoutSec (market _other sums the rest).",
      labelNames: ["wallet", "market"],
      registers: [registry],
      collect() {
        this.reset();
        let series = 0;
        for (const r of read()) {
          if (r.state !== "overdue") continue;
          if (series < MAX_OVERDUE_SERIES) {
            this.set({ wallet: r.walletName, market: r.marketId }, 1);
            series++;
          } else {
            this.inc({ wallet: r.walletName, market: "_other" }, 1);
          }
        }
      },
    });
    new Gauge({
      name: "mm_settlement_overdue_amount",
      help: "Settlement-token units of overdue payouts (expected minus received), per wallet.",
      labelNames: ["wallet"],
      registers: [registry],
      collect() {
        this.reset();
        const sums = new Map<string, Micros>();
        for (const r of read()) if (r.state === "overdue") sums.set(r.walletName, (sums.get(r.walletName) ?? 0n) + r.expected - r.received);
        for (const [wallet, m] of sums) this.set({ wallet }, microsToNumber(m));
      },
    });
  }

  /** Read the watcher's state at each scrape from now on. */
  follow(source: () => readonly SettlementMetricRow[]): void {
    this.source = source;
  }
}
