/**
 * The placement checks between a schema-valid place body and the matching engine, in the order
 * the desk applies them (each names the spec code it answers with):
 *
 *   market of the signed tokenId (market_not_found), body marketId / outcome agree with it
 *   (invalid_request / invalid_outcome); REST `maker` is the effective wallet or its vault
 *   (maker_mismatch, 5.5); feeRateBps <= 1000 (fee_too_high); the signed struct equals the
 *   platform's canonical struct (bad_signature: signer = effective wallet, maker = its vault,
 *   signatureType 1, feeRateBps = the market's fee verbatim); body side agrees with the signed
 *   side (invalid_request); signed amounts agree with price/quantity (CEIL BUY rule:
 *   order_signed_with_floor_notional, else invalid_amounts); expiration not past (expired);
 *   type / time in force / expiration / post-only combine (invalid_tif); the wallet may trade
 *   (vault_not_deployed, kyc_blocked); the market admits the order (409 market_not_open, or a
 *   REJECTED market_not_open in PRE_MARKET for a non-post-only order).
 *
 * Everything here is synchronous and cheap; the signature recovery (the expensive part) runs
 * after these, in the desk, only for orders that passed.
 */
import { floorBuyMakerAmount, MAX_FEE_RATE_BPS, orderAmounts, SIDE_CODE } from "../../core/amounts.js";
import { parseMicros, type Micros } from "../../core/money.js";
import { orderDomain, type Address, type OrderDomain, type OrderStruct } from "../../signing/index.js";
import type { PlaceBody } from "../../wire/requests.js";
import { effectiveTimeInForce } from "../../wire/requests.js";
import { MAX_ORDER_QTY, type OrderType, type TimeInForce } from "../engine/index.js";
import type { PlatformFailure } from "../platform/errors.js";
import type { Market } from "../platform/catalogue.js";
import type { Partner } from "../platform/partners.js";
import type { SimPlatform } from "../platform/platform.js";
import { rejected, rejectedFromFailure, type RejectedPlacementJson } from "./format.js";

/** Everything the engine and the records need once the checks passed. */
export interface Prepared {
  market: Market;
  outcome: number;
  /** The struct the platform verifies (spec 5.5, details.platform_canonical_struct). */
  canonical: OrderStruct;
  signature: string;
  domain: OrderDomain;
  side: "BUY" | "SELL";
  price: Micros;
  quantity: Micros;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
  /** Unix seconds (0 when none). */
  expiration: number;
  clientOrderId: string | null;
}

export type CheckResult =
  | { kind: "ok"; prepared: Prepared }
  /** The signed struct differs from the canonical one: bad_signature, details need a recovery. */
  | { kind: "bad_signature"; prepared: Prepared }
  | { kind: "reject"; result: RejectedPlacementJson }
  /** Answered with an HTTP error envelope (409 market_not_open). */
  | { kind: "http"; failure: PlatformFailure };

export interface CheckContext {
  platform: SimPlatform;
  /** Lower-case effective wallet. */
  wallet: string;
  partner: Partner | undefined;
  nowMs: number;
}

/** Largest expiration accepted (unix seconds, year 5138): keeps it a safe integer in ms. */
const MAX_EXPIRATION_SECS = 100_000_000_000n;

const reject = (code: string, message: string, details?: Record<string, unknown>): CheckResult => ({
  kind: "reject",
  result: rejected(code, message, details),
});

/** The 11 fields as the wire carries them (uint256 as decimal strings). */
export function structJson(s: OrderStruct): Record<string, string | number> {
  return {
    salt: s.salt.toString(),
    maker: s.maker.toLowerCase(),
    signer: s.signer.toLowerCase(),
    taker: s.taker.toLowerCase(),
    tokenId: s.tokenId.toString(),
    makerAmount: s.makerAmount.toString(),
    takerAmount: s.takerAmount.toString(),
    expiration: s.expiration.toString(),
    feeRateBps: s.feeRateBps,
    side: s.side,
    signatureType: s.signatureType,
  };
}

function sameStruct(a: OrderStruct, b: OrderStruct): boolean {
  return (
    a.salt === b.salt &&
    a.maker.toLowerCase() === b.maker.toLowerCase() &&
    a.signer.toLowerCase() === b.signer.toLowerCase() &&
    a.taker.toLowerCase() === b.taker.toLowerCase() &&
    a.tokenId === b.tokenId &&
    a.makerAmount === b.makerAmount &&
    a.takerAmount === b.takerAmount &&
    a.expiration === b.expiration &&
    a.feeRateBps === b.feeRateBps &&
    a.side === b.side &&
    a.signatureType === b.signatureType
  );
}

function amountsProblem(side: "BUY" | "SELL", price: Micros, qty: Micros, makerAmount: bigint, takerAmount: bigint): CheckResult | undefined {
  const want = orderAmounts(side, price, qty);
  if (side === "BUY") {
    if (takerAmount !== want.takerAmount) {
      return reject("invalid_amounts", "BUY takerAmount must equal the quantity in micros", {
        field: "order.takerAmount", signed: takerAmount.toString(), expected: want.takerAmount.toString(),
      });
    }
    if (makerAmount === want.makerAmount) return undefined;
    const floor = floorBuyMakerAmount(price, qty);
    if (makerAmount === floor) {
      return reject("order_signed_with_floor_notional", "BUY makerAmount is floor-rounded; re-sign with ceil(price * qty / 1e6)", {
        signedMakerAmountWei: makerAmount.toString(),
        expectedCeilMakerAmountWei: want.makerAmount.toString(),
        signedRounding: "floor",
        expectedRounding: "ceil",
      });
    }
    return reject("invalid_amounts", "BUY makerAmount must be ceil(price * qty / 1e6)", {
      field: "order.makerAmount", signed: makerAmount.toString(), expected: want.makerAmount.toString(),
    });
  }
  if (makerAmount !== want.makerAmount) {
    return reject("invalid_amounts", "SELL makerAmount must equal the quantity in micros", {
      field: "order.makerAmount", signed: makerAmount.toString(), expected: want.makerAmount.toString(),
    });
  }
  if (takerAmount !== want.takerAmount) {
    return reject("invalid_amounts", "SELL takerAmount must be floor(price * qty / 1e6)", {
      field: "order.takerAmount", signed: takerAmount.toString(), expected: want.takerAmount.toString(),
    });
  }
  return undefined;
}

function tifProblem(type: OrderType, tif: TimeInForce, expiration: bigint, postOnly: boolean): string | undefined {
  if (type === "market" && (tif === "GTC" || tif === "GTD")) return `a market order cannot be ${tif}`;
  if (tif === "GTD" && expiration === 0n) return "a GTD order needs a non-zero expiration";
  if (tif !== "GTD" && expiration !== 0n) return `a ${tif} order is signed with expiration 0`;
  if (postOnly && (type === "market" || tif === "IOC" || tif === "FOK")) return `a post-only order cannot be ${type === "market" ? "a market order" : tif}`;
  return undefined;
}

function lookupMarket(platform: SimPlatform, body: PlaceBody): { market: Market; outcome: number } | CheckResult {
  const hit = platform.catalogue.marketByToken(body.order.tokenId);
  if (hit === undefined) return reject("market_not_found", "order.tokenId is not a token of any listed market", { tokenId: body.order.tokenId });
  const { market, outcome } = hit;
  if (body.marketId !== undefined && body.marketId !== market.symbol && body.marketId !== market.id) {
    return reject("invalid_request", "marketId does not match the market of order.tokenId", {
      fields: ["marketId"], field: "marketId", marketId: body.marketId, expected: market.symbol,
    });
  }
  if (body.outcome !== undefined && body.outcome !== outcome) {
    const code = body.outcome >= market.outcomeCount ? "outcome out of range" : "outcome does not match order.tokenId";
    return reject("invalid_outcome", code, { field: "outcome", outcome: body.outcome, expected: outcome, outcomeCount: market.outcomeCount });
  }
  return { market, outcome };
}

export function checkPlacement(body: PlaceBody, ctx: CheckContext): CheckResult {
  const { platform, wallet } = ctx;
  const found = lookupMarket(platform, body);
  if ("kind" in found) return found;
  const { market, outcome } = found;

  const vault = platform.wallets.vaultInfo(wallet, ctx.nowMs).vaultAddress.toLowerCase();
  const restMaker = body.maker.toLowerCase();
  if (restMaker !== wallet && restMaker !== vault) {
    return reject("maker_mismatch", "maker must be the effective wallet or its vault", { maker: restMaker, walletAddress: wallet, vaultAddress: vault });
  }
  const o = body.order;
  if (o.feeRateBps > MAX_FEE_RATE_BPS) {
    return reject("fee_too_high", `feeRateBps ${o.feeRateBps} exceeds the maximum ${MAX_FEE_RATE_BPS}`, { feeRateBps: o.feeRateBps, max: MAX_FEE_RATE_BPS });
  }
  const s = platform.settings;
  const domain = orderDomain({ chainId: s.chainId, domain: s.domain, exchange: s.contracts.exchange }, market);
  const signed: OrderStruct = {
    salt: BigInt(o.salt),
    maker: o.maker as Address,
    signer: o.signer as Address,
    taker: o.taker as Address,
    tokenId: BigInt(o.tokenId),
    makerAmount: BigInt(o.makerAmount),
    takerAmount: BigInt(o.takerAmount),
    expiration: BigInt(o.expiration),
    feeRateBps: o.feeRateBps,
    side: o.side,
    signatureType: o.signatureType,
  };
  const canonical: OrderStruct = {
    ...signed,
    maker: vault as Address,
    signer: wallet as Address,
    taker: signed.taker.toLowerCase() as Address,
    feeRateBps: platform.catalogue.effectiveFeeTakerBps(market),
    signatureType: 1,
  };
  const type = body.type;
  const timeInForce = effectiveTimeInForce(type, body.timeInForce);
  const price = parseMicros(body.price);
  const quantity = parseMicros(body.quantity);
  const prepared: Prepared = {
    market, outcome, canonical, signature: o.signature, domain, side: body.side, price, quantity, type, timeInForce,
    postOnly: body.postOnly, expiration: 0, clientOrderId: body.clientOrderId ?? null,
  };
  if (!sameStruct(signed, canonical)) return { kind: "bad_signature", prepared };

  if (SIDE_CODE[body.side] !== o.side) {
    return reject("invalid_request", `side ${body.side} does not match the signed side ${o.side}`, { fields: ["side"], field: "side" });
  }
  if (quantity > MAX_ORDER_QTY) return reject("invalid_amounts", "quantity must be at most 1000000", { field: "quantity" });
  const amounts = amountsProblem(body.side, price, quantity, signed.makerAmount, signed.takerAmount);
  if (amounts) return amounts;

  const exp = signed.expiration;
  if (exp > MAX_EXPIRATION_SECS) return reject("invalid_request", "expiration is too far in the future", { fields: ["order.expiration"], field: "order.expiration" });
  if (exp !== 0n && Number(exp) * 1000 <= ctx.nowMs) {
    return reject("expired", "order expiration is in the past", { expiration: exp.toString(), serverTime: Math.floor(ctx.nowMs / 1000) });
  }
  const tif = tifProblem(type, timeInForce, exp, body.postOnly);
  if (tif) return reject("invalid_tif", tif, { type, timeInForce, postOnly: body.postOnly });
  prepared.expiration = Number(exp);

  if (ctx.partner !== undefined) {
    const trading = platform.tradingCheck(wallet, ctx.partner, ctx.nowMs);
    if (!trading.ok) return { kind: "reject", result: rejectedFromFailure(trading) };
  }
  const admit = platform.catalogue.admitOrder(market.id, { postOnly: body.postOnly });
  if (!admit.ok) return admit.answer === "http" ? { kind: "http", failure: admit } : { kind: "reject", result: rejectedFromFailure(admit) };
  return { kind: "ok", prepared };
}
