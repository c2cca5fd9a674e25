import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { AUTH_RETRY, backoffMs, fetchPlatformInfo, resolveVault } from "../../../src/bot/engine/startup.js";
import { VAULT, WALLET, clientHarness, envelope, json, silentLogger } from "./fakes.js";

const policy = { initialMs: 1_000, maxMs: 8_000 };

describe("resolveVault (spec 5.3 onboarding)", () => {
  it("retries vault_not_deployed, deployed:false and kyc_blocked with backoff until the vault is there", async () => {
    const { clock, transport, client } = clientHarness();
    const answers = [
      envelope(409, "vault_not_deployed"),
      envelope(409, "vault_not_deployed", { retryAfterSec: 3 }),
      json(200, { walletAddress: WALLET, vaultAddress: VAULT, deployed: false }),
      envelope(403, "kyc_blocked"),
      json(200, { walletAddress: WALLET, vaultAddress: VAULT, deployed: true }),
    ];
    transport.on("GET", /^\/api\/me\/vault$/, () => answers.shift()!);
    const waits: string[] = [];
    const p = resolveVault(client.forWallet(WALLET), { clock, rng: new Rng(3), log: silentLogger(), policy }, (why) => waits.push(why));
    let vault: string | undefined;
    void p.then((v) => (vault = v));
    await clock.advance(60_000);
    expect(vault).toBe(VAULT);
    expect(waits).toEqual(["vault_not_deployed", "vault_not_deployed", "vault_not_deployed", "kyc_blocked"]);
    const at = transport.requests.map((r) => r.at - transport.requests[0]!.at);
    // Each wait is within [d/2, d] of the doubling backoff, and never shorter than Retry-After.
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(500);
    expect(gaps[0]).toBeLessThanOrEqual(1_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(3_000);
    expect(gaps[2]).toBeGreaterThanOrEqual(2_000);
    expect(gaps[2]).toBeLessThanOrEqual(4_000);
    expect(gaps[3]).toBeGreaterThanOrEqual(4_000);
    expect(gaps[3]).toBeLessThanOrEqual(8_000);
    // Same seed, same waits: deterministic on the virtual clock.
    expect(backoffMs(0, policy, new Rng(3))).toBe(gaps[0]);
  });

  it("retries a refused key (401) on the slower auth backoff, capped at 30 s, until the key works", async () => {
    const { clock, transport, client } = clientHarness();
    let refusals = 9;
    transport.on("GET", /^\/api\/me\/vault$/, () => (refusals-- > 0 ? envelope(401, "api_key_bad_secret") : json(200, { walletAddress: WALLET, vaultAddress: VAULT, deployed: true })));
    const waits: string[] = [];
    const p = resolveVault(client.forWallet(WALLET), { clock, rng: new Rng(1), log: silentLogger(), policy }, (why) => waits.push(why));
    let vault: string | undefined;
    void p.then((v) => (vault = v));
    await clock.advance(300_000);
    expect(vault).toBe(VAULT);
    expect(transport.requests.length).toBe(10);
    const at = transport.requests.map((r) => r.at);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    // AUTH_RETRY: [d/2, d] with d = 1 s doubling to 30 s (the onboarding policy here caps at 8 s).
    for (const [i, g] of gaps.entries()) {
      const d = Math.min(AUTH_RETRY.maxMs, AUTH_RETRY.initialMs * 2 ** i);
      expect(g).toBeGreaterThanOrEqual(d / 2);
      expect(g).toBeLessThanOrEqual(d);
    }
    expect(Math.max(...gaps)).toBeGreaterThan(policy.maxMs);
    // A refused key is not onboarding.
    expect(waits).toEqual([]);
  });

  it("stops at once on a scope refusal (403: the key works, it lacks a scope; no wait helps)", async () => {
    const { clock, transport, client } = clientHarness();
    transport.on("GET", /^\/api\/me\/vault$/, envelope(403, "api_key_scope_missing"));
    const p = resolveVault(client.forWallet(WALLET), { clock, rng: new Rng(1), log: silentLogger(), policy });
    await expect(p).rejects.toMatchObject({ code: "api_key_scope_missing" });
    expect(transport.requests.length).toBe(1);
  });

  it("stops waiting when its signal aborts", async () => {
    const { clock, transport, client } = clientHarness();
    transport.on("GET", /^\/api\/me\/vault$/, envelope(409, "vault_not_deployed"));
    const ac = new AbortController();
    const p = resolveVault(client.forWallet(WALLET), { clock, rng: new Rng(1), log: silentLogger(), policy, signal: ac.signal });
    const settled = p.catch((e: unknown) => e);
    await clock.advance(5_000);
    ac.abort(new Error("stop"));
    expect(await settled).toBeInstanceOf(Error);
    const n = transport.requests.length;
    await clock.advance(60_000);
    expect(transport.requests.length).toBe(n);
  });
});

describe("fetchPlatformInfo", () => {
  it("retries transient failures of the contracts read, then reads the fee config", async () => {
    const { clock, transport, client } = clientHarness();
    const contracts = { chainId: 31337, domain: { name: "PartnerExchange", version: "1" }, exchange: { binary: VAULT, negRisk: VAULT }, vaultFactory: VAULT, collateral: VAULT };
    const answers = [envelope(503, "exchange_transport_error"), json(200, contracts)];
    transport.on("GET", /^\/api\/platform\/contracts$/, () => answers.shift()!);
    transport.on("GET", /^\/api\/platform\/fee-config$/, json(200, { defaultFeeTakerBps: 100, maxFeeRateBps: 1000 }));
    const p = fetchPlatformInfo(client, { clock, rng: new Rng(1), log: silentLogger(), policy });
    let info: Awaited<typeof p> | undefined;
    void p.then((i) => (info = i));
    await clock.advance(5_000);
    expect(info?.contracts.chainId).toBe(31337);
    expect(info?.feeConfig.defaultFeeTakerBps).toBe(100);
  });
});
