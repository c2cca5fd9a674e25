/**
 * The simulator's ledger (src/sim/engine/ledger.ts), reached through a MatchingEngine's `ledger`
 * and markets: accounts by wallet in any case, deposits and withdrawals with their error codes and
 * the int64 ceiling, splits and merges of complete sets (cost spread with the remainder on outcome
 * 0), share transfers with their cost basis, payouts rounding down into the house, the balance
 * event log, and the typed arrays growing past their first capacity.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { MatchingEngine } from "../../../src/sim/engine/index.js";
import { checkInvariants } from "../../../src/sim/engine/invariants.js";
import { LedgerError } from "../../../src/sim/engine/ledger.js";
import { MAX_TOTAL_DEPOSITS } from "../../../src/sim/engine/ticks.js";
import { ALICE, BOB, u } from "./helpers.js";

const T0 = Date.UTC(2026, 0, 1);

function engine(opts: { outcomes?: number; recordBalanceEvents?: boolean } = {}) {
  const clock = new VirtualClock(T0);
  const e = new MatchingEngine({ clock, ledger: { recordBalanceEvents: opts.recordBalanceEvents ?? true } });
  e.addMarket({ id: "M", outcomeCount: opts.outcomes ?? 2, feeRateBps: 0 });
  const L = e.ledger;
  const m = e.market("M");
  const consistent = () => expect(checkInvariants(e)).toEqual([]);
  return { e, L, m, clock, consistent };
}

function code(fn: () => void): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof LedgerError ? err.code : `not a LedgerError: ${String(err)}`;
  }
  return undefined;
}

describe("accounts", () => {
  it("one account per wallet whatever its case; find never creates one", () => {
    const { L } = engine();
    expect(L.find(ALICE)).toBeUndefined();
    expect(L.accountList).toHaveLength(0);
    const a = L.account(ALICE.toUpperCase().replace("0X", "0x"));
    expect(L.account(ALICE)).toBe(a);
    expect(L.find(ALICE.toLowerCase())).toBe(a);
    expect(a.key).toBe(ALICE.toLowerCase());
    expect(L.accountList).toEqual([a]);
  });

  it("grows past its first capacity (64 accounts) keeping every balance", () => {
    const { e, L, consistent } = engine();
    const wallets = Array.from({ length: 130 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    wallets.forEach((w, i) => e.deposit(w, BigInt(i + 1)));
    expect(L.cash.length).toBeGreaterThanOrEqual(130);
    wallets.forEach((w, i) => expect(e.balance(w).total).toBe(BigInt(i + 1)));
    consistent();
  });
});

describe("deposits and withdrawals", () => {
  it("move the wallet's total and the net deposits", () => {
    const { e, L, consistent } = engine();
    e.deposit(ALICE, u("100"));
    e.withdraw(ALICE, u("30"));
    expect(e.balance(ALICE)).toMatchObject({ total: u("70"), locked: 0n });
    expect(L.netDeposits).toBe(u("70"));
    consistent();
  });

  it("refuse non-positive amounts (invalid_amount) and more than is available (insufficient_funds)", () => {
    const { e } = engine();
    expect(code(() => e.deposit(ALICE, 0n))).toBe("invalid_amount");
    expect(code(() => e.withdraw(ALICE, -1n))).toBe("invalid_amount");
    expect(code(() => e.withdraw(BOB, 1n))).toBe("insufficient_funds");
    e.deposit(ALICE, u("10"));
    // 6 of the 10 are locked by a resting BUY: only 4 can leave.
    e.place({ wallet: ALICE, marketId: "M", outcome: 0, side: "BUY", price: u("0.6"), quantity: u("10") });
    expect(code(() => e.withdraw(ALICE, u("4.000001")))).toBe("insufficient_funds");
    expect(code(() => e.withdraw(ALICE, u("4")))).toBeUndefined();
  });

  it("refuse a deposit that would take the total past the int64-safe ceiling", () => {
    const { e } = engine();
    e.deposit(ALICE, MAX_TOTAL_DEPOSITS - 1n);
    expect(code(() => e.deposit(BOB, 2n))).toBe("invalid_amount");
    expect(code(() => e.deposit(BOB, 1n))).toBeUndefined();
  });
});

describe("split and merge", () => {
  it("a split turns collateral into one share of each outcome; its cost is spread with the remainder on outcome 0", () => {
    const { e, L, m, consistent } = engine({ outcomes: 3 });
    e.deposit(ALICE, u("1"));
    e.split(ALICE, "M", 10n);
    const a = L.find(ALICE)!;
    const slots = [0, 1, 2].map((o) => L.peekSlot(a, m, o));
    expect(slots.map((p) => L.posQty[p])).toEqual([10n, 10n, 10n]);
    expect(slots.map((p) => L.posCost[p])).toEqual([4n, 3n, 3n]);
    expect(L.sets[m.index]).toBe(10n);
    expect(e.balance(ALICE).total).toBe(u("1") - 10n);
    consistent();
  });

  it("a merge needs free shares of every outcome and gives the collateral back", () => {
    const { e, consistent } = engine();
    e.deposit(ALICE, u("10"));
    e.split(ALICE, "M", u("5"));
    e.place({ wallet: ALICE, marketId: "M", outcome: 1, side: "SELL", price: u("0.9"), quantity: u("2") });
    expect(code(() => e.merge(ALICE, "M", u("3.000001")))).toBe("insufficient_funds");
    e.merge(ALICE, "M", u("3"));
    expect(e.balance(ALICE).total).toBe(u("8"));
    expect(code(() => e.merge(BOB, "M", 1n))).toBe("insufficient_funds");
    expect(code(() => e.split(ALICE, "M", 0n))).toBe("invalid_amount");
    consistent();
  });

  it("position slots grow past their first capacity", () => {
    const { e, L, consistent } = engine();
    const wallets = Array.from({ length: 200 }, (_, i) => `0xb${(i + 1).toString(16).padStart(39, "0")}`);
    for (const w of wallets) {
      e.deposit(w, 5n);
      e.split(w, "M", 5n);
    }
    expect(L.posCount).toBe(400);
    expect(L.posQty.length).toBeGreaterThanOrEqual(400);
    for (const w of wallets) expect(e.positions(w, "M").map((p) => p.quantity)).toEqual([5n, 5n]);
    consistent();
  });
});

describe("transferShares", () => {
  it("moves free shares with the sender's cost pro rata, or at a given cost price", () => {
    const { e, L, m, consistent } = engine();
    e.deposit(ALICE, u("10"));
    e.split(ALICE, "M", u("10"));
    const a = L.find(ALICE)!;
    const cost0 = L.posCost[L.peekSlot(a, m, 0)]!;
    e.transferShares(ALICE, BOB, "M", 0, u("4"));
    const b = L.find(BOB)!;
    expect(L.posQty[L.peekSlot(b, m, 0)]).toBe(u("4"));
    expect(L.posCost[L.peekSlot(b, m, 0)]).toBe((cost0 * 4n) / 10n);
    expect(L.posCost[L.peekSlot(a, m, 0)]! + L.posCost[L.peekSlot(b, m, 0)]!).toBe(cost0);
    e.transferShares(ALICE, BOB, "M", 1, u("2"), u("0.25"));
    expect(L.posCost[L.peekSlot(b, m, 1)]).toBe(u("0.5"));
    expect(code(() => e.transferShares(ALICE, BOB, "M", 0, u("6.000001")))).toBe("insufficient_funds");
    // No settlement token moved.
    expect(e.balance(BOB).total).toBe(0n);
    consistent();
  });
});

describe("payout", () => {
  it("pays qty x numerator / sum rounded down, the dust to the house, and empties the market", () => {
    const { e, L, m, consistent } = engine({ outcomes: 3 });
    for (const w of [ALICE, BOB]) e.deposit(w, u("1"));
    e.split(ALICE, "M", 10n);
    e.split(BOB, "M", 5n);
    const r = e.resolve("M", [1, 1, 1]);
    // ALICE: 3 x floor(10/3) = 9 of 10; BOB: 3 x floor(5/3) = 3 of 5; 3 micros of dust.
    expect(r.payouts.filter((p) => p.wallet === ALICE.toLowerCase()).map((p) => p.amount)).toEqual([3n, 3n, 3n]);
    expect(r.payouts.filter((p) => p.wallet === BOB.toLowerCase()).map((p) => p.amount)).toEqual([1n, 1n, 1n]);
    expect(L.houseDust).toBe(3n);
    expect(L.sets[m.index]).toBe(0n);
    expect(e.positions(ALICE, "M").every((p) => p.quantity === 0n)).toBe(true);
    consistent();
  });
});

describe("balance events", () => {
  it("log each change of a wallet's total with its kind, signed amount, the total after, market and time", async () => {
    const { e, clock } = engine();
    e.deposit(ALICE, u("10"));
    await clock.advance(1_000);
    e.split(ALICE, "M", u("4"));
    e.merge(ALICE, "M", u("1"));
    e.withdraw(ALICE, u("2"));
    const ev = e.ledger.balanceEvents(ALICE).map((x) => [x.kind, x.amount, x.balance, x.marketId, x.atMs - T0]);
    expect(ev).toEqual([
      ["deposit", u("10"), u("10"), undefined, 0],
      ["split", -u("4"), u("6"), "M", 1_000],
      ["merge", u("1"), u("7"), "M", 1_000],
      ["withdraw", -u("2"), u("5"), undefined, 1_000],
    ]);
    expect(e.ledger.balanceEvents(BOB)).toEqual([]);
    expect(e.ledger.balanceEvents()).toHaveLength(4);
  });

  it("are not kept when recording is off; the balances are the same", () => {
    const { e } = engine({ recordBalanceEvents: false });
    e.deposit(ALICE, u("10"));
    e.split(ALICE, "M", u("4"));
    expect(e.ledger.balanceEvents()).toEqual([]);
    expect(e.balance(ALICE).total).toBe(u("6"));
  });
});
