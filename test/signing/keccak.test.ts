/**
 * The WebAssembly keccak against viem's pure-JS one: the same 32 bytes for every length around the
 * rate's block boundaries (136 bytes) and for random inputs, a fresh array per call, and the wasm
 * hasher actually in use once ready (else the hot paths would silently stay on the slow one).
 */
import { keccak256 } from "viem/utils";
import { beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { keccak256Bytes, keccakBackend, keccakReady } from "../../src/signing/keccak.js";

function bytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(256);
  return out;
}

describe("keccak256Bytes", () => {
  beforeAll(() => keccakReady);

  it("uses the WebAssembly hasher once ready", () => {
    expect(keccakBackend()).toBe("wasm");
  });

  it("hashes as viem does at every length from 0 to 420 bytes (three block boundaries)", () => {
    const rng = new Rng(256);
    for (let n = 0; n <= 420; n++) {
      const data = bytes(rng, n);
      expect(keccak256Bytes(data), `length ${n}`).toEqual(keccak256(data, "bytes"));
    }
  });

  it("hashes a view into a larger buffer by its own bytes only", () => {
    const rng = new Rng(257);
    const big = bytes(rng, 1000);
    const view = big.subarray(100, 500);
    expect(keccak256Bytes(view)).toEqual(keccak256(view, "bytes"));
    expect(keccak256Bytes(Buffer.from(view))).toEqual(keccak256(view, "bytes"));
  });

  it("returns a fresh array each call (a caller may keep or change it)", () => {
    const a = keccak256Bytes(new Uint8Array([1, 2, 3]));
    const copy = a.slice();
    const b = keccak256Bytes(new Uint8Array([4, 5, 6]));
    expect(a).toEqual(copy);
    expect(b).not.toEqual(a);
    b.fill(0);
    expect(keccak256Bytes(new Uint8Array([4, 5, 6]))).toEqual(keccak256(new Uint8Array([4, 5, 6]), "bytes"));
  });

  it("matches the known digest of the empty input", () => {
    expect(Buffer.from(keccak256Bytes(new Uint8Array(0))).toString("hex")).toBe("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  });
});
