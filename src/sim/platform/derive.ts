/**
 * Deterministic derivations: vault addresses, on-chain ids of markets, slugs.
 *
 * Everything here is a pure function of its input so that the same scenario and seed give
 * the same addresses and ids on every run (tests, recorded backtests and the demo depend on it).
 */
import { encodePacked, getAddress, hexToBigInt, keccak256, stringToHex } from "viem/utils";
import type { Address, Hex } from "viem";
import { boundedMemo } from "../../core/memo.js";

export const WALLET_RE = /^0x[0-9a-fA-F]{40}$/;

export function isWalletAddress(text: string): boolean {
  return WALLET_RE.test(text);
}

/** The address in the last 20 bytes of keccak256(label), EIP-55 cased. */
export function addressFromLabel(label: string): Address {
  const h = keccak256(stringToHex(label));
  return getAddress(`0x${h.slice(-40)}`);
}

/** Vaults by lowercased wallet: a scenario has a handful of wallets and every placement asks (two keccaks each). */
const vaultOfLower = boundedMemo(4096, (lower) => addressFromLabel(`vault:${lower}`));

/**
 * Simulated vault-of-signer (docs/spec-gaps.md): last 20 bytes of
 * keccak256("vault:" + lowercased wallet), EIP-55 cased.
 */
export function vaultAddressOf(wallet: string): Address {
  return vaultOfLower(wallet.toLowerCase());
}

/** A bytes32 hex id derived from a label (conditionId, questionId). */
export function bytes32Of(label: string): Hex {
  return keccak256(stringToHex(label));
}

/** A stable uuid (version 4 layout) derived from a label: match ids from their slugs. */
export function uuidOf(label: string): string {
  const h = keccak256(stringToHex(label)).slice(2, 34).split("");
  h[12] = "4";
  h[16] = "89ab"[parseInt(h[16]!, 16) % 4]!;
  const t = h.join("");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20, 32)}`;
}

/** ERC-1155 position id of outcome `index`: keccak256(conditionId ‖ uint256 index) as a decimal string. */
export function outcomeTokenId(conditionId: Hex, index: number): string {
  return hexToBigInt(keccak256(encodePacked(["bytes32", "uint256"], [conditionId, BigInt(index)]))).toString(10);
}

/** Lowercase kebab-case: ASCII letters and digits, single hyphens, no leading/trailing hyphen. */
export function kebab(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Hands out slugs that are unique within one namespace: `x`, then `x-2`, `x-3`, ... */
export class SlugAllocator {
  private readonly taken = new Set<string>();

  take(base: string, fallback = "item"): string {
    const root = kebab(base) || fallback;
    let slug = root;
    for (let n = 2; this.taken.has(slug); n++) slug = `${root}-${n}`;
    this.taken.add(slug);
    return slug;
  }

  /** Reserve an exact slug; false when it is taken or not already lowercase kebab-case. */
  claim(slug: string): boolean {
    if (kebab(slug) !== slug || slug === "" || this.taken.has(slug)) return false;
    this.taken.add(slug);
    return true;
  }

  has(slug: string): boolean {
    return this.taken.has(slug);
  }
}
