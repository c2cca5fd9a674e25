/**
 * The one domain builder every platform signature uses (src/signing/eip712.ts: platformDomain,
 * typedDataDomain) and the typed-data field checks shared by withdrawal.ts and vault-ops.ts. The
 * digests are checked against viem's hashTypedData with the domain written out by hand.
 */
import { hashDomain, hashTypedData } from "viem";
import { describe, expect, it } from "vitest";
import {
  EIP712_DOMAIN_TYPES,
  SigningError,
  VAULT_DEPLOY_TYPES,
  VAULT_OPERATION_TYPES,
  WITHDRAWAL_TYPES,
  addressField,
  domainSeparator,
  orderDomain,
  platformDomain,
  typedDataDomain,
  uint256Field,
  vaultDeployDigest,
  vaultDomain,
  vaultOperationDigest,
  withdrawalDigest,
  type Address,
} from "../../src/signing/index.js";
import { BINARY_MARKET, CONTRACTS, NEG_RISK_MARKET } from "./fixtures.js";

const VAULT = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01" as Address;
const OTHER = "0x00000000000000000000000000000000000000F1" as Address;
/** The vault-owner domain written out by hand, as viem takes it. */
const HAND_DOMAIN = { name: "PartnerExchange", version: "1", chainId: 31337n, verifyingContract: VAULT.toLowerCase() as Address };

function code(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return e instanceof SigningError ? `${e.code}: ${e.message}` : String(e);
  }
}

describe("platformDomain / typedDataDomain", () => {
  it("the platform's name, version and chain with the verifying contract as given", () => {
    expect(platformDomain(CONTRACTS, VAULT)).toEqual({ name: "PartnerExchange", version: "1", chainId: 31337, verifyingContract: VAULT });
    expect(orderDomain(CONTRACTS, BINARY_MARKET)).toEqual(platformDomain(CONTRACTS, CONTRACTS.exchange.binary as Address));
    expect(orderDomain(CONTRACTS, NEG_RISK_MARKET)).toEqual(platformDomain(CONTRACTS, CONTRACTS.exchange.negRisk as Address));
  });

  it("refuses a chainId that is not a positive safe integer", () => {
    for (const chainId of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(code(() => platformDomain({ ...CONTRACTS, chainId }, VAULT))).toBe("invalid_domain: platform contracts: chainId must be a positive integer");
    }
  });

  it("typedDataDomain: chainId as a bigint, the verifying contract lowercased; the separator is the fast hasher's", () => {
    const d = platformDomain(CONTRACTS, CONTRACTS.exchange.negRisk as Address);
    const t = typedDataDomain(d);
    expect(t).toEqual({ name: "PartnerExchange", version: "1", chainId: 31337n, verifyingContract: CONTRACTS.exchange.negRisk.toLowerCase() });
    expect(hashDomain({ domain: t, types: EIP712_DOMAIN_TYPES })).toBe(domainSeparator(d));
  });

  it("vaultDomain is the platform domain with the vault as verifier, and checks the vault first", () => {
    expect(vaultDomain(CONTRACTS, VAULT)).toEqual(HAND_DOMAIN);
    expect(code(() => vaultDomain({ ...CONTRACTS, chainId: 0 }, "0x12"))).toBe("invalid_address: vault must be 0x followed by 40 hex digits");
    expect(code(() => vaultDomain({ ...CONTRACTS, chainId: 0 }, VAULT))).toBe("invalid_domain: platform contracts: chainId must be a positive integer");
  });
});

describe("vault-owner digests over the shared domain", () => {
  const domain = vaultDomain(CONTRACTS, VAULT);
  it("withdrawal, vault deploy and vault operation digests equal viem's with the domain written by hand", () => {
    const w = { vault: VAULT, destination: OTHER, amount: 12_500_000n, nonce: 7n, deadline: 1_780_000_000n };
    expect(withdrawalDigest(domain, w)).toBe(
      hashTypedData({ domain: HAND_DOMAIN, types: { ...EIP712_DOMAIN_TYPES, ...WITHDRAWAL_TYPES }, primaryType: "Withdrawal", message: { ...w, vault: VAULT.toLowerCase() as Address, destination: OTHER.toLowerCase() as Address } }),
    );
    const d = { owner: OTHER, vault: VAULT, nonce: 1n, deadline: 1_780_000_000n };
    expect(vaultDeployDigest(domain, d)).toBe(
      hashTypedData({ domain: HAND_DOMAIN, types: { ...EIP712_DOMAIN_TYPES, ...VAULT_DEPLOY_TYPES }, primaryType: "VaultDeploy", message: { ...d, owner: OTHER.toLowerCase() as Address, vault: VAULT.toLowerCase() as Address } }),
    );
    const op = { vault: VAULT, kind: "merge" as const, marketId: "ARS-CHE-WIN", amount: 3_000_000n, nonce: 2n, deadline: 1_780_000_000n };
    expect(vaultOperationDigest(domain, op)).toBe(
      hashTypedData({ domain: HAND_DOMAIN, types: { ...EIP712_DOMAIN_TYPES, ...VAULT_OPERATION_TYPES }, primaryType: "VaultOperation", message: { ...op, vault: VAULT.toLowerCase() as Address } }),
    );
  });
});

describe("uint256Field / addressField", () => {
  it("uint256Field passes 0 .. 2^256-1 through and refuses the rest, naming the field", () => {
    expect(uint256Field(0n, "x")).toBe(0n);
    expect(uint256Field((1n << 256n) - 1n, "x")).toBe((1n << 256n) - 1n);
    expect(code(() => uint256Field(-1n, "nonce"))).toBe("invalid_field: nonce must be a uint256");
    expect(code(() => uint256Field(1n << 256n, "amount"))).toBe("invalid_field: amount must be a uint256");
  });

  it("addressField lowercases a 20-byte address and refuses anything else, naming the field", () => {
    expect(addressField(VAULT, "vault")).toBe(VAULT.toLowerCase());
    expect(code(() => addressField("0x" + "a".repeat(39), "destination"))).toBe("invalid_address: destination must be 0x followed by 40 hex digits");
    expect(code(() => addressField("nope", "owner"))).toBe("invalid_address: owner must be 0x followed by 40 hex digits");
  });
});
