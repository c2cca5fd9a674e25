/**
 * Where fills land (wallet-orders.ts): a trade row the ledger already had is not sent to the
 * tracker again. The trade pull re-reads its last rows on every sync (its margin), and each
 * repeat used to re-buffer a trade of an order the tracker does not know, and read it again.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { FillLedger, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { OrderTracker } from "../../../src/bot/orders/order-tracker.js";
import { EventSeq } from "../../../src/bot/market/market-data.js";
import { RecordingObserver } from "../../../src/bot/observer.js";
import { OwnOrderLog } from "../../../src/bot/quote/own-orders.js";
import { WalletOrders } from "../../../src/bot/engine/wallet-orders.js";
import { T0, WALLET, silentLogger } from "./fakes.js";

function pulled(tradeId: string): Fill {
  return { wallet: WALLET, tradeId, orderId: "fx", marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, qty: 10_000_000n, fee: 0n, role: "maker", ts: T0, source: "trades_pull" };
}

describe("WalletOrders.applyFill", () => {
  it("tells the tracker about a pulled trade once, however often the pull repeats it", () => {
    const tracker = new OrderTracker(WALLET);
    const orders = new WalletOrders({ wallet: WALLET, tracker, own: new OwnOrderLog(new EventSeq()), ledger: new FillLedger(), inventory: new Inventory(), observer: new RecordingObserver(), log: silentLogger(), clock: new VirtualClock(T0) });
    for (let i = 0; i < 5; i++) orders.applyFill(pulled("tr1"));
    expect(tracker.counters.buffered).toBe(1);
    expect(tracker.bufferedOrderIds()).toEqual(["fx"]);
    orders.applyFill(pulled("tr2"));
    expect(tracker.counters.buffered).toBe(2);
  });
});
