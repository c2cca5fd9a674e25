/** `${VAR}` references in config strings: defaults, the `$${` escape, and the exact form a secret must take. */
import { describe, expect, it } from "vitest";
import { hasReference, interpolate, InterpolationError, secretReference } from "../../src/config/interpolate.js";

describe("interpolate", () => {
  it("replaces references in running text, with or without a default", () => {
    const env = { HOST: "10.0.0.1", PORT: "9000" };
    expect(interpolate("https://${HOST}:${PORT}/api", env)).toBe("https://10.0.0.1:9000/api");
    expect(interpolate("https://${HOST:-127.0.0.1}:${MISSING:-8080}", env)).toBe("https://10.0.0.1:8080");
    expect(interpolate("${EMPTY_DEFAULT:-}x", {})).toBe("x");
  });

  it("takes the default for a variable set to the empty string", () => {
    expect(interpolate("${HOST:-fallback}", { HOST: "" })).toBe("fallback");
  });

  it("writes $${ as a literal ${ and leaves other dollars alone", () => {
    expect(interpolate("cost $5, literal $${HOST}", { HOST: "h" })).toBe("cost $5, literal ${HOST}");
  });

  it("names every missing variable at once", () => {
    expect(() => interpolate("${A}", {})).toThrow(new InterpolationError("environment variable A is not set"));
    expect(() => interpolate("${A}-${B}-${C:-c}", { A: "" })).toThrow(new InterpolationError("environment variables A, B are not set"));
  });
});

describe("secretReference", () => {
  it("is the name only for exactly one reference without default (surrounding spaces allowed)", () => {
    expect(secretReference("${MM_KEY_1}")).toBe("MM_KEY_1");
    expect(secretReference("  ${_K} ")).toBe("_K");
    expect(secretReference("${MM_KEY:-0xabc}")).toBeUndefined();
    expect(secretReference("0x${MM_KEY}")).toBeUndefined();
    expect(secretReference("${A}${B}")).toBeUndefined();
    expect(secretReference("${1BAD}")).toBeUndefined();
    expect(secretReference("0xabc")).toBeUndefined();
  });
});

describe("hasReference", () => {
  it("sees a reference anywhere, but not an escaped one", () => {
    expect(hasReference("${A}")).toBe(true);
    expect(hasReference("x ${A:-1}")).toBe(true);
    expect(hasReference("$${A}")).toBe(false);
    expect(hasReference("plain $ text")).toBe(false);
  });
});
