/**
 * Hand-built desk records for the desk unit tests (not a test file): a trade row and a desk order
 * whose every field is written out, so expected wire forms can be worked out by hand.
 */
import type { DeskOrder } from "../../../src/sim/desk/records.js";
import type { TradeRecord } from "../../../src/sim/engine/index.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
export const TAKER = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";
export const MAKER = "0x6C6af07afEB7BC9075aE06705AD9363bA15b3Ce3";

/**
 * A mint on binary market TST: the taker BUYs 12.5 YES (token "111") at 0.61 paying a 0.094 fee,
 * the maker BUYs 12.5 NO (token "222") at 0.39.
 */
export function trade(over: Partial<TradeRecord> = {}): TradeRecord {
  return {
    id: "t7",
    marketId: "TST",
    kind: "mint",
    tokenId: "111",
    outcome: 0,
    side: "BUY",
    price: 610_000n,
    quantity: 12_500_000n,
    fee: 94_000n,
    feeRateBps: 200,
    makerOrderId: "o3",
    takerOrderId: "o9",
    makerWallet: MAKER,
    takerWallet: TAKER,
    makerOutcome: 1,
    makerTokenId: "222",
    makerSide: "BUY",
    makerPrice: 390_000n,
    takerCash: 7_625_000n,
    makerCash: 4_875_000n,
    createdAtMs: T0 + 1_500,
    ...over,
  };
}

/** A resting BUY of 20 YES at 0.61 by the (lower-case) taker wallet, 12.5 filled. */
export function deskOrder(over: Partial<DeskOrder> = {}): DeskOrder {
  return {
    id: "o9",
    wallet: TAKER.toLowerCase(),
    clientOrderId: "mm-42",
    orderHash: `0x${"ab".repeat(32)}`,
    marketId: "TST",
    tokenId: "111",
    outcome: 0,
    side: "BUY",
    type: "limit",
    timeInForce: "GTC",
    postOnly: false,
    price: 610_000n,
    quantity: 20_000_000n,
    expiration: "0",
    createdAtMs: T0,
    filledQty: 12_500_000n,
    remainingQty: 7_500_000n,
    status: "PARTIAL",
    updatedAtMs: T0 + 1_500,
    feesPaid: 94_000n,
    endReason: undefined,
    trades: [],
    placement: undefined,
    cancel: undefined,
    ...over,
  };
}
