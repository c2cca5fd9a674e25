/**
 * The backtest's no-op signer (signatures-off mode): the same fake signature for every order, of a
 * signature's shape but never a valid one (r = s = 0: no address recovers from it, and a verifying
 * platform refuses it), the order hash the builder computed, and the same wallet check as the real
 * signer. That only src/backtest may import it is dependency-cruiser's rule and
 * test/backtest/signatures-off-guard.test.ts's business.
 */
import { describe, expect, it } from "vitest";
import { SigningError, WalletSigner, buildOrder, isCanonicalSignature, recoverDigestSignerNow, rngSaltSource } from "../../src/signing/index.js";
import { UNSIGNED_SIGNATURE, UnsignedOrderSigner } from "../../src/signing/unsigned.js";
import { Rng } from "../../src/core/rng.js";
import { BINARY_MARKET, CONTRACTS, testKey } from "./fixtures.js";

const WALLET = WalletSigner.fromPrivateKey(testKey(1)).address;
const OTHER = WalletSigner.fromPrivateKey(testKey(2)).address;

function built(wallet: string) {
  return buildOrder({ contracts: CONTRACTS, market: BINARY_MARKET, intent: { outcome: 0, side: "BUY", price: 450_000n, quantity: 10_000_000n }, wallet, vault: wallet, saltSource: rngSaltSource(new Rng(3)) });
}

describe("UnsignedOrderSigner", () => {
  it("gives every order the one fake signature and the builder's order hash", () => {
    const s = new UnsignedOrderSigner(WALLET);
    const b = built(WALLET);
    expect(s.signBuiltOrderNow(b)).toEqual({ signature: UNSIGNED_SIGNATURE, orderHash: b.orderHash });
    expect(UNSIGNED_SIGNATURE).toMatch(/^0x0{128}1b$/);
  });

  it("makes a signature nobody can have signed: not canonical, and no address recovers from it", () => {
    expect(isCanonicalSignature(UNSIGNED_SIGNATURE)).toBe(false);
    expect(recoverDigestSignerNow(built(WALLET).orderHash, UNSIGNED_SIGNATURE)).toBeNull();
  });

  it("refuses an order of another wallet, and a malformed address, as the real signer does", () => {
    const s = new UnsignedOrderSigner(WALLET);
    expect(() => s.signBuiltOrderNow(built(OTHER))).toThrow(SigningError);
    expect(() => s.signBuiltOrderNow(built(OTHER))).toThrow(/not this signer's wallet/);
    expect(() => new UnsignedOrderSigner("0x12")).toThrow(SigningError);
    expect(String(s)).toBe(`UnsignedOrderSigner(${WALLET})`);
  });
});
