/**
 * `POST /api/me/vault/emergency` (spec 4.8; shape not shown, ours in docs/spec-gaps.md): the
 * wallet's emergency stop. It cancels every open order of the wallet (as cancel-all does, so the
 * stream sends `order_cancelled`), cancels every withdrawal still cancellable (funds back in the
 * vault) and freezes new withdrawal requests (409 `invalid_state`). Trading itself is not
 * blocked. A repeat answers the first `requestedAt` with whatever it cancelled this time.
 *
 *   200 {walletAddress, vaultAddress, status: "EMERGENCY", requestedAt, cancelledOrders, cancelledWithdrawals}
 */
import type { Simulator } from "../simulator.js";
import type { DeskAnswer } from "./answers.js";
import type { Caller } from "./caller.js";
import { isoOf } from "../platform/time.js";
import { withdrawalDesk } from "./withdrawals.js";

const requested = new WeakMap<Simulator, Map<string, number>>();

export function vaultEmergency(sim: Simulator, caller: Caller, nowMs: number): DeskAnswer {
  let byWallet = requested.get(sim);
  if (byWallet === undefined) {
    byWallet = new Map();
    requested.set(sim, byWallet);
  }
  const wallet = caller.wallet;
  const firstAt = byWallet.get(wallet) ?? nowMs;
  byWallet.set(wallet, firstAt);
  const cancelled = sim.desk.cancels.cancelAll({}, caller);
  const body = cancelled.body as { cancelled?: string[] } | undefined;
  const wd = withdrawalDesk(sim);
  const cancelledWithdrawals = wd.cancelAllOf(wallet, nowMs, "vault emergency");
  wd.freeze(wallet);
  return {
    status: 200,
    body: {
      walletAddress: wallet,
      vaultAddress: sim.platform.wallets.vaultInfo(wallet, nowMs).vaultAddress.toLowerCase(),
      status: "EMERGENCY",
      requestedAt: isoOf(firstAt),
      cancelledOrders: body?.cancelled ?? [],
      cancelledWithdrawals,
    },
  };
}
