/**
 * The signed order's plain types and wire form (spec 2.12): the 11 EIP-712 fields in the spec's
 * order, uint256 fields as decimal strings on the wire and bigint inside (never through a float),
 * and every malformed wire value refused with a SigningError naming the field.
 */
import { describe, expect, it } from "vitest";
import { SigningError } from "../../src/signing/errors.js";
import {
  ADDRESS_FIELDS,
  ORDER_FIELDS,
  SIGNATURE_TYPE_VAULT,
  ZERO_ADDRESS,
  asAddress,
  asSide,
  asUint,
  fromWire,
  isAddress,
  toWire,
  type SignedOrder,
  type WireSignedOrder,
} from "../../src/signing/types.js";

const MAKER = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SIGNER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
/** 2^256 - 1: the largest uint256, far past 2^53. */
const MAX_UINT = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

const ORDER: SignedOrder = {
  salt: 123456789012345678901234567890n,
  maker: MAKER,
  signer: SIGNER,
  taker: ZERO_ADDRESS,
  tokenId: BigInt(MAX_UINT),
  makerAmount: 4_500_000n,
  takerAmount: 10_000_000n,
  expiration: 0n,
  feeRateBps: 100,
  side: 0,
  signatureType: SIGNATURE_TYPE_VAULT,
  signature: `0x${"ab".repeat(65)}`,
};

const WIRE: WireSignedOrder = {
  salt: "123456789012345678901234567890",
  maker: MAKER,
  signer: SIGNER,
  taker: "0x0000000000000000000000000000000000000000",
  tokenId: MAX_UINT,
  makerAmount: "4500000",
  takerAmount: "10000000",
  expiration: "0",
  feeRateBps: 100,
  side: 0,
  signatureType: 1,
  signature: `0x${"ab".repeat(65)}`,
};

/** The SigningError a call throws (fails the test when it throws nothing or something else). */
function refusal(fn: () => unknown): SigningError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SigningError);
    return error as SigningError;
  }
  throw new Error("expected a SigningError");
}

describe("order fields", () => {
  it("lists the 11 EIP-712 fields in the spec's order, three of them addresses", () => {
    expect(ORDER_FIELDS).toEqual(["salt", "maker", "signer", "taker", "tokenId", "makerAmount", "takerAmount", "expiration", "feeRateBps", "side", "signatureType"]);
    expect([...ADDRESS_FIELDS].sort()).toEqual(["maker", "signer", "taker"]);
    expect(ZERO_ADDRESS).toBe(`0x${"0".repeat(40)}`);
    expect(SIGNATURE_TYPE_VAULT).toBe(1);
  });
});

describe("toWire / fromWire", () => {
  it("toWire writes uint256 fields as decimal strings and the small ints as numbers", () => {
    expect(toWire(ORDER)).toEqual(WIRE);
    expect(JSON.parse(JSON.stringify(toWire(ORDER)))).toEqual(WIRE);
  });

  it("fromWire reads the wire form back exactly, 2^256 - 1 included", () => {
    expect(fromWire(WIRE)).toEqual(ORDER);
    expect(fromWire(WIRE).tokenId).toBe(2n ** 256n - 1n);
  });

  it("fromWire takes a SELL as 1, \"1\" or \"SELL\", and a signatureType given as a string", () => {
    for (const side of [1, "1", "SELL"]) expect(fromWire({ ...WIRE, side: side as number }).side).toBe(1);
    expect(fromWire({ ...WIRE, signatureType: "1" as unknown as number }).signatureType).toBe(1);
  });

  it.each([
    ["salt", { salt: "-1" }, "order.salt must be a non-negative integer (decimal string)"],
    ["tokenId", { tokenId: "1e3" }, "order.tokenId must be a non-negative integer (decimal string)"],
    ["makerAmount", { makerAmount: "4.5" }, "order.makerAmount must be a non-negative integer (decimal string)"],
    ["takerAmount", { takerAmount: "" }, "order.takerAmount must be a non-negative integer (decimal string)"],
    ["expiration", { expiration: " 0" }, "order.expiration must be a non-negative integer (decimal string)"],
    ["maker", { maker: "0x12" }, "order.maker must be 0x followed by 40 hex digits"],
    ["signer", { signer: SIGNER.slice(2) }, "order.signer must be 0x followed by 40 hex digits"],
    ["taker", { taker: `0x${"g".repeat(40)}` }, "order.taker must be 0x followed by 40 hex digits"],
    ["side", { side: 2 }, "order.side must be 0 (BUY) or 1 (SELL)"],
    ["feeRateBps", { feeRateBps: -1 }, "order.feeRateBps must be a non-negative integer (decimal string)"],
    ["feeRateBps", { feeRateBps: "9007199254740992" }, "order.feeRateBps is too large"],
    ["signatureType", { signatureType: 256 }, "order.signatureType must fit in uint8"],
    ["signature", { signature: "abab" }, "order.signature must be 0x-hex"],
    ["signature", { signature: "0xzz" }, "order.signature must be 0x-hex"],
  ] as [string, Partial<Record<keyof WireSignedOrder, unknown>>, string][])("fromWire refuses a bad %s, naming it", (_, patch, message) => {
    const error = refusal(() => fromWire({ ...WIRE, ...patch } as WireSignedOrder));
    expect(error.message).toBe(message);
    expect(["invalid_field", "invalid_address"]).toContain(error.code);
  });

  it("a bad address is invalid_address; a bad number, side or signature is invalid_field", () => {
    expect(refusal(() => fromWire({ ...WIRE, maker: "0x1" })).code).toBe("invalid_address");
    expect(refusal(() => fromWire({ ...WIRE, salt: "x" })).code).toBe("invalid_field");
    expect(refusal(() => fromWire({ ...WIRE, side: 3 })).code).toBe("invalid_field");
    expect(refusal(() => fromWire({ ...WIRE, signature: "" })).code).toBe("invalid_field");
  });
});

describe("the wire readers", () => {
  it("isAddress: 0x and exactly 40 hex digits, any case", () => {
    expect(isAddress(MAKER)).toBe(true);
    expect(isAddress(MAKER.toLowerCase())).toBe(true);
    expect(isAddress(`0X${MAKER.slice(2)}`)).toBe(false);
    expect(isAddress(`${MAKER}0`)).toBe(false);
    expect(isAddress(MAKER.slice(0, -1))).toBe(false);
    expect(isAddress(undefined)).toBe(false);
    expect(isAddress(0x12)).toBe(false);
  });

  it("asAddress returns the address as given, or names `what`", () => {
    expect(asAddress(SIGNER, "signer")).toBe(SIGNER);
    expect(refusal(() => asAddress(null, "vault address")).message).toBe("vault address must be 0x followed by 40 hex digits");
  });

  it("asUint takes a decimal string, a safe integer or a bigint, all >= 0", () => {
    expect(asUint("0", "x")).toBe(0n);
    expect(asUint(MAX_UINT, "x")).toBe(2n ** 256n - 1n);
    expect(asUint(9_007_199_254_740_991, "x")).toBe(9_007_199_254_740_991n);
    expect(asUint(7n, "x")).toBe(7n);
  });

  it("asUint refuses floats, unsafe integers, negatives, signs, hex and other types", () => {
    for (const bad of [1.5, 9_007_199_254_740_992, -1, -1n, "+1", "-1", "0x10", "1_000", "", null, undefined, true, [1]]) {
      const error = refusal(() => asUint(bad, "amount"));
      expect(error.code).toBe("invalid_field");
      expect(error.message).toBe("amount must be a non-negative integer (decimal string)");
    }
  });

  it("asSide reads only 0/1, \"0\"/\"1\" and BUY/SELL; no falsy value becomes a BUY", () => {
    expect([0, "0", "BUY"].map((v) => asSide(v, "side"))).toEqual([0, 0, 0]);
    expect([1, "1", "SELL"].map((v) => asSide(v, "side"))).toEqual([1, 1, 1]);
    for (const bad of ["", null, undefined, false, [], 0n, "buy", " 0", 2, -0.5]) {
      expect(refusal(() => asSide(bad, "order.side")).message).toBe("order.side must be 0 (BUY) or 1 (SELL)");
    }
  });
});
