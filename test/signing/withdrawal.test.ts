/**
 * The vault owner's withdrawal and vault-deployment signatures (docs/spec-gaps.md, 4.7 and 4.8):
 * the digest recomputed here by hand from the type strings the spec gaps record (keccak of the
 * type string, 32-byte words, the domain separator with the vault as verifying contract), so a
 * field renamed, reordered or retyped in src/signing/withdrawal.ts fails; and a signature made
 * with WalletSigner recovers to the owner and to no one else.
 */
import { describe, expect, it } from "vitest";
import { SigningError, WalletSigner } from "../../src/signing/index.js";
import { recoverOwner, vaultDeployDigest, vaultDomain, withdrawalDigest } from "../../src/signing/withdrawal.js";
import { digestByHand } from "./fixtures.js";

const CONTRACTS = { chainId: 137, domain: { name: "PartnerExchange", version: "1" } };
const OWNER = WalletSigner.fromPrivateKey(`0x${"11".repeat(32)}`);
const VAULT = "0x2222222222222222222222222222222222222222";
const DEST = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01";

const DOMAIN = { ...CONTRACTS.domain, chainId: CONTRACTS.chainId, verifyingContract: VAULT };

describe("withdrawal signature", () => {
  const w = { vault: VAULT, destination: DEST, amount: 1_250_500_000n, nonce: 7n, deadline: 1_900_000_000n } as const;

  it("is the EIP-712 digest of Withdrawal(address vault,address destination,uint256 amount,uint256 nonce,uint256 deadline) in the vault's domain", () => {
    const byHand = digestByHand(DOMAIN, "Withdrawal(address vault,address destination,uint256 amount,uint256 nonce,uint256 deadline)", [
      { type: "address", value: VAULT },
      { type: "address", value: DEST },
      { type: "uint256", value: w.amount },
      { type: "uint256", value: w.nonce },
      { type: "uint256", value: w.deadline },
    ]);
    expect(withdrawalDigest(vaultDomain(CONTRACTS, VAULT), w)).toBe(byHand);
  });

  it("changes with every field, the vault of the domain included", () => {
    const d = withdrawalDigest(vaultDomain(CONTRACTS, VAULT), w);
    const other = "0x3333333333333333333333333333333333333333";
    expect(withdrawalDigest(vaultDomain(CONTRACTS, other), w)).not.toBe(d);
    expect(withdrawalDigest(vaultDomain(CONTRACTS, VAULT), { ...w, amount: w.amount + 1n })).not.toBe(d);
    expect(withdrawalDigest(vaultDomain(CONTRACTS, VAULT), { ...w, destination: other })).not.toBe(d);
    expect(withdrawalDigest(vaultDomain(CONTRACTS, VAULT), { ...w, nonce: 8n })).not.toBe(d);
    expect(withdrawalDigest(vaultDomain(CONTRACTS, VAULT), { ...w, deadline: w.deadline + 1n })).not.toBe(d);
  });

  it("recovers to the owner who signed it, and to someone else for another digest", () => {
    const d = withdrawalDigest(vaultDomain(CONTRACTS, VAULT), w);
    const sig = OWNER.signDigestNow(d);
    expect(recoverOwner(d, sig)?.toLowerCase()).toBe(OWNER.address.toLowerCase());
    const moved = withdrawalDigest(vaultDomain(CONTRACTS, VAULT), { ...w, amount: w.amount * 2n });
    expect(recoverOwner(moved, sig)?.toLowerCase()).not.toBe(OWNER.address.toLowerCase());
    expect(recoverOwner(d, "0x1234")).toBeNull();
  });

  it("refuses a zero amount, a bad address and an out-of-range number with a SigningError naming the field", () => {
    const domain = vaultDomain(CONTRACTS, VAULT);
    expect(() => withdrawalDigest(domain, { ...w, amount: 0n })).toThrow(/amount/);
    expect(() => withdrawalDigest(domain, { ...w, destination: "0xnope" })).toThrow(SigningError);
    expect(() => withdrawalDigest(domain, { ...w, destination: "0xnope" })).toThrow(/destination/);
    expect(() => withdrawalDigest(domain, { ...w, nonce: -1n })).toThrow(/nonce/);
    expect(() => vaultDomain(CONTRACTS, "vault")).toThrow(/vault/);
    expect(() => vaultDomain({ ...CONTRACTS, chainId: 0 }, VAULT)).toThrow(/chainId/);
  });
});

describe("vault deployment signature", () => {
  it("is the EIP-712 digest of VaultDeploy(address owner,address vault,uint256 nonce,uint256 deadline) in the vault's domain", () => {
    const d = { owner: OWNER.address, vault: VAULT, nonce: 1n, deadline: 1_900_000_000n } as const;
    const byHand = digestByHand(DOMAIN, "VaultDeploy(address owner,address vault,uint256 nonce,uint256 deadline)", [
      { type: "address", value: OWNER.address },
      { type: "address", value: VAULT },
      { type: "uint256", value: d.nonce },
      { type: "uint256", value: d.deadline },
    ]);
    const digest = vaultDeployDigest(vaultDomain(CONTRACTS, VAULT), d);
    expect(digest).toBe(byHand);
    expect(recoverOwner(digest, OWNER.signDigestNow(digest))?.toLowerCase()).toBe(OWNER.address.toLowerCase());
  });
});
