/**
 * Reading YAML while keeping the lines (src/config/yaml-source.ts): the value (YAML 1.2 core
 * schema, empty values dropped as absent keys), parse errors with line and column and without the
 * source excerpt (which could quote a secret), duplicate keys refused, alias bombs stopped, and
 * lineOf pointing at a key, a list item, or the deepest existing parent of a missing key.
 */
import { describe, expect, it } from "vitest";
import { readYaml } from "../../src/config/yaml-source.js";

const DOC = `mode: simulator
risk:
  maxOrderSize: 10
  priceBand:
    min: 0.02
wallets:
  - name: a
  - name: b
    markets: [X]
`;

describe("value", () => {
  it("is the document as plain values", () => {
    const y = readYaml(DOC);
    expect(y.errors).toEqual([]);
    expect(y.value).toEqual({
      mode: "simulator",
      risk: { maxOrderSize: 10, priceBand: { min: 0.02 } },
      wallets: [{ name: "a" }, { name: "b", markets: ["X"] }],
    });
  });

  it("drops empty values (key: and key: null) at any depth, so defaults apply; list items stay", () => {
    const y = readYaml("risk:\nquoting:\n  refreshMs: null\n  maxOrderAgeSec: 5\nlist: [1, null]\n");
    expect(y.value).toEqual({ quoting: { maxOrderAgeSec: 5 }, list: [1, null] });
  });

  it("reads YAML 1.2 core scalars: yes/no/on stay strings", () => {
    expect(readYaml("a: yes\nb: on\nc: true\nd: 0x10\n").value).toEqual({ a: "yes", b: "on", c: true, d: 16 });
  });

  it("an empty document is null (not undefined, which means errors), without errors", () => {
    const y = readYaml("");
    expect(y.errors).toEqual([]);
    expect(y.value).toBeNull();
  });
});

describe("errors", () => {
  it("a syntax error has its line and column and no value; the message does not quote the source", () => {
    const y = readYaml("a: 1\nb: [unclosed, s3cr3t-value\nc: 2\n");
    expect(y.value).toBeUndefined();
    expect(y.errors.length).toBeGreaterThan(0);
    expect(y.errors[0]!.line).toBeGreaterThanOrEqual(2);
    expect(y.errors[0]!.col).toBeGreaterThanOrEqual(1);
    for (const e of y.errors) expect(e.message).not.toContain("s3cr3t-value");
  });

  it("a key given twice is an error at its second occurrence", () => {
    const y = readYaml("a: 1\nb: 2\na: 3\n");
    expect(y.value).toBeUndefined();
    expect(y.errors).toHaveLength(1);
    expect(y.errors[0]!.line).toBe(3);
  });

  it("aliases expanding past the limit are an error, not a hang", () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 8; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ")}]`);
    const y = readYaml(lines.join("\n") + "\n");
    expect(y.value).toBeUndefined();
    expect(y.errors).toHaveLength(1);
    expect(y.errors[0]).toMatchObject({ line: 1, col: 1 });
  });
});

describe("lineOf", () => {
  const y = readYaml(DOC);

  it("finds a key's line at any depth, and list items by index", () => {
    expect(y.lineOf(["mode"])).toBe(1);
    expect(y.lineOf(["risk", "maxOrderSize"])).toBe(3);
    expect(y.lineOf(["risk", "priceBand", "min"])).toBe(5);
    expect(y.lineOf(["wallets", 1])).toBe(8);
    expect(y.lineOf(["wallets", 1, "markets"])).toBe(9);
    expect(y.lineOf(["wallets", 1, "markets", 0])).toBe(9);
  });

  it("a missing key points at its deepest existing parent; an empty path at the document", () => {
    expect(y.lineOf(["risk", "priceBand", "max"])).toBe(4);
    expect(y.lineOf(["risk", "nothing", "deeper"])).toBe(2);
    expect(y.lineOf(["wallets", 5, "name"])).toBe(6);
    expect(y.lineOf(["nothing"])).toBe(1);
    expect(y.lineOf([])).toBe(1);
  });

  it("does not throw on a document with errors", () => {
    expect(() => readYaml("a: [\n").lineOf(["a"])).not.toThrow();
  });
});
