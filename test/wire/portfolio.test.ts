/**
 * The withdrawal record (spec 2.9) and the `/api/me/*` shapes chosen in docs/spec-gaps.md
 * (balances, positions, vault info): the documented rows parse, amounts are non-negative decimal
 * strings with at most 6 decimals, and a bad row is refused naming the field.
 */
import { describe, expect, it } from "vitest";
import { balances, collateralBalance, position, positionsPage, vaultInfo, withdrawal, withdrawalsPage } from "../../src/wire/portfolio.js";
import { SYMBOL, YES_TOKEN, exampleBalances, examplePositions, exampleVaultInfo, exampleWithdrawal } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

describe("withdrawal record (2.9)", () => {
  it("parses a SUBMITTED row with its txHash, and a PENDING one without", () => {
    expect(expectValid(withdrawal, exampleWithdrawal()).amount).toBe("250.5");
    const { txHash: _t, ...pending } = exampleWithdrawal({ status: "PENDING" });
    expectValid(withdrawal, pending);
    expectValid(withdrawal, exampleWithdrawal({ status: "PENDING", txHash: null, reason: null }));
  });

  it("a REJECTED row carries its reason", () => {
    expect(expectValid(withdrawal, exampleWithdrawal({ status: "REJECTED", txHash: null, reason: "compliance denial" })).reason).toBe("compliance denial");
  });

  it.each([
    ["amount", { amount: "-1" }, "expected a non-negative amount"],
    ["amount", { amount: "0.0000001" }, 'expected a decimal string with at most 6 decimals, such as "12.5"'],
    ["destination", { destination: "0x1111" }, "expected a 0x-prefixed 20-byte hex address"],
    ["userWallet", { userWallet: "8ba1f109551bd432803012645ac136ddd64dba72" }, "expected a 0x-prefixed 20-byte hex address"],
    ["txHash", { txHash: "0x9" }, "expected 0x-prefixed hex bytes"],
    ["id", { id: "w-1" }, "expected a uuid"],
    ["updatedAt", { updatedAt: "2026-11-21" }, "expected an ISO-8601 date-time"],
  ] as [string, Record<string, unknown>, string][])("refuses a bad %s: %j", (path, patch, message) => {
    expect(issueAt(withdrawal, exampleWithdrawal(patch), path)).toBe(message);
  });

  it("refuses a status outside 3.2 and an amount given as a number", () => {
    expectInvalidAt(withdrawal, exampleWithdrawal({ status: "DONE" as never }), "status");
    expectInvalidAt(withdrawal, exampleWithdrawal({ amount: 250.5 as never }), "amount");
  });

  it("the page: withdrawals and nextCursor (null on the last page, never absent)", () => {
    expectValid(withdrawalsPage, { withdrawals: [exampleWithdrawal()], nextCursor: null });
    expectInvalidAt(withdrawalsPage, { withdrawals: [] }, "nextCursor");
    expectInvalidAt(withdrawalsPage, { withdrawals: [exampleWithdrawal({ status: "pending" as never })], nextCursor: null }, "withdrawals[0].status");
  });
});

describe("balances, positions, vault info (docs/spec-gaps.md)", () => {
  it("balances: {walletAddress, vaultAddress, collateral: {total, locked, available}}", () => {
    expect(expectValid(balances, exampleBalances()).collateral).toEqual({ total: "1000", locked: "5.5", available: "994.5" });
    expect(issueAt(balances, withPath(exampleBalances(), ["collateral", "locked"], "-5.5"), "collateral.locked")).toBe("expected a non-negative amount");
    expectInvalidAt(collateralBalance, { total: "1", locked: "0" }, "available");
    expectInvalidAt(balances, withPath(exampleBalances(), ["vaultAddress"], undefined, true), "vaultAddress");
  });

  it("positions: one row per held outcome token; avgPrice may be null", () => {
    expectValid(positionsPage, examplePositions());
    expectValid(position, { marketId: SYMBOL, tokenId: YES_TOKEN, outcome: 1, quantity: "0", locked: "0", avgPrice: null });
    const page = examplePositions();
    expect(issueAt(positionsPage, withPath(page, ["positions", 0, "tokenId"], "0x01"), "positions[0].tokenId")).toBe("expected an unsigned integer as a decimal string");
    expect(issueAt(positionsPage, withPath(page, ["positions", 0, "quantity"], "4.1234567"), "positions[0].quantity")).toBe('expected a decimal string with at most 6 decimals, such as "12.5"');
    expect(issueAt(positionsPage, withPath(page, ["positions", 0, "outcome"], -1), "positions[0].outcome")).toBe("expected an integer >= 0");
    expectInvalidAt(positionsPage, withPath(page, ["positions", 0, "avgPrice"], undefined, true), "positions[0].avgPrice");
  });

  it("vault info: deployed is a boolean, not a string", () => {
    expect(expectValid(vaultInfo, exampleVaultInfo()).deployed).toBe(true);
    expectInvalidAt(vaultInfo, { ...exampleVaultInfo(), deployed: "true" }, "deployed");
    expectInvalidAt(vaultInfo, { ...exampleVaultInfo(), walletAddress: null }, "walletAddress");
  });
});
