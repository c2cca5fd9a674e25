import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { ValidationError } from "../../../src/core/validation.js";
import { defaultScenarioPath, loadScenario, parseScenario } from "../../../src/sim/platform/scenario.js";
import { parseDurationMs, parseTimeSpec } from "../../../src/sim/platform/time.js";

const WALLET_KEY = "0x040c9ba6ea32f98a659955309e06a2bff2874f8730bde3f68141c073d88a4306";

/** A small valid scenario; `patch` edits the text to make it invalid. */
const GOOD = `
seed: 5
start: "2026-06-01T12:00:00Z"
partners:
  - id: mm
    name: MM
    kind: multi_wallet
    requirePerWalletKyc: false
    keys:
      - key: pmk_sim_k1_secret1
        scopes: [orders:read, orders:write]
wallets:
  - name: w1
    privateKey: "${WALLET_KEY}"
    partner: mm
    balances: { collateral: "250.5" }
events:
  - title: A vs B
    markets:
      - title: Will A win?
        tradingWindow: { preMarketStartsAt: -1h, opensAt: +2m, closesAt: +6h }
        fairValue: "0.4"
`;

function errorOf(text: string, file = "test.yaml"): ValidationError {
  try {
    parseScenario(text, file);
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error("expected a ValidationError");
}

function paths(text: string): string[] {
  return errorOf(text).issues.map((i) => i.path);
}

describe("time syntax", () => {
  it("parses durations and relative or absolute times", () => {
    expect(parseDurationMs("10s")).toBe(10_000);
    expect(parseDurationMs("1h30m")).toBe(5_400_000);
    expect(parseDurationMs("250ms")).toBe(250);
    expect(parseDurationMs("1.5h")).toBeUndefined();
    expect(parseTimeSpec("+2m")).toEqual({ kind: "relative", offsetMs: 120_000 });
    expect(parseTimeSpec("-1h")).toEqual({ kind: "relative", offsetMs: -3_600_000 });
    expect(parseTimeSpec("now")).toEqual({ kind: "relative", offsetMs: 0 });
    expect(parseTimeSpec("2026-06-01T12:00:00Z")).toEqual({ kind: "absolute", atMs: Date.UTC(2026, 5, 1, 12) });
    expect(parseTimeSpec("tomorrow")).toBeUndefined();
  });
});

describe("the default scenario", () => {
  const s = loadScenario(defaultScenarioPath());

  it("is valid and has one multi_wallet market maker with a day-one key and no per-wallet KYC", () => {
    expect(s.partners).toHaveLength(1);
    const p = s.partners[0]!;
    expect(p).toMatchObject({ kind: "multi_wallet", requirePerWalletKyc: false });
    expect(p.keys).toHaveLength(1);
    expect([...p.keys[0]!.scopes].sort()).toEqual(["orders:read", "orders:write", "portfolio:read"]);
    expect(s.faults).toEqual([]);
  });

  it("has three funded sub-account wallets whose addresses match their test keys", () => {
    expect(s.wallets).toHaveLength(3);
    for (const w of s.wallets) {
      expect(w.partner).toBe("demo-mm");
      expect(privateKeyToAccount(w.privateKey as `0x${string}`).address).toBe(w.address);
      expect(w.balances.collateral).toBeGreaterThan(0n);
    }
  });

  it("has football match-winner markets, a multi-outcome market, one opening ~20 s after start and one closing within minutes", () => {
    const markets = s.events.flatMap((e) => e.markets);
    expect(markets.some((m) => m.outcomeLabels.length > 2)).toBe(true);
    expect(markets.filter((m) => m.marketType === "MATCH_WINNER").length).toBeGreaterThanOrEqual(2);
    expect(markets.some((m) => m.tradingWindow.opensAt.kind === "relative" && m.tradingWindow.opensAt.offsetMs === 20_000 && m.tradingWindow.preMarketStartsAt)).toBe(true);
    expect(markets.some((m) => m.tradingWindow.closesAt?.kind === "relative" && m.tradingWindow.closesAt.offsetMs <= 10 * 60_000)).toBe(true);
    for (const m of markets) expect(m.flow.enabled).toBe(true);
  });
});

describe("parsing", () => {
  it("accepts the small scenario and resolves defaults", () => {
    const s = parseScenario(GOOD, "good.yaml");
    expect(s.seed).toBe(5);
    expect(s.start).toEqual({ kind: "absolute", atMs: Date.UTC(2026, 5, 1, 12) });
    expect(s.platform).toMatchObject({ env: "sim", chainId: 31337, defaultFeeTakerBps: 100 });
    expect(s.onboarding).toEqual({ vaultDeployMs: 10_000, limitsConfirmMs: 25_000 });
    expect(s.wallets[0]!.balances.collateral).toBe(250_500_000n);
    expect(s.events[0]!.markets[0]!.fairValue).toBe(400_000n);
    expect(s.events[0]!.markets[0]!.flow.liquidity.levels).toBe(5);
  });

  it("a bad API key names the file and the key path", () => {
    const e = errorOf(GOOD.replace("pmk_sim_k1_secret1", "pmk-sim-k1"), "configs/scenarios/x.yaml");
    expect(e.message).toContain("configs/scenarios/x.yaml");
    expect(e.issues.map((i) => i.path)).toEqual(["partners[0].keys[0].key"]);
  });

  it("an unknown key is reported at its own path", () => {
    expect(paths(GOOD.replace("    requirePerWalletKyc: false", "    requirePerWalletKyc: false\n    scopez: 1"))).toEqual(["partners[0].scopez"]);
  });

  it("bad values are reported at their paths", () => {
    expect(paths(GOOD.replace("opensAt: +2m", "opensAt: soon"))).toEqual(["events[0].markets[0].tradingWindow.opensAt"]);
    expect(paths(GOOD.replace('collateral: "250.5"', "collateral: 250.5"))).toEqual(["wallets[0].balances.collateral"]);
    expect(paths(GOOD.replace('fairValue: "0.4"', 'fairValue: "1.2"'))).toEqual(["events[0].markets[0].fairValue"]);
    expect(paths(GOOD.replace("kind: multi_wallet", "kind: many_wallets"))).toEqual(["partners[0].kind"]);
    expect(paths(GOOD.replace("scopes: [orders:read, orders:write]", "scopes: [orders:read, admin]"))).toEqual(["partners[0].keys[0].scopes[1]"]);
  });

  it("cross-field rules: references, duplicates, window order, key issuance", () => {
    expect(paths(GOOD.replace("partner: mm", "partner: nobody"))).toContain("wallets[0].partner");
    expect(paths(GOOD.replace("closesAt: +6h", "closesAt: +1m"))).toEqual(["events[0].markets[0].tradingWindow.closesAt"]);
    expect(paths(GOOD.replace("preMarketStartsAt: -1h", "preMarketStartsAt: +3m"))).toEqual(["events[0].markets[0].tradingWindow.preMarketStartsAt"]);
    expect(paths(GOOD.replace("pmk_sim_k1", "pmk_prod_k1"))).toEqual(["partners[0].keys[0].key"]);
    // An orders:write key needs an active trading wallet (spec 5.3).
    expect(paths(GOOD.replace("    partner: mm\n", "    partner: null\n"))).toEqual(["partners[0].keys[0].scopes"]);
    expect(
      paths(GOOD.replace("    privateKey:", '    address: "0x0000000000000000000000000000000000000001"\n    privateKey:')),
    ).toEqual(["wallets[0].address"]);
  });

  it("YAML syntax errors and missing files are ValidationErrors naming the file", () => {
    const e = errorOf("seed: [1, 2", "broken.yaml");
    expect(e.where).toBe("broken.yaml");
    expect(e.issues[0]!.path).toBe("(yaml)");
    expect(() => loadScenario("/nonexistent/scenario.yaml")).toThrow(/nonexistent\/scenario.yaml/);
  });
});
