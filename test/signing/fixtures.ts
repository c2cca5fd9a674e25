/** Shared test fixtures: deterministic keys, contracts, markets and random order structs. */
import fc from "fast-check";
import { concat, encodeAbiParameters, keccak256, stringToBytes } from "viem";
import { Rng } from "../../src/core/rng.js";
import { ORDER_TYPED_DATA_TYPES, ZERO_ADDRESS, orderTypedData } from "../../src/signing/index.js";
import type { PlatformContracts, OrderStruct, OrderDomain, Address, Hex } from "../../src/signing/index.js";
import type { SigningMarket } from "../../src/signing/index.js";

export const CONTRACTS: PlatformContracts = {
  chainId: 31337,
  domain: { name: "PartnerExchange", version: "1" },
  exchange: {
    binary: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    negRisk: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  },
  vaultFactory: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  collateral: "0xCf7Ed3AcCA5a467e9e704C703E8D87F634fB0Fc9",
};

/** Deterministic private keys (32 random bytes from a seeded Rng; all far below the curve order). */
export function testKey(seed: number): Hex {
  const rng = new Rng(seed);
  // A leading 0x0f nibble keeps the key below the secp256k1 order.
  return ("0x0f" + rng.hex(32).slice(4)) as Hex;
}

export const BINARY_MARKET: SigningMarket = {
  symbol: "ARS-CHE-WIN",
  yesTokenId: "71321045679252212594626385532706912750332728571942532289631379312455583992563",
  noTokenId: "52114319501245915516055106046884209969926127482827954674443846427813813222426",
  feeTakerBps: 100,
  negRiskEligible: false,
};

export const NEG_RISK_MARKET: SigningMarket = {
  symbol: "EPL-WINNER-ARS",
  outcomeTokenIds: ["1001", "1002", "1003"],
  feeTakerBps: 200,
  negRiskEligible: true,
};

const hex40 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map(
  (b) => ("0x" + Buffer.from(b).toString("hex")) as Address,
);
/** Random addresses in random letter case (the hasher must not care). */
export const arbAddress = fc
  .tuple(hex40, fc.boolean())
  .map(([a, upper]) => (upper ? (("0x" + a.slice(2).toUpperCase()) as Address) : a));
const uint256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });
const smallUint = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 12n }), uint256);

export const arbOrderStruct: fc.Arbitrary<OrderStruct> = fc.record({
  salt: uint256,
  maker: arbAddress,
  signer: arbAddress,
  taker: arbAddress,
  tokenId: uint256,
  makerAmount: smallUint,
  takerAmount: smallUint,
  expiration: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1n << 40n }), uint256),
  feeRateBps: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.maxSafeInteger().filter((n) => n >= 0)),
  side: fc.constantFrom(0 as const, 1 as const),
  signatureType: fc.integer({ min: 0, max: 255 }),
});

/** viem refuses non-checksummed mixed/upper-case addresses: hand it lowercase ones (same bytes). */
export function viemMessage(o: OrderStruct) {
  return orderTypedData(o, DUMMY_DOMAIN).message;
}

const DUMMY_DOMAIN: OrderDomain = { name: "", version: "", chainId: 1, verifyingContract: ZERO_ADDRESS };

export function viemDomain(d: OrderDomain) {
  return orderTypedData(ORDER_ZERO, d).domain;
}

const ORDER_ZERO: OrderStruct = {
  salt: 0n, maker: ZERO_ADDRESS, signer: ZERO_ADDRESS, taker: ZERO_ADDRESS, tokenId: 0n, makerAmount: 0n,
  takerAmount: 0n, expiration: 0n, feeRateBps: 0, side: 0, signatureType: 0,
};

/** Explicit EIP712Domain so viem does not infer (and drop an empty version). */
export const VIEM_TYPES = ORDER_TYPED_DATA_TYPES;

/**
 * An EIP-712 digest recomputed by hand, independently of src/signing: keccak of the type string,
 * each field as a 32-byte word (strings as the keccak of their bytes), the domain separator of
 * `{name, version, chainId, verifyingContract}`. For the vault owner's typed data (withdrawal,
 * vault deployment, vault operations), whose type strings docs/spec-gaps.md records.
 */
export function digestByHand(
  domain: { name: string; version: string; chainId: number; verifyingContract: string },
  typeString: string,
  fields: { type: "address" | "uint256" | "string"; value: string | bigint }[],
): Hex {
  const word = (f: (typeof fields)[number]): { type: "address" | "uint256" | "bytes32"; value: unknown } =>
    f.type === "string" ? { type: "bytes32", value: keccak256(stringToBytes(f.value as string)) } : { type: f.type, value: f.type === "address" ? (f.value as string).toLowerCase() : f.value };
  const encode = (typeHash: Hex, words: { type: string; value: unknown }[]): Hex =>
    keccak256(encodeAbiParameters([{ type: "bytes32" }, ...words.map((w) => ({ type: w.type }))], [typeHash, ...words.map((w) => w.value)] as never));
  const separator = encode(keccak256(stringToBytes("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")), [
    { type: "bytes32", value: keccak256(stringToBytes(domain.name)) },
    { type: "bytes32", value: keccak256(stringToBytes(domain.version)) },
    { type: "uint256", value: BigInt(domain.chainId) },
    { type: "address", value: domain.verifyingContract.toLowerCase() },
  ]);
  const struct = encode(keccak256(stringToBytes(typeString)), fields.map(word));
  return keccak256(concat(["0x1901", separator, struct]));
}
