/** Public surface of the strategies folder. */
export type { Strategy } from "./types.js";
export * from "./registry.js";
export { ladder, ladderParamsSchema, type LadderParams } from "./ladder.js";
export {
  inventorySkew,
  inventorySkewModel,
  inventorySkewParamsSchema,
  type InventorySkewParams,
  type InventorySkewState,
} from "./inventory-skew.js";
export {
  asInputs,
  asModel,
  avellanedaStoikov,
  avellanedaStoikovParamsSchema,
  horizonUnits,
  type AsInputs,
  type AvellanedaStoikovParams,
  type AvellanedaStoikovState,
} from "./avellaneda-stoikov.js";
export { buildQuotes, effectivePostOnly, isQuotingPhase, type ModelPrices } from "./build.js";
export * from "./lib.js";
export { commonParamsShape, microsParam, priceParam, sizeParam, type CommonParams, type PriceBand } from "./params.js";
