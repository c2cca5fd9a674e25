/**
 * One WalletSigner per trading wallet. The private key lives in an ECMAScript private field and
 * is never exposed: no getter, and JSON / String / util.inspect show only the address. Errors
 * about a bad key name where it came from (the variable or the file), never its value, and never
 * wrap a library error that might echo it.
 */
import { resolve } from "node:path";
import { inspect } from "node:util";
import { hexToBytes } from "viem/utils";
import { privateKeyToAddress } from "viem/accounts";
import { orderDigest } from "./eip712.js";
import { SigningError } from "./errors.js";
import { readKeyFile, tooOpenMessage } from "../config/key-file.js";
import { signDigestBytes } from "./secp256k1.js";
import type { BuiltOrder } from "./order-builder.js";
import { isAddress, type Address, type Hex, type OrderDomain, type OrderStruct } from "./types.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const KEY_RE = /^(?:0x)?([0-9a-fA-F]{64})$/;
const DIGEST_RE = /^0x[0-9a-fA-F]{64}$/;

export interface SignerOptions {
  /** When given, the key must derive to this address (compared case-insensitively). */
  expectedAddress?: string;
}

export interface SignedDigest {
  signature: Hex;
  orderHash: Hex;
}

/**
 * What the daemon's order maker needs of a signer: the wallet it signs for, and a signature of
 * an order already built (its hash computed). WalletSigner is the one `mm run` uses; the
 * backtest's signatures-off mode passes its own (src/signing/unsigned.ts) as a constructor
 * dependency of the daemon, never through a config.
 */
export interface OrderSigner {
  readonly address: Address;
  signBuiltOrderNow(built: Pick<BuiltOrder, "struct" | "orderHash">): SignedDigest;
}

/** A variable name or path that is itself a key must not be echoed into an error message. */
function guardName(name: string, what: string): void {
  if (typeof name !== "string" || KEY_RE.test(name.trim())) {
    throw new SigningError("key_source_missing", `the ${what} given looks like a private key itself, not a ${what}`);
  }
}

function normalizeKey(raw: string, source: string): Hex {
  const m = KEY_RE.exec(raw.trim());
  if (!m) {
    throw new SigningError("bad_private_key", `${source} does not hold a private key (expected 64 hex digits, optionally 0x-prefixed)`);
  }
  const hex: Hex = `0x${m[1]!.toLowerCase()}`;
  const k = BigInt(hex);
  if (k === 0n || k >= SECP256K1_N) throw new SigningError("bad_private_key", `${source} holds an out-of-range secp256k1 private key`);
  return hex;
}

/** A synchronous result (or throw) as a settled promise, for the promise-shaped public API. */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

export class WalletSigner implements OrderSigner {
  readonly address: Address;
  readonly #key: Uint8Array;

  private constructor(key: Hex, address: Address) {
    this.#key = hexToBytes(key);
    this.address = address;
  }

  /** From a hex private key; `source` names it in errors (default "private key"). */
  static fromPrivateKey(key: string, opts: SignerOptions & { source?: string } = {}): WalletSigner {
    const source = opts.source ?? "private key";
    if (typeof key !== "string") throw new SigningError("bad_private_key", `${source} must be a string`);
    const hex = normalizeKey(key, source);
    let address: Address;
    try {
      address = privateKeyToAddress(hex);
    } catch {
      // The library's message could include the key: replace it.
      throw new SigningError("bad_private_key", `${source} is not a valid secp256k1 private key`);
    }
    if (opts.expectedAddress !== undefined) {
      if (!isAddress(opts.expectedAddress)) {
        throw new SigningError("invalid_address", `expected address for ${source} must be 0x followed by 40 hex digits`);
      }
      if (opts.expectedAddress.toLowerCase() !== address.toLowerCase()) {
        throw new SigningError(
          "signer_mismatch",
          `${source} derives to ${address}, not the configured wallet ${opts.expectedAddress}`,
        );
      }
    }
    return new WalletSigner(hex, address);
  }

  /** From an environment variable holding the hex key. */
  static fromEnv(variable: string, opts: SignerOptions & { env?: NodeJS.ProcessEnv } = {}): WalletSigner {
    guardName(variable, "variable name");
    const value = (opts.env ?? process.env)[variable];
    const source = `environment variable ${variable}`;
    if (value === undefined || value.trim() === "") {
      throw new SigningError("key_source_missing", `${source} is not set`);
    }
    return WalletSigner.fromPrivateKey(value, { ...opts, source });
  }

  /** From a file whose content is the hex key (surrounding whitespace ignored); refused if open to group or others. */
  static fromKeyFile(path: string, opts: SignerOptions = {}): WalletSigner {
    guardName(path, "file path");
    const source = `key file ${path}`;
    const read = readKeyFile(path);
    if (!read.ok) {
      if (read.problem === "too_open") throw new SigningError("key_file_too_open", tooOpenMessage(path, resolve(path), read.mode));
      throw new SigningError("key_source_missing", `${source} cannot be read (${read.code})`);
    }
    return WalletSigner.fromPrivateKey(read.content, { ...opts, source });
  }

  /** Sign a 32-byte digest: 65-byte `r || s || v` hex, v in {27, 28}, low-s (RFC 6979, deterministic). */
  signDigest(digest: Hex): Promise<Hex> {
    return settled(() => this.signDigestNow(digest));
  }

  /** signDigest without the promise (the same checks and errors, thrown). */
  signDigestNow(digest: Hex): Hex {
    if (typeof digest !== "string" || !DIGEST_RE.test(digest)) {
      throw new SigningError("invalid_digest", "digest must be 0x followed by 64 hex digits");
    }
    try {
      return signDigestBytes(hexToBytes(digest), this.#key);
    } catch {
      throw new SigningError("bad_private_key", "the digest could not be signed with this wallet's key");
    }
  }

  /** Hash and sign an order. Refuses a struct whose `signer` is another wallet. */
  async signOrder(struct: OrderStruct, domain: OrderDomain): Promise<SignedDigest> {
    if (struct.signer.toLowerCase() !== this.address.toLowerCase()) {
      throw new SigningError("signer_mismatch", `order.signer ${struct.signer} is not this signer's wallet ${this.address}`);
    }
    const orderHash = orderDigest(struct, domain);
    return { signature: await this.signDigest(orderHash), orderHash };
  }

  /** Sign an order from the builder, reusing the order hash it already computed. */
  signBuiltOrder(built: Pick<BuiltOrder, "struct" | "orderHash">): Promise<SignedDigest> {
    return settled(() => this.signBuiltOrderNow(built));
  }

  /** signBuiltOrder without the promise (the same checks and errors, thrown). */
  signBuiltOrderNow(built: Pick<BuiltOrder, "struct" | "orderHash">): SignedDigest {
    if (built.struct.signer.toLowerCase() !== this.address.toLowerCase()) {
      throw new SigningError("signer_mismatch", `order.signer ${built.struct.signer} is not this signer's wallet ${this.address}`);
    }
    return { signature: this.signDigestNow(built.orderHash), orderHash: built.orderHash };
  }

  toJSON(): { address: Address } {
    return { address: this.address };
  }

  toString(): string {
    return `WalletSigner(${this.address})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
