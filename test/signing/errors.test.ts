/**
 * SigningError: an Error named "SigningError" carrying the code callers switch on (the platform's
 * own code where one exists) and the message as given, told apart from other errors by instanceof.
 */
import { describe, expect, it } from "vitest";
import { SigningError } from "../../src/signing/errors.js";

describe("SigningError", () => {
  it("carries its code and message, and is an Error named SigningError", () => {
    const error = new SigningError("fee_too_high", "feeRateBps 300 is above the market's 100");
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(SigningError);
    expect(error.name).toBe("SigningError");
    expect(error.code).toBe("fee_too_high");
    expect(error.message).toBe("feeRateBps 300 is above the market's 100");
    expect(String(error)).toBe("SigningError: feeRateBps 300 is above the market's 100");
    expect(error.stack).toContain("SigningError: feeRateBps 300");
  });

  it("is told apart from other errors by instanceof, thrown and caught", () => {
    const thrown = (fn: () => void): unknown => {
      try {
        fn();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(thrown(() => {
      throw new SigningError("key_source_missing", "MM_WALLET_1_KEY is not set");
    })).toBeInstanceOf(SigningError);
    expect(thrown(() => {
      throw new Error("other");
    })).not.toBeInstanceOf(SigningError);
  });
});
