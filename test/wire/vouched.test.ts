/**
 * A vouched body (built by this package from checked parts: the client skips its schema check) is
 * frozen to the bottom, so it cannot change after it was vouched for; only that very object is
 * vouched, never a copy or a part of it. test/signing/place-body-vouched.test.ts holds the other half
 * of the contract: every body the builder vouches for passes the schema.
 */
import { describe, expect, it } from "vitest";
import { isVouched, vouch } from "../../src/wire/vouched.js";

describe("vouch", () => {
  it("freezes the body and every object inside it", () => {
    const body = vouch({ order: { salt: "1", amounts: ["10", "20"] }, owner: "0xabc", nested: { deeper: { x: 1 } } });
    expect(Object.isFrozen(body)).toBe(true);
    expect(Object.isFrozen(body.order)).toBe(true);
    expect(Object.isFrozen(body.order.amounts)).toBe(true);
    expect(Object.isFrozen(body.nested.deeper)).toBe(true);
    expect(() => {
      (body.order as { salt: string }).salt = "2";
    }).toThrow(TypeError);
    expect(body.order.salt).toBe("1");
  });

  it("vouches for that object only: not a copy, not a part, not anything else", () => {
    const body = vouch({ order: { salt: "1" } });
    expect(isVouched(body)).toBe(true);
    expect(isVouched({ ...body })).toBe(false);
    expect(isVouched(structuredClone(body))).toBe(false);
    expect(isVouched(body.order)).toBe(false);
    for (const other of [undefined, null, "body", 1, [], {}]) expect(isVouched(other)).toBe(false);
  });

  it("keeps objects that were frozen already, and their contents, as they are", () => {
    const shared = Object.freeze({ k: "v" });
    const body = vouch({ a: shared, b: shared });
    expect(body.a).toBe(shared);
    expect(isVouched(shared)).toBe(false);
  });
});
