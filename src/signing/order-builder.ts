/**
 * From a trading intent (market, outcome, side, price, quantity, time in force) to the 11-field
 * order struct of spec 2.12, its order hash, and the place body of docs/spec-gaps.md.
 *
 * Everything the platform would reject for a reason visible here is refused before signing, with
 * the platform's code: a fee above 1000 bps (`fee_too_high`), an outcome without a token
 * (`invalid_outcome`), off-grid amounts (`invalid_amounts`), market+GTC (`invalid_tif`).
 */
import { MAX_FEE_RATE_BPS, SIDE_CODE, orderAmounts, type Side } from "../core/amounts.js";
import { MoneyError, formatMicros, type Micros } from "../core/money.js";
import { orderDigest, orderDomain } from "./eip712.js";
import { ADDRESS_RE, CLIENT_ORDER_ID_RE, HEX_BYTES_RE, vouch } from "../wire/index.js";
import { SigningError } from "./errors.js";
import { cryptoSaltSource, type SaltSource } from "./salt.js";
import {
  SIGNATURE_TYPE_VAULT,
  ZERO_ADDRESS,
  asAddress,
  toWire,
  type Address,
  type Hex,
  type OrderDomain,
  type OrderStruct,
  type PlatformContracts,
  type WireSignedOrder,
} from "./types.js";

export type TimeInForce = "GTC" | "GTD" | "IOC" | "FOK";
export type OrderType = "limit" | "market";

/** The market fields signing needs (a subset of the MarketSummary row, spec 2.6). */
export interface SigningMarket {
  /** Market symbol, sent as `marketId` in the place body when present. */
  symbol?: string;
  yesTokenId?: string | null;
  noTokenId?: string | null;
  /** One token id per outcome (docs/spec-gaps.md); preferred over yes/no when present. */
  outcomeTokenIds?: readonly string[] | null;
  feeTakerBps: number | null;
  negRiskEligible: boolean;
}

export interface OrderIntent {
  /** Outcome index; give this or `tokenId` (or both, which must agree). */
  outcome?: number;
  tokenId?: string | bigint;
  side: Side;
  /** Limit price in micros (0.55 -> 550_000n), on the 0.001 grid. */
  price: Micros;
  /** Shares in micros. */
  quantity: Micros;
  /** Unix seconds; 0 / absent = none. Required (non-zero) for GTD, must be 0 otherwise. */
  expiration?: bigint | number;
  postOnly?: boolean;
  /** Default: GTC for limit orders, IOC for market orders. */
  timeInForce?: TimeInForce;
  /** Default: limit. */
  type?: OrderType;
}

export interface BuildOrderParams {
  contracts: PlatformContracts;
  market: SigningMarket;
  intent: OrderIntent;
  /** The acting wallet: the signer. */
  wallet: string;
  /** The wallet's vault: the maker. */
  vault: string;
  saltSource?: SaltSource;
  /** The platform default fee rate, used when the market's feeTakerBps is null. */
  defaultFeeRateBps?: number | null;
}

export interface BuiltOrder {
  struct: OrderStruct;
  /** EIP-712 digest of `struct` under `domain`: what gets signed, known before submission. */
  orderHash: Hex;
  domain: OrderDomain;
  /** Outcome index, when the market's token list let us resolve it. */
  outcome: number | undefined;
  marketId: string | undefined;
  side: Side;
  price: Micros;
  quantity: Micros;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
}

/**
 * `POST /api/orders/place` body (docs/spec-gaps.md) as the platform accepts it: `timeInForce` and
 * `postOnly` may be left to its defaults. What the REST client's `place` takes.
 */
export interface PlaceRequestBody {
  order: WireSignedOrder;
  maker: string;
  clientOrderId?: string;
  marketId?: string;
  outcome?: number;
  side: Side;
  price: string;
  quantity: string;
  type: OrderType;
  timeInForce?: TimeInForce;
  postOnly?: boolean;
}

/** The place body as built here: every default written out. */
export interface PlaceOrderBody extends PlaceRequestBody {
  timeInForce: TimeInForce;
  postOnly: boolean;
}

/** Token ids by outcome index; null where the market has none (not yet deployed). */
export function marketTokenIds(market: SigningMarket): (string | null)[] {
  if (market.outcomeTokenIds && market.outcomeTokenIds.length > 0) return [...market.outcomeTokenIds];
  return [market.yesTokenId ?? null, market.noTokenId ?? null];
}

const UINT_RE = /^\d+$/;

function parseTokenId(value: string | bigint, what: string): bigint {
  if (typeof value === "bigint" && value >= 0n) return value;
  if (typeof value === "string" && UINT_RE.test(value)) return BigInt(value);
  throw new SigningError("invalid_outcome", `${what} must be a uint256 decimal string`);
}

function resolveToken(market: SigningMarket, intent: OrderIntent): { tokenId: bigint; outcome: number | undefined } {
  const ids = marketTokenIds(market);
  const name = market.symbol ?? "market";
  if (intent.outcome !== undefined) {
    if (!Number.isInteger(intent.outcome) || intent.outcome < 0 || intent.outcome >= ids.length) {
      throw new SigningError("invalid_outcome", `${name}: outcome ${intent.outcome} is out of range (0..${ids.length - 1})`);
    }
    const id = ids[intent.outcome];
    if (id == null) {
      throw new SigningError("invalid_outcome", `${name}: outcome ${intent.outcome} has no token id (market not deployed?)`);
    }
    const tokenId = parseTokenId(id, `${name}: token id of outcome ${intent.outcome}`);
    if (intent.tokenId !== undefined && parseTokenId(intent.tokenId, "tokenId") !== tokenId) {
      throw new SigningError("invalid_outcome", `${name}: tokenId does not belong to outcome ${intent.outcome}`);
    }
    return { tokenId, outcome: intent.outcome };
  }
  if (intent.tokenId === undefined) throw new SigningError("invalid_outcome", "an order needs an outcome index or a tokenId");
  const tokenId = parseTokenId(intent.tokenId, "tokenId");
  const index = ids.findIndex((id) => id != null && UINT_RE.test(id) && BigInt(id) === tokenId);
  const known = ids.some((id) => id != null);
  if (index < 0 && known) throw new SigningError("invalid_outcome", `${name}: tokenId ${tokenId} is not one of the market's tokens`);
  return { tokenId, outcome: index < 0 ? undefined : index };
}

/** The fee rate to sign: the market's feeTakerBps verbatim, or the platform default when null. */
export function resolveFeeRateBps(market: SigningMarket, defaultFeeRateBps?: number | null): number {
  const fee = market.feeTakerBps ?? defaultFeeRateBps;
  if (fee == null) {
    throw new SigningError(
      "fee_unknown",
      `${market.symbol ?? "market"}: feeTakerBps is null and no platform default fee rate is configured`,
    );
  }
  if (!Number.isSafeInteger(fee) || fee < 0) {
    throw new SigningError("invalid_field", `${market.symbol ?? "market"}: feeTakerBps ${fee} is not a non-negative integer`);
  }
  if (fee > MAX_FEE_RATE_BPS) {
    throw new SigningError(
      "fee_too_high",
      `${market.symbol ?? "market"}: feeRateBps ${fee} exceeds the maximum ${MAX_FEE_RATE_BPS}; refusing to sign`,
    );
  }
  return fee;
}

function resolveTimeInForce(intent: OrderIntent): { type: OrderType; timeInForce: TimeInForce; expiration: bigint } {
  const type = intent.type ?? "limit";
  if (type !== "limit" && type !== "market") throw new SigningError("invalid_field", `order type must be limit or market`);
  const timeInForce = intent.timeInForce ?? (type === "market" ? "IOC" : "GTC");
  if (!["GTC", "GTD", "IOC", "FOK"].includes(timeInForce)) {
    throw new SigningError("invalid_tif", `timeInForce must be GTC, GTD, IOC or FOK`);
  }
  if (type === "market" && timeInForce === "GTC") throw new SigningError("invalid_tif", "a market order cannot be GTC");
  const raw = intent.expiration ?? 0n;
  if (typeof raw === "number" && !Number.isSafeInteger(raw)) {
    throw new SigningError("invalid_expiration", "expiration must be an integer (unix seconds)");
  }
  const expiration = BigInt(raw);
  if (expiration < 0n) throw new SigningError("invalid_expiration", "expiration must not be negative");
  if (timeInForce === "GTD" && expiration === 0n) {
    throw new SigningError("invalid_expiration", "a GTD order needs a non-zero expiration (unix seconds)");
  }
  if (timeInForce !== "GTD" && expiration !== 0n) {
    throw new SigningError("invalid_expiration", `a ${timeInForce} order is signed with expiration 0`);
  }
  return { type, timeInForce, expiration };
}

/** Orders `buildOrder` built (frozen): a place body made from one is vouched for (wire/vouched.ts). */
const BUILT = new WeakSet<BuiltOrder>();

/**
 * Build the struct and compute its order hash. Throws SigningError before anything is signed.
 * The result is frozen: a body made from it by `placeOrderBody` skips the client's re-check.
 */
export function buildOrder(p: BuildOrderParams): BuiltOrder {
  const prepared = prepareOrder(p);
  const built: BuiltOrder = { ...prepared, orderHash: orderDigest(prepared.struct, prepared.domain) };
  Object.freeze(built.struct);
  Object.freeze(built.domain);
  BUILT.add(Object.freeze(built));
  return built;
}

/** buildOrder without the hash (for callers that hash another way, e.g. viem's generic path). */
export function prepareOrder(p: BuildOrderParams): Omit<BuiltOrder, "orderHash"> {
  const { market, intent } = p;
  const signer = asAddress(p.wallet, "wallet (signer)");
  const maker = asAddress(p.vault, "vault (maker)");
  if (intent.side !== "BUY" && intent.side !== "SELL") throw new SigningError("invalid_field", "side must be BUY or SELL");
  const feeRateBps = resolveFeeRateBps(market, p.defaultFeeRateBps);
  const { tokenId, outcome } = resolveToken(market, intent);
  const tif = resolveTimeInForce(intent);
  let amounts;
  try {
    amounts = orderAmounts(intent.side, intent.price, intent.quantity);
  } catch (err) {
    if (err instanceof MoneyError) throw new SigningError("invalid_amounts", err.message);
    throw err;
  }
  const domain = orderDomain(p.contracts, market);
  const struct: OrderStruct = {
    salt: (p.saltSource ?? cryptoSaltSource)(),
    maker,
    signer,
    taker: ZERO_ADDRESS,
    tokenId,
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    expiration: tif.expiration,
    feeRateBps,
    side: SIDE_CODE[intent.side],
    signatureType: SIGNATURE_TYPE_VAULT,
  };
  return {
    struct,
    domain,
    outcome,
    marketId: market.symbol,
    side: intent.side,
    price: intent.price,
    quantity: intent.quantity,
    type: tif.type,
    timeInForce: tif.timeInForce,
    postOnly: intent.postOnly ?? false,
  };
}

export interface PlaceBodyOptions {
  signature: Hex;
  clientOrderId?: string;
  /** REST `maker`: the wallet or its vault (spec 5.5); default the vault, as signed. */
  maker?: string;
}

/** Per built order: its signed order as sent (frozen) for one signature, and whether that signature has the wire's form. */
const SIGNED_WIRE = new WeakMap<BuiltOrder, { signature: Hex; order: Readonly<WireSignedOrder>; signatureOk: boolean }>();

/** Kept only for orders buildOrder built (frozen, struct included): any other may change between two calls. */
function signedWire(built: BuiltOrder, signature: Hex): { order: Readonly<WireSignedOrder>; signatureOk: boolean } {
  const ours = BUILT.has(built);
  const hit = ours ? SIGNED_WIRE.get(built) : undefined;
  if (hit !== undefined && hit.signature === signature) return hit;
  const order = toWire({ ...built.struct, signature });
  const entry = { signature, order: ours ? Object.freeze(order) : order, signatureOk: HEX_BYTES_RE.test(signature) };
  // Only an order buildOrder made is remembered (and frozen): another may be changed after this.
  if (ours) SIGNED_WIRE.set(built, entry);
  return entry;
}

/**
 * Make now the part of a place body that does not depend on the clientOrderId (the signed order
 * as sent): a pre-signed order pays for it when it is signed, off the hot path, and
 * placeOrderBody then only adds the clientOrderId and the order's terms.
 */
export function preparePlaceBody(built: BuiltOrder, signature: Hex): void {
  signedWire(built, signature);
}

/**
 * The place body of a built order. Made from an order `buildOrder` built, with a signature,
 * clientOrderId and maker of the right form, the body is frozen and vouched for (wire/vouched.ts):
 * the client does not run the wire schema over it again before sending.
 */
export function placeOrderBody(built: BuiltOrder, opts: PlaceBodyOptions): PlaceOrderBody {
  const wire = signedWire(built, opts.signature);
  const body: PlaceOrderBody = {
    order: wire.order,
    maker: opts.maker ?? built.struct.maker,
    side: built.side,
    price: formatMicros(built.price),
    quantity: formatMicros(built.quantity),
    type: built.type,
    timeInForce: built.timeInForce,
    postOnly: built.postOnly,
  };
  if (opts.clientOrderId !== undefined) body.clientOrderId = opts.clientOrderId;
  if (built.marketId !== undefined) body.marketId = built.marketId;
  if (built.outcome !== undefined) body.outcome = built.outcome;
  const checked =
    BUILT.has(built) &&
    wire.signatureOk &&
    (opts.clientOrderId === undefined || CLIENT_ORDER_ID_RE.test(opts.clientOrderId)) &&
    ADDRESS_RE.test(body.maker) &&
    (built.marketId === undefined || built.marketId.length > 0);
  return checked ? vouch(body) : body;
}

/** A builder bound to the platform's contracts, salt source and default fee. */
export function createOrderBuilder(cfg: {
  contracts: PlatformContracts;
  saltSource?: SaltSource;
  defaultFeeRateBps?: number | null;
}): (market: SigningMarket, intent: OrderIntent, wallet: Address, vault: Address) => BuiltOrder {
  return (market, intent, wallet, vault) =>
    buildOrder({ ...cfg, market, intent, wallet, vault });
}
