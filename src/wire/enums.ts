/**
 * Enumerations of the spec. Closed enums (statuses of section 3) stay strict: a value outside
 * them means the contract changed and must be noticed. Open vocabularies (spec 2.6/2.7 say new
 * values appear) accept any string so a new value never breaks parsing of a whole page.
 */
import { z } from "zod";
import { openEnum } from "./primitives.js";

/** Spec 3.1. */
export const MARKET_STATUSES = [
  "PRE_MARKET",
  "OPEN",
  "PAUSED",
  "POSTPONED",
  "SUSPENDED",
  "CLOSED",
  "PENDING_RESOLUTION",
  "DELAYED",
  "DISPUTED",
  "RESOLVED",
  "VOIDED",
] as const;
export const marketStatus = z.enum(MARKET_STATUSES);
export type MarketStatus = z.infer<typeof marketStatus>;
/** The open set returned by default lists (spec 3.1). */
export const OPEN_SET_MARKET_STATUSES = ["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"] as const satisfies readonly MarketStatus[];
export const TERMINAL_MARKET_STATUSES = ["RESOLVED", "VOIDED"] as const satisfies readonly MarketStatus[];

/** Spec 3.3 plus CANCELLED / EXPIRED (docs/spec-gaps.md). */
export const ORDER_STATUSES = ["PENDING", "OPEN", "PARTIAL", "FILLED", "CANCELLED", "EXPIRED", "REJECTED"] as const;
export const orderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatus>;
export const LIVE_ORDER_STATUSES = ["PENDING", "OPEN", "PARTIAL"] as const satisfies readonly OrderStatus[];
export const TERMINAL_ORDER_STATUSES = ["FILLED", "CANCELLED", "EXPIRED", "REJECTED"] as const satisfies readonly OrderStatus[];

/** Statuses a placement result can carry (spec 2.12). */
export const PLACEMENT_STATUSES = ["OPEN", "FILLED", "PARTIAL", "REJECTED"] as const;
export const placementStatus = z.enum(PLACEMENT_STATUSES);
export type PlacementStatus = z.infer<typeof placementStatus>;

/** Spec 3.2. */
export const WITHDRAWAL_STATUSES = [
  "PENDING",
  "MLRO_REVIEW",
  "CO_SIGNED",
  "SUBMITTED",
  "CONFIRMED",
  "REJECTED",
  "REVERTED",
  "CANCELLED",
  "FAILED",
] as const;
export const withdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof withdrawalStatus>;

export const SIDES = ["BUY", "SELL"] as const;
export const side = z.enum(SIDES);
export type Side = z.infer<typeof side>;

export const ORDER_TYPES = ["limit", "market"] as const;
export const orderType = z.enum(ORDER_TYPES);
export type OrderType = z.infer<typeof orderType>;

export const TIME_IN_FORCES = ["GTC", "GTD", "IOC", "FOK"] as const;
export const timeInForce = z.enum(TIME_IN_FORCES);
export type TimeInForce = z.infer<typeof timeInForce>;

export const FILL_ROLES = ["maker", "taker"] as const;
export const fillRole = z.enum(FILL_ROLES);
export type FillRole = z.infer<typeof fillRole>;

/** Spec 2.2. */
export const SCHEDULE_STATUSES = ["SCHEDULED", "POSTPONED", "CANCELLED", "PLAYED"] as const;
export const scheduleStatus = z.enum(SCHEDULE_STATUSES);

export const LEADERBOARD_PERIODS = ["today", "week", "month", "all"] as const;
export const leaderboardPeriod = z.enum(LEADERBOARD_PERIODS);

export const CRYPTO_DIRECTIONS = ["ABOVE", "BELOW"] as const;
export const cryptoDirection = z.enum(CRYPTO_DIRECTIONS);

// ---- open vocabularies -------------------------------------------------------------------

/** Spec 2.7: "Clients must tolerate new values". */
export const KNOWN_PRODUCT_TYPES = [
  "THRESHOLD_BY_DEADLINE",
  "THRESHOLD_DURING_MONTH",
  "CLOSE_ABOVE_AT_TIME",
  "RANGE_BAND",
  "NEW_ALL_TIME_HIGH",
  "MONTH_OVER_MONTH_CLOSE",
  "MONTHLY_CLOSE_ABOVE_STRIKE",
  "RELATIVE_PERFORMANCE",
  "BTC_DOMINANCE_AT_MONTH_END",
  "TOTAL_CRYPTO_MARKET_CAP_AT_MONTH_END",
  "MARKET_CAP_MILESTONE",
  "RANK_MILESTONE",
  "UP_DOWN_WINDOW",
] as const;
export const productType = openEnum(KNOWN_PRODUCT_TYPES);

/**
 * Spec 2.2 lists the stage enum, but it names competitions (`ucl`, `fifa_friendlies`) that
 * will grow; a new stage must not fail an events page, so it is parsed as open.
 */
export const KNOWN_STAGES = [
  "group",
  "r32",
  "r16",
  "quarter_finals",
  "semi_finals",
  "third_place",
  "final",
  "fifa_friendlies",
  "ucl",
  "uefa_europa_conference_league",
] as const;
export const stage = openEnum(KNOWN_STAGES);

export const KNOWN_TRADING_MODES = ["pre_market_post_only", "paused"] as const;
export const tradingMode = openEnum(KNOWN_TRADING_MODES);

export const KNOWN_NOT_TRADABLE_REASONS = ["paused", "suspended"] as const;
export const notTradableReason = openEnum(KNOWN_NOT_TRADABLE_REASONS);

export const KNOWN_VERTICALS = ["football", "tennis", "crypto", "politics"] as const;
export const vertical = openEnum(KNOWN_VERTICALS);

export const KNOWN_MARKET_TYPES = ["MATCH_WINNER_AET", "CRYPTO_PRICE_EVENT"] as const;
export const marketType = openEnum(KNOWN_MARKET_TYPES);
