/**
 * The WebAssembly secp256k1 backend against viem's pure-JS one: the same signature bytes for the
 * same key and digest (RFC 6979, low-s, v 27/28), and the same recovered address; nothing
 * recoverable from malformed signatures.
 */
import { describe, expect, it } from "vitest";
import { hexToBytes, recoverAddress } from "viem";
import { privateKeyToAddress, sign } from "viem/accounts";
import { Rng } from "../../src/core/rng.js";
import { recoverDigestAddress, signDigestBytes } from "../../src/signing/secp256k1.js";
import type { Hex } from "../../src/signing/types.js";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function randomKey(rng: Rng): Hex {
  for (;;) {
    const k = rng.hex(32) as Hex;
    if (BigInt(k) > 0n && BigInt(k) < N) return k;
  }
}

describe("secp256k1 backend", () => {
  it("signs exactly as viem does and recovers the same address (300 random keys and digests)", async () => {
    const rng = new Rng(712);
    for (let i = 0; i < 300; i++) {
      const key = randomKey(rng);
      const digest = rng.hex(32) as Hex;
      const ours = signDigestBytes(hexToBytes(digest), hexToBytes(key));
      const theirs = await sign({ hash: digest, privateKey: key, to: "hex" });
      expect(ours).toBe(theirs);
      const address = privateKeyToAddress(key);
      expect(recoverDigestAddress(hexToBytes(digest), ours)).toBe(address);
      expect(await recoverAddress({ hash: digest, signature: ours })).toBe(address);
    }
  });

  it("recovers another address from another digest, and nothing from malformed signatures", () => {
    const rng = new Rng(1);
    const key = randomKey(rng);
    const digest = hexToBytes(rng.hex(32) as Hex);
    const sig = signDigestBytes(digest, hexToBytes(key));
    const other = hexToBytes(rng.hex(32) as Hex);
    expect(recoverDigestAddress(other, sig)).not.toBe(privateKeyToAddress(key));
    expect(recoverDigestAddress(digest, `${sig.slice(0, 130)}1d` as Hex)).toBeNull(); // v = 29
    expect(recoverDigestAddress(digest, sig.slice(0, 128) as Hex)).toBeNull(); // 64 bytes
    expect(recoverDigestAddress(digest, `0x${"00".repeat(32)}${sig.slice(66)}` as Hex)).toBeNull(); // r = 0
    // r = 5 is not the x coordinate of a point on the curve (x^3 + 7 = 132 is not a square mod p).
    expect(recoverDigestAddress(digest, `0x${"00".repeat(31)}05${sig.slice(66)}` as Hex)).toBeNull();
  });

  it("refuses a key out of range without echoing it", () => {
    const zero = new Uint8Array(32);
    const nKey = hexToBytes(`0x${N.toString(16)}`);
    for (const key of [zero, nKey]) {
      let message = "";
      try {
        signDigestBytes(new Uint8Array(32).fill(7), key);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/invalid private key/);
      expect(message).not.toContain(N.toString(16));
    }
  });
});
