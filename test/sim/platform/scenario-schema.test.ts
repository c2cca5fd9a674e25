/**
 * The scenario schema's own rules (src/sim/platform/scenario-schema.ts), on plain objects (the
 * YAML loader and the default scenario are in scenario.test.ts): the start, wallets (key or
 * address, no duplicates), partners (ids, associated wallet by name or address, key ids, the
 * key issuance rules), onboarding timings, markets (slugs, symbols, labels, fair values,
 * actions), generated events validated with the written ones, challenges wired in, and fault
 * rules; each issue at its key path.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KNOWN_STAGES } from "../../../src/wire/enums.js";
import { faultRuleSchema, scenarioSchema, STAGES } from "../../../src/sim/platform/scenario-schema.js";

const KEY = "0x040c9ba6ea32f98a659955309e06a2bff2874f8730bde3f68141c073d88a4306";
const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";

type Obj = Record<string, unknown>;
const market = (over: Obj = {}): Obj => ({ title: "Will it?", tradingWindow: { opensAt: "-1h", closesAt: "+1d" }, ...over });
const event = (markets: Obj[], over: Obj = {}): Obj => ({ title: "E", markets, ...over });

/** A valid scenario: one multi_wallet partner with a trading wallet and an orders:write key. */
function base(over: Obj = {}): Obj {
  return {
    start: "2026-06-01T12:00:00Z",
    partners: [{ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc: false, keys: [{ key: "pmk_sim_k1_s1", scopes: ["orders:read", "orders:write"] }] }],
    wallets: [{ name: "w1", address: A, partner: "mm" }],
    events: [event([market({ symbol: "M1" })])],
    ...over,
  };
}

function issues(value: Obj): string[] {
  const r = scenarioSchema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("the base", () => {
  it("is valid, with the defaults filled in", () => {
    const s = scenarioSchema.parse(base());
    expect(s).toMatchObject({ seed: 1, start: { kind: "absolute", atMs: Date.UTC(2026, 5, 1, 12) }, tags: [], faults: [], challenges: [], generate: [] });
    expect(s.platform).toMatchObject({ env: "sim", keyPrefix: "pmk", chainId: 31337, apiVersion: "2026-10-09", defaultFeeTakerBps: 100, domain: { name: "PartnerExchange", version: "1" }, contracts: { exchange: {} } });
    expect(s.wallets[0]).toMatchObject({ kyc: { approved: false, tier: 0 }, banned: false, onboarded: true, balances: { collateral: 0n, positions: [] } });
    expect(s.events[0]!.markets[0]).toMatchObject({ outcomeLabels: ["Yes", "No"], feeTakerBps: null, negRiskEligible: false, crypto: null, actions: [] });
    expect(STAGES).toBe(KNOWN_STAGES);
  });

  it("start is now by default, or an ISO date-time; nothing else", () => {
    expect(scenarioSchema.parse(base({ start: undefined })).start).toEqual({ kind: "now" });
    expect(issues(base({ start: "+1h" }))).toEqual(['start: start must be "now" or an ISO-8601 date-time, got "+1h"']);
    expect(issues(base({ start: "tomorrow" }))).toEqual(['start: start must be "now" or an ISO-8601 date-time, got "tomorrow"']);
  });

  it("seed is a 32-bit unsigned integer", () => {
    expect(scenarioSchema.parse(base({ seed: 0xffffffff })).seed).toBe(0xffffffff);
    expect(issues(base({ seed: -1 }))[0]).toMatch(/^seed: /);
    expect(issues(base({ seed: 2 ** 32 }))[0]).toMatch(/^seed: /);
  });
});

describe("wallets", () => {
  it("need a private key or an address, and a key that is a real secp256k1 key", () => {
    expect(issues(base({ wallets: [{ name: "w1", address: A, partner: "mm" }, { name: "w2" }] }))).toEqual(["wallets.1: a wallet needs a privateKey or an address"]);
    expect(issues(base({ wallets: [{ name: "w1", address: A, partner: "mm" }, { privateKey: `0x${"0".repeat(64)}` }] }))).toEqual(["wallets.1.privateKey: not a valid secp256k1 private key"]);
    expect(issues(base({ wallets: [{ name: "w1", address: A, partner: "mm" }, { privateKey: KEY }] }))).toEqual([]);
  });

  it("are unique by address (any case, derived or written) and by name", () => {
    expect(issues(base({ wallets: [{ name: "w1", address: A, partner: "mm" }, { name: "w2", address: A.toUpperCase().replace("0X", "0x") }] }))).toEqual([`wallets.1: duplicate wallet ${A} (also wallets[0])`]);
    expect(issues(base({ wallets: [{ name: "w1", address: A, partner: "mm" }, { name: "w1", address: B }] }))).toEqual(["wallets.1.name: duplicate wallet name w1"]);
  });
});

describe("partners and keys", () => {
  it("partner ids are unique", () => {
    const p = { id: "mm", name: "Again", kind: "multi_wallet" };
    expect(issues(base({ partners: [...(base()["partners"] as Obj[]), p] }))).toEqual(["partners.1.id: duplicate partner id mm"]);
  });

  it("an associated wallet is a wallet name of the file or an address", () => {
    const assoc = (associatedWallet: string) => base({ partners: [{ id: "mm", name: "MM", kind: "multi_wallet", associatedWallet }], wallets: [{ name: "w1", address: A }] });
    expect(issues(assoc("w1"))).toEqual([]);
    expect(issues(assoc(B))).toEqual([]);
    expect(issues(assoc("w9"))).toEqual(["partners.0.associatedWallet: expected a 0x address or the name of a wallet in this file"]);
  });

  it("key ids are unique across partners, and keys carry the platform's prefix and env", () => {
    const partners = [
      { id: "a", name: "A", kind: "multi_wallet", keys: [{ key: "pmk_sim_k1_s1", scopes: ["orders:read"] }] },
      { id: "b", name: "B", kind: "multi_wallet", keys: [{ key: "pmk_sim_k1_s2", scopes: ["orders:read"] }] },
    ];
    expect(issues(base({ partners, wallets: [] }))).toEqual(["partners.1.keys.0.key: duplicate key id k1"]);
    expect(issues(base({ platform: { env: "prod" } }))).toEqual(["partners.0.keys.0.key: key must start with pmk_prod_"]);
  });

  it("a single_wallet partner's write key needs its associated wallet KYC'd at tier 1", () => {
    const single = (kyc: Obj) =>
      base({
        partners: [{ id: "s", name: "S", kind: "single_wallet", associatedWallet: "w1", keys: [{ key: "pmk_sim_k2_s2", scopes: ["orders:read", "orders:write"] }] }],
        wallets: [{ name: "w1", address: A, partner: "s", kyc }],
      });
    expect(issues(single({ approved: true, tier: 1 }))).toEqual([]);
    expect(issues(single({ approved: true, tier: 0 }))).toEqual(["partners.0.keys.0.scopes: the associated wallet must be KYC APPROVED with tier >= 1 before a write-scope key is issued"]);
  });

  it("a multi_wallet partner's orders:write key needs an active trading wallet: not banned, KYC'd when required", () => {
    const withWallet = (w: Obj, requirePerWalletKyc = false) =>
      base({ partners: [{ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc, keys: [{ key: "pmk_sim_k1_s1", scopes: ["orders:write"] }] }], wallets: [{ address: A, partner: "mm", ...w }] });
    const problem = ["partners.0.keys.0.scopes: an orders:write key is issued only to a multi_wallet partner with at least one active trading wallet"];
    expect(issues(withWallet({}))).toEqual([]);
    expect(issues(withWallet({ banned: true }))).toEqual(problem);
    expect(issues(withWallet({}, true))).toEqual(problem);
    expect(issues(withWallet({ kyc: { approved: true, tier: 1 } }, true))).toEqual([]);
  });

  it("onboarding's limits confirm no earlier than the vault deploys", () => {
    expect(issues(base({ onboarding: { vaultDeployMs: "30s", limitsConfirmMs: "10s" } }))).toEqual(["onboarding.limitsConfirmMs: must be at least vaultDeployMs"]);
    expect(scenarioSchema.parse(base({ onboarding: { vaultDeployMs: "5s", limitsConfirmMs: 5000 } })).onboarding).toEqual({ vaultDeployMs: 5000, limitsConfirmMs: 5000 });
  });
});

describe("events and markets", () => {
  it("slugs and symbols are unique, an event slug may equal a market slug", () => {
    const events = [event([market({ slug: "x", symbol: "S" })], { slug: "x" }), event([market({ slug: "x", symbol: "S" })], { slug: "x" })];
    expect(issues(base({ events }))).toEqual(["events.1.slug: duplicate event slug x", "events.1.markets.0.slug: duplicate market slug x", "events.1.markets.0.symbol: duplicate symbol S"]);
  });

  it("outcome labels are unique; fair values one per outcome (one is enough on a binary market)", () => {
    expect(issues(base({ events: [event([market({ outcomeLabels: ["A", "A"] })])] }))).toEqual(["events.0.markets.0.outcomeLabels: labels must be unique"]);
    expect(issues(base({ events: [event([market({ fairValue: ["0.4"] })])] }))).toEqual([]);
    expect(issues(base({ events: [event([market({ outcomeLabels: ["A", "B", "C"], fairValue: ["0.4", "0.6"] })])] }))).toEqual(["events.0.markets.0.fairValue: needs one value per outcome (3)"]);
  });

  it("actions: set_status needs a status, resolve one payout numerator per outcome", () => {
    const actions = [{ at: "+1h", action: "set_status" }, { at: "+2h", action: "resolve", payoutNumerators: [1] }, { at: "+3h", action: "resolve", payoutNumerators: [1, 0] }];
    expect(issues(base({ events: [event([market({ actions })])] }))).toEqual(["events.0.markets.0.actions.0.status: set_status needs a status", "events.0.markets.0.actions.1.payoutNumerators: resolve needs 2 payout numerators"]);
  });

  it("orders absolute and relative window times against an absolute start, but not against `now`", () => {
    const w = { opensAt: "2026-06-01T12:00:00Z", closesAt: "-1h" };
    expect(issues(base({ events: [event([market({ tradingWindow: w })])] }))).toEqual(["events.0.markets.0.tradingWindow.closesAt: must be after opensAt"]);
    expect(issues(base({ start: "now", events: [event([market({ tradingWindow: w })])] }))).toEqual([]);
  });

  it("a stage is one of the wire contract's", () => {
    expect(issues(base({ events: [event([market()], { stage: "final" })] }))).toEqual([]);
    expect(issues(base({ events: [event([market()], { stage: "round-of-3" })] }))[0]).toMatch(/^events\.0\.stage: /);
  });
});

describe("generated events and challenges", () => {
  it("appends generated events after the written ones and checks them together", () => {
    const s = scenarioSchema.parse(base({ generate: [{ kind: "events", count: 2, verticals: ["politics"] }] }));
    expect(s.events.map((e) => e.slug ?? e.title)).toEqual(["E", "gen-0000", "gen-0001"]);
    const clash = base({ events: [event([market({ symbol: "GEN-0001-0" })])], generate: [{ kind: "events", count: 2 }] });
    expect(issues(clash)).toEqual(["events.2.markets.0.symbol: duplicate symbol GEN-0001-0"]);
  });

  it("checks challenges against the markets (generated included) and wallet names of the file", () => {
    const c = { market: "GEN-0000-0", challenger: "w1", proposedOutcome: 1, reason: "r", createdAt: "-1h" };
    expect(issues(base({ generate: [{ kind: "events", count: 1 }], challenges: [c] }))).toEqual([]);
    expect(issues(base({ challenges: [{ ...c, challenger: "w2" }, { ...c, market: "M1", proposedOutcome: 2 }] }))).toEqual([
      'challenges.0.market: unknown market "GEN-0000-0": use the symbol of a market written in this file',
      "challenges.0.challenger: expected a 0x address or the name of a wallet in this file",
      "challenges.1.proposedOutcome: market M1 has 2 outcomes (0..1)",
    ]);
  });
});

describe("faultRuleSchema", () => {
  it("parses the window bounds with the time schema it is given", () => {
    const text = faultRuleSchema(z.string());
    expect(text.parse({ route: "POST /api/orders/place", kind: "latency", window: { from: "+1m", to: null } })).toEqual({ route: "POST /api/orders/place", kind: "latency", window: { from: "+1m", to: null } });
    const s = scenarioSchema.parse(base({ faults: [{ route: "*", kind: "exchange_unavailable", window: { from: "+1m" }, execute: 0.5 }] }));
    expect(s.faults[0]!.window).toEqual({ from: { kind: "relative", offsetMs: 60_000 } });
  });

  it.each([
    [{ kind: "meltdown" }, "kind"],
    [{ probability: 1.5 }, "probability"],
    [{ copies: 1 }, "copies"],
    [{ reorderWindow: 1 }, "reorderWindow"],
    [{ upstreamStatus: 600 }, "upstreamStatus"],
    [{ execute: 2 }, "execute"],
    [{ route: "" }, "route"],
  ])("refuses %j", (patch, key) => {
    const r = faultRuleSchema(z.string()).safeParse({ route: "*", kind: "latency", ...patch });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]!.path[0]).toBe(key);
  });
});
