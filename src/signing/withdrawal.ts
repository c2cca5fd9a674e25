/**
 * EIP-712 for the vault owner's signatures outside orders (docs/spec-gaps.md, "Withdrawals, vault
 * flows"): the withdrawal request (spec 4.7, "the vault owner's EIP-712 signature gates the funds
 * movement") and the vault deployment signed-op (4.8, deploy sign/submit).
 *
 * Domain: the platform's `{name, version, chainId}` (`GET /api/platform/contracts`) with the
 * wallet's vault as `verifyingContract` (the vault is the contract that checks the owner).
 *
 *   Withdrawal(address vault,address destination,uint256 amount,uint256 nonce,uint256 deadline)
 *   VaultDeploy(address owner,address vault,uint256 nonce,uint256 deadline)
 *
 * `amount` is signed in micro-units (6 decimals, spec 2.1); `deadline` is unix seconds. These run
 * a few times per wallet, so viem's generic hasher is used (orders have the fast one, eip712.ts).
 */
import { hashTypedData } from "viem/utils";
import { SigningError } from "./errors.js";
import { addressField, EIP712_DOMAIN_TYPES, platformDomain, typedDataDomain, uint256Field, type TypedDataDomain } from "./eip712.js";
import type { Address, Hex, PlatformContracts } from "./types.js";
import { recoverDigestSignerNow } from "./verify.js";

export const WITHDRAWAL_TYPES = {
  Withdrawal: [
    { name: "vault", type: "address" },
    { name: "destination", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export const VAULT_DEPLOY_TYPES = {
  VaultDeploy: [
    { name: "owner", type: "address" },
    { name: "vault", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export interface WithdrawalStruct {
  vault: Address;
  destination: Address;
  /** Micro-units of the settlement token. */
  amount: bigint;
  nonce: bigint;
  /** Unix seconds. */
  deadline: bigint;
}

export interface VaultDeployStruct {
  owner: Address;
  vault: Address;
  nonce: bigint;
  deadline: bigint;
}

/** The domain of a vault-owner signature: the platform's name/version/chain, the vault as verifier. */
export function vaultDomain(contracts: Pick<PlatformContracts, "chainId" | "domain">, vault: string): TypedDataDomain {
  return typedDataDomain(platformDomain(contracts, addressField(vault, "vault")));
}


export function withdrawalTypedData(domain: TypedDataDomain, w: WithdrawalStruct) {
  return {
    domain,
    types: { ...EIP712_DOMAIN_TYPES, ...WITHDRAWAL_TYPES },
    primaryType: "Withdrawal" as const,
    message: {
      vault: addressField(w.vault, "vault"),
      destination: addressField(w.destination, "destination"),
      amount: uint256Field(w.amount, "amount"),
      nonce: uint256Field(w.nonce, "nonce"),
      deadline: uint256Field(w.deadline, "deadline"),
    },
  };
}

/** The digest the vault owner signs for a withdrawal. */
export function withdrawalDigest(domain: TypedDataDomain, w: WithdrawalStruct): Hex {
  if (w.amount <= 0n) throw new SigningError("invalid_field", "amount must be greater than 0");
  return hashTypedData(withdrawalTypedData(domain, w));
}

export function vaultDeployTypedData(domain: TypedDataDomain, d: VaultDeployStruct) {
  return {
    domain,
    types: { ...EIP712_DOMAIN_TYPES, ...VAULT_DEPLOY_TYPES },
    primaryType: "VaultDeploy" as const,
    message: { owner: addressField(d.owner, "owner"), vault: addressField(d.vault, "vault"), nonce: uint256Field(d.nonce, "nonce"), deadline: uint256Field(d.deadline, "deadline") },
  };
}

export function vaultDeployDigest(domain: TypedDataDomain, d: VaultDeployStruct): Hex {
  return hashTypedData(vaultDeployTypedData(domain, d));
}

/** Who signed `digest` (null when the signature is not a valid one at all). */
export function recoverOwner(digest: Hex, signature: string): Address | null {
  return recoverDigestSignerNow(digest, signature);
}
