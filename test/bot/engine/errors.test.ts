/** Whatever was thrown as a code and a log text (src/bot/engine/errors.ts). */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/errors.js";
import { codeOf, errorText } from "../../../src/bot/engine/errors.js";

const apiError = new ApiError({ source: "http", status: 429, code: "rate_limited", message: "slow down", method: "POST", path: "/api/orders" });
const coded = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
const numericCode = Object.assign(new Error("odd"), { code: 42 });

describe("codeOf", () => {
  it.each([
    { name: "an ApiError: its code", e: apiError, code: "rate_limited" },
    { name: "an Error with a string code (node's system errors)", e: coded, code: "ECONNRESET" },
    { name: "an Error with a non-string code", e: numericCode, code: "internal_error" },
    { name: "a plain Error", e: new Error("x"), code: "internal_error" },
    { name: "a plain object with a code (not an Error)", e: { code: "not_an_error" }, code: "internal_error" },
    { name: "a string", e: "boom", code: "internal_error" },
    { name: "undefined", e: undefined, code: "internal_error" },
  ])("$name → $code", ({ e, code }) => {
    expect(codeOf(e)).toBe(code);
  });
});

describe("errorText", () => {
  it.each([
    { name: "undefined stays undefined", e: undefined, text: undefined },
    { name: "an Error: its message", e: new Error("went wrong"), text: "went wrong" },
    { name: "an ApiError: its full message", e: apiError, text: "POST /api/orders: rate_limited (HTTP 429): slow down" },
    { name: "a string as it is", e: "plain text", text: "plain text" },
    { name: "an object as JSON", e: { a: 1, b: "x" }, text: '{"a":1,"b":"x"}' },
    { name: "a number as JSON", e: 7, text: "7" },
    { name: "null as JSON", e: null, text: "null" },
  ])("$name", ({ e, text }) => {
    expect(errorText(e)).toBe(text);
  });
});

describe("errorText: values JSON cannot write never make it throw (it runs inside catch blocks)", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic["self"] = cyclic;
  const badJson = { toJSON: () => { throw new Error("no"); } };
  it.each([
    { name: "an object holding a bigint (money): its digits", e: { amount: 1_000_000n }, text: '{"amount":"1000000"}' },
    { name: "a bare bigint: its digits", e: 5n, text: '"5"' },
    { name: "a cyclic object: its type", e: cyclic, text: "[object Object]" },
    { name: "a toJSON that throws: its type", e: badJson, text: "[object Object]" },
    { name: "a function: its type", e: () => 1, text: "[object Function]" },
    { name: "a symbol: its type", e: Symbol("s"), text: "[object Symbol]" },
    { name: "an object without a prototype", e: Object.create(null) as object, text: "{}" },
  ])("$name", ({ e, text }) => {
    expect(errorText(e)).toBe(text);
  });
});
