/** The daemon's active parameters (src/bot/engine/live-params.ts): the reconciler's settings of a config, and swaps that keep the strategy runner when they can. */
import { describe, expect, it } from "vitest";
import { parseConfig, type Config } from "../../../src/config/index.js";
import { configHash } from "../../../src/config/reload-diff.js";
import { LiveParams, quotingParamsOf } from "../../../src/bot/engine/live-params.js";

const T0 = Date.UTC(2026, 5, 1);

function config(strategy: string, quoting = "  refreshMs: 1000\n", wallets = "  - name: a\n"): Config {
  const text = `mode: simulator\nsimulator:\n  seed: 1\ninstance:\n  id: t\nwallets:\n${wallets}strategy:\n${strategy}quoting:\n${quoting}`;
  return parseConfig(text, "test.yaml", {}, { baseDir: "/cfg" });
}
const LADDER = "  name: ladder\n  params: { halfSpreadTicks: 3, levels: 2 }\n";

describe("quotingParamsOf", () => {
  it.each([
    { name: "defaults, no expiry", quoting: "  refreshMs: 1000\n", want: { priceToleranceTicks: 0, sizeTolerance: 0.1, maxOrderAgeMs: 600_000, orderExpirySec: undefined } },
    {
      name: "every field given: seconds of age as ms, the expiry as it is",
      quoting: "  priceToleranceTicks: 2\n  sizeTolerance: 0.25\n  maxOrderAgeSec: 90\n  orderExpirySec: 120\n",
      want: { priceToleranceTicks: 2, sizeTolerance: 0.25, maxOrderAgeMs: 90_000, orderExpirySec: 120 },
    },
  ])("$name", ({ quoting, want }) => {
    const q = config(LADDER, quoting).quoting;
    const got = quotingParamsOf(q);
    expect(got).toEqual(want);
    expect(got.maxOrderAgeMs).toBe(q.maxOrderAgeSec * 1000);
  });
});

describe("LiveParams", () => {
  it("starts at version 0 with the config's hash, the strategy bound to its params, and the time", () => {
    const c = config(LADDER);
    const lp = new LiveParams(c, T0);
    const a = lp.current;
    expect(a.config).toBe(c);
    expect(a.version).toBe(0);
    expect(a.hash).toBe(configHash(c));
    expect(a.sinceMs).toBe(T0);
    expect(a.strategy.name).toBe("ladder");
    expect(a.strategy.params).toMatchObject({ halfSpreadTicks: 3, levels: 2 });
  });

  it("the hash shown is the source's (the config before sharding), when given", () => {
    const source = config(LADDER, undefined, "  - name: a\n  - name: b\n");
    const sharded = config(LADDER);
    const lp = new LiveParams(sharded, T0, source);
    expect(lp.current.config).toBe(sharded);
    expect(lp.current.hash).toBe(configHash(source));
    expect(lp.current.hash).not.toBe(configHash(sharded));
  });

  it.each([
    { name: "only other sections changed: the runner is kept", next: config(LADDER, "  refreshMs: 500\n"), kept: true },
    { name: "the same params written in another key order: kept", next: config("  name: ladder\n  params: { levels: 2, halfSpreadTicks: 3 }\n"), kept: true },
    { name: "a param changed: a new runner with the new params", next: config("  name: ladder\n  params: { halfSpreadTicks: 5, levels: 2 }\n"), kept: false },
    { name: "another strategy: a new runner", next: config("  name: inventory-skew\n  params: {}\n"), kept: false },
  ])("replace: $name", ({ next, kept }) => {
    const lp = new LiveParams(config(LADDER), T0);
    const before = lp.current;
    const after = lp.replace({ config: next, hash: "h1" }, T0 + 5_000);
    expect(lp.current).toBe(after);
    expect(after).toMatchObject({ config: next, hash: "h1", version: 1, sinceMs: T0 + 5_000 });
    if (kept) expect(after.strategy).toBe(before.strategy);
    else {
      expect(after.strategy).not.toBe(before.strategy);
      expect(after.strategy.name).toBe(next.strategy.name);
      expect(after.strategy.params).toMatchObject(next.strategy.name === "ladder" ? { halfSpreadTicks: 5 } : {});
    }
    // the active parameters before are left as they were (a cycle holding them is not changed under it)
    expect(before.version).toBe(0);
  });

  it("each replace adds one to the version", () => {
    const lp = new LiveParams(config(LADDER), T0);
    for (let i = 1; i <= 3; i++) expect(lp.replace({ config: config(LADDER), hash: `h${i}` }, T0 + i).version).toBe(i);
  });
});
