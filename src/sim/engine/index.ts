export { MatchingEngine, counterIds, type EngineOptions, type SettleOptions } from "./engine.js";
export { Ledger, LedgerError, type LedgerOptions } from "./ledger.js";
export { checkInvariants } from "./invariants.js";
export { balanceOf, positionsOf, partyFill } from "./views.js";
export { bookSnapshot } from "./snapshot.js";
export { MAX_ORDER_QTY, MAX_TOTAL_DEPOSITS } from "./ticks.js";
export type * from "./types.js";
