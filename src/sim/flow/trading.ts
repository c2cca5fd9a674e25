/**
 * What every synthetic trader of a market shares: the price grid helpers and a funded flow wallet.
 *
 * Flow wallets trade in the engine directly. They are topped up (deposits and complete-set
 * splits) before an order would fail for lack of funds, so the flow never stops because one of its
 * traders ran dry: what the flow models is who trades and at what price, not their budgets.
 */
import { MAX_PRICE, MIN_PRICE, PRICE_TICK, type Side } from "../../core/amounts.js";
import { SCALE, type Micros } from "../../core/money.js";
import { LedgerError, type MatchingEngine } from "../engine/index.js";

/** Cash and shares a wallet gets at a time when it runs short (settlement micros). */
const TOP_UP: Micros = 1_000_000n * SCALE;

/** The smallest size the flow trades: 0.01 share. */
export const LOT: Micros = 10_000n;

export function floorTick(p: Micros): Micros {
  return p - (p % PRICE_TICK);
}

export function ceilTick(p: Micros): Micros {
  const r = p % PRICE_TICK;
  return r === 0n ? p : p + PRICE_TICK - r;
}

export function onGrid(p: Micros): boolean {
  return p >= MIN_PRICE && p <= MAX_PRICE;
}

export function clampPrice(p: Micros): Micros {
  return p < MIN_PRICE ? MIN_PRICE : p > MAX_PRICE ? MAX_PRICE : p;
}

/** A flow wallet on one market. */
export class FlowAccount {
  constructor(
    private readonly engine: MatchingEngine,
    private readonly marketId: string,
    readonly wallet: string,
  ) {}

  /** Make sure the wallet can afford the order (cash for a BUY, free shares for a SELL); false when the ledger refuses. */
  fund(outcome: number, side: Side, price: Micros, qty: Micros): boolean {
    const { engine, wallet } = this;
    try {
      if (side === "BUY") {
        const need = (price * qty) / SCALE + qty;
        if (engine.balance(wallet).available < need) engine.deposit(wallet, need + TOP_UP);
        return true;
      }
      const pos = engine.positions(wallet, this.marketId).find((x) => x.outcome === outcome);
      const free = pos === undefined ? 0n : pos.quantity - pos.locked;
      if (free < qty) {
        const sets = qty - free + TOP_UP / 100n;
        if (engine.balance(wallet).available < sets) engine.deposit(wallet, sets + TOP_UP);
        engine.split(wallet, this.marketId, sets);
      }
      return true;
    } catch (e) {
      // The ledger refused (deposit ceiling reached): skip this order rather than stop the flow.
      // Anything else is a bug of the flow (a market it does not trade) and is not hidden.
      if (e instanceof LedgerError) return false;
      throw e;
    }
  }
}
