/**
 * What a wallet's shutdown reports, and the exit code it leads to.
 *
 * "Clean" means confirmed by the platform, nothing less: every order the shutdown had to end is
 * named here unless the platform itself said it ended (a cancel answer, a read, a lookup, a frame,
 * or its absence from a complete open-orders walk), and the last open-orders walk must have
 * succeeded. Anything else is an `UnconfirmedOrder` with the reason we could not tell:
 *
 *   key_refused           the platform refused the API key (401: revoked, expired, bad secret...)
 *   platform_unreachable  no usable answer (transport error, timeout, 5xx, open circuit)
 *   lookup_inconclusive   a placement whose outcome was unknown was not found by a lookup made during
 *                         shutdown: the platform may still record it (it re-sends places itself, and
 *                         a request can arrive after our timeout), so "never recorded" is unverified
 *   cancel_pending        the platform recorded our cancel but never gave a final answer
 *   still_open            listed open by the last walk (nothing refused, the deadline came first)
 *   cancel_refused        a cancel refused for a reason that does not say the order ended (forbidden...)
 */
import { isApiError } from "../../api/errors.js";
import type { Logger } from "../../log/index.js";

export const UNCONFIRMED_REASONS = ["key_refused", "platform_unreachable", "lookup_inconclusive", "cancel_pending", "still_open", "cancel_refused"] as const;
export type UnconfirmedReason = (typeof UNCONFIRMED_REASONS)[number];

export interface Problem {
  reason: UnconfirmedReason;
  /** Codes and numbers only: never a secret. */
  detail: string;
}

export interface UnconfirmedOrder extends Problem {
  /** The platform's order id, when one is known. */
  orderId?: string;
  /** Our clientOrderId, when the order is one of ours. */
  clientOrderId?: string;
  /** Signed GTD (quoting.orderExpirySec): the platform ends it by itself at this time at the latest. */
  expiresAtMs?: number;
}

export type FinalWalk = { ok: true; open: number } | { ok: false; error: string };

export interface WalletShutdownReport {
  wallet: string;
  name: string;
  /** Orders the platform confirmed cancelled (or filled) during shutdown. */
  cancelled: number;
  /** Every order whose end the platform did not confirm, with why. Empty on a clean stop. */
  unconfirmed: UnconfirmedOrder[];
  /** Order ids among `unconfirmed` (still open, or not confirmed ended). */
  leftover: string[];
  /** clientOrderIds among `unconfirmed` whose placement outcome stayed unknown (no order id). */
  unresolved: string[];
  /**
   * Placements ended "never recorded" while running (a lookup 404 sent after the window: request
   * timeout + the platform's re-sends + margin) and still unseen when the shutdown looked again.
   * Final by that rule, so not counted against the stop; listed because only GTD orders
   * (quoting.orderExpirySec) bound a platform slower than the window.
   */
  notRecorded: string[];
  /** The last open-orders walk: it must succeed for the stop to count as clean. */
  finalWalk: FinalWalk;
  rounds: number;
  errors: string[];
}

/** The reason and detail of a failed request (an ApiError's code and status; never its headers). */
export function problemOf(e: unknown): Problem {
  if (isApiError(e)) {
    const detail = e.status > 0 ? `${e.code} (HTTP ${e.status})` : e.code;
    if (e.handling === "auth") return { reason: "key_refused", detail };
    return { reason: "platform_unreachable", detail };
  }
  return { reason: "platform_unreachable", detail: e instanceof Error ? e.message : String(e) };
}

export function isClean(r: WalletShutdownReport): boolean {
  return r.unconfirmed.length === 0 && r.finalWalk.ok;
}

/** Exit status of a shutdown: 0 only when every wallet's stop was confirmed clean by the platform. */
export function shutdownExitCode(reports: readonly WalletShutdownReport[]): number {
  return reports.every(isClean) ? 0 : 1;
}

/** One line per order not confirmed ended, for logs and the CLI. */
export function describeUnconfirmed(u: UnconfirmedOrder): string {
  const id = u.orderId !== undefined ? `order ${u.orderId}` : `placement ${u.clientOrderId ?? "?"}`;
  const cid = u.orderId !== undefined && u.clientOrderId !== undefined ? ` (${u.clientOrderId})` : "";
  const gtd = u.expiresAtMs !== undefined ? `; expires by itself at ${new Date(u.expiresAtMs).toISOString()}` : "";
  return `${id}${cid}: ${u.reason.replace(/_/g, " ")}: ${u.detail}${gtd}`;
}

/** The shutdown in the log: one line per wallet, and one per order the platform did not confirm ended. */
export function logShutdownReports(log: Logger, wallets: readonly WalletShutdownReport[]): void {
  for (const w of wallets) {
    const fields = { wallet: w.wallet, walletName: w.name, cancelled: w.cancelled, finalWalk: w.finalWalk, errors: w.errors };
    if (isClean(w)) log.debug(fields, "wallet clean: every order confirmed ended");
    else {
      log.error({ ...fields, unconfirmed: w.unconfirmed.length }, "wallet NOT confirmed clean after shutdown");
      for (const u of w.unconfirmed) log.error({ wallet: w.wallet, walletName: w.name, ...u }, `order not confirmed ended: ${describeUnconfirmed(u)}`);
    }
  }
}
