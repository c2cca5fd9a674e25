import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { createSimPlatform } from "../../../src/sim/platform/platform.js";
import { defaultScenarioPath, loadScenario, parseScenario } from "../../../src/sim/platform/scenario.js";
import { T0 } from "./fixtures.js";

const DEFAULT = loadScenario(defaultScenarioPath());
const KEY = DEFAULT.partners[0]!.keys[0]!.key;
const MM1 = DEFAULT.wallets[0]!.address!;
const UNSEEN = "0x1111111111111111111111111111111111111111";

function boot(scenario = DEFAULT) {
  const clock = new VirtualClock(T0);
  const platform = createSimPlatform(scenario, { clock, pepper: Buffer.alloc(32, 1) });
  return { clock, platform };
}

const place = { requiredScopes: ["orders:write"] as const, ip: "127.0.0.1" };

describe("default scenario platform", () => {
  it("authenticates the scenario key for a scenario wallet, which can trade at once", () => {
    const { platform } = boot();
    const r = platform.authorize({ ...place, apiKeyHeader: KEY, userWalletHeader: MM1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r).toMatchObject({ wallet: MM1.toLowerCase(), onboardingEnqueued: false, partner: { id: "demo-mm" } });
    expect(platform.tradingCheck(r.wallet!, r.partner).ok).toBe(true);
    expect(platform.wallets.vaultInfo(MM1, T0).deployed).toBe(true);
  });

  it("onboards an unseen wallet on its first request: vault_not_deployed, then kyc_blocked, then ok", async () => {
    const { platform, clock } = boot();
    const r = platform.authorize({ ...place, apiKeyHeader: KEY, userWalletHeader: UNSEEN });
    expect(r).toMatchObject({ ok: true, onboardingEnqueued: true });
    if (!r.ok) return;
    const check = () => {
      const c = platform.tradingCheck(UNSEEN, r.partner);
      return c.ok ? "ok" : c.code;
    };
    expect(check()).toBe("vault_not_deployed");
    await clock.advance(10_000);
    expect(check()).toBe("kyc_blocked");
    expect(platform.wallets.vaultInfo(UNSEEN, clock.now()).deployed).toBe(true);
    await clock.advance(15_000);
    expect(check()).toBe("ok");
  });

  it("a banned wallet is refused with 403 wallet_banned after authentication", () => {
    const { platform } = boot();
    platform.wallets.ban(MM1);
    expect(platform.authorize({ ...place, apiKeyHeader: KEY, userWalletHeader: MM1 })).toMatchObject({ status: 403, code: "wallet_banned" });
  });

  it("lifecycle runs on the clock: the pre-market market opens at +20 s, the short market closes at +5 m", async () => {
    const { platform, clock } = boot();
    platform.start();
    const cat = platform.catalogue;
    const bar = cat.marketBySymbol("BAR-RMA-BAR")!;
    const goal = cat.marketBySymbol("ARS-CHE-GOAL5")!;
    const heard: string[] = [];
    cat.onTransition((m, t) => heard.push(`${m.symbol}:${t.to}@${clock.now() - T0}`));
    expect(cat.status(bar.id)).toBe("PRE_MARKET");
    expect(cat.admitOrder(bar.id, { postOnly: false })).toMatchObject({ answer: "reject", code: "market_not_open" });
    await clock.advance(20_000);
    expect(cat.status(bar.id)).toBe("OPEN");
    await clock.advance(5 * 60_000);
    expect(cat.admitOrder(goal.id, { postOnly: true })).toMatchObject({ status: 409, code: "market_not_open", details: { status: "CLOSED" } });
    expect(heard).toEqual(["BAR-RMA-BAR:OPEN@20000", "ARS-CHE-GOAL5:CLOSED@300000"]);
    platform.stop();
  });

  it("is deterministic for a seed: same ids, token ids and slugs", () => {
    const a = boot().platform.catalogue.markets("all", true);
    const b = boot().platform.catalogue.markets("all", true);
    expect(a.map((m) => [m.id, m.slug, m.symbol, m.outcomeTokenIds.join()])).toEqual(b.map((m) => [m.id, m.slug, m.symbol, m.outcomeTokenIds.join()]));
  });

  it("exposes settings, starting balances, wallet test keys and per-market flow setup", () => {
    const { platform } = boot();
    expect(platform.settings).toMatchObject({ chainId: 31337, env: "sim", domain: { name: "PartnerExchange", version: "1" } });
    expect(platform.settings.contracts.exchange.binary).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(platform.startingBalances.map((b) => b.collateral)).toEqual([10_000_000_000n, 10_000_000_000n, 10_000_000_000n]);
    expect(platform.walletSecrets.every((w) => w.privateKey !== null)).toBe(true);
    const epl = platform.catalogue.marketBySymbol("EPL-WINNER")!;
    const setup = platform.markets.find((m) => m.marketId === epl.id)!;
    expect(setup.fairValue).toEqual([340_000n, 300_000n, 240_000n, 120_000n]);
    const ars = platform.markets.find((m) => m.marketId === platform.catalogue.marketBySymbol("ARS-CHE-ARS")!.id)!;
    expect(ars.fairValue).toEqual([450_000n, 550_000n]);
    expect(platform.markets).toHaveLength(6);
  });
});

describe("operator moves", () => {
  it("issued keys authenticate; the plaintext is only in the result", () => {
    const { platform } = boot();
    const issued = platform.issueKey("demo-mm", ["orders:read"]);
    expect(platform.authorize({ apiKeyHeader: issued.plaintext, userWalletHeader: MM1, requiredScopes: ["orders:read"] }).ok).toBe(true);
    platform.revokeKey(issued.record.keyId);
    expect(platform.authorize({ apiKeyHeader: issued.plaintext, userWalletHeader: MM1, requiredScopes: ["orders:read"] })).toMatchObject({
      code: "api_key_revoked",
    });
  });

  it("kind, KYC policy and associated wallet change only after every active write key is revoked", () => {
    const { platform } = boot();
    expect(platform.updatePartner("demo-mm", { requirePerWalletKyc: true })).toMatchObject({ status: 409, code: "invalid_state" });
    expect(platform.updatePartner("demo-mm", { rateLimitPerMin: 1200 })).toMatchObject({ ok: true, partner: { rateLimitPerMin: 1200 } });
    platform.revokeKey(KEY.split("_")[2]!);
    expect(platform.updatePartner("demo-mm", { requirePerWalletKyc: true })).toMatchObject({ ok: true, partner: { requirePerWalletKyc: true } });
  });

  it("suspending the partner suspends its keys", () => {
    const { platform } = boot();
    platform.updatePartner("demo-mm", { suspended: true });
    expect(platform.authorize({ ...place, apiKeyHeader: KEY, userWalletHeader: MM1 })).toMatchObject({ code: "api_key_suspended" });
  });

  it("refuses write keys that spec 5.3 forbids", () => {
    const s = parseScenario(
      `partners:\n  - { id: solo, name: Solo, kind: single_wallet }\n`,
      "solo.yaml",
    );
    const { platform } = boot(s);
    expect(() => platform.issueKey("solo", ["orders:write"])).toThrow(/associated wallet/);
    expect(platform.issueKey("solo", ["orders:read"]).plaintext).toMatch(/^pmk_sim_/);
  });
});

describe("scenario actions and faults", () => {
  const text = `
seed: 3
start: "2026-06-01T12:00:00Z"
events:
  - title: X
    markets:
      - title: M
        symbol: M
        tradingWindow: { opensAt: -1m }
        actions:
          - { at: +1m, action: pause }
          - { at: +2m, action: pause }
          - { at: +3m, action: resume }
          - { at: +4m, action: resolve, payoutNumerators: [0, 1] }
faults:
  - { route: "POST /api/orders/*", kind: trading_temporarily_unavailable, probability: 0.5 }
`;

  it("scheduled actions run at their times; refused ones are recorded", async () => {
    const s = parseScenario(text, "actions.yaml");
    const clock = new VirtualClock(Date.UTC(2026, 5, 1, 12));
    const platform = createSimPlatform(s, { clock });
    platform.start();
    const m = platform.catalogue.marketBySymbol("M")!;
    await clock.advance(60_000);
    expect(platform.catalogue.status(m.id)).toBe("PAUSED");
    await clock.advance(60_000);
    expect(platform.actionErrors).toMatchObject([{ action: "pause", error: { code: "invalid_transition" } }]);
    await clock.advance(60_000);
    expect(platform.catalogue.status(m.id)).toBe("OPEN");
    await clock.advance(60_000);
    expect(platform.catalogue.lifecycle(m.id)).toMatchObject({ status: "RESOLVED", payoutNumerators: [0, 1] });
    expect(platform.catalogue.refusedTransitions).toBe(1);
  });

  it("scenario fault decisions are the same for the same seed", () => {
    const run = () => {
      const clock = new VirtualClock(T0);
      const p = createSimPlatform(parseScenario(text, "f.yaml"), { clock });
      return Array.from({ length: 64 }, () => (p.faults.decide("POST /api/orders/place", clock.now()) ? 1 : 0)).join("");
    };
    const a = run();
    expect(run()).toBe(a);
    expect(a).toContain("1");
    expect(a).toContain("0");
  });
});
