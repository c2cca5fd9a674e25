/**
 * Plain types of the signed order (spec 2.12) and its wire form (docs/spec-gaps.md, place body).
 *
 * Inside, uint256 fields are bigint so nothing is ever rounded through a float; on the wire they
 * are decimal strings, while `feeRateBps`, `side` and `signatureType` are JSON integers.
 * These types are deliberately independent of the zod schemas in src/wire.
 */
import { SigningError } from "./errors.js";

export type Hex = `0x${string}`;
export type Address = `0x${string}`;

export const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";
/** The only signatureType the platform accepts: VAULT (spec 2.12). */
export const SIGNATURE_TYPE_VAULT = 1;

/** The 11 EIP-712 fields in the spec's order. */
export interface OrderStruct {
  salt: bigint;
  /** The signing wallet's vault. */
  maker: Address;
  /** The acting wallet. */
  signer: Address;
  taker: Address;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  /** Unix seconds; 0 = no expiration. */
  expiration: bigint;
  feeRateBps: number;
  side: 0 | 1;
  signatureType: number;
}

export const ORDER_FIELDS = [
  "salt",
  "maker",
  "signer",
  "taker",
  "tokenId",
  "makerAmount",
  "takerAmount",
  "expiration",
  "feeRateBps",
  "side",
  "signatureType",
] as const satisfies readonly (keyof OrderStruct)[];
export type OrderField = (typeof ORDER_FIELDS)[number];

export const ADDRESS_FIELDS: ReadonlySet<OrderField> = new Set<OrderField>(["maker", "signer", "taker"]);

export interface SignedOrder extends OrderStruct {
  /** 65-byte r || s || v signature, 0x-hex. */
  signature: Hex;
}

/** The `order` object of the place body: uint256 as decimal strings, small ints as numbers. */
export interface WireSignedOrder {
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  expiration: string;
  feeRateBps: number;
  side: number;
  signatureType: number;
  signature: string;
}

export function toWire(order: SignedOrder): WireSignedOrder {
  return {
    salt: order.salt.toString(),
    maker: order.maker,
    signer: order.signer,
    taker: order.taker,
    tokenId: order.tokenId.toString(),
    makerAmount: order.makerAmount.toString(),
    takerAmount: order.takerAmount.toString(),
    expiration: order.expiration.toString(),
    feeRateBps: order.feeRateBps,
    side: order.side,
    signatureType: order.signatureType,
    signature: order.signature,
  };
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const UINT_RE = /^\d+$/;

export function isAddress(value: unknown): value is Address {
  return typeof value === "string" && ADDRESS_RE.test(value);
}

export function asAddress(value: unknown, what: string): Address {
  if (!isAddress(value)) throw new SigningError("invalid_address", `${what} must be 0x followed by 40 hex digits`);
  return value;
}

/** A uint from a decimal string, a safe integer or a bigint; throws naming `what`. */
export function asUint(value: unknown, what: string): bigint {
  if (typeof value === "bigint" && value >= 0n) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && UINT_RE.test(value)) return BigInt(value);
  throw new SigningError("invalid_field", `${what} must be a non-negative integer (decimal string)`);
}

/**
 * The side code from a wire value: 0 / 1 (or "0" / "1", "BUY" / "SELL"). Anything else throws: a
 * loose `Number(x)` would read "", null, [] or false as 0 and sign or verify a BUY nobody asked for.
 */
export function asSide(value: unknown, what: string): 0 | 1 {
  if (value === 0 || value === "0" || value === "BUY") return 0;
  if (value === 1 || value === "1" || value === "SELL") return 1;
  throw new SigningError("invalid_field", `${what} must be 0 (BUY) or 1 (SELL)`);
}

/** Parse the wire form back into the struct plus its signature (used by the simulator and tests). */
export function fromWire(wire: WireSignedOrder): SignedOrder {
  const side = asSide(wire.side, "order.side");
  const feeRateBps = asUint(wire.feeRateBps, "order.feeRateBps");
  const signatureType = asUint(wire.signatureType, "order.signatureType");
  if (feeRateBps > BigInt(Number.MAX_SAFE_INTEGER)) throw new SigningError("invalid_field", "order.feeRateBps is too large");
  if (signatureType > 255n) throw new SigningError("invalid_field", "order.signatureType must fit in uint8");
  if (typeof wire.signature !== "string" || !/^0x[0-9a-fA-F]*$/.test(wire.signature)) {
    throw new SigningError("invalid_field", "order.signature must be 0x-hex");
  }
  return {
    salt: asUint(wire.salt, "order.salt"),
    maker: asAddress(wire.maker, "order.maker"),
    signer: asAddress(wire.signer, "order.signer"),
    taker: asAddress(wire.taker, "order.taker"),
    tokenId: asUint(wire.tokenId, "order.tokenId"),
    makerAmount: asUint(wire.makerAmount, "order.makerAmount"),
    takerAmount: asUint(wire.takerAmount, "order.takerAmount"),
    expiration: asUint(wire.expiration, "order.expiration"),
    feeRateBps: Number(feeRateBps),
    side,
    signatureType: Number(signatureType),
    signature: wire.signature as Hex,
  };
}

/** `GET /api/platform/contracts` (docs/spec-gaps.md). */
export interface PlatformContracts {
  chainId: number;
  domain: { name: string; version: string };
  exchange: { binary: string; negRisk: string };
  vaultFactory?: string;
  collateral?: string;
}

/** The EIP-712 domain of an order. */
export interface OrderDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}
