/**
 * `settlement:` in the daemon config: checking that the payout of a resolved or voided market
 * arrives (issue 14 part 3; src/bot/fills/settlement-check.ts, src/bot/engine/settlement-watch.ts).
 * On by default: the checks are reads only, made only while a payout is awaited.
 *
 *   settlement:
 *     enabled: true              # watch payouts of markets we hold shares in when they settle
 *     payoutTimeoutSec: 3600     # a payout not shown by the platform this long after the
 *                                # settlement is overdue: metric mm_settlement_overdue, alert
 *                                # MMSettlementPayoutOverdue, an error log naming wallet, market, amount
 *     pollIntervalSec: 60        # how often a wallet with a payout awaited reads balance events,
 *                                # positions, balances and auto-redeem (4+ portfolio reads)
 */
import { z } from "zod";

export interface SettlementSettings {
  enabled: boolean;
  payoutTimeoutSec: number;
  pollIntervalSec: number;
}

export function settlementSectionSchema() {
  return z
    .strictObject({
      enabled: z.boolean().default(true),
      payoutTimeoutSec: z.int().min(10).max(30 * 86_400).default(3_600),
      pollIntervalSec: z.int().min(5).max(3_600).default(60),
    })
    .prefault({})
    .refine((s) => s.pollIntervalSec <= s.payoutTimeoutSec, { message: "pollIntervalSec must not exceed payoutTimeoutSec (the check would come after the deadline)", path: ["pollIntervalSec"] });
}
