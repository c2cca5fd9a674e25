/**
 * The config's value builders (src/config/fields.ts) on their own: interpolated text and paths,
 * money as bigint micros (strings, plain YAML numbers up to 15 significant digits, bounds), prices on
 * the 0.001 grid, and secrets (exactly one `${VAR}` or `{ file: path }`, the shape of each kind
 * checked, the value never echoed in a message). load.test.ts exercises them through whole files.
 */
import { chmodSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { moneyField, pathField, priceField, secretField, textField, type LoadContext } from "../../src/config/fields.js";
import { Secret } from "../../src/core/secret.js";
import { API_KEY, KEY_1, tempDir } from "./fixtures.js";

const ctx = (env: Record<string, string> = {}, baseDir = "/etc/mm"): LoadContext => ({ env, baseDir });

/** The messages of a failed parse, or the value. */
function run<T>(schema: z.ZodType<T, unknown>, value: unknown): { ok: true; value: T } | { ok: false; messages: string[] } {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, messages: r.error.issues.map((i) => i.message) };
}

describe("textField and pathField", () => {
  it("text expands ${VAR} and ${VAR:-default}; a missing variable is an issue naming it", () => {
    const f = textField(ctx({ HOST: "h.example" }));
    expect(run(f, "https://${HOST}:${PORT:-8443}/x")).toEqual({ ok: true, value: "https://h.example:8443/x" });
    const bad = run(f, "${NOPE}");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.messages.join()).toContain("NOPE");
  });

  it("a relative path resolves against the config's directory, an absolute one stays, an empty one is refused", () => {
    const f = pathField(ctx({ D: "data" }));
    expect(run(f, "scenarios/a.yaml")).toEqual({ ok: true, value: "/etc/mm/scenarios/a.yaml" });
    expect(run(f, "${D}/b.yaml")).toEqual({ ok: true, value: "/etc/mm/data/b.yaml" });
    expect(run(f, "/srv/c.yaml")).toEqual({ ok: true, value: "/srv/c.yaml" });
    expect(run(f, "").ok).toBe(false);
  });
});

describe("moneyField", () => {
  const FLOAT = 'money is never read from a float: write the amount as a quoted decimal string such as "12.5"';

  it("reads decimal strings (trimmed) and whole numbers into micros", () => {
    const f = moneyField();
    expect(run(f, " 12.5 ")).toEqual({ ok: true, value: 12_500_000n });
    expect(run(f, 12)).toEqual({ ok: true, value: 12_000_000n });
    expect(run(f, 0)).toEqual({ ok: true, value: 0n });
    expect(run(f, "1234567890.123456")).toEqual({ ok: true, value: 1_234_567_890_123_456n });
  });

  it("refuses a float that did not come from YAML source text (a config file's numbers are read from their text, see load.test.ts)", () => {
    const f = moneyField();
    for (const n of [12.5, 0.000001, 1e21, 2 ** 53, Number.POSITIVE_INFINITY]) expect(run(f, n)).toEqual({ ok: false, messages: [FLOAT] });
  });

  it("refuses more than six decimals and other types, saying what it expected", () => {
    const f = moneyField();
    expect(run(f, "0.0000001").ok).toBe(false);
    expect(run(f, true)).toEqual({ ok: false, messages: ['expected a decimal amount such as "12.5", received boolean'] });
    expect(run(f, null)).toEqual({ ok: false, messages: ['expected a decimal amount such as "12.5", received null'] });
    expect(run(f, [1])).toEqual({ ok: false, messages: ['expected a decimal amount such as "12.5", received array'] });
  });

  it("bounds: non-negative by default, > 0 when positive, >= min when given", () => {
    expect(run(moneyField(), "-1")).toEqual({ ok: false, messages: ["must be >= 0"] });
    expect(run(moneyField({ positive: true }), "0")).toEqual({ ok: false, messages: ["must be > 0"] });
    expect(run(moneyField({ positive: true }), "0.000001")).toEqual({ ok: true, value: 1n });
    expect(run(moneyField({ min: 5_000_000n }), "4.999999")).toEqual({ ok: false, messages: ["must be >= 5"] });
    expect(run(moneyField({ min: 5_000_000n }), "5")).toEqual({ ok: true, value: 5_000_000n });
  });
});

describe("priceField", () => {
  it("takes prices on the 0.001 grid inside [0.001, 0.999] only", () => {
    const f = priceField();
    expect(run(f, "0.001")).toEqual({ ok: true, value: 1_000n });
    expect(run(f, "0.999")).toEqual({ ok: true, value: 999_000n });
    for (const bad of ["0", "1", "0.0005", "0.5001", "1.5"]) {
      expect(run(f, bad)).toEqual({ ok: false, messages: ["expected a price that is a multiple of 0.001 in [0.001, 0.999]"] });
    }
  });
});

describe("secretField", () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it("reads exactly one ${VAR}, trimmed, into a Secret naming its origin", () => {
    const r = run(secretField(ctx({ MM_API_KEY: ` ${API_KEY}\n` }), "apiKey"), "${MM_API_KEY}");
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value).toBeInstanceOf(Secret);
      expect(r.value.reveal()).toBe(API_KEY);
      expect(r.value.origin).toBe("env MM_API_KEY");
    }
  });

  it("refuses literals, references with text or a default, unset or empty variables, and other shapes; never echoing a value", () => {
    const f = secretField(ctx({ EMPTY: "  " }), "token");
    const messages = (v: unknown) => {
      const r = run(f, v);
      return r.ok ? [] : r.messages;
    };
    expect(messages("hunter2-hunter2-hunter2")[0]).toMatch(/^a literal secret is not allowed/);
    expect(messages("pre-${X}")[0]).toMatch(/exactly one "\$\{ENV_VAR\}" reference/);
    expect(messages("${X:-fallback-secret-value}")[0]).toMatch(/without default/);
    expect(messages("${UNSET}")).toEqual(["environment variable UNSET is not set"]);
    expect(messages("${EMPTY}")).toEqual(["environment variable EMPTY is empty"]);
    expect(messages(42)[0]).toBe('expected "${ENV_VAR}" or { file: path }, received number');
    expect(messages({ path: "x" })[0]).toMatch(/^expected \{ file: path \}/);
    expect(messages(undefined)[0]).toMatch(/^required:/);
    for (const m of [...messages("hunter2-hunter2-hunter2"), ...messages("${X:-fallback-secret-value}")]) {
      expect(m).not.toContain("hunter2");
      expect(m).not.toContain("fallback-secret-value");
    }
  });

  it("checks each kind's shape and names where the value came from, not the value", () => {
    const env = { SHORT: "short", BADKEY: "not-a-key", ZERO: `0x${"00".repeat(32)}`, NOPREFIX: KEY_1.slice(2).toUpperCase() };
    const msg = (kind: "apiKey" | "privateKey" | "token", ref: string) => {
      const r = run(secretField(ctx(env), kind), ref);
      return r.ok ? r.value.reveal() : r.messages.join();
    };
    expect(msg("token", "${SHORT}")).toBe("the value from env SHORT is too short (a token needs at least 16 characters)");
    expect(msg("apiKey", "${BADKEY}")).toBe("the value from env BADKEY is not an API key of the form <prefix>_<env>_<keyId>_<secret>");
    expect(msg("privateKey", "${BADKEY}")).toBe("the value from env BADKEY is not a 32-byte hex private key (0x + 64 hex digits)");
    // Right shape, not a scalar of the curve.
    expect(msg("privateKey", "${ZERO}")).toBe("the value from env ZERO is not a valid secp256k1 private key");
    // A key without 0x, in capitals, is normalised.
    expect(msg("privateKey", "${NOPREFIX}")).toBe(KEY_1);
  });

  it("reads { file } relative to the config's directory (the path may use ${VAR}), trimmed", () => {
    const t = tempDir({ "keys/w1.key": `${KEY_1}\n` });
    cleanup = t.cleanup;
    const r = run(secretField(ctx({ KEYS: "keys" }, t.dir), "privateKey"), { file: "${KEYS}/w1.key" });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.reveal()).toBe(KEY_1);
      expect(r.value.origin).toBe("file keys/w1.key");
    }
  });

  it("refuses a key file that is missing, empty, or open to group or others", () => {
    const t = tempDir({ "empty.key": "  \n", "open.key": KEY_1 });
    cleanup = t.cleanup;
    chmodSync(t.path("open.key"), 0o644);
    const f = secretField(ctx({}, t.dir), "privateKey");
    expect(run(f, { file: "missing.key" })).toEqual({ ok: false, messages: ["cannot read key file missing.key: ENOENT"] });
    expect(run(f, { file: "empty.key" })).toEqual({ ok: false, messages: ["key file empty.key is empty"] });
    const open = run(f, { file: "open.key" });
    expect(open.ok).toBe(false);
    if (!open.ok) {
      expect(open.messages[0]).toContain("0644");
      expect(open.messages[0]).not.toContain(KEY_1.slice(2, 20));
    }
  });
});
