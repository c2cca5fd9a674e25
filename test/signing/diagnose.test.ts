import { describe, expect, it } from "vitest";
import { diagnoseBadSignature, diffOrderStructs, toWire, type OrderStruct } from "../../src/signing/index.js";

const OURS: OrderStruct = {
  salt: 123456789012345678901234567890n,
  maker: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  signer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  taker: "0x0000000000000000000000000000000000000000",
  tokenId: 71321045679252212594626385532706912750332728571942532289631379312455583992563n,
  makerAmount: 5_500_000n,
  takerAmount: 10_000_000n,
  expiration: 0n,
  feeRateBps: 100,
  side: 0,
  signatureType: 1,
};

/** The platform's echo: strings and numbers mixed, addresses lowercased. */
function canonical(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    salt: OURS.salt.toString(),
    maker: OURS.maker.toLowerCase(),
    signer: OURS.signer.toLowerCase(),
    taker: OURS.taker,
    tokenId: OURS.tokenId.toString(),
    makerAmount: 5500000,
    takerAmount: "10000000",
    expiration: 0,
    feeRateBps: "100",
    side: 0,
    signatureType: "1",
    ...over,
  };
}

describe("bad_signature diagnosis", () => {
  it("finds nothing when only case and number representation differ", () => {
    expect(diffOrderStructs(OURS, canonical())).toEqual([]);
    expect(diffOrderStructs(toWire({ ...OURS, signature: "0x" }), canonical())).toEqual([]);
  });

  it("names feeRateBps and both values, with the feeTakerBps hint", () => {
    const d = diagnoseBadSignature(
      OURS,
      { recovered: "0x1111111111111111111111111111111111111111", expected_signer: OURS.signer, platform_canonical_struct: canonical({ feeRateBps: 200 }) },
      { marketFeeTakerBps: 200 },
    );
    expect(d.differences).toEqual([{ field: "feeRateBps", ours: "100", platform: "200" }]);
    expect(d.text).toContain("feeRateBps: ours=100 platform=200");
    expect(d.hints.join("\n")).toMatch(/feeTakerBps verbatim/);
    expect(d.hints.join("\n")).toContain("feeTakerBps=200");
    expect(d.text).not.toMatch(/salt|tokenId|makerAmount/);
  });

  it("explains maker and signer mismatches", () => {
    const wrongVault = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
    const d = diagnoseBadSignature(OURS, {
      platform_canonical_struct: canonical({ maker: wrongVault, signer: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65" }),
    });
    expect(d.differences.map((x) => x.field)).toEqual(["maker", "signer"]);
    expect(d.differences[0]).toMatchObject({ ours: OURS.maker, platform: wrongVault });
    expect(d.hints[0]).toMatch(/vault/);
    expect(d.hints[1]).toMatch(/authenticated/);
  });

  it("reports missing fields and a missing struct", () => {
    const c = canonical();
    delete c["takerAmount"];
    expect(diffOrderStructs(OURS, c)).toEqual([{ field: "takerAmount", ours: "10000000", platform: "(missing)" }]);
    const d = diagnoseBadSignature(OURS, { recovered: null });
    expect(d.text).toMatch(/no platform_canonical_struct/);
    expect(d.hints.join(" ")).toMatch(/not valid EIP-712/);
  });

  it("points at the domain when the struct matches but the signature recovers elsewhere", () => {
    const d = diagnoseBadSignature(OURS, {
      recovered: "0x1111111111111111111111111111111111111111",
      expected_signer: OURS.signer,
      platform_canonical_struct: canonical(),
    });
    expect(d.differences).toEqual([]);
    expect(d.hints.join(" ")).toMatch(/verifying contract/);
    const wrongWallet = diagnoseBadSignature(OURS, {
      recovered: OURS.signer,
      expected_signer: "0x1111111111111111111111111111111111111111",
      platform_canonical_struct: canonical(),
    });
    expect(wrongWallet.hints.join(" ")).toMatch(/authenticated as another wallet/);
  });
});
