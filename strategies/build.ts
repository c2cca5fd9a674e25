/**
 * From a model's two raw prices (the top YES bid and ask, as probabilities) to the orders to
 * rest: phase rules, grid snapping, clamping, the ladder of levels, inventory caps, and the
 * binary expression rule. Every strategy ends here, so these rules hold for all of them.
 *
 * Binary expression rule (outcomeCount 2, quoting outcome o, complement c):
 *   - An ask for o at p is `SELL o @ p` for as many shares of o as the wallet holds (closest
 *     levels first), and `BUY c @ 1 - p` for the rest: holding no o, the only way to offer o
 *     is to bid its complement.
 *   - Mirror: a bid for o at p is `SELL c @ 1 - p` for as many shares of c as are held, and
 *     `BUY o @ p` for the rest, so the wallet sheds the complement instead of piling up both.
 *   Both forms are the same quote on the unified YES book; selling what is held frees collateral.
 * Other markets (outcomeCount != 2): asks are `SELL o` up to the held quantity; no complement.
 */
import { MAX_PRICE, MIN_PRICE, complementPrice, isValidPrice } from "../src/core/amounts.js";
import { minMicros, type Micros } from "../src/core/money.js";
import { netExposure, positionQty, type DesiredQuote, type StrategyContext } from "./contract.js";
import { TICK, clampAsk, clampBid, snapAskUp, snapBidDown } from "./lib.js";
import type { CommonParams } from "./params.js";

export interface ModelPrices {
  /** Top bid as a probability; null = no bids. */
  bid: number | null;
  /** Top ask as a probability; null = no asks. */
  ask: number | null;
}

interface Rung {
  price: Micros;
  size: Micros;
  level: number;
}

/** True when the phase allows quoting at all. */
export function isQuotingPhase(phase: StrategyContext["phase"]): boolean {
  return phase === "pre_market" || phase === "open";
}

/** Post-only in pre_market whatever the params say (spec 3.1). */
export function effectivePostOnly(ctx: StrategyContext<CommonParams>): boolean {
  return ctx.phase === "pre_market" || ctx.params.postOnly;
}

/** The quotes for a strategy's model prices, with every rule of the header applied. */
export function buildQuotes(ctx: StrategyContext<CommonParams>, model: ModelPrices): DesiredQuote[] {
  if (!isQuotingPhase(ctx.phase)) return [];
  const p = ctx.params;
  const postOnly = effectivePostOnly(ctx);
  const clampOpts = { band: p.band, postOnly, book: ctx.book };

  const rawBid = model.bid === null ? null : snapBidDown(model.bid);
  const rawAsk = model.ask === null ? null : snapAskUp(model.ask);
  const topBid = rawBid === null ? null : clampBid(rawBid, clampOpts);
  let topAsk = rawAsk === null ? null : clampAsk(rawAsk, clampOpts);
  // Our own bid and ask must never meet; clamps only move the ask up, so this cannot cross the book.
  if (topBid !== null && topAsk !== null && topAsk <= topBid) topAsk = clampAsk(topBid + TICK, clampOpts);

  const outcome = ctx.quoteOutcome ?? 0;
  const net = netExposure(ctx.inventory, outcome, ctx.outcomeCount);
  const bidRoom = p.maxInventory === undefined ? null : p.maxInventory - net;
  const askRoom = p.maxInventory === undefined ? null : p.maxInventory + net;

  const lowest = p.band.min > MIN_PRICE ? p.band.min : MIN_PRICE;
  const highest = p.band.max < MAX_PRICE ? p.band.max : MAX_PRICE;
  const step = BigInt(p.levelSpacingTicks) * TICK;
  const bids = topBid === null ? [] : ladder(topBid, -step, lowest, highest, p, bidRoom);
  const asks = topAsk === null ? [] : ladder(topAsk, step, lowest, highest, p, askRoom);

  const out = [...expressBids(ctx, outcome, net, bids, postOnly), ...expressAsks(ctx, outcome, net, asks, postOnly)];
  // Defence in depth: nothing off-grid, at 0 or 1, or empty ever leaves a strategy.
  return out.filter((q) => isValidPrice(q.price) && q.size > 0n);
}

/** Levels from `top` stepping by `step`, inside [lowest, highest], sized under the room cap. */
function ladder(
  top: Micros,
  step: Micros,
  lowest: Micros,
  highest: Micros,
  p: CommonParams,
  room: Micros | null,
): Rung[] {
  const rungs: Rung[] = [];
  let left = room;
  for (let level = 0; level < p.levels; level++) {
    const price = top + step * BigInt(level);
    if (price < lowest || price > highest) break;
    const size = left === null ? p.size : minMicros(p.size, left);
    if (size < p.minSize || size <= 0n) break;
    rungs.push({ price, size, level });
    if (left !== null) left -= size;
  }
  return rungs;
}

function complementOf(outcome: number): number {
  return outcome === 0 ? 1 : 0;
}

function expressBids(
  ctx: StrategyContext<CommonParams>,
  outcome: number,
  net: Micros,
  rungs: Rung[],
  postOnly: boolean,
): DesiredQuote[] {
  const out: DesiredQuote[] = [];
  const binary = ctx.outcomeCount === 2;
  const comp = complementOf(outcome);
  let held = binary ? positionQty(ctx.inventory, comp) : 0n;
  for (const r of rungs) {
    let sell = held > 0n ? minMicros(held, r.size) : 0n;
    if (sell < ctx.params.minSize) sell = 0n;
    if (sell > 0n) {
      out.push({ outcome: comp, side: "SELL", price: complementPrice(r.price), size: sell, postOnly, level: r.level, tag: "bid", reducesInventory: true });
      held -= sell;
    }
    const buy = r.size - sell;
    if (buy > 0n && buy >= ctx.params.minSize) {
      out.push({ outcome, side: "BUY", price: r.price, size: buy, postOnly, level: r.level, tag: "bid", reducesInventory: net < 0n });
    }
  }
  return out;
}

function expressAsks(
  ctx: StrategyContext<CommonParams>,
  outcome: number,
  net: Micros,
  rungs: Rung[],
  postOnly: boolean,
): DesiredQuote[] {
  const out: DesiredQuote[] = [];
  const binary = ctx.outcomeCount === 2;
  const comp = complementOf(outcome);
  let held = positionQty(ctx.inventory, outcome);
  for (const r of rungs) {
    let sell = held > 0n ? minMicros(held, r.size) : 0n;
    if (sell < ctx.params.minSize) sell = 0n;
    if (sell > 0n) {
      out.push({ outcome, side: "SELL", price: r.price, size: sell, postOnly, level: r.level, tag: "ask", reducesInventory: true });
      held -= sell;
    }
    const rest = r.size - sell;
    if (binary && rest > 0n && rest >= ctx.params.minSize) {
      out.push({ outcome: comp, side: "BUY", price: complementPrice(r.price), size: rest, postOnly, level: r.level, tag: "ask", reducesInventory: net > 0n });
    }
  }
  return out;
}
