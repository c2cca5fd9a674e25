/**
 * EIP-712 for the vault owner's split / merge / convert co-signature requests (spec 4.8,
 * `POST /api/vault/{split,merge,convert}-signature`: "vault:write plus EIP-712 signature"; the
 * struct is not shown, ours is in docs/spec-gaps.md, "Split, merge and convert").
 *
 * Domain: as every vault-owner signature (withdrawal.ts), the platform's `{name, version, chainId}`
 * with the wallet's vault as `verifyingContract`: the vault is the contract that executes the
 * conditional-token call on the owner's behalf, for binary and neg-risk markets alike.
 *
 *   VaultOperation(address vault,string kind,string marketId,uint256 amount,uint256 nonce,uint256 deadline)
 *
 * `kind` is `split`, `merge` or `convert`; `amount` is in micro-units (6 decimals: collateral for a
 * split, complete sets for a merge, NO shares for a convert); `deadline` is unix seconds.
 */
import { hashTypedData } from "viem/utils";
import { SigningError } from "./errors.js";
import { EIP712_DOMAIN_TYPES, uint256Field, type TypedDataDomain } from "./eip712.js";
import type { Address, Hex } from "./types.js";
import { isAddress } from "./types.js";

export const VAULT_OP_KINDS = ["split", "merge", "convert"] as const;
export type VaultOpKind = (typeof VAULT_OP_KINDS)[number];

export const VAULT_OPERATION_TYPES = {
  VaultOperation: [
    { name: "vault", type: "address" },
    { name: "kind", type: "string" },
    { name: "marketId", type: "string" },
    { name: "amount", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export interface VaultOperationStruct {
  vault: Address;
  kind: VaultOpKind;
  marketId: string;
  /** Micro-units. */
  amount: bigint;
  nonce: bigint;
  /** Unix seconds. */
  deadline: bigint;
}

export function vaultOperationTypedData(domain: TypedDataDomain, op: VaultOperationStruct) {
  if (!isAddress(op.vault)) throw new SigningError("invalid_address", "vault must be 0x followed by 40 hex digits");
  if (!VAULT_OP_KINDS.includes(op.kind)) throw new SigningError("invalid_field", `kind must be one of ${VAULT_OP_KINDS.join(", ")}`);
  if (op.marketId.length === 0) throw new SigningError("invalid_field", "marketId must not be empty");
  return {
    domain,
    types: { ...EIP712_DOMAIN_TYPES, ...VAULT_OPERATION_TYPES },
    primaryType: "VaultOperation" as const,
    message: {
      vault: op.vault.toLowerCase() as Address,
      kind: op.kind,
      marketId: op.marketId,
      amount: uint256Field(op.amount, "amount"),
      nonce: uint256Field(op.nonce, "nonce"),
      deadline: uint256Field(op.deadline, "deadline"),
    },
  };
}

/** The digest the vault owner signs for a split, merge or convert. */
export function vaultOperationDigest(domain: TypedDataDomain, op: VaultOperationStruct): Hex {
  if (op.amount <= 0n) throw new SigningError("invalid_field", "amount must be greater than 0");
  return hashTypedData(vaultOperationTypedData(domain, op));
}
