/**
 * Vault deployment through sign/submit (src/sim/desk/vault-deploy.ts), called on the desk directly:
 * the sign step's EIP-712 VaultDeploy typed data (whose hash is the digest it hands out) with a
 * 10-minute deadline and a fresh nonce replacing the previous step; a submit signed by the owner
 * deploys the vault `vaultDeployMs` later (DEPLOYING, then DEPLOYED on a repeat); the refusals
 * (no or stale sign step, bad body, deadline passed, another signer, a vault deployed or deploying).
 */
import { hashTypedData } from "viem";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { DEPLOY_SIGN_TTL_SEC, vaultDeployDesk } from "../../../src/sim/desk/vault-deploy.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { WalletSigner } from "../../../src/signing/index.js";

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const NEW_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const NEW = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const ONBOARDED_KEY = "0x040c9ba6ea32f98a659955309e06a2bff2874f8730bde3f68141c073d88a4306";
const ONBOARDED = "0x86de5549fb86499c2e7e935b175e2bb5c1fde79e";
const DEPLOY_MS = 10_000; // the scenario's onboarding.vaultDeployMs default

const SCENARIO = `
seed: 1
start: "2026-06-01T12:00:00Z"
partners:
  - id: kyc-mm
    name: KYC MM
    kind: multi_wallet
    keys:
      - { key: pmk_sim_00000000000000b1_${"S".padEnd(32, "x")}, scopes: [orders:read] }
wallets:
  - { name: fresh, privateKey: "${NEW_KEY}", partner: kyc-mm, kyc: { approved: true, tier: 1 }, onboarded: false }
  - { name: old, privateKey: "${ONBOARDED_KEY}", partner: kyc-mm, kyc: { approved: true, tier: 1 } }
events:
  - title: Test
    markets:
      - { title: Will it?, symbol: TST, tradingWindow: { opensAt: -1h } }
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
type Json = any;

function world(verifySignatures = true) {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(SCENARIO, "deploy.yaml"), { clock, pepper: new Uint8Array(32), flow: false, verifySignatures });
  const desk = vaultDeployDesk(sim);
  const vault = sim.platform.wallets.vaultInfo(NEW, T0).vaultAddress.toLowerCase();
  const sign = (wallet = NEW): Json => desk.sign({ wallet }, clock.now());
  return { sim, clock, desk, vault, sign };
}

const owner = WalletSigner.fromPrivateKey(NEW_KEY);
const stranger = WalletSigner.fromPrivateKey(ONBOARDED_KEY);

describe("deploy/sign", () => {
  it("hands out the VaultDeploy typed data, its digest, a nonce and a deadline 10 minutes on", () => {
    const w = world();
    const a = w.sign();
    expect(a.status).toBe(200);
    const b = a.body;
    const deadline = String(Math.floor(T0 / 1000) + 600);
    expect(DEPLOY_SIGN_TTL_SEC).toBe(600);
    expect(b).toMatchObject({ walletAddress: NEW, vaultAddress: w.vault, nonce: "1", deadline });
    expect(b.typedData).toMatchObject({
      primaryType: "VaultDeploy",
      domain: { chainId: w.sim.platform.settings.chainId, verifyingContract: w.vault },
      message: { owner: NEW, vault: w.vault, nonce: "1", deadline },
    });
    expect(b.typedData.types.VaultDeploy).toEqual([
      { name: "owner", type: "address" },
      { name: "vault", type: "address" },
      { name: "nonce", type: "uint256" },
      { name: "deadline", type: "uint256" },
    ]);
    expect(b.vaultAddress).not.toBe(NEW);
    // What a client signs from the typed data is the digest handed out.
    const { EIP712Domain: _d, ...types } = b.typedData.types;
    const m = b.typedData.message;
    expect(hashTypedData({ domain: b.typedData.domain, types, primaryType: "VaultDeploy", message: { ...m, nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) } })).toBe(b.digest);
  });

  it("a new sign step replaces the previous one with a fresh nonce", async () => {
    const w = world();
    const first = w.sign().body;
    const second = w.sign().body;
    expect([first.nonce, second.nonce]).toEqual(["1", "2"]);
    expect(second.digest).not.toBe(first.digest);
    const stale = w.desk.submit({ nonce: first.nonce, deadline: first.deadline, signature: await owner.signDigest(first.digest) }, { wallet: NEW }, T0);
    expect([stale.status, (stale.body as Json).error.code, (stale.body as Json).error.details.field]).toEqual([400, "invalid_request", "nonce"]);
  });

  it("refuses a wallet whose vault is already deployed with 409 invalid_state", () => {
    const w = world();
    const a = w.sign(ONBOARDED);
    expect(a).toMatchObject({ status: 409, body: { error: { code: "invalid_state", message: "the vault is already deployed" } } });
  });
});

describe("deploy/submit", () => {
  it("an owner-signed submit deploys the vault vaultDeployMs later; a repeat answers the same deployment", async () => {
    const w = world();
    const s = w.sign().body;
    const a = w.desk.submit({ nonce: s.nonce, deadline: s.deadline, signature: await owner.signDigest(s.digest) }, { wallet: NEW }, T0);
    expect(a.status).toBe(200);
    const body = a.body as Json;
    expect(body).toMatchObject({ walletAddress: NEW, vaultAddress: w.vault, status: "DEPLOYING", deployedAt: null });
    expect(body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.sim.platform.wallets.vaultInfo(NEW, T0 + DEPLOY_MS - 1).deployed).toBe(false);
    expect(w.sim.platform.wallets.vaultInfo(NEW, T0 + DEPLOY_MS).deployed).toBe(true);
    // Any later submit (even without a valid step) answers the deployment, DEPLOYED once it exists.
    const again = w.desk.submit({ nonce: "9", deadline: "9", signature: "0x00" }, { wallet: NEW }, T0 + DEPLOY_MS);
    expect(again).toEqual({ status: 200, body: { ...body, status: "DEPLOYED", deployedAt: new Date(T0 + DEPLOY_MS).toISOString() } });
  });

  it("a sign step while the deployment is under way, or after, is 409 invalid_state", async () => {
    const w = world();
    const s = w.sign().body;
    w.desk.submit({ nonce: s.nonce, deadline: s.deadline, signature: await owner.signDigest(s.digest) }, { wallet: NEW }, T0);
    expect(w.sign()).toMatchObject({ status: 409, body: { error: { code: "invalid_state", message: "the vault deployment is already under way" } } });
    await w.clock.advance(DEPLOY_MS);
    expect(w.sign()).toMatchObject({ status: 409, body: { error: { code: "invalid_state", message: "the vault is already deployed" } } });
  });

  it("without a sign step, or with another deadline, is 400 invalid_request naming nonce", () => {
    const w = world();
    const none = w.desk.submit({ nonce: "1", deadline: "1", signature: "0x00" }, { wallet: NEW }, T0);
    expect([none.status, (none.body as Json).error.code, (none.body as Json).error.details.field]).toEqual([400, "invalid_request", "nonce"]);
    const s = w.sign().body;
    const other = w.desk.submit({ nonce: s.nonce, deadline: String(Number(s.deadline) + 1), signature: "0x00" }, { wallet: NEW }, T0);
    expect([other.status, (other.body as Json).error.code, (other.body as Json).error.details.field]).toEqual([400, "invalid_request", "nonce"]);
  });

  it("refuses a malformed body naming the fields", () => {
    const w = world();
    for (const raw of [undefined, {}, { nonce: "1", deadline: "1" }, { nonce: "x", deadline: "1", signature: "0x00" }, { nonce: "1", deadline: "1", signature: "0x00", extra: 1 }]) {
      const a = w.desk.submit(raw, { wallet: NEW }, T0);
      expect([raw, a.status, (a.body as Json).error.code]).toEqual([raw, 400, "invalid_request"]);
      expect((a.body as Json).error.details.fields.length).toBeGreaterThan(0);
    }
  });

  it("up to the deadline (inclusive) it deploys; a millisecond later it is 400 expired", async () => {
    const w = world();
    const s = w.sign().body;
    const sig = await owner.signDigest(s.digest);
    expect(w.desk.submit({ nonce: s.nonce, deadline: s.deadline, signature: sig }, { wallet: NEW }, T0 + 600_000).status).toBe(200);
    const late = world();
    const s2 = late.sign().body;
    const a = late.desk.submit({ nonce: s2.nonce, deadline: s2.deadline, signature: await owner.signDigest(s2.digest) }, { wallet: NEW }, T0 + 600_001);
    expect(a).toMatchObject({ status: 400, body: { error: { code: "expired", details: { deadline: s2.deadline } } } });
  });

  it("a signature by another key is 400 bad_signature with the recovered and expected signers; nothing is deployed", async () => {
    const w = world();
    const s = w.sign().body;
    const a = w.desk.submit({ nonce: s.nonce, deadline: s.deadline, signature: await stranger.signDigest(s.digest) }, { wallet: NEW }, T0);
    expect(a.status).toBe(400);
    expect((a.body as Json).error).toMatchObject({ code: "bad_signature", details: { expected_signer: NEW } });
    expect(String((a.body as Json).error.details.recovered).toLowerCase()).toBe(ONBOARDED);
    const junk = w.desk.submit({ nonce: s.nonce, deadline: s.deadline, signature: "0x00" }, { wallet: NEW }, T0);
    expect((junk.body as Json).error).toMatchObject({ code: "bad_signature", details: { recovered: null } });
    expect(w.sim.platform.wallets.vaultInfo(NEW, T0 + DEPLOY_MS).deployed).toBe(false);
  });

  it("with signature checks off, any signature deploys", () => {
    const w = world(false);
    const s = w.sign().body;
    expect(w.desk.submit({ nonce: s.nonce, deadline: s.deadline, signature: "0x00" }, { wallet: NEW }, T0)).toMatchObject({ status: 200, body: { status: "DEPLOYING" } });
  });

  it("is one desk per simulator", () => {
    const w = world();
    // Compared as booleans: printing a desk (which holds the whole simulator) is slow.
    expect(vaultDeployDesk(w.sim) === w.desk).toBe(true);
    expect(vaultDeployDesk(world().sim) === w.desk).toBe(false);
  });
});
