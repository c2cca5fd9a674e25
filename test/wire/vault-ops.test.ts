/**
 * Split, merge and convert on the wire (docs/spec-gaps.md, "Split, merge and convert"): the
 * strict request body of the three signature routes, and the operation record that answers them
 * and lists them, in each of its statuses; a malformed body or record is refused naming the field,
 * and a body with a key the platform would not read is refused.
 */
import { describe, expect, it } from "vitest";
import { vaultOpBody, vaultOpKind, vaultOpShares, vaultOpStatus, vaultOperation } from "../../src/wire/vault-ops.js";
import { NO_TOKEN, SYMBOL, VAULT, exampleVaultOperation } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

const BODY = { vault: VAULT, marketId: SYMBOL, amount: "25", nonce: "7", deadline: "1795000000", signature: `0x${"5a".repeat(65)}` };

describe("kinds and statuses", () => {
  it("split, merge, convert; pending, confirmed, failed, unlocked; nothing else, case-exact", () => {
    expect(vaultOpKind.options).toEqual(["split", "merge", "convert"]);
    expect(vaultOpStatus.options).toEqual(["pending", "confirmed", "failed", "unlocked"]);
    expect(vaultOpKind.safeParse("redeem").success).toBe(false);
    expect(vaultOpKind.safeParse("SPLIT").success).toBe(false);
    expect(vaultOpStatus.safeParse("PENDING").success).toBe(false);
  });
});

describe("request body {vault, marketId, amount, nonce, deadline, signature}", () => {
  it("parses the documented body, marketId as symbol or id, amount with up to 6 decimals", () => {
    expect(expectValid(vaultOpBody, BODY)).toEqual(BODY);
    expectValid(vaultOpBody, { ...BODY, marketId: "5b1e0c4e-8f1a-4c3e-9d2b-7a6f5e4d3c2b", amount: "0.000001" });
  });

  it.each([
    ["vault", "0x3f5c", "expected a 0x-prefixed 20-byte hex address"],
    ["marketId", "", "Too small: expected string to have >=1 characters"],
    ["amount", "0", "expected an amount greater than 0"],
    ["amount", "-25", "expected an amount greater than 0"],
    ["amount", "25.0000001", 'expected a decimal string with at most 6 decimals, such as "12.5"'],
    ["nonce", "07", "expected an unsigned integer as a decimal string"],
    ["deadline", "-1", "expected an unsigned integer as a decimal string"],
    ["signature", "0x5", "expected 0x-prefixed hex bytes"],
  ])("refuses %s = %j", (key, bad, message) => {
    expect(issueAt(vaultOpBody, { ...BODY, [key]: bad }, key)).toBe(message);
  });

  it("refuses a marketId over 200 characters, a number amount, a missing field and an extra key", () => {
    expectInvalidAt(vaultOpBody, { ...BODY, marketId: "m".repeat(201) }, "marketId");
    expectValid(vaultOpBody, { ...BODY, marketId: "m".repeat(200) });
    expectInvalidAt(vaultOpBody, { ...BODY, amount: 25 }, "amount");
    expectInvalidAt(vaultOpBody, withPath(BODY, ["signature"], undefined, true), "signature");
    const extra = vaultOpBody.safeParse({ ...BODY, kind: "split" });
    expect(extra.success).toBe(false);
    expect(extra.error?.issues[0]).toMatchObject({ code: "unrecognized_keys", keys: ["kind"] });
  });
});

describe("operation record", () => {
  it("parses a pending split, and keeps keys it does not name (deadline)", () => {
    const parsed = expectValid(vaultOperation, exampleVaultOperation());
    expect(parsed.lockedCollateral).toBe("25");
    expect(parsed.deadline).toBe("1795000000");
  });

  it("parses a failed merge that still holds its share locks, and a confirmed convert inside a neg-risk event", () => {
    const locks = [
      { marketId: SYMBOL, outcome: 0, tokenId: "11", quantity: "10" },
      { marketId: SYMBOL, outcome: 1, tokenId: NO_TOKEN, quantity: "10" },
    ];
    expectValid(vaultOperation, exampleVaultOperation({ kind: "merge", status: "failed", confirmsAt: null, reason: "transaction never confirmed", lockedCollateral: "0", lockedShares: locks }));
    expectValid(vaultOperation, exampleVaultOperation({ kind: "convert", status: "confirmed", eventId: "0f9c8b7a-6d5e-4f3a-8b2c-1d0e9f8a7b6c", confirmsAt: null, txHash: `0x${"9c".repeat(32)}`, lockedCollateral: "0" }));
    expectValid(vaultOperation, exampleVaultOperation({ status: "unlocked", confirmsAt: null, lockedCollateral: "0" }));
  });

  it("eventId, confirmsAt, txHash and reason are present-with-null", () => {
    for (const key of ["eventId", "confirmsAt", "txHash", "reason"]) {
      expectInvalidAt(vaultOperation, withPath(exampleVaultOperation(), [key], undefined, true), key);
    }
  });

  it.each([
    [["opId"], "", "opId"],
    [["kind"], "redeem", "kind"],
    [["status"], "done", "status"],
    [["walletAddress"], "0x8ba1", "walletAddress"],
    [["amount"], "-25", "amount"],
    [["nonce"], 7, "nonce"],
    [["lockedCollateral"], "1e3", "lockedCollateral"],
    [["confirmsAt"], "in 12 s", "confirmsAt"],
    [["txHash"], "0xabc", "txHash"],
    [["lockedShares"], [{ marketId: SYMBOL, outcome: -1, tokenId: "11", quantity: "1" }], "lockedShares[0].outcome"],
  ] as [(string | number)[], unknown, string][])("refuses %j = %j, naming %s", (path, bad, named) => {
    expectInvalidAt(vaultOperation, withPath(exampleVaultOperation(), path, bad), named);
  });

  it("a share lock's quantity is a non-negative amount", () => {
    expect(issueAt(vaultOpShares, { marketId: SYMBOL, outcome: 0, tokenId: "11", quantity: "-1" }, "quantity")).toBe("expected a non-negative amount");
    expectInvalidAt(vaultOpShares, { marketId: SYMBOL, outcome: 0.5, tokenId: "11", quantity: "1" }, "outcome");
  });
});
