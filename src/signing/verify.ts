/**
 * Signature recovery for orders, as the platform (and so the simulator) does it: recover the
 * address that signed the EIP-712 digest and compare it with the effective wallet.
 *
 * Cost is dominated by secp256k1 public-key recovery (libsecp256k1 in WebAssembly, secp256k1.ts:
 * about 0.25 ms here, against about 1.8 ms with viem's pure-JS backend); the digest itself comes
 * from the hand-rolled hasher in eip712.ts instead of viem's generic typed-data encoder. A small LRU of (digest, signature) -> address makes resends of the same
 * signed order (retries after 503 / shard_owner_unavailable, batch replays) free.
 *
 * Acceptance follows what the exchange contract's ECDSA check accepts: 65 bytes, v 27 or 28,
 * r and s in [1, n-1], s in the lower half of the order (no malleable twins). Anything else is
 * "not valid EIP-712 at all" and recovers to null, like `details.recovered: null` (spec 7.3).
 */
import { bytesToHex, hexToBytes } from "viem/utils";
import { orderDigestBytes } from "./eip712.js";
import { recoverDigestAddress } from "./secp256k1.js";
import type { Address, Hex, OrderDomain, OrderStruct } from "./types.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N >> 1n;
const SIG_RE = /^0x[0-9a-fA-F]{130}$/;
const DIGEST_RE = /^0x[0-9a-fA-F]{64}$/;

/** Least-recently-used map of recovery results; Map keeps insertion order, so re-insert on hit. */
export class RecoveryCache {
  private readonly map = new Map<string, Address | null>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity = 4096) {}

  get(key: string): Address | null | undefined {
    const value = this.map.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: string, value: Address | null): void {
    if (this.capacity <= 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }
}

/** Shared by default; pass `{cache: null}` to bypass or your own RecoveryCache to isolate. */
export const defaultRecoveryCache = new RecoveryCache(4096);

export interface RecoverOptions {
  cache?: RecoveryCache | null;
}

/** True when the signature is well-formed and canonical (see the header); says nothing about who signed. */
export function isCanonicalSignature(signature: unknown): signature is Hex {
  if (typeof signature !== "string" || !SIG_RE.test(signature)) return false;
  const v = parseInt(signature.slice(130, 132), 16);
  if (v !== 27 && v !== 28) return false;
  const r = BigInt("0x" + signature.slice(2, 66));
  const s = BigInt("0x" + signature.slice(66, 130));
  return r > 0n && r < SECP256K1_N && s > 0n && s <= HALF_N;
}

/** Recover the EIP-55 address that signed a 32-byte digest, or null when it cannot be recovered. */
export function recoverDigestSigner(digest: Hex, signature: string, opts: RecoverOptions = {}): Promise<Address | null> {
  return Promise.resolve(recoverDigestSignerNow(digest, signature, opts));
}

/** recoverDigestSigner without the promise (it never throws). */
export function recoverDigestSignerNow(digest: Hex, signature: string, opts: RecoverOptions = {}): Address | null {
  if (typeof signature !== "string" || typeof digest !== "string") return null;
  const cache = opts.cache === undefined ? defaultRecoveryCache : opts.cache;
  const key = cache ? digest.toLowerCase() + signature.toLowerCase() : "";
  if (cache) {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
  }
  let address: Address | null = null;
  // Not canonical, or r is not the x-coordinate of a curve point: null.
  if (isCanonicalSignature(signature) && DIGEST_RE.test(digest)) address = recoverDigestAddress(hexToBytes(digest), signature);
  cache?.set(key, address);
  return address;
}

/**
 * The wallet an order signature recovers to under `domain`, or null when the signature is not
 * valid EIP-712 at all. Throws SigningError when the struct itself is malformed.
 */
export async function recoverOrderSigner(
  struct: OrderStruct,
  signature: string,
  domain: OrderDomain,
  opts: RecoverOptions = {},
): Promise<Address | null> {
  return recoverDigestSigner(bytesToHex(orderDigestBytes(struct, domain)), signature, opts);
}

/** Does the signature recover to `expected` (case-insensitive)? */
export async function verifyOrderSignature(
  struct: OrderStruct,
  signature: string,
  domain: OrderDomain,
  expected: string,
  opts: RecoverOptions = {},
): Promise<boolean> {
  const recovered = await recoverOrderSigner(struct, signature, domain, opts);
  return recovered !== null && recovered.toLowerCase() === expected.toLowerCase();
}
