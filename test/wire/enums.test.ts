/**
 * The spec's enumerations: closed enums (market, order, placement and withdrawal statuses, sides,
 * order types, time in force, roles, schedule statuses, leaderboard periods, crypto directions)
 * hold exactly the spec's values, case-exact, and refuse anything else; the named subsets are the
 * spec's; open vocabularies (spec 2.6, 2.7) take any string but still refuse a non-string.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as e from "../../src/wire/enums.js";
import { isKnown } from "../../src/wire/primitives.js";

const accepts = (schema: z.ZodType, v: unknown): boolean => schema.safeParse(v).success;

describe("closed enums hold exactly the spec's values", () => {
  it.each([
    ["market status (3.1)", e.marketStatus, e.MARKET_STATUSES, ["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED", "SUSPENDED", "CLOSED", "PENDING_RESOLUTION", "DELAYED", "DISPUTED", "RESOLVED", "VOIDED"]],
    ["order status (3.3 + CANCELLED/EXPIRED)", e.orderStatus, e.ORDER_STATUSES, ["PENDING", "OPEN", "PARTIAL", "FILLED", "CANCELLED", "EXPIRED", "REJECTED"]],
    ["placement status (2.12)", e.placementStatus, e.PLACEMENT_STATUSES, ["OPEN", "FILLED", "PARTIAL", "REJECTED"]],
    ["withdrawal status (3.2)", e.withdrawalStatus, e.WITHDRAWAL_STATUSES, ["PENDING", "MLRO_REVIEW", "CO_SIGNED", "SUBMITTED", "CONFIRMED", "REJECTED", "REVERTED", "CANCELLED", "FAILED"]],
    ["side", e.side, e.SIDES, ["BUY", "SELL"]],
    ["order type", e.orderType, e.ORDER_TYPES, ["limit", "market"]],
    ["time in force", e.timeInForce, e.TIME_IN_FORCES, ["GTC", "GTD", "IOC", "FOK"]],
    ["fill role", e.fillRole, e.FILL_ROLES, ["maker", "taker"]],
    ["schedule status (2.2)", e.scheduleStatus, e.SCHEDULE_STATUSES, ["SCHEDULED", "POSTPONED", "CANCELLED", "PLAYED"]],
    ["leaderboard period (2.10)", e.leaderboardPeriod, e.LEADERBOARD_PERIODS, ["today", "week", "month", "all"]],
    ["crypto direction (2.7)", e.cryptoDirection, e.CRYPTO_DIRECTIONS, ["ABOVE", "BELOW"]],
  ] as [string, z.ZodType, readonly string[], string[]][])("%s", (_, schema, list, spec) => {
    expect([...list]).toEqual(spec);
    for (const v of spec) expect(schema.parse(v)).toBe(v);
  });

  it("refuses other case, unknown values and non-strings", () => {
    for (const [schema, bad] of [
      [e.marketStatus, ["open", "HALTED", "", null, 1]],
      [e.orderStatus, ["NEW", "Open", "CANCELED"]],
      [e.placementStatus, ["PENDING", "CANCELLED"]],
      [e.withdrawalStatus, ["DONE", "pending"]],
      [e.side, ["buy", "Sell", 0, 1]],
      [e.orderType, ["LIMIT", "stop"]],
      [e.timeInForce, ["gtc", "DAY"]],
      [e.fillRole, ["both", "Maker"]],
      [e.scheduleStatus, ["DELAYED", "played"]],
      [e.leaderboardPeriod, ["year", "Week"]],
      [e.cryptoDirection, ["SIDEWAYS", "above"]],
    ] as [z.ZodType, unknown[]][]) {
      for (const v of bad) expect(accepts(schema, v), JSON.stringify(v)).toBe(false);
    }
  });
});

describe("named subsets", () => {
  it("the default open set of markets and their terminal states (3.1)", () => {
    expect([...e.OPEN_SET_MARKET_STATUSES]).toEqual(["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"]);
    expect([...e.TERMINAL_MARKET_STATUSES]).toEqual(["RESOLVED", "VOIDED"]);
  });

  it("live and terminal order statuses split the order statuses in two (3.3)", () => {
    expect([...e.LIVE_ORDER_STATUSES]).toEqual(["PENDING", "OPEN", "PARTIAL"]);
    expect([...e.TERMINAL_ORDER_STATUSES]).toEqual(["FILLED", "CANCELLED", "EXPIRED", "REJECTED"]);
    expect([...e.LIVE_ORDER_STATUSES, ...e.TERMINAL_ORDER_STATUSES].sort()).toEqual([...e.ORDER_STATUSES].sort());
  });
});

describe("open vocabularies", () => {
  it("list the values the spec names", () => {
    expect(e.KNOWN_PRODUCT_TYPES).toHaveLength(13);
    expect(e.KNOWN_PRODUCT_TYPES[0]).toBe("THRESHOLD_BY_DEADLINE");
    expect(e.KNOWN_PRODUCT_TYPES.at(-1)).toBe("UP_DOWN_WINDOW");
    expect([...e.KNOWN_STAGES]).toEqual(["group", "r32", "r16", "quarter_finals", "semi_finals", "third_place", "final", "fifa_friendlies", "ucl", "uefa_europa_conference_league"]);
    expect([...e.KNOWN_TRADING_MODES]).toEqual(["pre_market_post_only", "paused"]);
    expect([...e.KNOWN_NOT_TRADABLE_REASONS]).toEqual(["paused", "suspended"]);
    expect([...e.KNOWN_VERTICALS]).toEqual(["football", "tennis", "crypto", "politics"]);
    expect([...e.KNOWN_MARKET_TYPES]).toEqual(["MATCH_WINNER_AET", "CRYPTO_PRICE_EVENT"]);
  });

  it("take a new value as it is ('clients must tolerate new values'), and isKnown tells it apart", () => {
    for (const [schema, known, fresh] of [
      [e.productType, e.KNOWN_PRODUCT_TYPES, "ETF_FLOW_WEEKLY"],
      [e.stage, e.KNOWN_STAGES, "copa_libertadores"],
      [e.tradingMode, e.KNOWN_TRADING_MODES, "cancel_only"],
      [e.notTradableReason, e.KNOWN_NOT_TRADABLE_REASONS, "delisted"],
      [e.vertical, e.KNOWN_VERTICALS, "esports"],
      [e.marketType, e.KNOWN_MARKET_TYPES, "MAP_WINNER"],
    ] as [z.ZodType, readonly string[], string][]) {
      expect(schema.parse(fresh)).toBe(fresh);
      expect(schema.parse(known[0])).toBe(known[0]);
      expect(isKnown(known, fresh)).toBe(false);
      expect(isKnown(known, known[0]!)).toBe(true);
    }
  });

  it("still refuse a value that is not a string", () => {
    for (const schema of [e.productType, e.stage, e.tradingMode, e.notTradableReason, e.vertical, e.marketType]) {
      for (const bad of [null, 1, true, {}, ["final"]]) expect(accepts(schema, bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
