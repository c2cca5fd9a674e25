import { describe, expect, it } from "vitest";
import { parseMicros } from "../../../src/core/money.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { expectedPayout, payoutsByMarket, startWatch, stepWatch, voidNumerators, type SettlementObservation, type SettlementWatch } from "../../../src/bot/fills/settlement-check.js";

const u = (s: string) => parseMicros(s);
const T = 1_000_000;
const TIMEOUT = 3_600_000;

function watch(held: { outcome: number; qty: bigint }[], nums: bigint[] = [1n, 0n], kind: "resolved" | "voided" = "resolved"): SettlementWatch {
  return startWatch({ wallet: "0xABC", marketId: "M", kind, numerators: nums, held, settledAtMs: T });
}

describe("expectedPayout", () => {
  it.each([
    { name: "winning YES pays 1 per share", held: [{ outcome: 0, qty: u("10") }], nums: [1n, 0n], want: u("10") },
    { name: "losing shares pay nothing", held: [{ outcome: 1, qty: u("10") }], nums: [1n, 0n], want: 0n },
    { name: "both sides: only the winner", held: [{ outcome: 0, qty: u("3") }, { outcome: 1, qty: u("5") }], nums: [0n, 1n], want: u("5") },
    { name: "void: 1/2 per share, floor per position", held: [{ outcome: 0, qty: 3n }, { outcome: 1, qty: 3n }], nums: voidNumerators(2), want: 2n },
    { name: "void of three outcomes", held: [{ outcome: 2, qty: u("9") }], nums: voidNumerators(3), want: u("3") },
    { name: "a split vector", held: [{ outcome: 0, qty: u("1") }], nums: [3n, 1n], want: u("0.75") },
    { name: "short or empty positions count as nothing", held: [{ outcome: 0, qty: -u("4") }, { outcome: 0, qty: 0n }], nums: [1n, 0n], want: 0n },
  ])("$name", ({ held, nums, want }) => {
    expect(expectedPayout(held, nums)).toBe(want);
  });

  it("refuses a zero vector and an outcome without numerator", () => {
    expect(() => expectedPayout([{ outcome: 0, qty: 1n }], [0n, 0n])).toThrow(/positive/);
    expect(() => expectedPayout([{ outcome: 2, qty: 1n }], [1n, 0n])).toThrow(/outcome 2/);
  });
});

describe("startWatch / stepWatch", () => {
  it("a wallet owed nothing is confirmed at once (nothing_due); the wallet is lower-cased", () => {
    const w = watch([{ outcome: 1, qty: u("4") }]);
    expect(w).toMatchObject({ wallet: "0xabc", state: "confirmed", confirmedBy: "nothing_due", expected: 0n });
  });

  const base = watch([{ outcome: 0, qty: u("10") }]);
  const at = (ms: number, o: Partial<SettlementObservation> = {}): SettlementObservation => ({ atMs: T + ms, ...o });

  it.each<{ name: string; obs: SettlementObservation; state: string; by?: string; received?: bigint }>([
    { name: "payout events reaching the amount confirm", obs: at(1_000, { payouts: new Map([["M", u("10")]]) }), state: "confirmed", by: "balance_events", received: u("10") },
    { name: "more than expected confirms too (received shows it)", obs: at(1_000, { payouts: new Map([["M", u("11")]]) }), state: "confirmed", by: "balance_events", received: u("11") },
    { name: "a partial payout stays expected", obs: at(1_000, { payouts: new Map([["M", u("4")]]) }), state: "expected", received: u("4") },
    { name: "another market's payout is not ours", obs: at(1_000, { payouts: new Map([["N", u("10")]]) }), state: "expected", received: 0n },
    { name: "shares gone and the balance equal to our books confirm", obs: at(1_000, { payouts: new Map(), marketsHeld: new Set(), balanceMatches: true }), state: "confirmed", by: "balances" },
    { name: "shares gone but the balance differs: not confirmed", obs: at(1_000, { marketsHeld: new Set(), balanceMatches: false }), state: "expected" },
    { name: "balance equal but the shares still there: not confirmed", obs: at(1_000, { marketsHeld: new Set(["M"]), balanceMatches: true }), state: "expected" },
    { name: "every read failed: nothing learnt", obs: at(1_000), state: "expected" },
    { name: "just before the timeout: still expected", obs: at(TIMEOUT - 1), state: "expected" },
    { name: "at the timeout without a payout: overdue", obs: at(TIMEOUT, { payouts: new Map(), marketsHeld: new Set(["M"]), balanceMatches: false }), state: "overdue" },
    { name: "a payout seen at the timeout confirms rather than overdue", obs: at(TIMEOUT, { payouts: new Map([["M", u("10")]]) }), state: "confirmed", by: "balance_events" },
  ])("$name", ({ obs, state, by, received }) => {
    const next = stepWatch(base, obs, TIMEOUT);
    expect(next.state).toBe(state);
    if (by !== undefined) expect(next.confirmedBy).toBe(by);
    if (received !== undefined) expect(next.received).toBe(received);
  });

  it("overdue stays overdue until a payout shows, then confirms (late); confirmed is final", () => {
    const overdue = stepWatch(base, at(TIMEOUT), TIMEOUT);
    expect(overdue).toMatchObject({ state: "overdue", overdueAtMs: T + TIMEOUT });
    expect(stepWatch(overdue, at(TIMEOUT + 60_000), TIMEOUT)).toBe(overdue);
    const paid = stepWatch(overdue, at(TIMEOUT + 120_000, { payouts: new Map([["M", u("10")]]) }), TIMEOUT);
    expect(paid).toMatchObject({ state: "confirmed", confirmedAtMs: T + TIMEOUT + 120_000, overdueAtMs: T + TIMEOUT });
    expect(stepWatch(paid, at(TIMEOUT * 2, { payouts: new Map() }), TIMEOUT)).toBe(paid);
  });

  it("an unchanged observation returns the same watch", () => {
    expect(stepWatch(base, at(5), TIMEOUT)).toBe(base);
  });
});

describe("payoutsByMarket", () => {
  it("sums payout rows per market and ignores other kinds and rows without a market", () => {
    const m = payoutsByMarket([
      { kind: "payout", marketId: "M", amount: u("2") },
      { kind: "payout", marketId: "M", amount: u("3") },
      { kind: "trade", marketId: "M", amount: u("100") },
      { kind: "payout", marketId: null, amount: u("9") },
      { kind: "payout", marketId: "N", amount: u("1") },
    ]);
    expect([...m]).toEqual([["M", u("5")], ["N", u("1")]]);
  });
});

describe("Inventory.awaitPayout: a settled market awaiting its payout is not drift", () => {
  it("leaves the market's positions and the awaited cash out of the comparison until it arrives", () => {
    const inv = new Inventory();
    inv.anchor("0xW", 1, [{ marketId: "M", outcome: 0, qty: u("10"), avgPrice: u("0.5") }], u("100"));
    inv.resolve("M", [1n, 0n], 2);
    const platformPositions = [{ marketId: "M", tokenId: "1", outcome: 0, quantity: "10", locked: "0", avgPrice: "0.5" }];
    const balances = { walletAddress: "0x0000000000000000000000000000000000000001", vaultAddress: "0x0000000000000000000000000000000000000002", collateral: { total: "100", locked: "0", available: "100" } };
    const before = inv.checkAgainst("0xW", platformPositions, balances);
    expect(before.clean).toBe(false);
    inv.awaitPayout("0xw", "M", u("10"));
    expect(inv.checkAgainst("0xW", platformPositions, balances).clean).toBe(true);
    // Paid meanwhile: shares gone, cash in: clean as well; a different cash figure is still drift.
    expect(inv.checkAgainst("0xW", [], { ...balances, collateral: { ...balances.collateral, total: "110" } }).clean).toBe(true);
    expect(inv.checkAgainst("0xW", [], { ...balances, collateral: { ...balances.collateral, total: "105" } }).cash?.diff).toBe(-u("5"));
    inv.payoutArrived("0xW", "M");
    expect(inv.checkAgainst("0xW", platformPositions, balances).clean).toBe(false);
  });
});

describe("Inventory: only what is still unpaid is excused", () => {
  const balances = (total: string) => ({
    walletAddress: "0x0000000000000000000000000000000000000001",
    vaultAddress: "0x0000000000000000000000000000000000000002",
    collateral: { total, locked: "0", available: total },
  });

  it("two payouts awaited, one arrived: the cash short by the other one is not drift", () => {
    const inv = new Inventory();
    inv.anchor("0xW", 1, [
      { marketId: "A", outcome: 0, qty: u("10"), avgPrice: u("0.5") },
      { marketId: "B", outcome: 0, qty: u("4"), avgPrice: u("0.5") },
    ], u("100"));
    inv.resolve("A", [1n, 0n], 2);
    inv.resolve("B", [1n, 0n], 2);
    inv.awaitPayout("0xW", "A", u("10"));
    inv.awaitPayout("0xW", "B", u("4"));
    // Our books: 114. Neither paid, A paid, B paid, both paid: all clean.
    for (const total of ["100", "110", "104", "114"]) expect(inv.checkAgainst("0xW", [], balances(total)).clean).toBe(true);
    // A figure no set of the awaited payouts explains is still drift.
    expect(inv.checkAgainst("0xW", [], balances("107")).cash?.diff).toBe(-u("7"));
    expect(inv.checkAgainst("0xW", [], balances("115")).cash?.diff).toBe(u("1"));
  });

  it("past 16 awaited payouts only all of them unpaid is excused", () => {
    const inv = new Inventory();
    inv.anchor("0xW", 1, [], u("100"));
    for (let i = 0; i < 17; i++) inv.awaitPayout("0xW", `M${i}`, u("1"));
    expect(inv.checkAgainst("0xW", [], balances("83")).clean).toBe(true);
    expect(inv.checkAgainst("0xW", [], balances("84")).cash?.diff).toBe(-u("16"));
  });

  it("payoutAwaited names the markets any wallet awaits a payout on (a nothing-due one too)", () => {
    const inv = new Inventory();
    inv.awaitPayout("0xW", "M", 0n);
    expect(inv.payoutAwaited("M")).toBe(true);
    expect(inv.payoutAwaited("N")).toBe(false);
    inv.payoutArrived("0xw", "M");
    expect(inv.payoutAwaited("M")).toBe(false);
  });
});

describe("stepWatch: a market named by its platform id", () => {
  const watch = () =>
    startWatch({ wallet: "0xW", marketId: "SYM", platformId: "uuid-1", kind: "resolved", numerators: [1n, 0n], held: [{ outcome: 0, qty: u("5") }], settledAtMs: 0 });

  it("payout rows carrying the id (the market no longer known by symbol) confirm the watch", () => {
    const next = stepWatch(watch(), { atMs: 1, payouts: new Map([["uuid-1", u("5")]]) }, 60_000);
    expect(next).toMatchObject({ state: "confirmed", confirmedBy: "balance_events", received: u("5") });
  });

  it("rows under the symbol and under the id are summed", () => {
    const next = stepWatch(watch(), { atMs: 1, payouts: new Map([["SYM", u("2")], ["uuid-1", u("3")]]) }, 60_000);
    expect(next).toMatchObject({ state: "confirmed", received: u("5") });
  });

  it("positions listing the id still hold the market: no confirmation from the balance", () => {
    expect(stepWatch(watch(), { atMs: 1, marketsHeld: new Set(["uuid-1"]), balanceMatches: true }, 60_000).state).toBe("expected");
    expect(stepWatch(watch(), { atMs: 1, marketsHeld: new Set(), balanceMatches: true }, 60_000)).toMatchObject({ state: "confirmed", confirmedBy: "balances" });
  });
});
