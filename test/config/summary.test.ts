/**
 * Printable views of a loaded config (src/config/summary.ts): the JSON-safe copy (bigint micros as
 * decimal strings, secrets redacted, absent values left out) and the short summary `mm
 * check-config` and the start-up log print, one fact per line, with no secret in it.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { configView, describeConfig } from "../../src/config/summary.js";
import { ADDRESS_1, API_KEY, KEY_1, LIVE_MIN_ENV, liveYaml } from "./fixtures.js";

const TOKEN = "tok-0123456789abcdef";

function liveConfig(extra = "") {
  return parseConfig(liveYaml(extra), "live.yaml", { ...LIVE_MIN_ENV, T: TOKEN });
}

describe("configView", () => {
  it("turns micros into decimal strings and secrets into [REDACTED], and leaves absent values out", () => {
    const v = configView(liveConfig("admin:\n  token: ${T}\nrisk:\n  maxOrderSize: 12.5\n")) as {
      platform: Record<string, unknown>;
      wallets: Record<string, unknown>[];
      risk: Record<string, unknown> & { priceBand: Record<string, unknown> };
      admin: Record<string, unknown>;
      quoting: Record<string, unknown>;
    };
    expect(v.platform.apiKey).toBe("[REDACTED]");
    expect(v.admin.token).toBe("[REDACTED]");
    expect(v.wallets[0]).toEqual({ name: "w1", address: ADDRESS_1, privateKey: "[REDACTED]" });
    expect(v.risk.maxOrderSize).toBe("12.5");
    expect(v.risk.priceBand).toEqual({ min: "0.02", max: "0.98" });
    expect(v.risk.maxOpenOrdersPerMarket).toBe(10);
    expect("orderExpirySec" in v.quoting).toBe(false);
    expect("wsUrl" in v.platform).toBe(false);
  });

  it("is JSON-safe and carries no secret", () => {
    const text = JSON.stringify(configView(liveConfig("admin:\n  token: ${T}\n")));
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(KEY_1.slice(2));
    expect(text).not.toContain(TOKEN);
  });
});

describe("describeConfig", () => {
  it("live: platform, tier and key origin, wallets with key origins and markets, then every section", () => {
    const lines = describeConfig(
      liveConfig(
        "admin:\n  token: ${T}\nmarkets:\n  slugs: [a, b]\n  filters:\n    tag: [football, cups]\n    stage: [final]\n  maxMarkets: 7\nrisk:\n  maxOrderSize: \"25\"\n",
      ),
    );
    expect(lines).toEqual([
      "mode: live, platform https://api.example.test (600 req/min tier, key from env MM_API_KEY)",
      "instance: mm1",
      "wallets: 1",
      `  w1 ${ADDRESS_1} (key from env MM_WALLET_1_KEY)`,
      "markets: 2 slugs, 0 events, filters tag=football,cups stage=final, at most 7, refresh 60s",
      "strategy: ladder (0 params)",
      "risk: order <= 25, position/market <= 500, notional/wallet <= 1000, total <= 5000, daily loss <= 200, band 0.02..0.98",
      "metrics: http://127.0.0.1:9464/metrics",
      "admin token: from env T",
    ]);
  });

  it("simulator: seed, clock, speed and scenario; a wallet's own markets; one param; no admin token", () => {
    const cfg = parseConfig(
      "mode: simulator\nsimulator:\n  seed: 7\n  clock: virtual\n  speed: 50\nwallets:\n  - name: a\n    markets: [X, Y]\nstrategy:\n  name: ladder\n  params:\n    levels: 2\n",
      "sim.yaml",
      {},
    );
    const lines = describeConfig(cfg);
    expect(lines[0]).toBe("mode: simulator, seed 7, virtual clock x50, scenario (built-in)");
    expect(lines[3]).toBe(`  a ${cfg.wallets[0]!.address} (key from simulator.seed 7, markets X, Y)`);
    expect(lines[4]).toBe("markets: 0 slugs, 0 events, at most 20, refresh 60s");
    expect(lines[5]).toBe("strategy: ladder (1 param)");
    expect(lines.at(-1)).toBe("admin token: none (admin endpoints off)");
  });

  it("never contains a secret", () => {
    const text = describeConfig(liveConfig("admin:\n  token: ${T}\n")).join("\n");
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(KEY_1.slice(2));
    expect(text).not.toContain(TOKEN);
  });
});
