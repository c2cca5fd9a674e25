/** Risk: pure limit checks and halts applied to every plan (see risk.ts for the engine's entry points). */
export * from "./types.js";
export { CLEAR_RULES, HaltBook, compareHalts, type ClearRule } from "./halts.js";
export {
  breakerVerdict,
  dailyLossVerdict,
  driftVerdict,
  rejectStormVerdict,
  staleDataVerdict,
  streamVerdict,
  type RejectWindowView,
  type Verdict,
} from "./evaluators.js";
export { RiskSnapshot, figuresOf, heldQty, type MarketExposure, type MarketFigures } from "./exposure.js";
export {
  LIMIT_REASONS,
  applyLimits,
  priceProblem,
  type DroppedQuote,
  type LimitReason,
  type LimitResult,
  type ResizedQuote,
} from "./limits.js";
export { OPERATOR_REASONS, Risk, type FilterResult, type RiskLog, type RiskOptions } from "./risk.js";
