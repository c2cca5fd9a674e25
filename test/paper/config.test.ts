import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, describeConfig } from "../../src/config/index.js";
import type { PaperModeConfig } from "../../src/config/load.js";
import { paperYaml } from "./harness.js";

function problems(text: string): string[] {
  try {
    parseConfig(text, "paper.yaml", {});
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map((i) => `${i.path}: ${i.message}`);
    throw e;
  }
  return [];
}

describe("mode: paper config", () => {
  it("loads with defaults, derives wallet keys from paper.seed, needs no key", () => {
    const c = parseConfig(paperYaml(), "paper.yaml", {}) as PaperModeConfig;
    expect(c.mode).toBe("paper");
    expect(c.paper.startingCash).toBe(2_000_000_000n);
    expect(c.paper.queue.model).toBe("risk-averse");
    expect(c.platform.apiKey).toBeUndefined();
    expect(c.wallets.map((w) => w.address)).toHaveLength(2);
    const again = parseConfig(paperYaml(), "paper.yaml", {}) as PaperModeConfig;
    expect(again.wallets[0]!.address).toBe(c.wallets[0]!.address);
    expect(describeConfig(c)[0]).toMatch(/^mode: paper, public data from http:\/\/sim\.invalid/);
  });

  it("takes a platform key from the environment for the public reads", () => {
    const text = paperYaml().replace('platform: { baseUrl: "http://sim.invalid" }', 'platform: { baseUrl: "http://sim.invalid", apiKey: "${PAPER_KEY}" }');
    const c = parseConfig(text, "paper.yaml", { PAPER_KEY: "pmk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345" }) as PaperModeConfig;
    expect(c.platform.apiKey?.reveal()).toBe("pmk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345");
  });

  it("names what is wrong: queue n, latency, cash, URL", () => {
    const bad = paperYaml()
      .replace('platform: { baseUrl: "http://sim.invalid" }', 'platform: { baseUrl: "ftp://x" }')
      .replace('paper: { seed: 7, startingCash: "2000", latency: { entryMs: 20, responseMs: 20 } }', 'paper: { startingCash: "0", latency: { entryMs: -1 }, queue: { model: prob-power } }');
    const p = problems(bad);
    expect(p).toContain("platform.baseUrl: expected an http(s) URL");
    expect(p.some((x) => x.startsWith("paper.startingCash:"))).toBe(true);
    expect(p.some((x) => x.startsWith("paper.latency.entryMs:"))).toBe(true);
    expect(p).toContain("paper.queue.n: queue model prob-power needs n (a number above 0)");
    expect(problems(paperYaml().replace("seed: 7,", "seed: 7, queue: { model: risk-averse, n: 2 },"))).toContain("paper.queue.n: queue model risk-averse takes no n");
  });
});
