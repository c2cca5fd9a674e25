/**
 * The one order-record serializer (src/wire/order-record.ts) both platforms answer with: the exact
 * bytes (key order, amount and time formats), that it reads back through the client's `orderRecord`
 * schema, and that the simulator's desk and the paper account hand it the same order the same way.
 */
import { describe, expect, it } from "vitest";
import { orderRecord } from "../../src/wire/orders.js";
import { orderRecordJson, type OrderRecordSource } from "../../src/wire/order-record.js";
import { orderJson as deskOrderJson, type DeskOrder } from "../../src/sim/desk/records.js";
import { orderJson as paperOrderJson } from "../../src/paper/routes.js";
import type { PaperOrder } from "../../src/paper/account.js";

const WALLET = "0x" + "ab".repeat(20);
const HASH = "0x" + "0c".repeat(32);
const T0 = Date.UTC(2026, 5, 1, 12);

const source: OrderRecordSource = {
  id: "o-1",
  wallet: WALLET,
  clientOrderId: null,
  orderHash: HASH,
  marketId: "MKT",
  tokenId: "11",
  outcome: 1,
  side: "SELL",
  type: "limit",
  timeInForce: "GTD",
  postOnly: false,
  price: 999_000n,
  quantity: 12_500_000n,
  status: "PARTIAL",
  expiration: "1780000000",
  createdAtMs: T0,
  updatedAtMs: T0 + 61_001,
};

describe("orderRecordJson", () => {
  it("writes the record's keys in the wire order, amounts as canonical decimals and times as ISO UTC", () => {
    expect(JSON.stringify(orderRecordJson(source, 2_500_000n, 10_000_000n))).toBe(
      `{"id":"o-1","clientOrderId":null,"orderHash":"${HASH}","walletAddress":"${WALLET}","marketId":"MKT","tokenId":"11","outcome":1,` +
        `"side":"SELL","type":"limit","timeInForce":"GTD","postOnly":false,"price":"0.999","originalQuantity":"12.5","filledQty":"2.5",` +
        `"remainingQty":"10","status":"PARTIAL","expiration":"1780000000","createdAt":"2026-06-01T12:00:00.000Z","updatedAt":"2026-06-01T12:01:01.001Z"}`,
    );
  });

  it("takes filled and remaining as given (each platform keeps them its own way)", () => {
    const j = orderRecordJson(source, 1n, 0n);
    expect([j.filledQty, j.remainingQty, j.originalQuantity]).toEqual(["0.000001", "0", "12.5"]);
  });

  it("reads back through the client's orderRecord schema unchanged", () => {
    const j = orderRecordJson({ ...source, clientOrderId: "c-7" }, 0n, 12_500_000n);
    expect(orderRecord.parse(j)).toEqual(j);
  });

  it("the simulator's desk and the paper account write the same order to the same bytes", () => {
    const desk: DeskOrder = {
      ...source,
      filledQty: 2_500_000n,
      remainingQty: 10_000_000n,
      feesPaid: 0n,
      endReason: undefined,
      trades: [],
      placement: undefined,
      cancel: undefined,
    };
    const paper: PaperOrder = { ...source, filled: 2_500_000n, feeRateBps: 0 };
    const expected = JSON.stringify(orderRecordJson(source, 2_500_000n, 10_000_000n));
    expect(JSON.stringify(deskOrderJson(desk))).toBe(expected);
    expect(JSON.stringify(paperOrderJson(paper))).toBe(expected);
  });
});
