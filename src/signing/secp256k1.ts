/**
 * The one place that does secp256k1 arithmetic on the hot paths: signing an order digest (the
 * daemon, once per order) and recovering the signer of one (the simulator, once per placement).
 *
 * Backed by tiny-secp256k1 (libsecp256k1 compiled to WebAssembly, loaded synchronously at import),
 * which signs about 3x and recovers about 7x faster than viem's pure-JS backend here (bench/signing).
 * Signatures are the same bytes viem produces: RFC 6979 deterministic nonce, low-s, v = 27 + the
 * recovery id (test/signing/secp256k1.test.ts compares the two on random keys and digests).
 */
import * as ecc from "tiny-secp256k1";
import { bytesToHex, hexToBytes } from "viem/utils";
import { publicKeyToAddress } from "viem/accounts";
import type { Address, Hex } from "./types.js";
import { boundedMemo } from "../core/memo.js";

/**
 * Sign a 32-byte digest: 65-byte `r || s || v` hex. Throws a plain Error without any input in its
 * message when the key is out of range (callers validate keys first, see signer.ts).
 */
export function signDigestBytes(digest: Uint8Array, privateKey: Uint8Array): Hex {
  let sig: ecc.RecoverableSignature;
  try {
    sig = ecc.signRecoverable(digest, privateKey);
  } catch {
    throw new Error("secp256k1 signing failed: invalid private key or digest");
  }
  // Ids 2 and 3 (r >= n) have probability ~2^-127 and no Ethereum encoding: treat as a failure.
  if (sig.recoveryId > 1) throw new Error("secp256k1 signing produced an unencodable recovery id");
  return `${bytesToHex(sig.signature)}${sig.recoveryId === 0 ? "1b" : "1c"}`;
}

/** Addresses of the public keys recovered lately (a handful of wallets sign every order). */
const addressOfKey = boundedMemo(256, (hex) => publicKeyToAddress(hex as Hex));

function addressOf(publicKey: Uint8Array): Address {
  return addressOfKey(bytesToHex(publicKey));
}

/**
 * The EIP-55 address whose key signed `digest`, from a 65-byte `r || s || v` signature with v 27
 * or 28; null when nothing can be recovered (r not an x coordinate on the curve, and so on). The
 * caller checks canonical form first (verify.ts).
 */
export function recoverDigestAddress(digest: Uint8Array, signature: Hex): Address | null {
  const bytes = hexToBytes(signature);
  const v = bytes[64];
  if (bytes.length !== 65 || (v !== 27 && v !== 28)) return null;
  try {
    const pub = ecc.recover(digest, bytes.subarray(0, 64), v === 27 ? 0 : 1, false);
    return pub === null ? null : addressOf(pub);
  } catch {
    return null;
  }
}
