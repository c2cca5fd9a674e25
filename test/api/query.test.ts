/** Paths and query strings the client builds: an id can never change the route, a query leaves out what is unset. */
import { describe, expect, it } from "vitest";
import { path, segment, withQuery } from "../../src/api/query.js";

describe("segment and path", () => {
  it("percent-encodes every interpolated value so a / ? or # inside an id stays inside its segment", () => {
    expect(segment("o1")).toBe("o1");
    expect(segment(42)).toBe("42");
    expect(segment("a/b?c=1#d")).toBe("a%2Fb%3Fc%3D1%23d");
    expect(path`/api/orders/${"../admin"}/fills`).toBe("/api/orders/..%2Fadmin/fills");
    expect(path`/api/markets/${"EPL WIN"}/orderbook`).toBe("/api/markets/EPL%20WIN/orderbook");
    expect(path`/api/me/vault`).toBe("/api/me/vault");
  });

  it("refuses an empty path parameter (it would name another route)", () => {
    expect(() => segment("")).toThrow(RangeError);
    expect(() => path`/api/orders/${""}`).toThrow(RangeError);
  });
});

describe("withQuery", () => {
  it("appends the set values, repeats a key for each array item, and leaves out undefined and null", () => {
    expect(withQuery("/api/events", { limit: 50, tag: ["a", "b"], closed: false, q: undefined, page: null })).toBe(
      "/api/events?limit=50&tag=a&tag=b&closed=false",
    );
  });

  it("encodes values, and adds nothing when nothing is set", () => {
    expect(withQuery("/api/search", { q: "a&b=c d" })).toBe("/api/search?q=a%26b%3Dc+d");
    expect(withQuery("/api/markets", undefined)).toBe("/api/markets");
    expect(withQuery("/api/markets", {})).toBe("/api/markets");
    expect(withQuery("/api/markets", { a: undefined, b: [] })).toBe("/api/markets");
  });
});
