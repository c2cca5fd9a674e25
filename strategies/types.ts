/**
 * The strategy contract. A strategy is a pure function from a market snapshot (book, trades,
 * inventory, phase, time to close, params) to the quotes it wants resting. Anything it must
 * remember between calls (a mid-price history for a volatility estimate) lives in a per-market
 * state value that its pure reducer computes from the previous state and the new snapshot; the
 * engine stores that value and hands it back. No I/O, no clock reads, no Math.random.
 */
import type { z } from "zod";
import type { DesiredQuote, StrategyContext } from "./contract.js";

export type { DesiredQuote, StrategyContext, StrategyInput } from "./contract.js";

export interface Strategy<P = unknown, S = unknown> {
  /** Registry key, as written in configs (`strategy: {name: ladder}`). */
  readonly name: string;
  readonly description: string;
  /** Validates raw config params (YAML values) into typed params, defaults filled in. */
  readonly paramsSchema: z.ZodType<P>;
  /**
   * Pure state reducer, called once per cycle before `quote` with the previous state
   * (undefined on the first call). Must return a new value, never mutate `prev`.
   */
  reduce?(prev: S | undefined, ctx: StrategyContext<P, S>): S;
  /** The quotes wanted now. Returns [] in phases `pull` and `stopped`. */
  quote(ctx: StrategyContext<P, S>): DesiredQuote[];
}
