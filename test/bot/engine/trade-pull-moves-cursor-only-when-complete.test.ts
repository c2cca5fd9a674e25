/**
 * A `/api/me/trades` walk that fails half-way must not raise the pull cursor past rows it never
 * read: the next pull stops at the cursor minus the margin, so those rows would never be read
 * (and the fill ledger's compaction watermark, derived from the last complete pull, relies on it).
 */
import { describe, expect, it } from "vitest";
import { pullTrades } from "../../../src/bot/engine/fill-sync.js";
import { T0, WALLET, clientHarness, envelope, json, syncContext } from "./fakes.js";

function myTrade(id: string, at: number) {
  return {
    id,
    marketId: "MKT",
    tokenId: "11",
    outcome: 0,
    side: "BUY",
    price: "0.5",
    quantity: "2",
    fee: "0",
    feeRateBps: 100,
    makerOrderId: "o1",
    takerOrderId: "ox",
    makerWallet: WALLET,
    takerWallet: "0x3333333333333333333333333333333333333333",
    createdAt: new Date(at).toISOString(),
    role: "maker",
    orderId: "o1",
  };
}

describe("trade pull cursor", () => {
  it("moves only when the walk reaches its stop: a walk failing on page 2 is walked again from the old cursor", async () => {
    const h = clientHarness();
    const { ctx, ledger } = syncContext(h);
    const t1 = myTrade("t1", T0 - 5_000);
    h.transport.on("GET", /^\/api\/me\/trades/, () => json(200, { trades: [t1], nextCursor: null }));
    expect(await pullTrades(ctx)).toBe(1);
    expect(ledger.lastTradeCursor(WALLET)).toEqual({ ts: T0 - 5_000, tradeId: "t1" });
    expect(ledger.pullCoverage(WALLET)).toEqual({ ts: T0 - 5_000, tradeId: "t1" });

    // Three new trades: page 1 has the two newest, page 2 (t3) fails once.
    const page1 = { trades: [myTrade("t5", T0 + 20_000), myTrade("t4", T0 + 10_000)], nextCursor: "c2" };
    const page2 = { trades: [myTrade("t3", T0 + 1_000), t1], nextCursor: null };
    let failPage2 = true;
    h.transport.on("GET", /^\/api\/me\/trades/, (req) => {
      if (!req.path.includes("cursor=c2")) return json(200, page1);
      if (failPage2) {
        failPage2 = false;
        return envelope(500, "internal_error");
      }
      return json(200, page2);
    });
    await expect(pullTrades(ctx)).rejects.toThrow();
    // t5 and t4 are held, but the cursor (and the coverage) stay where the last complete walk left them.
    expect(ledger.fills(WALLET).map((f) => f.tradeId)).toEqual(["t1", "t4", "t5"]);
    expect(ledger.lastTradeCursor(WALLET)).toEqual({ ts: T0 - 5_000, tradeId: "t1" });
    expect(ledger.pullCoverage(WALLET)).toEqual({ ts: T0 - 5_000, tradeId: "t1" });

    // The next walk goes down to the old cursor again and finds t3.
    expect(await pullTrades(ctx)).toBe(1);
    expect(ledger.fills(WALLET).map((f) => f.tradeId)).toEqual(["t1", "t3", "t4", "t5"]);
    expect(ledger.lastTradeCursor(WALLET)).toEqual({ ts: T0 + 20_000, tradeId: "t5" });
    expect(ledger.pullCoverage(WALLET)).toEqual({ ts: T0 + 20_000, tradeId: "t5" });
  });
});
