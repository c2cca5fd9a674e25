/**
 * Strategies by name, as configs refer to them. `parseStrategyParams` validates a config's raw
 * params with the strategy's schema and fails with a ValidationError naming each bad param;
 * `createStrategyRunner` binds a strategy to its params for the engine, which then only carries
 * the opaque per-market state from one cycle to the next.
 */
import { ValidationError, issuesOf, type ValidationIssue } from "../src/core/validation.js";
import type { DesiredQuote, StrategyInput } from "./contract.js";
import { avellanedaStoikov } from "./avellaneda-stoikov.js";
import { inventorySkew } from "./inventory-skew.js";
import { ladder } from "./ladder.js";
import type { Strategy } from "./types.js";

/** A strategy with its param and state types erased (what the registry hands out). */
export type AnyStrategy = Strategy<unknown, unknown>;

// Erasing is sound as long as params reach `quote` only through `paramsSchema` (the runner
// below) and state only through `reduce`: both are guaranteed by this module.
function erase<P, S>(s: Strategy<P, S>): AnyStrategy {
  return s;
}

const REGISTRY: ReadonlyMap<string, AnyStrategy> = new Map(
  [erase(ladder), erase(inventorySkew), erase(avellanedaStoikov)].map((s) => [s.name, s]),
);

export class UnknownStrategyError extends Error {
  override readonly name = "UnknownStrategyError";
  constructor(
    readonly strategy: string,
    readonly known: readonly string[],
  ) {
    super(`unknown strategy ${JSON.stringify(strategy)}; known strategies: ${known.join(", ")}`);
  }
}

/** Registered names, sorted. */
export function strategyNames(): string[] {
  return [...REGISTRY.keys()].sort();
}

export function getStrategy(name: string): AnyStrategy {
  const s = REGISTRY.get(name);
  if (!s) throw new UnknownStrategyError(name, strategyNames());
  return s;
}

export type ParamsResult =
  | { ok: true; params: unknown }
  | { ok: false; error: UnknownStrategyError | ValidationError; issues: ValidationIssue[] };

/** Validate raw params (absent = all defaults). Never throws. Issue paths are param names. */
export function safeParseStrategyParams(name: string, raw: unknown): ParamsResult {
  const s = REGISTRY.get(name);
  if (!s) {
    const error = new UnknownStrategyError(name, strategyNames());
    return { ok: false, error, issues: [{ path: "name", message: error.message }] };
  }
  const result = s.paramsSchema.safeParse(raw ?? {});
  if (result.success) return { ok: true, params: result.data };
  const issues = issuesOf(result.error);
  return { ok: false, error: new ValidationError(`strategy ${JSON.stringify(name)} params`, issues), issues };
}

/** Validated params, or throws UnknownStrategyError / ValidationError naming each bad param. */
export function parseStrategyParams(name: string, raw: unknown): unknown {
  const r = safeParseStrategyParams(name, raw);
  if (!r.ok) throw r.error;
  return r.params;
}

export interface StepResult<S = unknown> {
  quotes: DesiredQuote[];
  /** The state to hand back next cycle (undefined for stateless strategies). */
  state: S | undefined;
}

/** One pure cycle: reduce the state with this snapshot, then quote with the new state. */
export function stepStrategy<P, S>(
  strategy: Strategy<P, S>,
  params: P,
  input: StrategyInput,
  prev: S | undefined,
): StepResult<S> {
  const base = { ...input, params, state: prev };
  // Stateless: the state handed in is the state quoted with (one copy of the input, not two).
  if (!strategy.reduce) return { quotes: strategy.quote(base), state: prev };
  const state = strategy.reduce(prev, base);
  return { quotes: strategy.quote({ ...base, state }), state };
}

/** A strategy bound to validated params: what the engine keeps per market. */
export interface StrategyRunner {
  readonly name: string;
  readonly params: unknown;
  step(input: StrategyInput, prev: unknown): StepResult;
}

/** Look up `name`, validate `rawParams`, and bind them. Throws like parseStrategyParams. */
export function createStrategyRunner(name: string, rawParams: unknown): StrategyRunner {
  const strategy = getStrategy(name);
  const params = parseStrategyParams(name, rawParams);
  return {
    name,
    params,
    step: (input, prev) => stepStrategy(strategy, params, input, prev),
  };
}
