import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { REDACTED, Secret, isSecret } from "../../src/core/secret.js";
import { InterpolationError, hasReference, interpolate, secretReference } from "../../src/config/interpolate.js";

describe("Secret", () => {
  const raw = "very-secret-value-123";
  const s = new Secret(raw, "env TEST_SECRET");

  it("reveals only on request", () => {
    expect(s.reveal()).toBe(raw);
    expect(s.origin).toBe("env TEST_SECRET");
    expect(isSecret(s)).toBe(true);
    expect(isSecret(raw)).toBe(false);
    expect(s.equals(new Secret(raw))).toBe(true);
    expect(s.equals(new Secret("other-value-123"))).toBe(false);
  });

  it("prints [REDACTED] through every ordinary path", () => {
    const outputs = [
      String(s),
      /* eslint-disable @typescript-eslint/restrict-template-expressions, @typescript-eslint/restrict-plus-operands -- what careless code would do */
      `${s}`,
      "" + s,
      /* eslint-enable @typescript-eslint/restrict-template-expressions, @typescript-eslint/restrict-plus-operands */
      s.toString(),
      JSON.stringify(s),
      JSON.stringify({ nested: { s } }),
      inspect(s),
      inspect({ deep: { deeper: { s } } }, { depth: 10 }),
      inspect(s, { showHidden: true }),
      JSON.stringify(structuredClone({ s })),
      JSON.stringify(Object.entries(s)),
    ];
    for (const out of outputs) expect(out).not.toContain(raw);
    expect(String(s)).toBe(REDACTED);
    expect(JSON.stringify({ s })).toBe('{"s":"[REDACTED]"}');
    expect(inspect({ s })).toBe("{ s: [REDACTED] }");
  });
});

describe("interpolate", () => {
  it("expands variables, defaults and the $${ escape", () => {
    expect(interpolate("http://${HOST}:${PORT:-80}/x", { HOST: "h" })).toBe("http://h:80/x");
    expect(interpolate("${A:-}", {})).toBe("");
    expect(interpolate("${A}", { A: "set" })).toBe("set");
    expect(interpolate("$${NOT}", {})).toBe("${NOT}");
    expect(interpolate("plain $ and {braces}", {})).toBe("plain $ and {braces}");
  });

  it("treats an empty variable like a missing one (so defaults apply)", () => {
    expect(interpolate("${A:-d}", { A: "" })).toBe("d");
    expect(() => interpolate("${A}", { A: "" })).toThrow("environment variable A is not set");
  });

  it("names every missing variable", () => {
    expect(() => interpolate("${A}/${B}", {})).toThrow(InterpolationError);
    expect(() => interpolate("${A}/${B}", {})).toThrow("environment variables A, B are not set");
  });

  it("recognizes exact secret references only", () => {
    expect(secretReference("${MM_API_KEY}")).toBe("MM_API_KEY");
    expect(secretReference(" ${X} ")).toBe("X");
    expect(secretReference("${X:-d}")).toBeUndefined();
    expect(secretReference("a${X}")).toBeUndefined();
    expect(secretReference("literal")).toBeUndefined();
    expect(hasReference("a${X}")).toBe(true);
    expect(hasReference("$${X}")).toBe(false);
    expect(hasReference("plain")).toBe(false);
  });
});
