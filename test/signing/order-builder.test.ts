import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { parseMicros, type Micros } from "../../src/core/money.js";
import {
  ZERO_ADDRESS,
  buildOrder,
  createOrderBuilder,
  orderDigest,
  orderDomain,
  placeOrderBody,
  rngSaltSource,
  SigningError,
  type BuildOrderParams,
  type OrderIntent,
} from "../../src/signing/index.js";
import { BINARY_MARKET, CONTRACTS, NEG_RISK_MARKET } from "./fixtures.js";

const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const VAULT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const m = (s: string): Micros => parseMicros(s);

function params(intent: Partial<OrderIntent>, over: Partial<BuildOrderParams> = {}): BuildOrderParams {
  return {
    contracts: CONTRACTS,
    market: BINARY_MARKET,
    intent: { outcome: 0, side: "BUY", price: m("0.55"), quantity: m("10"), ...intent },
    wallet: WALLET,
    vault: VAULT,
    saltSource: rngSaltSource(new Rng(42)),
    ...over,
  };
}

function errorOf(f: () => unknown): SigningError {
  try {
    f();
  } catch (e) {
    if (e instanceof SigningError) return e;
    throw e;
  }
  throw new Error("expected a SigningError");
}

describe("order builder", () => {
  it("fills the 11 fields: signer = wallet, maker = vault, zero taker, VAULT signature type", () => {
    const built = buildOrder(params({}));
    expect(built.struct).toMatchObject({
      maker: VAULT,
      signer: WALLET,
      taker: ZERO_ADDRESS,
      tokenId: BigInt(BINARY_MARKET.yesTokenId!),
      makerAmount: 5_500_000n,
      takerAmount: 10_000_000n,
      expiration: 0n,
      feeRateBps: 100,
      side: 0,
      signatureType: 1,
    });
    expect(built.orderHash).toBe(orderDigest(built.struct, orderDomain(CONTRACTS, BINARY_MARKET)));
    expect(built.domain.verifyingContract).toBe(CONTRACTS.exchange.binary);
  });

  it("BUY makerAmount is the CEIL notional, takerAmount the quantity", () => {
    // 0.333 * 1.000001 = 0.333000333 -> ceil to 0.333001
    const b = buildOrder(params({ side: "BUY", price: m("0.333"), quantity: m("1.000001") })).struct;
    expect(b.makerAmount).toBe(333_001n);
    expect(b.takerAmount).toBe(1_000_001n);
  });

  it("SELL makerAmount is the exact quantity, takerAmount the floor notional", () => {
    const s = buildOrder(params({ side: "SELL", price: m("0.333"), quantity: m("1.000001") })).struct;
    expect(s.side).toBe(1);
    expect(s.makerAmount).toBe(1_000_001n);
    expect(s.takerAmount).toBe(333_000n);
  });

  it("amounts follow the rounding rules for random prices and quantities", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom("BUY" as const, "SELL" as const),
        (tick, qty, side) => {
          const price = BigInt(tick) * 1000n;
          const s = buildOrder(params({ side, price, quantity: qty })).struct;
          const exact = price * qty; // in 1e-12 units
          if (side === "BUY") {
            expect(s.takerAmount).toBe(qty);
            expect(s.makerAmount * 1_000_000n >= exact).toBe(true);
            expect((s.makerAmount - 1n) * 1_000_000n < exact).toBe(true);
          } else {
            expect(s.makerAmount).toBe(qty);
            expect(s.takerAmount * 1_000_000n <= exact).toBe(true);
            expect((s.takerAmount + 1n) * 1_000_000n > exact).toBe(true);
          }
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });

  it("refuses a fee above 1000 bps before signing (no salt drawn, no hash)", () => {
    const salt = vi.fn(() => 1n);
    const e = errorOf(() => buildOrder(params({}, { market: { ...BINARY_MARKET, feeTakerBps: 1001 }, saltSource: salt })));
    expect(e.code).toBe("fee_too_high");
    expect(e.message).toMatch(/1001.*1000/);
    expect(salt).not.toHaveBeenCalled();
    expect(buildOrder(params({}, { market: { ...BINARY_MARKET, feeTakerBps: 1000 } })).struct.feeRateBps).toBe(1000);
    expect(errorOf(() => buildOrder(params({}, { market: { ...BINARY_MARKET, feeTakerBps: null }, defaultFeeRateBps: 1500 }))).code).toBe(
      "fee_too_high",
    );
  });

  it("feeTakerBps null inherits the platform default; with no default it is refused", () => {
    const market = { ...BINARY_MARKET, feeTakerBps: null };
    expect(buildOrder(params({}, { market, defaultFeeRateBps: 250 })).struct.feeRateBps).toBe(250);
    expect(errorOf(() => buildOrder(params({}, { market }))).code).toBe("fee_unknown");
    // A market value, even 0, wins over the default.
    expect(buildOrder(params({}, { market: { ...BINARY_MARKET, feeTakerBps: 0 }, defaultFeeRateBps: 250 })).struct.feeRateBps).toBe(0);
  });

  it("resolves tokens by outcome or tokenId, and refuses unknown ones", () => {
    const neg = (intent: Partial<OrderIntent>) => buildOrder(params(intent, { market: NEG_RISK_MARKET }));
    expect(neg({ outcome: 2 }).struct.tokenId).toBe(1003n);
    expect(neg({ outcome: undefined, tokenId: "1002" }).outcome).toBe(1);
    expect(neg({ outcome: 1, tokenId: 1002n }).struct.tokenId).toBe(1002n);
    expect(neg({ outcome: 0 }).domain.verifyingContract).toBe(CONTRACTS.exchange.negRisk);
    expect(errorOf(() => neg({ outcome: 3 })).code).toBe("invalid_outcome");
    expect(errorOf(() => neg({ outcome: undefined, tokenId: "9999" })).code).toBe("invalid_outcome");
    expect(errorOf(() => neg({ outcome: 0, tokenId: "1002" })).code).toBe("invalid_outcome");
    expect(errorOf(() => neg({ outcome: undefined })).code).toBe("invalid_outcome");
    const undeployed = { ...BINARY_MARKET, yesTokenId: null, noTokenId: null };
    expect(errorOf(() => buildOrder(params({ outcome: 1 }, { market: undeployed }))).message).toMatch(/no token id/);
    expect(buildOrder(params({ outcome: 1 })).struct.tokenId).toBe(BigInt(BINARY_MARKET.noTokenId!));
  });

  it("applies the time-in-force and expiration rules", () => {
    expect(buildOrder(params({ type: "market" })).timeInForce).toBe("IOC");
    expect(errorOf(() => buildOrder(params({ type: "market", timeInForce: "GTC" }))).code).toBe("invalid_tif");
    expect(errorOf(() => buildOrder(params({ timeInForce: "GTD" }))).code).toBe("invalid_expiration");
    expect(errorOf(() => buildOrder(params({ timeInForce: "GTC", expiration: 1_900_000_000 }))).code).toBe("invalid_expiration");
    expect(buildOrder(params({ timeInForce: "GTD", expiration: 1_900_000_000 })).struct.expiration).toBe(1_900_000_000n);
  });

  it("refuses off-grid prices and non-positive quantities as invalid_amounts", () => {
    expect(errorOf(() => buildOrder(params({ price: 550_500n }))).code).toBe("invalid_amounts");
    expect(errorOf(() => buildOrder(params({ quantity: 0n }))).code).toBe("invalid_amounts");
    expect(errorOf(() => buildOrder(params({ price: 1_000_000n }))).code).toBe("invalid_amounts");
    expect(errorOf(() => buildOrder(params({}, { wallet: "0x123" }))).code).toBe("invalid_address");
  });

  it("salts come from the injected source: same seed, same orders", () => {
    const a = buildOrder(params({}, { saltSource: rngSaltSource(new Rng(7)) }));
    const b = buildOrder(params({}, { saltSource: rngSaltSource(new Rng(7)) }));
    const c = buildOrder(params({}, { saltSource: rngSaltSource(new Rng(8)) }));
    expect(a.struct.salt).toBe(b.struct.salt);
    expect(a.orderHash).toBe(b.orderHash);
    expect(c.orderHash).not.toBe(a.orderHash);
    // The default source is the OS CSPRNG: two orders differ.
    const d1 = buildOrder(params({}, { saltSource: undefined }));
    const d2 = buildOrder(params({}, { saltSource: undefined }));
    expect(d1.struct.salt).not.toBe(d2.struct.salt);
  });

  it("produces the place body of docs/spec-gaps.md", () => {
    const build = createOrderBuilder({ contracts: CONTRACTS, saltSource: () => 123n });
    const built = build(BINARY_MARKET, { outcome: 0, side: "BUY", price: m("0.55"), quantity: m("10") }, WALLET, VAULT);
    const body = placeOrderBody(built, { signature: `0x${"ab".repeat(65)}`, clientOrderId: "mm1-abc-000001" });
    expect(body).toEqual({
      order: {
        salt: "123",
        maker: VAULT,
        signer: WALLET,
        taker: ZERO_ADDRESS,
        tokenId: BINARY_MARKET.yesTokenId,
        makerAmount: "5500000",
        takerAmount: "10000000",
        expiration: "0",
        feeRateBps: 100,
        side: 0,
        signatureType: 1,
        signature: `0x${"ab".repeat(65)}`,
      },
      maker: VAULT,
      clientOrderId: "mm1-abc-000001",
      marketId: "ARS-CHE-WIN",
      outcome: 0,
      side: "BUY",
      price: "0.55",
      quantity: "10",
      type: "limit",
      timeInForce: "GTC",
      postOnly: false,
    });
    const asWallet = placeOrderBody(built, { signature: "0x00", maker: WALLET });
    expect(asWallet.maker).toBe(WALLET);
    expect(asWallet.order.maker).toBe(VAULT);
    expect("clientOrderId" in asWallet).toBe(false);
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });
});
