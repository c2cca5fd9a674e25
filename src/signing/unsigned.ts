/**
 * The no-op signer of the backtest's signatures-off mode (`mm backtest --signatures off`,
 * docs/backtest.md "Signatures off"): every order gets the same obviously fake signature of the
 * right shape (65 bytes, r = s = 0, v = 27), with no secp256k1 work. The order hash is the one the
 * order builder already computed (the daemon's tracker and the platform's order records key on
 * it), so nothing else changes.
 *
 * Such a signature recovers to no address: a platform, or a simulator that verifies (every one
 * but a backtest's, and always `mm sim`'s), refuses the order with `bad_signature`.
 *
 * Only src/backtest imports this file (.dependency-cruiser.cjs, rule `unsigned-signer-backtest-only`),
 * and it is not re-exported by src/signing/index.ts: it reaches the daemon as a constructor
 * dependency (DaemonDeps.orderSigners) that no config key, environment variable or flag can set.
 */
import { SigningError } from "./errors.js";
import type { BuiltOrder } from "./order-builder.js";
import type { OrderSigner, SignedDigest } from "./signer.js";
import { isAddress, type Address, type Hex } from "./types.js";

/** r = 0, s = 0, v = 27: the shape of a signature, and never a valid one. */
export const UNSIGNED_SIGNATURE: Hex = `0x${"00".repeat(64)}1b`;

export class UnsignedOrderSigner implements OrderSigner {
  readonly address: Address;
  private readonly lower: string;

  constructor(address: string) {
    if (!isAddress(address)) throw new SigningError("invalid_address", "the unsigned signer's address must be 0x followed by 40 hex digits");
    this.address = address;
    this.lower = address.toLowerCase();
  }

  /** The fake signature; the same check of `struct.signer` as WalletSigner, so a wrong wallet still fails here. */
  signBuiltOrderNow(built: Pick<BuiltOrder, "struct" | "orderHash">): SignedDigest {
    if (built.struct.signer.toLowerCase() !== this.lower) {
      throw new SigningError("signer_mismatch", `order.signer ${built.struct.signer} is not this signer's wallet ${this.address}`);
    }
    return { signature: UNSIGNED_SIGNATURE, orderHash: built.orderHash };
  }

  toString(): string {
    return `UnsignedOrderSigner(${this.address})`;
  }
}
