/**
 * Market status machine (spec 3.1). The transition table below is the single source of
 * which moves exist; apply() refuses anything not in it (never silently applied).
 *
 * Internal pre-listing state: before its first trading window (preMarketStartsAt, or opensAt
 * when there is no pre-market) a market is SCHEDULED. SCHEDULED is not a wire status: such
 * markets are not listed and their lookups answer 404 (docs: report of the platform layer).
 *
 * Stamps are written on entry into a status and never cleared: entering PAUSED writes
 * pausedAt (SUSPENDED writes nothing), entering CLOSED writes closedAt (overwriting, so it
 * holds the newest CLOSED time), RESOLVED writes resolvedAt + payoutNumerators, VOIDED
 * writes voidedAt. RESOLVED and VOIDED are terminal, so exactly one of them can be reached.
 *
 * Time moves happen on the simulator clock, from SCHEDULED / PRE_MARKET / OPEN only: an
 * administrative hold (PAUSED, SUSPENDED, POSTPONED) stays until an administrator resumes,
 * and resume picks the state the trading window implies at that moment.
 */
import { failure, OK, type PlatformFailure, type PlatformOk } from "./errors.js";
import { isoOrNull } from "./time.js";
import { MARKET_STATUSES, type MarketStatus } from "../../wire/enums.js";

// The statuses are the contract's (spec 3.1, src/wire); the lifecycle adds only SCHEDULED.
export { MARKET_STATUSES } from "../../wire/enums.js";
export type { MarketStatus } from "../../wire/enums.js";
/** MarketStatus plus the internal, unlisted pre-window state. */
export type LifecycleStatus = MarketStatus | "SCHEDULED";


/** The open set returned by default lists (spec 3.1). */
export const OPEN_SET: ReadonlySet<MarketStatus> = new Set(["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"]);
/** Post-trading statuses: detail lookups and `closed=true` lists. */
export const CLOSED_SET: ReadonlySet<MarketStatus> = new Set(MARKET_STATUSES.filter((s) => !OPEN_SET.has(s)));
export const TERMINAL: ReadonlySet<LifecycleStatus> = new Set(["RESOLVED", "VOIDED"]);
const NON_TERMINAL: readonly LifecycleStatus[] = ["SCHEDULED", ...MARKET_STATUSES.filter((s) => !TERMINAL.has(s))];

export type TimeTrigger = "time_pre_market" | "time_open" | "time_close";
export type AdminTrigger =
  | "pause"
  | "resume"
  | "suspend"
  | "postpone"
  | "close"
  | "delay"
  | "await_resolution"
  | "dispute"
  | "set_status"
  | "resolve"
  | "void";
export type Trigger = TimeTrigger | AdminTrigger;

/** "window": the state the trading window implies now; "requested": set_status's argument. */
export type TransitionTarget = LifecycleStatus | "window" | "requested";

export interface TransitionRow {
  readonly trigger: Trigger;
  readonly from: readonly LifecycleStatus[];
  readonly to: TransitionTarget;
  readonly note: string;
}

export const TRANSITIONS: readonly TransitionRow[] = [
  { trigger: "time_pre_market", from: ["SCHEDULED"], to: "PRE_MARKET", note: "at preMarketStartsAt, post-only trading" },
  { trigger: "time_open", from: ["SCHEDULED", "PRE_MARKET"], to: "OPEN", note: "at opensAt, full matching" },
  { trigger: "time_close", from: ["SCHEDULED", "PRE_MARKET", "OPEN"], to: "CLOSED", note: "at closesAt; closedAt = closesAt" },
  {
    trigger: "pause",
    from: ["PRE_MARKET", "OPEN", "SUSPENDED", "POSTPONED", "CLOSED", "PENDING_RESOLUTION", "DELAYED", "DISPUTED"],
    to: "PAUSED",
    note: "spec: any -> PAUSED, pausedAt written, never cleared",
  },
  { trigger: "resume", from: ["PAUSED", "SUSPENDED", "POSTPONED"], to: "window", note: "spec: next state unspecified; we follow the window" },
  { trigger: "suspend", from: ["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"], to: "SUSPENDED", note: "no pausedAt" },
  { trigger: "postpone", from: ["SCHEDULED", "PRE_MARKET", "OPEN", "PAUSED", "SUSPENDED"], to: "POSTPONED", note: "fixture postponed" },
  {
    trigger: "close",
    from: ["PRE_MARKET", "OPEN", "PAUSED", "SUSPENDED", "POSTPONED", "DELAYED"],
    to: "CLOSED",
    note: "spec: DELAYED -> CLOSED overwrites closedAt",
  },
  { trigger: "delay", from: ["OPEN", "PAUSED", "SUSPENDED", "CLOSED", "PENDING_RESOLUTION"], to: "DELAYED", note: "" },
  { trigger: "await_resolution", from: ["CLOSED", "DELAYED", "DISPUTED"], to: "PENDING_RESOLUTION", note: "" },
  { trigger: "dispute", from: ["CLOSED", "PENDING_RESOLUTION"], to: "DISPUTED", note: "" },
  { trigger: "set_status", from: NON_TERMINAL, to: "requested", note: "operator override to a non-terminal wire status" },
  { trigger: "resolve", from: NON_TERMINAL, to: "RESOLVED", note: "chain resolution; terminal" },
  { trigger: "void", from: NON_TERMINAL, to: "VOIDED", note: "chain void; terminal" },
];

export interface TradingWindow {
  readonly preMarketStartsAtMs: number | null;
  readonly opensAtMs: number;
  readonly closesAtMs: number | null;
}

export interface LifecycleState {
  readonly status: LifecycleStatus;
  readonly window: TradingWindow;
  readonly closedAtMs: number | null;
  readonly pausedAtMs: number | null;
  readonly resolvedAtMs: number | null;
  readonly voidedAtMs: number | null;
  readonly payoutNumerators: readonly number[] | null;
  readonly outcomeCount: number;
  readonly updatedAtMs: number;
}

export interface Transition {
  readonly trigger: Trigger;
  readonly from: LifecycleStatus;
  readonly to: LifecycleStatus;
  readonly atMs: number;
}

export interface TransitionArgs {
  /** set_status: the status to set. */
  status?: MarketStatus;
  /** resolve: one non-negative integer per outcome, not all zero. */
  payoutNumerators?: readonly number[];
}

export type ApplyResult = { ok: true; state: LifecycleState; transition: Transition } | PlatformFailure;

export function initialLifecycle(window: TradingWindow, outcomeCount: number, createdAtMs: number): LifecycleState {
  return {
    status: "SCHEDULED",
    window,
    closedAtMs: null,
    pausedAtMs: null,
    resolvedAtMs: null,
    voidedAtMs: null,
    payoutNumerators: null,
    outcomeCount,
    updatedAtMs: createdAtMs,
  };
}

/** The status the trading window alone implies at `nowMs`. */
export function windowStatus(w: TradingWindow, nowMs: number): LifecycleStatus {
  if (w.closesAtMs !== null && nowMs >= w.closesAtMs) return "CLOSED";
  if (nowMs >= w.opensAtMs) return "OPEN";
  if (w.preMarketStartsAtMs !== null && nowMs >= w.preMarketStartsAtMs) return "PRE_MARKET";
  return "SCHEDULED";
}

function refused(trigger: Trigger, from: LifecycleStatus, why: string): PlatformFailure {
  return failure(409, "invalid_transition", `cannot ${trigger} a ${from} market: ${why}`, { trigger, from });
}

function enter(state: LifecycleState, to: LifecycleStatus, atMs: number, args: TransitionArgs): LifecycleState {
  const next: { -readonly [K in keyof LifecycleState]: LifecycleState[K] } = { ...state, status: to, updatedAtMs: atMs };
  if (to === "PAUSED") next.pausedAtMs = atMs;
  if (to === "CLOSED") next.closedAtMs = atMs;
  if (to === "RESOLVED") {
    next.resolvedAtMs = atMs;
    next.payoutNumerators = Object.freeze([...(args.payoutNumerators ?? [])]);
  }
  if (to === "VOIDED") next.voidedAtMs = atMs;
  return next;
}

function payoutProblem(p: readonly number[] | undefined, outcomeCount: number): string | undefined {
  if (!p) return "payoutNumerators are required";
  if (p.length !== outcomeCount) return `payoutNumerators needs ${outcomeCount} entries, got ${p.length}`;
  if (!p.every((n) => Number.isSafeInteger(n) && n >= 0)) return "payoutNumerators must be non-negative integers";
  if (!p.some((n) => n > 0)) return "payoutNumerators must not all be zero";
  return undefined;
}

/** Apply one trigger through the table. Refusals change nothing. */
export function apply(state: LifecycleState, trigger: Trigger, atMs: number, args: TransitionArgs = {}): ApplyResult {
  const from = state.status;
  if (TERMINAL.has(from)) return refused(trigger, from, "the market is in a terminal state");
  const row = TRANSITIONS.find((r) => r.trigger === trigger);
  if (!row || !row.from.includes(from)) return refused(trigger, from, "no such transition");
  let to: LifecycleStatus;
  if (row.to === "window") to = windowStatus(state.window, atMs);
  else if (row.to === "requested") {
    const s = args.status;
    if (s === undefined || TERMINAL.has(s)) return refused(trigger, from, "set_status needs a non-terminal status (use resolve or void)");
    to = s;
  } else to = row.to;
  if (to === from) return refused(trigger, from, `the market is already ${from}`);
  if (to === "RESOLVED") {
    const problem = payoutProblem(args.payoutNumerators, state.outcomeCount);
    if (problem) return failure(400, "invalid_request", problem, { trigger, from });
  }
  return { ok: true, state: enter(state, to, atMs, args), transition: { trigger, from, to, atMs } };
}

/** The next time-driven move due at or before `nowMs`, with the time it is due. */
function dueTimeMove(state: LifecycleState, nowMs: number): { trigger: TimeTrigger; atMs: number } | undefined {
  const w = state.window;
  const s = state.status;
  if (s !== "SCHEDULED" && s !== "PRE_MARKET" && s !== "OPEN") return undefined;
  if (w.closesAtMs !== null && nowMs >= w.closesAtMs) return { trigger: "time_close", atMs: w.closesAtMs };
  if (s !== "OPEN" && nowMs >= w.opensAtMs) return { trigger: "time_open", atMs: w.opensAtMs };
  if (s === "SCHEDULED" && w.preMarketStartsAtMs !== null && nowMs >= w.preMarketStartsAtMs) {
    return { trigger: "time_pre_market", atMs: w.preMarketStartsAtMs };
  }
  return undefined;
}

/** Apply every time-driven move due by `nowMs`, stamping each at its scheduled time. */
export function advance(state: LifecycleState, nowMs: number): { state: LifecycleState; transitions: Transition[] } {
  const transitions: Transition[] = [];
  let cur = state;
  for (let due = dueTimeMove(cur, nowMs); due; due = dueTimeMove(cur, nowMs)) {
    const r = apply(cur, due.trigger, due.atMs);
    if (!r.ok) break;
    cur = r.state;
    transitions.push(r.transition);
  }
  return { state: cur, transitions };
}

/** When the next time-driven move after `nowMs` falls due (to schedule a timer), or undefined. */
export function nextTimeMoveAt(state: LifecycleState, nowMs: number): number | undefined {
  const w = state.window;
  const times: number[] = [];
  if (state.status === "SCHEDULED") {
    if (w.preMarketStartsAtMs !== null) times.push(w.preMarketStartsAtMs);
    times.push(w.opensAtMs);
  }
  if (state.status === "PRE_MARKET") times.push(w.opensAtMs);
  if (state.status === "SCHEDULED" || state.status === "PRE_MARKET" || state.status === "OPEN") {
    if (w.closesAtMs !== null) times.push(w.closesAtMs);
  }
  const future = times.filter((t) => t > nowMs);
  return future.length ? Math.min(...future) : undefined;
}

// ---------------------------------------------------------------------------------------
// Derived fields of market rows.

export function isListed(state: LifecycleState): boolean {
  return state.status !== "SCHEDULED";
}

/** Orders are accepted: PRE_MARKET (post-only) or OPEN, and before closesAt. */
export function isTradable(state: LifecycleState, nowMs: number): boolean {
  const beforeClose = state.window.closesAtMs === null || nowMs < state.window.closesAtMs;
  return (state.status === "PRE_MARKET" || state.status === "OPEN") && beforeClose;
}

export type TradingMode = "pre_market_post_only" | "paused" | "normal";

/** `pre_market_post_only`, `paused` (PAUSED and SUSPENDED), `normal` while OPEN and tradable, else null. */
export function tradingModeOf(state: LifecycleState, nowMs: number): TradingMode | null {
  if (state.status === "PAUSED" || state.status === "SUSPENDED") return "paused";
  if (!isTradable(state, nowMs)) return null;
  return state.status === "PRE_MARKET" ? "pre_market_post_only" : "normal";
}

/** Null while tradable; otherwise the lowercase reason (`paused`, `suspended`, `closed`, ...). */
export function notTradableReasonOf(state: LifecycleState, nowMs: number): string | null {
  if (isTradable(state, nowMs)) return null;
  switch (state.status) {
    case "SCHEDULED":
      return "not_open_yet";
    case "PRE_MARKET":
    case "OPEN":
      return "closed"; // past closesAt, before the close move ran
    default:
      return state.status.toLowerCase();
  }
}

export interface AdmissionFailure extends PlatformFailure {
  /** "http": answer the error envelope; "reject": answer a REJECTED placement result (HTTP 201). */
  readonly answer: "http" | "reject";
}

/**
 * May an order be placed now? 409 market_not_open outside PRE_MARKET/OPEN or after closesAt.
 * In PRE_MARKET an order that is not post-only is a REJECTED placement with code
 * market_not_open and details {status: "PRE_MARKET", postOnlyRequired: true}.
 */
export function admitOrder(state: LifecycleState, order: { postOnly: boolean }, nowMs: number): PlatformOk | AdmissionFailure {
  const status = state.status;
  const closesAt = isoOrNull(state.window.closesAtMs);
  if (status !== "OPEN" && status !== "PRE_MARKET") {
    const details = status === "SCHEDULED" ? { status: null } : { status };
    return { ...failure(409, "market_not_open", `market is ${status === "SCHEDULED" ? "not listed yet" : status}`, details), answer: "http" };
  }
  if (state.window.closesAtMs !== null && nowMs >= state.window.closesAtMs) {
    return { ...failure(409, "market_not_open", "market closed for trading at closesAt", { status, closesAt }), answer: "http" };
  }
  if (status === "PRE_MARKET" && !order.postOnly) {
    return {
      ...failure(409, "market_not_open", "market is in PRE_MARKET: only post-only orders are accepted", {
        status,
        postOnlyRequired: true,
      }),
      answer: "reject",
    };
  }
  return OK;
}
