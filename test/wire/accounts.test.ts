/**
 * The wallet surface beyond orders (spec 4.7, 4.8; shapes from docs/spec-gaps.md, "Withdrawals,
 * vault flows and the rest of the wallet surface"): the strict withdrawal-request and
 * vault-deploy-submit bodies, and the loose answers (withdrawal list, fee, deposit sources,
 * portfolio, auto-redeem, balance events, splits-merges pages, vault deploy and emergency) in their
 * documented shapes; a malformed field is refused by name.
 */
import { describe, expect, it } from "vitest";
import {
  BALANCE_EVENTS_MAX_LIMIT,
  CANCELLABLE_WITHDRAWAL_STATUSES,
  SPLITS_MERGES_MAX_LIMIT,
  WITHDRAWALS_MAX_LIMIT,
  autoRedeem,
  balanceEventsPage,
  depositSources,
  portfolioSummary,
  splitsMergesPage,
  unlockablePage,
  vaultDeploySign,
  vaultDeploySubmitBody,
  vaultDeployment,
  vaultEmergency,
  withdrawalAnswer,
  withdrawalFee,
  withdrawalRequestBody,
  withdrawalsListPage,
} from "../../src/wire/accounts.js";
import { ORDER_ID, SYMBOL, T0, VAULT, WALLET, exampleBalances, exampleVaultOperation, exampleWithdrawal } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

const DESTINATION = "0x1111111254eeb25477b68fb85ed929f73a960582";
const SIGNATURE = `0x${"5a".repeat(65)}`;
const REQUEST = { vault: VAULT, destination: DESTINATION, amount: "250.5", nonce: "1", deadline: "1795000000", signature: SIGNATURE };

describe("limits and cancellable states", () => {
  it("page limits: withdrawals 200, balance events 500, splits-merges 200; cancel from PENDING, MLRO_REVIEW, CO_SIGNED (3.2)", () => {
    expect([WITHDRAWALS_MAX_LIMIT, BALANCE_EVENTS_MAX_LIMIT, SPLITS_MERGES_MAX_LIMIT]).toEqual([200, 500, 200]);
    expect([...CANCELLABLE_WITHDRAWAL_STATUSES]).toEqual(["PENDING", "MLRO_REVIEW", "CO_SIGNED"]);
  });
});

describe("withdrawal request body {vault, destination, amount, nonce, deadline, signature}", () => {
  it("parses the documented body", () => {
    expect(expectValid(withdrawalRequestBody, REQUEST)).toEqual(REQUEST);
  });

  it.each([
    ["vault", "0x3f5c", "expected a 0x-prefixed 20-byte hex address"],
    ["destination", "", "expected a 0x-prefixed 20-byte hex address"],
    ["amount", "0", "expected an amount greater than 0"],
    ["amount", "250.5000001", 'expected a decimal string with at most 6 decimals, such as "12.5"'],
    ["nonce", "1.0", "expected an unsigned integer as a decimal string"],
    ["deadline", "1".repeat(79), "exceeds uint256"],
    ["signature", "5a5a", "expected 0x-prefixed hex bytes"],
  ])("refuses %s = %j", (key, bad, message) => {
    expect(issueAt(withdrawalRequestBody, { ...REQUEST, [key]: bad }, key)).toBe(message);
  });

  it("refuses an amount in wei as a number, a missing nonce and an unknown key", () => {
    expectInvalidAt(withdrawalRequestBody, { ...REQUEST, amount: 250_500_000 }, "amount");
    expectInvalidAt(withdrawalRequestBody, withPath(REQUEST, ["nonce"], undefined, true), "nonce");
    expect(withdrawalRequestBody.safeParse({ ...REQUEST, fee: "1" }).error?.issues[0]).toMatchObject({ code: "unrecognized_keys", keys: ["fee"] });
  });
});

describe("withdrawal answers", () => {
  it("the answer is the 2.9 record plus vaultAddress, fee, nonce and deadline", () => {
    const answer = { ...exampleWithdrawal({ status: "PENDING", txHash: null, reason: null }), vaultAddress: VAULT, fee: "0.5", nonce: "1", deadline: "1795000000" };
    expect(expectValid(withdrawalAnswer, answer).fee).toBe("0.5");
    expectInvalidAt(withdrawalAnswer, { ...answer, status: "QUEUED" }, "status");
  });

  it("the list page {walletAddress, withdrawals, nextCursor}", () => {
    expectValid(withdrawalsListPage, { walletAddress: WALLET, withdrawals: [exampleWithdrawal()], nextCursor: "c2" });
    expectInvalidAt(withdrawalsListPage, { walletAddress: WALLET, withdrawals: [exampleWithdrawal()] }, "nextCursor");
    expectInvalidAt(withdrawalsListPage, { walletAddress: "me", withdrawals: [], nextCursor: null }, "walletAddress");
  });

  it("the fee, alone or with ?amount= (amount, netAmount, total)", () => {
    expectValid(withdrawalFee, { walletAddress: WALLET, fee: "0.5" });
    expectValid(withdrawalFee, { walletAddress: WALLET, fee: "0.5", amount: "100", netAmount: "99.5", total: "100.5" });
    expect(issueAt(withdrawalFee, { walletAddress: WALLET, fee: "-0.5" }, "fee")).toBe("expected a non-negative amount");
    expectInvalidAt(withdrawalFee, { walletAddress: WALLET, fee: "0.5", netAmount: "x" }, "netAmount");
  });

  it("deposit sources: addresses (bare or {address}) and the pinned one or null", () => {
    expectValid(depositSources, { walletAddress: WALLET, sources: [DESTINATION, { address: WALLET, firstSeenAt: T0 }], pinned: null });
    expectValid(depositSources, { walletAddress: WALLET, sources: [], pinned: DESTINATION });
    expectInvalidAt(depositSources, { walletAddress: WALLET, sources: [DESTINATION] }, "pinned");
    expectInvalidAt(depositSources, { walletAddress: WALLET, sources: ["nope"], pinned: null }, "sources[0]");
  });
});

describe("portfolio reads", () => {
  it("portfolio {walletAddress, vaultAddress, collateral, positions}", () => {
    const value = { ...exampleBalances(), positions: [{ marketId: SYMBOL, quantity: "4" }] };
    expectValid(portfolioSummary, value);
    expectInvalidAt(portfolioSummary, withPath(value, ["collateral", "total"], 1000), "collateral.total");
    expectInvalidAt(portfolioSummary, withPath(value, ["positions", 0], "row"), "positions[0]");
  });

  it("auto-redeem {walletAddress, enabled, pending}", () => {
    expectValid(autoRedeem, { walletAddress: WALLET, enabled: true, pending: [{ marketId: SYMBOL, status: "RESOLVED", settledAt: T0 }] });
    expectInvalidAt(autoRedeem, { walletAddress: WALLET, enabled: "on" }, "enabled");
  });

  it("balance events: loose rows, cursor paged", () => {
    const row = { id: "be_1", kind: "fee", amount: "-0.02475", balance: "994.5", marketId: SYMBOL, tradeId: "trd_000000000123", createdAt: T0 };
    expectValid(balanceEventsPage, { walletAddress: WALLET, events: [row], nextCursor: null });
    expectInvalidAt(balanceEventsPage, { walletAddress: WALLET, events: [row, 3], nextCursor: null }, "events[1]");
    expectInvalidAt(balanceEventsPage, { walletAddress: WALLET, events: [] }, "nextCursor");
  });

  it("splits-merges pages hold operation records; the unlockable page may leave nextCursor out", () => {
    expectValid(splitsMergesPage, { walletAddress: WALLET, operations: [exampleVaultOperation()], nextCursor: null });
    expectInvalidAt(splitsMergesPage, { walletAddress: WALLET, operations: [] }, "nextCursor");
    expectValid(unlockablePage, { walletAddress: WALLET, operations: [exampleVaultOperation({ status: "failed", confirmsAt: null })] });
    expectInvalidAt(unlockablePage, { walletAddress: WALLET, operations: [exampleVaultOperation({ status: "lost" as never })] }, "operations[0].status");
  });
});

describe("vault deploy and emergency (4.8)", () => {
  const sign = {
    walletAddress: WALLET,
    vaultAddress: VAULT,
    typedData: {
      domain: { name: "PartnerExchange", version: "1", chainId: 8453, verifyingContract: VAULT },
      types: { VaultDeploy: [{ name: "owner", type: "address" }, { name: "vault", type: "address" }, { name: "nonce", type: "uint256" }, { name: "deadline", type: "uint256" }] },
      primaryType: "VaultDeploy",
      message: { owner: WALLET, vault: VAULT, nonce: "3", deadline: "1795000000" },
    },
    digest: `0x${"ab".repeat(32)}`,
    nonce: "3",
    deadline: "1795000000",
  };

  it("deploy/sign: the typed data, its digest, nonce and deadline", () => {
    expect(expectValid(vaultDeploySign, sign).typedData.primaryType).toBe("VaultDeploy");
    expectInvalidAt(vaultDeploySign, withPath(sign, ["typedData", "types", "VaultDeploy", 1, "type"], undefined, true), "typedData.types.VaultDeploy[1].type");
    expectInvalidAt(vaultDeploySign, withPath(sign, ["typedData", "primaryType"], undefined, true), "typedData.primaryType");
    expect(issueAt(vaultDeploySign, { ...sign, digest: "0xabc" }, "digest")).toBe("expected 0x-prefixed hex bytes");
    expectInvalidAt(vaultDeploySign, { ...sign, nonce: 3 }, "nonce");
  });

  it("deploy/submit body {nonce, deadline, signature}, strict", () => {
    const body = { nonce: "3", deadline: "1795000000", signature: SIGNATURE };
    expectValid(vaultDeploySubmitBody, body);
    expectInvalidAt(vaultDeploySubmitBody, { ...body, signature: "" }, "signature");
    expect(vaultDeploySubmitBody.safeParse({ ...body, vault: VAULT }).success).toBe(false);
  });

  it("deployment: DEPLOYING (no tx yet) or DEPLOYED", () => {
    expectValid(vaultDeployment, { walletAddress: WALLET, vaultAddress: VAULT, status: "DEPLOYING", txHash: null, deployedAt: null });
    expectValid(vaultDeployment, { walletAddress: WALLET, vaultAddress: VAULT, status: "DEPLOYED", txHash: `0x${"9c".repeat(32)}`, deployedAt: T0 });
    expectInvalidAt(vaultDeployment, { walletAddress: WALLET, vaultAddress: VAULT, status: "deployed", txHash: null, deployedAt: null }, "status");
    expectInvalidAt(vaultDeployment, { walletAddress: WALLET, vaultAddress: VAULT, status: "DEPLOYING", txHash: null }, "deployedAt");
  });

  it("emergency: the cancelled orders and withdrawals", () => {
    const value = { walletAddress: WALLET, vaultAddress: VAULT, status: "EMERGENCY", requestedAt: T0, cancelledOrders: [ORDER_ID], cancelledWithdrawals: [] };
    expectValid(vaultEmergency, value);
    expectInvalidAt(vaultEmergency, { ...value, cancelledOrders: [1] }, "cancelledOrders[0]");
    expectInvalidAt(vaultEmergency, { ...value, requestedAt: "now" }, "requestedAt");
  });
});
