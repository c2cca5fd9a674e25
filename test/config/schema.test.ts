/**
 * The daemon config schema (src/config/schema.ts) on plain values, without YAML: what each section
 * defaults to, that every object is strict, the bounds that matter to the daemon, and the
 * cross-field rules (price band order, wallet notional within the total, one wallet per market).
 * load.test.ts covers the same schema through files, with lines and messages.
 */
import { describe, expect, it } from "vitest";
import { buildConfigSchema } from "../../src/config/schema.js";
import { API_KEY, KEY_1 } from "./fixtures.js";

const schema = buildConfigSchema({ env: { MM_API_KEY: API_KEY, MM_KEY: KEY_1 }, baseDir: "/cfg" });

const sim = (over: Record<string, unknown> = {}) => ({ mode: "simulator", strategy: { name: "ladder" }, ...over });
const live = (over: Record<string, unknown> = {}) => ({
  mode: "live",
  platform: { baseUrl: "https://api.example.test", apiKey: "${MM_API_KEY}" },
  wallets: [{ name: "w1", privateKey: "${MM_KEY}" }],
  strategy: { name: "ladder" },
  ...over,
});

function issues(value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

function parse(value: unknown) {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(issues(value).join("\n"));
  return r.data;
}

describe("defaults", () => {
  it("a simulator config with only a strategy gets every section", () => {
    const c = parse(sim());
    expect(c.mode).toBe("simulator");
    if (c.mode !== "simulator") return;
    expect(c.simulator).toEqual({ seed: 1, clock: "realtime" });
    expect(c.platform).toEqual({ partnerKind: "multi_wallet", rateLimitPerMin: 600, requestTimeoutMs: 10_000, rateSafetyMargin: 0.1 });
    expect(c.wallets).toEqual([{ name: "maker-1" }]);
    expect(c.instance).toEqual({ id: "mm1", startupWatchSec: 10 });
    expect(c.markets).toEqual({ slugs: [], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, refreshSec: 60, maxMarkets: 20 });
    expect(c.quoting).toEqual({ refreshMs: 1_000, pullBeforeCloseSec: 60, maxOrderAgeSec: 600, priceToleranceTicks: 0, sizeTolerance: 0.1 });
    expect(c.capacity).toEqual({ enabled: true, maxLagMs: 250, recoverySec: 30, stepSec: 10, refreshFactor: 4, shedFraction: 0.25 });
    expect(c.metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(c.admin).toEqual({});
    expect(c.log).toEqual({ level: "info" });
    expect(c.shutdown).toEqual({ cancelDeadlineSec: 15 });
    expect(c.strategy).toEqual({ name: "ladder", params: {} });
  });

  it("risk defaults are bigint micros and the documented numbers", () => {
    const r = parse(sim()).risk;
    expect(r).toMatchObject({
      maxPositionPerMarket: 500_000_000n,
      maxNotionalPerWallet: 1_000_000_000n,
      maxNotionalTotal: 5_000_000_000n,
      maxOpenOrdersPerMarket: 10,
      maxOrderSize: 100_000_000n,
      priceBand: { min: 20_000n, max: 980_000n },
      dailyLossLimit: 200_000_000n,
      staleDataSec: 30,
      streamDownSec: 20,
      deadManSec: 30,
      maxRejectsPerMin: 30,
      rejectQuietSec: 60,
      explainedRejectCodes: ["post_only_would_cross", "market_not_open", "vault_not_deployed"],
      driftTolerance: 0,
      minQuoteSize: 1_000_000n,
    });
  });

  it("a live config resolves its key and takes the platform's rate defaults; the wallet's address is derived", () => {
    const c = parse(live());
    if (c.mode !== "live") throw new Error("live expected");
    expect(c.platform.apiKey.reveal()).toBe(API_KEY);
    expect(c.platform.rateLimitPerMin).toBe(600);
    expect(c.platform.wsUrl).toBeUndefined();
    expect(c.wallets[0]!.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

describe("shape", () => {
  it("every object is strict: a misspelt key is an error at its path", () => {
    expect(issues(sim({ quoting: { refreshMS: 5 } }))).toEqual([expect.stringMatching(/^quoting: Unrecognized key.*refreshMS/)]);
    expect(issues(sim({ risk: { priceBand: { mn: "0.1" } } }))).toEqual([expect.stringMatching(/^risk.priceBand: Unrecognized key/)]);
    expect(issues(sim({ extra: 1 }))).toEqual([expect.stringMatching(/Unrecognized key/)]);
  });

  it("mode picks the shape: live refuses the simulator section and needs a platform with a key", () => {
    expect(issues(live({ simulator: {} })).join()).toMatch(/Unrecognized key.*simulator/);
    expect(issues({ ...live(), platform: { baseUrl: "https://x.test" } })).toEqual([expect.stringMatching(/^platform.apiKey: required:/)]);
    expect(issues({ ...sim(), mode: "paper" }).length).toBe(1);
  });

  it("live URLs must be http(s) for REST and ws(s) for the stream", () => {
    expect(issues(live({ platform: { baseUrl: "ftp://x.test", apiKey: "${MM_API_KEY}" } }))).toEqual(["platform.baseUrl: expected an http(s) URL"]);
    expect(issues(live({ platform: { baseUrl: "https://x.test", wsUrl: "https://x.test/ws", apiKey: "${MM_API_KEY}" } }))).toEqual(["platform.wsUrl: expected a ws(s) URL"]);
    expect(issues(live({ platform: { baseUrl: "https://x.test", wsUrl: "wss://x.test/ws/user", apiKey: "${MM_API_KEY}" } }))).toEqual([]);
  });

  it("bounds that guard the daemon", () => {
    expect(issues(sim({ instance: { id: "Has Caps" } }))).toEqual(["instance.id: expected 1-16 characters of [a-z0-9-]"]);
    expect(issues(sim({ quoting: { refreshMs: 49 } }))).toHaveLength(1);
    expect(issues(sim({ platform: { rateSafetyMargin: 0.6 } }))).toHaveLength(1);
    expect(issues(sim({ platform: { partnerKind: "single_wallet" } }))).toHaveLength(1);
    expect(issues(sim({ capacity: { shedFraction: 0 } }))).toHaveLength(1);
    expect(issues(sim({ markets: { filters: { tag: Array.from({ length: 21 }, (_, i) => `t${i}`) } } }))).toHaveLength(1);
    expect(issues(sim({ markets: { filters: { tag: Array.from({ length: 20 }, (_, i) => `t${i}`) } } }))).toEqual([]);
    expect(issues(sim({ strategy: { name: "Ladder" } }))).toHaveLength(1);
    expect(issues(sim({ risk: { maxOrderSize: "0" } }))).toEqual(["risk.maxOrderSize: must be > 0"]);
    expect(issues(sim({ risk: { explainedRejectCodes: ["Bad-Code"] } }))).toHaveLength(1);
    expect(issues(sim({ simulator: { speed: 0 } }))).toHaveLength(1);
  });
});

describe("cross-field rules", () => {
  it("the price band's min must be below its max", () => {
    expect(issues(sim({ risk: { priceBand: { min: "0.5", max: "0.5" } } }))).toEqual(["risk.priceBand: min must be below max"]);
    expect(issues(sim({ risk: { priceBand: { min: "0.4", max: "0.6" } } }))).toEqual([]);
  });

  it("a wallet's notional may not exceed the total", () => {
    expect(issues(sim({ risk: { maxNotionalPerWallet: "6000" } }))).toEqual(["risk.maxNotionalPerWallet: must not exceed risk.maxNotionalTotal"]);
    expect(issues(sim({ risk: { maxNotionalPerWallet: "5000" } }))).toEqual([]);
  });

  it("a market listed by two wallets is refused at the second listing; one wallet listing it twice is not", () => {
    const wallets = [
      { name: "a", markets: ["X", "Y"] },
      { name: "b", markets: ["Z", "X"] },
    ];
    expect(issues(sim({ wallets }))).toEqual(["wallets.1.markets.1: market X is already assigned to wallet a (one wallet per market avoids self-trades)"]);
    expect(issues(sim({ wallets: [{ name: "a", markets: ["X", "X"] }] }))).toEqual([]);
  });
});
