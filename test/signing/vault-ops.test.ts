/**
 * The vault owner's split / merge / convert signature (docs/spec-gaps.md, 4.8): the digest
 * recomputed here by hand from the type string the spec gaps record (string fields as the keccak
 * of their bytes), so a field renamed, reordered or retyped in src/signing/vault-ops.ts fails; a
 * merge signature is not a split signature; bad input is refused by name.
 */
import { describe, expect, it } from "vitest";
import { SigningError, WalletSigner } from "../../src/signing/index.js";
import { vaultOperationDigest, type VaultOperationStruct } from "../../src/signing/vault-ops.js";
import { recoverOwner, vaultDomain } from "../../src/signing/withdrawal.js";
import { digestByHand } from "./fixtures.js";

const CONTRACTS = { chainId: 8453, domain: { name: "PartnerExchange", version: "2" } };
const OWNER = WalletSigner.fromPrivateKey(`0x${"42".repeat(32)}`);
const VAULT = "0x4444444444444444444444444444444444444444";
const TYPE = "VaultOperation(address vault,string kind,string marketId,uint256 amount,uint256 nonce,uint256 deadline)";

function byHand(op: VaultOperationStruct): string {
  return digestByHand({ ...CONTRACTS.domain, chainId: CONTRACTS.chainId, verifyingContract: VAULT }, TYPE, [
    { type: "address", value: op.vault },
    { type: "string", value: op.kind },
    { type: "string", value: op.marketId },
    { type: "uint256", value: op.amount },
    { type: "uint256", value: op.nonce },
    { type: "uint256", value: op.deadline },
  ]);
}

const MERGE: VaultOperationStruct = { vault: VAULT, kind: "merge", marketId: "EPL-WINNER-ÉTÉ", amount: 10_000_000n, nonce: 3n, deadline: 1_900_000_000n };

describe("vault operation signature", () => {
  it.each(["split", "merge", "convert"] as const)("is the EIP-712 digest of %s as VaultOperation(...) in the vault's domain", (kind) => {
    const op = { ...MERGE, kind };
    expect(vaultOperationDigest(vaultDomain(CONTRACTS, VAULT), op)).toBe(byHand(op));
  });

  it("a merge signature does not authorise a split of the same amount", () => {
    const domain = vaultDomain(CONTRACTS, VAULT);
    const merge = vaultOperationDigest(domain, MERGE);
    const split = vaultOperationDigest(domain, { ...MERGE, kind: "split" });
    expect(split).not.toBe(merge);
    const sig = OWNER.signDigestNow(merge);
    expect(recoverOwner(merge, sig)?.toLowerCase()).toBe(OWNER.address.toLowerCase());
    expect(recoverOwner(split, sig)?.toLowerCase()).not.toBe(OWNER.address.toLowerCase());
  });

  it("refuses a zero amount, an unknown kind, an empty market and a bad vault, naming each", () => {
    const domain = vaultDomain(CONTRACTS, VAULT);
    const bad: [Partial<VaultOperationStruct>, RegExp][] = [
      [{ amount: 0n }, /amount/],
      [{ kind: "redeem" as never }, /kind/],
      [{ marketId: "" }, /marketId/],
      [{ vault: "0x44" }, /vault/],
      [{ deadline: 1n << 256n }, /deadline/],
    ];
    for (const [change, message] of bad) {
      expect(() => vaultOperationDigest(domain, { ...MERGE, ...change })).toThrow(SigningError);
      expect(() => vaultOperationDigest(domain, { ...MERGE, ...change })).toThrow(message);
    }
  });
});
