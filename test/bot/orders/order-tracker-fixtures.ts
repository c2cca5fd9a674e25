/** Shared by the order-tracker tests: the tracked wallet and an order record of the order they all use. */
import type { OrderRecord } from "../../../src/wire/orders.js";

export const W = "0x" + "ab".repeat(20);

/** GET /orders/{id} of a resting-style BUY 10 @ 0.5 on MKT outcome 0, owned by W. */
export function orderRecord(r: Pick<OrderRecord, "id" | "clientOrderId" | "orderHash" | "status" | "filledQty"> & Partial<OrderRecord>): OrderRecord {
  return {
    walletAddress: W,
    marketId: "MKT",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    type: "limit",
    timeInForce: "GTC",
    postOnly: true,
    price: "0.5",
    originalQuantity: "10",
    remainingQty: "0",
    expiration: "0",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    ...r,
  };
}
