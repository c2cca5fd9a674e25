import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { ClientOrderIds, isOwnClientOrderId, parseClientOrderId, sessionTag } from "../../../src/bot/orders/ids.js";

describe("clientOrderIds", () => {
  it("are unique across wallets, sessions and restarts within the same second", () => {
    const seen = new Set<string>();
    const start = Date.UTC(2026, 5, 1, 12);
    // Ten restarts in the same second (different random draws), three wallets each.
    const rng = new Rng(99);
    for (let restart = 0; restart < 10; restart++) {
      const session = sessionTag(start + restart * 100, rng);
      for (let w = 0; w < 3; w++) {
        const ids = new ClientOrderIds("mm-prod", w, session);
        for (let i = 0; i < 500; i++) {
          const id = ids.next();
          expect(seen.has(id)).toBe(false);
          seen.add(id);
        }
      }
    }
    expect(seen.size).toBe(15_000);
  });

  it("fit the platform's 1..64 printable characters without spaces", () => {
    const ids = new ClientOrderIds("abcdefghijklmnop", 49, sessionTag(Date.UTC(2099, 11, 31), new Rng(1)));
    let id = "";
    for (let i = 0; i < 100_000; i++) id = ids.next();
    expect(id.length).toBeLessThanOrEqual(64);
    expect(id).toMatch(/^[\x21-\x7e]+$/);
  });

  it("parse back from the right, so an instance id with hyphens is recovered exactly", () => {
    const ids = new ClientOrderIds("mm-a", 3, "tfyc00abc");
    ids.next();
    const id = ids.next();
    expect(id).toBe("mm-a-3-tfyc00abc-2");
    expect(parseClientOrderId(id)).toEqual({ instance: "mm-a", walletIndex: 3, session: "tfyc00abc", counter: 2 });
    expect(isOwnClientOrderId(id, "mm-a")).toBe(true);
    // The prefix of another instance is not ours.
    expect(isOwnClientOrderId(id, "mm")).toBe(false);
    expect(isOwnClientOrderId("mm-0-tfyc00abc-1", "mm-a")).toBe(false);
    expect(isOwnClientOrderId(null, "mm-a")).toBe(false);
    expect(isOwnClientOrderId("something-else", "mm-a")).toBe(false);
  });

  it("refuse a bad instance id or wallet index", () => {
    expect(() => new ClientOrderIds("Bad_Id", 0, "s")).toThrow(RangeError);
    expect(() => new ClientOrderIds("ok", 100, "s")).toThrow(RangeError);
  });

  it("sessions from the same seed and second are equal; other draws differ", () => {
    const t = Date.UTC(2026, 5, 1);
    expect(sessionTag(t, new Rng(1))).toBe(sessionTag(t, new Rng(1)));
    expect(sessionTag(t, new Rng(1))).not.toBe(sessionTag(t, new Rng(2)));
  });
});
