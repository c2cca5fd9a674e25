/**
 * The columnar trade and balance logs (src/sim/engine/logs.ts): a row appended is read back as the
 * same record (packed sides, fill kind and both ticks decoded; token ids and EIP-55 wallets looked up
 * through the names), per-market and per-account row indexes in execution order, growth past the
 * initial capacity, balance events with their optional market and trade, and out-of-range rows
 * refused with a RangeError.
 */
import { describe, expect, it } from "vitest";
import { Account } from "../../../src/sim/engine/account.js";
import { BALANCE_KIND_CODE, BALANCE_KINDS, BalanceLog, TradeLog, type LogNames } from "../../../src/sim/engine/logs.js";
import { MarketState } from "../../../src/sim/engine/market.js";
import { OrderStore } from "../../../src/sim/engine/order.js";
import { u } from "./helpers.js";

const A = "0x86de5549fb86499c2e7e935b175e2bb5c1fde79e";
const A_EIP55 = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";
const B = "0x6c6af07afeb7bc9075ae06705ad9363ba15b3ce3";
const B_EIP55 = "0x6C6af07afEB7BC9075aE06705AD9363bA15b3Ce3";
const T0 = Date.UTC(2026, 5, 1, 12);

function names(): LogNames & { a: Account; b: Account; bot: Account; m: MarketState; n: MarketState } {
  const store = new OrderStore(4);
  const a = new Account(A, 0);
  const b = new Account(B, 1);
  const bot = new Account("noise-trader-1", 2);
  const m = new MarketState("TST", 0, 2, 200, { id: "TST", outcomeCount: 2, feeRateBps: 200, tokenIds: ["111", "222"] }, store);
  const n = new MarketState("TRI", 1, 3, 0, { id: "TRI", outcomeCount: 3, feeRateBps: 0 }, store);
  return { accountList: [a, b, bot], markets: [m, n], a, b, bot, m, n };
}

/** bit 0 taker sells, bit 1 maker sells, bits 2-3 fill kind, bits 8.. taker tick, bits 20.. maker tick. */
const pack = (takerSells: boolean, makerSells: boolean, kind: 0 | 1 | 2, takerTick: number, makerTick: number): number =>
  (takerSells ? 1 : 0) | (makerSells ? 2 : 0) | (kind << 2) | (takerTick << 8) | (makerTick << 20);

describe("TradeLog", () => {
  it("reads back a mint: the taker's BUY YES at 0.61, the maker's BUY NO at 0.39, EIP-55 wallets", () => {
    const nm = names();
    const log = new TradeLog(nm);
    log.append("t1", 0, "o9", "o3", 0, 1, 0, 1, pack(false, false, 1, 610, 390), u("12.5"), u("0.059475"), u("7.625"), u("4.875"), T0 + 5);
    expect(log.count).toBe(1);
    expect(log.get(0)).toEqual({
      id: "t1",
      marketId: "TST",
      kind: "mint",
      tokenId: "111",
      outcome: 0,
      side: "BUY",
      price: u("0.61"),
      quantity: u("12.5"),
      fee: u("0.059475"),
      feeRateBps: 200,
      makerOrderId: "o3",
      takerOrderId: "o9",
      makerWallet: B_EIP55,
      takerWallet: A_EIP55,
      makerOutcome: 1,
      makerTokenId: "222",
      makerSide: "BUY",
      makerPrice: u("0.39"),
      takerCash: u("7.625"),
      makerCash: u("4.875"),
      createdAtMs: T0 + 5,
    });
    expect(log.idOf(0)).toBe("t1");
  });

  it("decodes a transfer and a merge, including the extreme ticks 1 and 999", () => {
    const nm = names();
    const log = new TradeLog(nm);
    log.append("t1", 0, "o1", "o2", 1, 0, 0, 0, pack(true, false, 0, 450, 450), u("2"), 0n, u("0.9"), u("0.9"), T0);
    log.append("t2", 0, "o3", "o4", 0, 1, 0, 1, pack(true, true, 2, 1, 999), u("1"), 0n, u("0.001"), u("0.999"), T0);
    expect(log.get(0)).toMatchObject({ kind: "transfer", side: "SELL", price: u("0.45"), makerSide: "BUY", makerPrice: u("0.45"), makerTokenId: "111", takerWallet: B_EIP55, makerWallet: A_EIP55 });
    expect(log.get(1)).toMatchObject({ kind: "merge", side: "SELL", price: u("0.001"), makerSide: "SELL", makerPrice: u("0.999"), tokenId: "111", makerTokenId: "222" });
  });

  it("names tokens of a multi-outcome market by its default ids, and keeps a non-address wallet as it is", () => {
    const nm = names();
    const log = new TradeLog(nm);
    log.append("t1", 1, "o1", "o2", 2, 0, 2, 2, pack(false, true, 0, 200, 200), u("3"), 0n, u("0.6"), u("0.6"), T0);
    expect(log.get(0)).toMatchObject({ marketId: "TRI", tokenId: "TRI:2", makerTokenId: "TRI:2", takerWallet: "noise-trader-1", feeRateBps: 0 });
  });

  it("indexes rows by market and by account in execution order; a row is listed once for an account on both legs", () => {
    const nm = names();
    const log = new TradeLog(nm);
    const p = pack(false, true, 0, 500, 500);
    log.append("t1", 0, "o1", "o2", 0, 1, 0, 0, p, 1n, 0n, 0n, 0n, T0);
    log.append("t2", 1, "o3", "o4", 1, 2, 0, 0, p, 1n, 0n, 0n, 0n, T0);
    log.append("t3", 0, "o5", "o6", 0, 0, 0, 0, p, 1n, 0n, 0n, 0n, T0);
    expect(log.rowsOfMarket(nm.m)).toEqual([0, 2]);
    expect(log.rowsOfMarket(nm.n)).toEqual([1]);
    expect(log.rowsOfAccount(nm.a)).toEqual([0, 2]);
    expect(log.rowsOfAccount(nm.b)).toEqual([0, 1]);
    expect(log.rowsOfAccount(nm.bot)).toEqual([1]);
  });

  it("an account or market without trades has no rows", () => {
    const nm = names();
    const log = new TradeLog(nm);
    expect(log.rowsOfAccount(nm.a)).toEqual([]);
    expect(log.rowsOfMarket(nm.n)).toEqual([]);
  });

  it("grows past its initial 1024 rows keeping every column", () => {
    const nm = names();
    const log = new TradeLog(nm);
    for (let i = 0; i < 2_500; i++) {
      log.append(`t${i}`, i % 2, `a${i}`, `b${i}`, 0, 1, 0, 1, pack(false, false, 1, 1 + (i % 999), 999 - (i % 999)), BigInt(i + 1), BigInt(i), BigInt(2 * i), BigInt(3 * i), T0 + i);
    }
    expect(log.count).toBe(2_500);
    for (const i of [0, 1023, 1024, 2047, 2048, 2499]) {
      const t = log.get(i);
      expect([t.id, t.marketId, t.takerOrderId, t.quantity, t.fee, t.takerCash, t.makerCash, t.createdAtMs]).toEqual([`t${i}`, i % 2 === 0 ? "TST" : "TRI", `a${i}`, BigInt(i + 1), BigInt(i), BigInt(2 * i), BigInt(3 * i), T0 + i]);
      expect(t.price).toBe(BigInt(1 + (i % 999)) * 1_000n);
    }
    expect(log.rowsOfMarket(nm.m)).toHaveLength(1_250);
  });

  it("refuses a row that does not exist", () => {
    const log = new TradeLog(names());
    expect(() => log.get(0)).toThrow(new RangeError("no trade row 0"));
    log.append("t1", 0, "o1", "o2", 0, 1, 0, 1, pack(false, false, 1, 500, 500), 1n, 0n, 0n, 0n, T0);
    expect(() => log.get(1)).toThrow(RangeError);
    expect(() => log.get(-1)).toThrow(/no trade row -1/);
  });
});

describe("BalanceLog", () => {
  it("reads back events with a 1-based seq, the wallet key and kind name, and market and trade only when set", () => {
    const nm = names();
    const trades = new TradeLog(nm);
    trades.append("t42", 0, "o1", "o2", 0, 1, 0, 1, pack(false, false, 1, 500, 500), 1n, 0n, 0n, 0n, T0);
    const log = new BalanceLog(nm, (row) => trades.idOf(row));
    log.append(0, BALANCE_KIND_CODE.deposit, u("100"), u("100"), -1, -1, T0);
    log.append(0, BALANCE_KIND_CODE.trade, u("-0.5"), u("99.5"), 0, 0, T0 + 1);
    log.append(0, BALANCE_KIND_CODE.payout, u("1"), u("100.5"), 1, -1, T0 + 2);
    expect([log.get(0), log.get(1), log.get(2)]).toEqual([
      { seq: 1, wallet: A, kind: "deposit", amount: u("100"), balance: u("100"), atMs: T0 },
      { seq: 2, wallet: A, kind: "trade", amount: u("-0.5"), balance: u("99.5"), atMs: T0 + 1, marketId: "TST", tradeId: "t42" },
      { seq: 3, wallet: A, kind: "payout", amount: u("1"), balance: u("100.5"), atMs: T0 + 2, marketId: "TRI" },
    ]);
    expect("marketId" in log.get(0) || "tradeId" in log.get(0)).toBe(false);
  });

  it("the kind codes follow BALANCE_KINDS", () => {
    expect(BALANCE_KINDS.map((k) => BALANCE_KIND_CODE[k])).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("indexes events per account and grows past 1024 rows", () => {
    const nm = names();
    const log = new BalanceLog(nm, () => "unused");
    for (let i = 0; i < 1_500; i++) log.append(i % 3 === 0 ? 1 : 0, BALANCE_KIND_CODE.fee, BigInt(-i), BigInt(i), -1, -1, T0 + i);
    expect(log.count).toBe(1_500);
    expect(log.rowsOfAccount(nm.b)).toHaveLength(500);
    expect(log.rowsOfAccount(nm.b).slice(0, 3)).toEqual([0, 3, 6]);
    expect(log.rowsOfAccount(nm.bot)).toEqual([]);
    expect(log.get(1_499)).toEqual({ seq: 1_500, wallet: A, kind: "fee", amount: -1_499n, balance: 1_499n, atMs: T0 + 1_499 });
  });

  it("refuses an event that does not exist", () => {
    const log = new BalanceLog(names(), () => "x");
    expect(() => log.get(0)).toThrow(new RangeError("no balance event 0"));
  });
});
