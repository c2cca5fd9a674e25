/**
 * Starting balances of a scenario: collateral is a plain deposit; an outcome position is minted
 * the conditional-token way so every ledger invariant holds (each outcome's supply equals the
 * complete sets outstanding): a treasury account deposits and splits the quantity into complete
 * sets, then the wanted outcome's shares move to the wallet and the other outcomes stay with the
 * treasury. No trade is printed.
 *
 * The engine has no transfer operation, so the move uses the ledger's position slots directly
 * (`posSlot`, `reduceShares`, `posQty`, `posCost`); it runs once, at construction, before any order.
 */
import type { Micros } from "../../core/money.js";
import { SCALE } from "../../core/money.js";
import type { MatchingEngine } from "../engine/index.js";
import { addressFromLabel } from "../platform/derive.js";

/** The account that holds the unwanted outcomes of minted starting positions. */
export const TREASURY_WALLET = addressFromLabel("sim:treasury").toLowerCase();

/**
 * Give `wallet` `qty` shares of one outcome. `costPrice` (micros per share) sets the cost basis,
 * e.g. the outcome's fair value, so the position starts without a paper PnL.
 */
export function grantShares(engine: MatchingEngine, wallet: string, marketId: string, outcome: number, qty: Micros, costPrice: Micros): void {
  if (qty <= 0n) return;
  const L = engine.ledger;
  const m = engine.market(marketId);
  if (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomeCount) throw new Error(`outcome ${outcome} out of range for ${marketId}`);
  engine.deposit(TREASURY_WALLET, qty);
  engine.split(TREASURY_WALLET, marketId, qty);
  const from = L.posSlot(L.account(TREASURY_WALLET), m, outcome);
  const to = L.posSlot(L.account(wallet), m, outcome);
  L.reduceShares(from, qty);
  L.posQty[to] = L.posQty[to]! + qty;
  L.posCost[to] = L.posCost[to]! + (qty * costPrice) / SCALE;
}
