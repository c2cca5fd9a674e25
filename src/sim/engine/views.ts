/** Read-only views of the ledger for the balance and position endpoints. */
import type { Ledger } from "./ledger.js";
import type { MarketState } from "./market.js";
import { NIL } from "./order.js";
import type { BalanceView, PartyFill, PositionView, Role, TradeRecord } from "./types.js";

export function balanceOf(ledger: Ledger, wallet: string): BalanceView {
  const a = ledger.find(wallet);
  if (a === undefined) return { wallet: wallet.toLowerCase(), total: 0n, locked: 0n, available: 0n, feesPaid: 0n };
  const total = ledger.cash[a.index]!;
  const locked = ledger.locked[a.index]!;
  return { wallet: a.key, total, locked, available: total - locked, feesPaid: ledger.fees[a.index]! };
}

/** Non-zero positions of a wallet (optionally one market), in market then outcome order. */
export function positionsOf(ledger: Ledger, wallet: string, market?: MarketState): PositionView[] {
  const a = ledger.find(wallet);
  const out: PositionView[] = [];
  if (a === undefined) return out;
  a.posBase.forEach((base, mi) => {
    if (base === NIL || (market !== undefined && market.index !== mi)) return;
    const m = ledger.markets[mi]!;
    for (let i = 0; i < m.outcomeCount; i++) {
      const qty = ledger.posQty[base + i]!;
      if (qty === 0n) continue;
      out.push({
        marketId: m.id,
        tokenId: m.tokenIds[i]!,
        outcome: i,
        quantity: qty,
        locked: ledger.posLocked[base + i]!,
        avgPrice: (ledger.posCost[base + i]! * 1_000_000n) / qty,
      });
    }
  });
  return out;
}

/** A trade as one of its parties sees it (price, side and outcome in that party's token). */
export function partyFill(t: TradeRecord, role: Role): PartyFill {
  const taker = role === "taker";
  return {
    tradeId: t.id,
    orderId: taker ? t.takerOrderId : t.makerOrderId,
    role,
    marketId: t.marketId,
    tokenId: taker ? t.tokenId : t.makerTokenId,
    outcome: taker ? t.outcome : t.makerOutcome,
    side: taker ? t.side : t.makerSide,
    price: taker ? t.price : t.makerPrice,
    quantity: t.quantity,
    fee: taker ? t.fee : 0n,
    createdAtMs: t.createdAtMs,
  };
}
