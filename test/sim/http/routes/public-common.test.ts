/**
 * The helpers of the public read routes (src/sim/http/routes/public-common.ts): response
 * builders with the request's trace id, query readers (first value, multi-value CSV + repeated
 * keys), digits and ISO-8601 parsing (impossible dates refused), and the two `limit` rules:
 * 1..max with `offset`, or clamped to max.
 */
import { describe, expect, it } from "vitest";
import {
  base64url,
  clampedLimit,
  digitsValue,
  fail,
  first,
  fromBase64url,
  isDigits,
  limitOffset,
  looksIso,
  multiValues,
  ok,
  parsed,
  parseIso,
  parseTimeBound,
  rejected,
} from "../../../../src/sim/http/routes/public-common.js";
import type { RouteContext } from "../../../../src/sim/http/types.js";

const ctx = { nowMs: 0, requestId: "req-1", traceId: "trace-1" } as RouteContext;
const q = (s: string) => ({ query: new URLSearchParams(s) });

describe("response builders", () => {
  it("ok answers 200, with headers only when given", () => {
    expect(ok({ a: 1 })).toEqual({ status: 200, body: { a: 1 } });
    expect(ok({ a: 1 }, { "X-A": "1" })).toEqual({ status: 200, headers: { "X-A": "1" }, body: { a: 1 } });
  });

  it("fail builds the spec 7.1 envelope with the trace id, details only when given", () => {
    expect(fail(ctx, 404, "market_not_found", "no market", { symbol: "X" })).toEqual({
      status: 404,
      body: { status: 404, error: { code: "market_not_found", message: "no market", trace_id: "trace-1", details: { symbol: "X" } } },
    });
    expect(fail(ctx, 400, "bad_request", "bad").body).toEqual({ status: 400, error: { code: "bad_request", message: "bad", trace_id: "trace-1" } });
  });

  it("parsed and rejected tag a handler's early exit", () => {
    expect(parsed(5)).toEqual({ ok: true, value: 5 });
    const r = ok(null);
    expect(rejected(r)).toEqual({ ok: false, response: r });
  });
});

describe("query readers", () => {
  it("first: the first value of a key, \"\" when empty, undefined when absent", () => {
    const query = new URLSearchParams("a=1&a=2&b=");
    expect(first(query, "a")).toBe("1");
    expect(first(query, "b")).toBe("");
    expect(first(query, "c")).toBeUndefined();
  });

  it("multiValues: CSV and repeated keys mixed, trimmed, lower-cased, empties dropped, duplicates collapsed", () => {
    const query = new URLSearchParams("tag=Foo,bar&tag= baz ,,FOO&tag=&other=x");
    expect(multiValues(query, "tag")).toEqual(["foo", "bar", "baz"]);
    expect(multiValues(query, "none")).toEqual([]);
  });

  it("isDigits and digitsValue: ASCII digits only; Infinity past the safe range", () => {
    expect(isDigits("0123")).toBe(true);
    for (const s of ["", "-1", "1.5", "1e3", " 1", "١"]) expect(isDigits(s), s).toBe(false);
    expect(digitsValue("0042")).toBe(42);
    expect(digitsValue("9007199254740991")).toBe(9_007_199_254_740_991);
    expect(digitsValue("9007199254740993")).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("ISO-8601 and time bounds", () => {
  it("looksIso: starts with YYYY-MM-DD", () => {
    expect(looksIso("2026-06-01")).toBe(true);
    expect(looksIso("2026-06-01T10:00:00Z")).toBe(true);
    expect(looksIso("06/01/2026")).toBe(false);
  });

  it("parseIso: a bare date is midnight UTC; date-times keep their time", () => {
    expect(parseIso("2026-06-01")).toEqual({ ms: Date.UTC(2026, 5, 1), dateOnly: true });
    expect(parseIso("2026-06-01T10:30:00Z")).toEqual({ ms: Date.UTC(2026, 5, 1, 10, 30), dateOnly: false });
    expect(parseIso("2026-06-01T10:30:00+02:00")).toEqual({ ms: Date.UTC(2026, 5, 1, 8, 30), dateOnly: false });
  });

  it("parseIso: refuses impossible dates instead of rolling them over, and what is not ISO", () => {
    expect(parseIso("2026-02-31")).toBeUndefined();
    expect(parseIso("2026-13-01")).toBeUndefined();
    expect(parseIso("2026-06-01Tnonsense")).toBeUndefined();
    expect(parseIso("yesterday")).toBeUndefined();
  });

  it("parseTimeBound: epoch milliseconds or ISO-8601", () => {
    expect(parseTimeBound("1780000000000")).toBe(1_780_000_000_000);
    expect(parseTimeBound("2026-06-01")).toBe(Date.UTC(2026, 5, 1));
    expect(parseTimeBound("99999999999999999999")).toBeUndefined();
    expect(parseTimeBound("soon")).toBeUndefined();
  });
});

describe("limitOffset", () => {
  it("defaults, and reads limit in 1..max and offset >= 0", () => {
    expect(limitOffset(q(""), ctx, 50, 500)).toEqual({ ok: true, value: { limit: 50, offset: 0 } });
    expect(limitOffset(q("limit=500&offset=20"), ctx, 50, 500)).toEqual({ ok: true, value: { limit: 500, offset: 20 } });
    expect(limitOffset(q("limit=1"), ctx, 50, 500)).toEqual({ ok: true, value: { limit: 1, offset: 0 } });
  });

  it.each(["0", "501", "-1", "2.5", "ten", "", "99999999999999999999"])("refuses limit=%s with 400 invalid_limit and the range", (limit) => {
    const r = limitOffset(q(`limit=${limit}`), ctx, 50, 500);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.response.status).toBe(400);
      expect(r.response.body).toMatchObject({ error: { code: "invalid_limit", message: "limit must be an integer in 1..500", details: { min: 1, max: 500 } } });
    }
  });

  it.each(["-1", "x", "1.5", ""])("refuses offset=%s with 400 invalid_request naming the field", (offset) => {
    const r = limitOffset(q(`offset=${offset}`), ctx, 50, 500);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.response.body).toMatchObject({ status: 400, error: { code: "invalid_request", details: { field: "offset", fields: ["offset"] } } });
  });
});

describe("clampedLimit", () => {
  it("defaults, and clamps a limit above max down to it", () => {
    expect(clampedLimit(q(""), ctx, 20, 100)).toEqual({ ok: true, value: 20 });
    expect(clampedLimit(q("limit=7"), ctx, 20, 100)).toEqual({ ok: true, value: 7 });
    expect(clampedLimit(q("limit=101"), ctx, 20, 100)).toEqual({ ok: true, value: 100 });
    expect(clampedLimit(q("limit=99999999999999999999"), ctx, 20, 100)).toEqual({ ok: true, value: 100 });
  });

  it.each(["0", "-3", "abc", ""])("refuses limit=%s with 400 invalid_limit", (limit) => {
    const r = clampedLimit(q(`limit=${limit}`), ctx, 20, 100);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.response.body).toMatchObject({ status: 400, error: { code: "invalid_limit", message: "limit must be a positive integer", details: { max: 100 } } });
  });
});

describe("cursor text", () => {
  it("re-exports the base64url pair: a round trip, and undefined for text that is not base64url", () => {
    expect(base64url("act:12")).toBe("YWN0OjEy");
    expect(fromBase64url("YWN0OjEy")).toBe("act:12");
    expect(fromBase64url("not base64!")).toBeUndefined();
  });
});
