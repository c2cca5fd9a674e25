/**
 * EIP-712 for orders (docs/spec-gaps.md): domain `{name, version, chainId, verifyingContract}`,
 * primary type `Order` with the 11 fields of spec 2.12.
 *
 * The hasher is hand-rolled because it runs once per order placed (and once per order the
 * simulator verifies): the Order type hash is a constant, the domain separator is computed once
 * per domain and cached, and the struct is laid out as 12 fixed 32-byte words in a reused buffer,
 * so each order costs two keccak256 calls and no generic ABI encoding. Tests check it against
 * viem's `hashTypedData` on random orders.
 */
import { keccak256, stringToBytes, bytesToHex } from "viem/utils";
import { keccak256Bytes } from "./keccak.js";
import { SigningError } from "./errors.js";
import type { Address, Hex, OrderDomain, OrderStruct, PlatformContracts } from "./types.js";
import { isAddress } from "./types.js";

/** viem's `types` argument for signTypedData / hashTypedData / verifyTypedData. */
export const ORDER_TYPES = {
  Order: [
    { name: "salt", type: "uint256" },
    { name: "maker", type: "address" },
    { name: "signer", type: "address" },
    { name: "taker", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "makerAmount", type: "uint256" },
    { name: "takerAmount", type: "uint256" },
    { name: "expiration", type: "uint256" },
    { name: "feeRateBps", type: "uint256" },
    { name: "side", type: "uint8" },
    { name: "signatureType", type: "uint8" },
  ],
} as const;

export const ORDER_PRIMARY_TYPE = "Order";

/**
 * The domain type, spelled out. viem infers it from the domain's values when absent and drops a
 * falsy `version`; passing it explicitly (`types: {...EIP712_DOMAIN_TYPES, ...ORDER_TYPES}`) keeps
 * viem's hash equal to ours for every domain.
 */
export const EIP712_DOMAIN_TYPES = {
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "version", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
} as const;

const ORDER_TYPE_STRING =
  "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount," +
  "uint256 takerAmount,uint256 expiration,uint256 feeRateBps,uint8 side,uint8 signatureType)";
const DOMAIN_TYPE_STRING = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";

export const ORDER_TYPEHASH: Uint8Array = keccak256(stringToBytes(ORDER_TYPE_STRING), "bytes");
const DOMAIN_TYPEHASH: Uint8Array = keccak256(stringToBytes(DOMAIN_TYPE_STRING), "bytes");

/** The message object viem's typed-data functions expect for an order: the struct, uint256 fee as a bigint. */
export interface OrderTypedMessage extends Omit<OrderStruct, "feeRateBps" | "side"> {
  feeRateBps: bigint;
  side: number;
}

export function toTypedMessage(s: OrderStruct): OrderTypedMessage {
  return {
    salt: s.salt,
    maker: s.maker,
    signer: s.signer,
    taker: s.taker,
    tokenId: s.tokenId,
    makerAmount: s.makerAmount,
    takerAmount: s.takerAmount,
    expiration: s.expiration,
    feeRateBps: BigInt(s.feeRateBps),
    side: s.side,
    signatureType: s.signatureType,
  };
}

/** The order types with the domain type spelled out (see EIP712_DOMAIN_TYPES). */
export const ORDER_TYPED_DATA_TYPES = { ...EIP712_DOMAIN_TYPES, ...ORDER_TYPES } as const;

/** The domain as viem types it when EIP712Domain is explicit (uint256 chainId as bigint). */
export interface TypedDataDomain {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: Address;
}

/**
 * Everything viem's signTypedData / hashTypedData / verifyTypedData / recoverTypedDataAddress
 * need for an order; the reference (slow, generic) path our fast hasher is tested against.
 * viem refuses a mixed-case address whose checksum is wrong, so addresses are lowercased here
 * (the hash only sees the 20 bytes).
 */
export function orderTypedData(s: OrderStruct, domain: OrderDomain): {
  domain: TypedDataDomain;
  types: typeof ORDER_TYPED_DATA_TYPES;
  primaryType: "Order";
  message: OrderTypedMessage;
} {
  const m = toTypedMessage(s);
  return {
    domain: typedDataDomain(domain),
    types: ORDER_TYPED_DATA_TYPES,
    primaryType: "Order",
    message: {
      ...m,
      maker: m.maker.toLowerCase() as Address,
      signer: m.signer.toLowerCase() as Address,
      taker: m.taker.toLowerCase() as Address,
    },
  };
}

/**
 * The domain for a market: neg-risk markets (`negRiskEligible`) are verified by the neg-risk
 * exchange, every other market by the binary exchange (spec 2.12: the verifying contract differs).
 */
export function orderDomain(contracts: PlatformContracts, market: { negRiskEligible: boolean }): OrderDomain {
  const verifyingContract = market.negRiskEligible ? contracts.exchange.negRisk : contracts.exchange.binary;
  if (!isAddress(verifyingContract)) {
    throw new SigningError(
      "invalid_domain",
      `platform contracts: exchange.${market.negRiskEligible ? "negRisk" : "binary"} is not an address`,
    );
  }
  return platformDomain(contracts, verifyingContract);
}

/**
 * The domain of every platform signature (orders, and the vault owner's: withdrawal.ts,
 * vault-ops.ts): the platform's `{name, version, chainId}` (`GET /api/platform/contracts`) with the
 * contract that verifies it. The caller checks `verifyingContract` (each words its own error).
 */
export function platformDomain(contracts: Pick<PlatformContracts, "chainId" | "domain">, verifyingContract: Address): OrderDomain {
  if (!Number.isSafeInteger(contracts.chainId) || contracts.chainId <= 0) {
    throw new SigningError("invalid_domain", "platform contracts: chainId must be a positive integer");
  }
  return {
    name: contracts.domain.name,
    version: contracts.domain.version,
    chainId: contracts.chainId,
    verifyingContract,
  };
}

/**
 * A domain as viem's typed-data functions take it with EIP712Domain explicit: uint256 chainId as a
 * bigint, and the verifying contract lowercased (viem refuses a mixed-case address whose checksum
 * is wrong; the hash only sees the 20 bytes).
 */
export function typedDataDomain(domain: OrderDomain): TypedDataDomain {
  return {
    name: domain.name,
    version: domain.version,
    chainId: BigInt(domain.chainId),
    verifyingContract: domain.verifyingContract.toLowerCase() as Address,
  };
}

/** A uint256 field of a typed-data message (viem's generic path), checked. */
export function uint256Field(v: bigint, field: string): bigint {
  if (v < 0n || v >= 1n << 256n) throw new SigningError("invalid_field", `${field} must be a uint256`);
  return v;
}

/** An address field of a typed-data message, checked and lowercased (see typedDataDomain). */
export function addressField(a: string, field: string): Address {
  if (!isAddress(a)) throw new SigningError("invalid_address", `${field} must be 0x followed by 40 hex digits`);
  return a.toLowerCase() as Address;
}

// ---- word encoding -------------------------------------------------------------------------

const MAX_UINT256 = (1n << 256n) - 1n;
const MASK64 = (1n << 64n) - 1n;

const HEX_VALUES = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[65 + i] = 10 + i;
    t[97 + i] = 10 + i;
  }
  return t;
})();

function hexNibble(code: number): number {
  return code < 128 ? (HEX_VALUES[code] ?? -1) : -1;
}

/** Write a 20-byte address right-aligned in the 32-byte word at `off` (the first 12 bytes stay zero). */
function writeAddress(buf: Uint8Array, off: number, addr: string, field: string): void {
  if (addr.length !== 42 || addr.charCodeAt(0) !== 48 || (addr.charCodeAt(1) | 0x20) !== 120) {
    throw new SigningError("invalid_address", `${field} must be 0x followed by 40 hex digits`);
  }
  buf.fill(0, off, off + 12);
  for (let i = 0; i < 20; i++) {
    const hi = hexNibble(addr.charCodeAt(2 + 2 * i));
    const lo = hexNibble(addr.charCodeAt(3 + 2 * i));
    if (hi < 0 || lo < 0) throw new SigningError("invalid_address", `${field} must be 0x followed by 40 hex digits`);
    buf[off + 12 + i] = (hi << 4) | lo;
  }
}

function writeUint256(view: DataView, off: number, value: bigint, field: string): void {
  if (typeof value !== "bigint" || value < 0n || value > MAX_UINT256) {
    throw new SigningError("invalid_field", `${field} must be a uint256`);
  }
  let v = value;
  for (let word = 24; word >= 0; word -= 8) {
    view.setBigUint64(off + word, v & MASK64);
    v >>= 64n;
  }
}

function writeSmallUint(buf: Uint8Array, view: DataView, off: number, value: number, max: number, field: string): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new SigningError("invalid_field", `${field} must be an integer in [0, ${max}]`);
  }
  buf.fill(0, off, off + 24);
  // Two 32-bit halves: safe integers never exceed 2^53.
  view.setUint32(off + 24, Math.floor(value / 0x1_0000_0000));
  view.setUint32(off + 28, value >>> 0);
}

// ---- domain separator cache ----------------------------------------------------------------

interface DomainHashState {
  /** 0x19 0x01 || domainSeparator || (struct hash written here per order). */
  digestInput: Uint8Array;
  separator: Hex;
  /** Digests of the latest orders by their encoded fields (see orderDigestBytes): this generation and the one before. */
  recent: Map<string, Uint8Array>;
  older: Map<string, Uint8Array>;
}

const domainCache = new Map<string, DomainHashState>();
const DOMAIN_CACHE_MAX = 256;

function domainKey(d: OrderDomain): string {
  return `${d.chainId}|${d.verifyingContract.toLowerCase()}|${d.name.length}:${d.name}|${d.version}`;
}

function domainState(domain: OrderDomain): DomainHashState {
  const key = domainKey(domain);
  const hit = domainCache.get(key);
  if (hit) return hit;
  if (!Number.isSafeInteger(domain.chainId) || domain.chainId < 0) {
    throw new SigningError("invalid_domain", "domain.chainId must be a non-negative integer");
  }
  const enc = new Uint8Array(5 * 32);
  const view = new DataView(enc.buffer);
  enc.set(DOMAIN_TYPEHASH, 0);
  enc.set(keccak256(stringToBytes(domain.name), "bytes"), 32);
  enc.set(keccak256(stringToBytes(domain.version), "bytes"), 64);
  writeUint256(view, 96, BigInt(domain.chainId), "domain.chainId");
  writeAddress(enc, 128, domain.verifyingContract, "domain.verifyingContract");
  const separator = keccak256Bytes(enc);
  const digestInput = new Uint8Array(66);
  digestInput[0] = 0x19;
  digestInput[1] = 0x01;
  digestInput.set(separator, 2);
  const state: DomainHashState = { digestInput, separator: bytesToHex(separator), recent: new Map(), older: new Map() };
  // A process sees a handful of domains (one per exchange contract); the cap only guards misuse.
  if (domainCache.size >= DOMAIN_CACHE_MAX) domainCache.clear();
  domainCache.set(key, state);
  return state;
}

/** The EIP-712 domain separator (cached per domain). */
export function domainSeparator(domain: OrderDomain): Hex {
  return domainState(domain).separator;
}

// ---- struct hash and digest ----------------------------------------------------------------

// Reused scratch space: hashing is synchronous, so one buffer per process is enough.
const structBuf = new Uint8Array(12 * 32);
const structView = new DataView(structBuf.buffer);
structBuf.set(ORDER_TYPEHASH, 0);

/** The 11 encoded fields (after the type hash) as text, one char per byte: the digest memo's key. */
const structFields = Buffer.from(structBuf.buffer, structBuf.byteOffset + 32, 11 * 32);

/**
 * Orders digested per memo generation. The digest of an order is remembered for at least this
 * many later orders (at most twice as many, about 1 MB per domain), so the same order hashed
 * again soon after costs no keccak: in one process, as in a backtest, the simulator verifies
 * and records the order the daemon has just built (three digests of the same fields per
 * placement, two of them answered here).
 */
export const DIGEST_MEMO_GENERATION = 1024;

/** Write the 11 fields into the struct buffer (after the type hash), checking each. */
function encodeOrderStruct(s: OrderStruct): void {
  writeUint256(structView, 32, s.salt, "order.salt");
  writeAddress(structBuf, 64, s.maker, "order.maker");
  writeAddress(structBuf, 96, s.signer, "order.signer");
  writeAddress(structBuf, 128, s.taker, "order.taker");
  writeUint256(structView, 160, s.tokenId, "order.tokenId");
  writeUint256(structView, 192, s.makerAmount, "order.makerAmount");
  writeUint256(structView, 224, s.takerAmount, "order.takerAmount");
  writeUint256(structView, 256, s.expiration, "order.expiration");
  writeSmallUint(structBuf, structView, 288, s.feeRateBps, Number.MAX_SAFE_INTEGER, "order.feeRateBps");
  writeSmallUint(structBuf, structView, 320, s.side, 255, "order.side");
  writeSmallUint(structBuf, structView, 352, s.signatureType, 255, "order.signatureType");
}

/** keccak256(typeHash || 11 encoded fields), as bytes. */
export function hashOrderStructBytes(s: OrderStruct): Uint8Array {
  encodeOrderStruct(s);
  return keccak256Bytes(structBuf);
}

export function hashOrderStruct(s: OrderStruct): Hex {
  return bytesToHex(hashOrderStructBytes(s));
}

/**
 * The EIP-712 digest `keccak256(0x1901 || domainSeparator || structHash)`, as bytes (a fresh
 * array the caller may keep or change). A pure function of the encoded fields and the domain,
 * so it is remembered for the latest orders of each domain (DIGEST_MEMO_GENERATION).
 */
export function orderDigestBytes(s: OrderStruct, domain: OrderDomain): Uint8Array {
  const state = domainState(domain);
  encodeOrderStruct(s);
  const key = structFields.toString("latin1");
  const known = state.recent.get(key) ?? state.older.get(key);
  if (known !== undefined) return known.slice();
  state.digestInput.set(keccak256Bytes(structBuf), 34);
  const digest = keccak256Bytes(state.digestInput);
  if (state.recent.size >= DIGEST_MEMO_GENERATION) {
    state.older = state.recent;
    state.recent = new Map();
  }
  state.recent.set(key, digest.slice());
  return digest;
}

/** The order hash: the EIP-712 digest that is signed, and that `/api/orders/lookup` accepts. */
export function orderDigest(s: OrderStruct, domain: OrderDomain): Hex {
  return bytesToHex(orderDigestBytes(s, domain));
}
