/**
 * What a reload may change (src/config/reload-diff.ts): the paths that differ between two loaded
 * configs, which of them apply live, and the config hash (a parameter changes it, a secret's value
 * does not, and no secret value is in what is hashed).
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { canonicalConfigText, configChanges, configHash, isLivePath, splitChanges } from "../../src/config/reload-diff.js";
import { API_KEY, KEY_1, KEY_2, liveYaml } from "./fixtures.js";

const ENV = { MM_API_KEY: API_KEY, MM_WALLET_1_KEY: KEY_1 };

function load(extra = "", env: Record<string, string> = ENV): ReturnType<typeof parseConfig> {
  return parseConfig(liveYaml(extra), "reload.yaml", env);
}

describe("configHash", () => {
  it("is stable for the same file and changes with a parameter", () => {
    const a = load("risk:\n  maxOrderSize: \"50\"\n");
    expect(configHash(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(configHash(load("risk:\n  maxOrderSize: \"50\"\n"))).toBe(configHash(a));
    expect(configHash(load("risk:\n  maxOrderSize: \"51\"\n"))).not.toBe(configHash(a));
    // liveYaml ends inside the strategy section: this line is strategy.params.
    expect(configHash(load("  params: { levels: 2 }\n"))).not.toBe(configHash(load()));
  });

  it("does not change with a secret's value, and no secret value is hashed", () => {
    const a = load("", ENV);
    const other = `pmk_live_fedcba9876543210_${"Z".repeat(32)}`;
    const b = load("", { ...ENV, MM_API_KEY: other });
    expect(configHash(b)).toBe(configHash(a));
    const text = canonicalConfigText(a);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(KEY_1.slice(2));
    expect(text).toContain("<secret>");
  });

  it("leaves shard.index out (every replica of one file shows one hash)", () => {
    const yaml = (i: number): string => `shard: { index: ${i}, count: 2 }\n`;
    expect(configHash(load(yaml(0)))).toBe(configHash(load(yaml(1))));
  });
});

describe("configChanges and splitChanges", () => {
  it("names each changed leaf, lists as a whole, secrets by value", () => {
    const a = load();
    expect(configChanges(a, load())).toEqual([]);
    expect(configChanges(a, load("risk:\n  maxOrderSize: \"7\"\n  priceBand: { min: \"0.1\" }\n"))).toEqual(["risk.maxOrderSize", "risk.priceBand.min"]);
    expect(configChanges(a, load("risk:\n  explainedRejectCodes: [market_not_open]\n"))).toEqual(["risk.explainedRejectCodes"]);
    expect(configChanges(a, load("", { ...ENV, MM_API_KEY: `${API_KEY}x` }))).toEqual(["platform.apiKey"]);
    expect(configChanges(a, load("", { ...ENV, MM_WALLET_1_KEY: KEY_2 }))).toEqual(["wallets"]);
    // A section that appears (absent before) is one change at its path.
    expect(configChanges(a, load("metrics:\n  statusToken: ${MM_API_KEY}\n"))).toEqual(["metrics.statusToken"]);
  });

  it("strategy, the reconciler's tolerances and the risk limits are live; the rest needs a restart", () => {
    for (const p of ["strategy.name", "strategy.params.levels", "quoting.priceToleranceTicks", "quoting.sizeTolerance", "quoting.maxOrderAgeSec", "risk.maxOrderSize", "risk.priceBand.min", "risk.dailyLossLimit", "risk.explainedRejectCodes", "controls.levels.count", "controls"]) {
      expect(isLivePath(p), p).toBe(true);
    }
    for (const p of ["wallets", "platform.baseUrl", "platform.apiKey", "instance.id", "shard.count", "markets.slugs", "metrics.port", "admin.token", "simulator.seed", "quoting.refreshMs", "quoting.orderExpirySec", "quoting.pullBeforeCloseSec", "risk.staleDataSec", "risk.deadManSec", "riskier", "log.level", "mode", "adverse.toxicity", "settlement", "paper"]) {
      expect(isLivePath(p), p).toBe(false);
    }
    expect(splitChanges(["risk.maxOrderSize", "wallets", "strategy.params.size", "platform.baseUrl"])).toEqual({
      live: ["risk.maxOrderSize", "strategy.params.size"],
      restart: ["wallets", "platform.baseUrl"],
    });
  });
});
