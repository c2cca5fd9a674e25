/**
 * What a market's lifecycle allows us to do now (spec 3.1, 2.6 tradingWindow / lifecycle).
 * Pure: the market row and the time come in.
 *
 *   stopped     CLOSED, PENDING_RESOLUTION, RESOLVED, VOIDED, or resolvedAt / voidedAt set:
 *               no longer tradeable, stop the market
 *   pull        PAUSED, SUSPENDED, POSTPONED, DELAYED, DISPUTED; within `pullBeforeCloseMs` of
 *               closesAt (edge included) or past it (orders are rejected after closesAt, and the
 *               status may lag the clock); before the market's window starts; an unreadable
 *               closesAt: cancel everything, quote nothing
 *   pre_market  PRE_MARKET: post-only quotes only. Also OPEN while opensAt is still ahead: the
 *               status says full matching, the schedule disagrees, and post-only is the side of
 *               the doubt that can never take liquidity by mistake
 *   open        OPEN: quote normally
 *
 * The order of the checks is the order of precedence: settled, status, closesAt, start of window.
 */
import type { MarketStatus } from "../../wire/enums.js";
import { boundedMemo } from "../../core/memo.js";
import type { MarketPhase } from "../quote/quotes.js";

export interface PhaseMarket {
  status: MarketStatus;
  tradingWindow: { preMarketStartsAt: string | null; opensAt: string | null; closesAt: string | null };
  lifecycle?: { resolvedAt: string | null; voidedAt: string | null };
}

export interface PhaseOptions {
  /** Pull every quote this long before closesAt. */
  pullBeforeCloseMs: number;
}

export type PhaseReason =
  | "settled"
  | "closed"
  | "pending_resolution"
  | "resolved"
  | "voided"
  | "paused"
  | "suspended"
  | "postponed"
  | "delayed"
  | "disputed"
  | "past_close"
  | "closing"
  | "bad_window"
  | "not_started"
  | "before_opens_at"
  | "pre_market"
  | "open";

export interface PhaseResult {
  phase: MarketPhase;
  reason: PhaseReason;
  /** Only post-only orders may be sent (pre_market). */
  postOnly: boolean;
  closesAtMs: number | null;
  /** closesAt - now (negative once past); null without closesAt. */
  msToClose: number | null;
}

/** Parsed window times: every quote cycle asks about the same few strings. */
const parsed = boundedMemo(4_096, (iso) => Date.parse(iso));

/** ISO-8601 -> epoch ms; null stays null; an unreadable value is NaN (treated as unknown). */
function ms(iso: string | null): number | null {
  return iso === null ? null : parsed(iso);
}

export function marketPhase(market: PhaseMarket, nowMs: number, opts: PhaseOptions): PhaseResult {
  const closesAtMs = ms(market.tradingWindow.closesAt);
  const msToClose = closesAtMs === null || Number.isNaN(closesAtMs) ? null : closesAtMs - nowMs;
  const out = (phase: MarketPhase, reason: PhaseReason): PhaseResult => ({
    phase,
    reason,
    postOnly: phase === "pre_market",
    closesAtMs: closesAtMs === null || Number.isNaN(closesAtMs) ? null : closesAtMs,
    msToClose,
  });

  if (market.lifecycle !== undefined && (market.lifecycle.resolvedAt !== null || market.lifecycle.voidedAt !== null)) {
    return out("stopped", "settled");
  }
  const s = market.status;
  switch (s) {
    case "CLOSED":
      return out("stopped", "closed");
    case "PENDING_RESOLUTION":
      return out("stopped", "pending_resolution");
    case "RESOLVED":
      return out("stopped", "resolved");
    case "VOIDED":
      return out("stopped", "voided");
    case "PAUSED":
      return out("pull", "paused");
    case "SUSPENDED":
      return out("pull", "suspended");
    case "POSTPONED":
      return out("pull", "postponed");
    case "DELAYED":
      return out("pull", "delayed");
    case "DISPUTED":
      return out("pull", "disputed");
    case "PRE_MARKET":
    case "OPEN":
      break;
    default: {
      const never: never = s;
      return out("stopped", never);
    }
  }
  if (closesAtMs !== null) {
    if (Number.isNaN(closesAtMs)) return out("pull", "bad_window");
    if (nowMs >= closesAtMs) return out("pull", "past_close");
    if (closesAtMs - nowMs <= opts.pullBeforeCloseMs) return out("pull", "closing");
  }
  const preStart = ms(market.tradingWindow.preMarketStartsAt);
  const opensAt = ms(market.tradingWindow.opensAt);
  if (s === "PRE_MARKET") {
    if (preStart !== null && (Number.isNaN(preStart) || nowMs < preStart)) return out("pull", "not_started");
    return out("pre_market", "pre_market");
  }
  if (opensAt !== null && (Number.isNaN(opensAt) || nowMs < opensAt)) {
    const preOpen = preStart !== null && !Number.isNaN(preStart) && nowMs >= preStart;
    return preOpen ? out("pre_market", "before_opens_at") : out("pull", "not_started");
  }
  return out("open", "open");
}

export type SendVerdict = { ok: true } | { ok: false; reason: PhaseReason | "post_only_required" };

/** May an order be sent now? Never in pull / stopped (which covers "after closesAt"); post-only in pre_market. */
export function maySendOrder(market: PhaseMarket, nowMs: number, opts: PhaseOptions, order: { postOnly: boolean }): SendVerdict {
  const p = marketPhase(market, nowMs, opts);
  if (p.phase === "pull" || p.phase === "stopped") return { ok: false, reason: p.reason };
  if (p.closesAtMs !== null && nowMs >= p.closesAtMs) return { ok: false, reason: "past_close" };
  if (p.postOnly && !order.postOnly) return { ok: false, reason: "post_only_required" };
  return { ok: true };
}
