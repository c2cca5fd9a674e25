/** Shared builders of the risk tests. */
import { loadConfig } from "../../../src/config/index.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";
import type { DesiredQuote, LiveOrder, PositionView } from "../../../src/bot/quote/quotes.js";
import { reconcile, type Plan } from "../../../src/bot/quote/reconciler.js";
import type { MarketExposure, RiskLimits } from "../../../src/bot/risk/index.js";

export const m = parseMicros;
export const NOW = 1_700_000_000_000;

/** The limits of configs/demo.yaml, through the real config schema (cfg.risk fits RiskLimits). */
export function demoLimits(over: Partial<RiskLimits> = {}): RiskLimits {
  const risk: RiskLimits = loadConfig("configs/demo.yaml", {}).risk;
  return { ...risk, ...over };
}

/** Config defaults, written out so tests do not depend on demo.yaml's choices. */
export function limits(over: Partial<RiskLimits> = {}): RiskLimits {
  return {
    maxPositionPerMarket: m("500"),
    maxNotionalPerWallet: m("1000"),
    maxNotionalTotal: m("5000"),
    maxOpenOrdersPerMarket: 10,
    maxOrderSize: m("100"),
    priceBand: { min: m("0.02"), max: m("0.98") },
    dailyLossLimit: m("200"),
    staleDataSec: 30,
    streamDownSec: 20,
    maxRejectsPerMin: 30,
    ...over,
  };
}

export function bid(price: string, size = "10", over: Partial<DesiredQuote> = {}): DesiredQuote {
  return { outcome: 0, side: "BUY", price: m(price), size: m(size), postOnly: true, ...over };
}

export function ask(price: string, size = "10", over: Partial<DesiredQuote> = {}): DesiredQuote {
  return { outcome: 0, side: "SELL", price: m(price), size: m(size), postOnly: true, ...over };
}

export function live(id: string, price: string, size = "10", over: Partial<LiveOrder> = {}): LiveOrder {
  const s = m(size);
  return {
    clientOrderId: id,
    orderId: `oid-${id}`,
    outcome: 0,
    side: "BUY",
    price: m(price),
    size: s,
    remaining: s,
    postOnly: true,
    createdAtMs: NOW - 1_000,
    state: "open",
    ...over,
  };
}

export function held(outcome: number, qty: string, avgCost: string | null = "0.5"): PositionView {
  return { outcome, qty: m(qty), avgCost: avgCost === null ? null : m(avgCost) };
}

export function exposure(wallet: string, market: string, over: Partial<MarketExposure> = {}): MarketExposure {
  return { wallet, market, outcomeCount: 2, positions: [], openOrders: [], ...over };
}

/** What the engine does with a filter result: reconcile the allowed quotes against the live orders. */
export function planFor(allowed: readonly DesiredQuote[], liveOrders: readonly LiveOrder[]): Plan {
  return reconcile(allowed, liveOrders, {
    priceToleranceTicks: 0,
    sizeTolerance: 0.1,
    maxOrderAgeMs: 600_000,
    nowMs: NOW,
    budget: { cancels: 1000, places: 1000 },
  });
}

export function sizes(qs: readonly DesiredQuote[]): string[] {
  return qs.map((q) => `${q.side}:${q.outcome}@${Number(q.price) / 1e6}x${Number(q.size) / 1e6}`);
}

export function micros(n: Micros): number {
  return Number(n) / 1e6;
}
