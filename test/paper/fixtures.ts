/** Shared values of the paper tests: the wallet, a signature's bytes, and a place body. */
import { COUNTERPARTY } from "../../src/paper/account.js";

export const W = "0x00000000000000000000000000000000000000aa";
export const SIG = `0x${"ab".repeat(65)}`;

/** A place body: BUY 10 YES at 0.41, post-only (signed amounts to match); `over` and `order` replace fields. */
export function paperPlaceBody(over: Record<string, unknown> = {}, order: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order: { salt: "1", maker: W, signer: W, taker: COUNTERPARTY, tokenId: "11", makerAmount: "4100000", takerAmount: "10000000", expiration: "0", feeRateBps: 200, side: 0, signatureType: 2, signature: SIG, ...order },
    maker: W,
    clientOrderId: "c1",
    marketId: "MKT",
    outcome: 0,
    side: "BUY",
    price: "0.41",
    quantity: "10",
    type: "limit",
    postOnly: true,
    ...over,
  };
}
