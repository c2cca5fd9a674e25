/** `marketTradesRawPage`: the market trades page with its rows left for the reader to check one by one. */
import { describe, expect, it } from "vitest";
import * as w from "../../src/wire/index.js";
import * as f from "./fixtures.js";
import { expectInvalidAt, expectValid } from "./helpers.js";

describe("marketTradesRawPage", () => {
  it("keeps every row, readable or not, where marketTradesPage refuses the whole page", () => {
    const { feeRateBps: _x, ...bad } = f.exampleTrade({ id: "bad" });
    const page = { trades: [f.exampleTrade({ id: "good" }), bad, "garbage", null], nextCursor: null };
    expectInvalidAt(w.marketTradesPage, page, "trades[1].feeRateBps");
    const raw = expectValid(w.marketTradesRawPage, page);
    expect(raw.trades).toHaveLength(4);
    expect(raw.trades.map((r) => w.trade.safeParse(r).success)).toEqual([true, false, false, false]);
  });

  it("still needs `trades` to be an array, and a readable cursor when there is one", () => {
    expectInvalidAt(w.marketTradesRawPage, { trades: "none" }, "trades");
    expectInvalidAt(w.marketTradesRawPage, {}, "trades");
    expectValid(w.marketTradesRawPage, { trades: [] });
  });
});
