/**
 * Withdrawals, vault deployment and the vault emergency in the simulator, driven through the real
 * client in-process (spec 4.7, 4.8, 3.2, 7.3): the owner's EIP-712 signature, nonce dedup, the
 * status machine on the simulator clock and its control moves, the 200-envelope refusals, cancel
 * only before SUBMITTED, and the deploy sign/submit flow.
 */
import { afterEach, describe, expect, it } from "vitest";
import { signWithdrawalRequest } from "../../../src/api/index.js";
import type { PartnerClient, WalletClient } from "../../../src/api/client.js";
import { ApiError } from "../../../src/api/errors.js";
import { formatMicros } from "../../../src/core/money.js";
import { WalletSigner } from "../../../src/signing/index.js";
import type { PlatformContracts, WithdrawalRequestBody } from "../../../src/wire/index.js";
import { makeWorld, T0, type World } from "../../api/integration/world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

const ALL = ["orders:read", "orders:write", "portfolio:read", "vault:write"] as const;
const OTHER = "0x1111111111111111111111111111111111111111";
const KYC_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

interface Setup {
  w: World;
  client: PartnerClient;
  me: WalletClient;
  contracts: PlatformContracts;
  body: (over: { destination?: string; amount?: string; nonce?: bigint; deadline?: bigint }) => Promise<WithdrawalRequestBody>;
  control: (path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>;
  available: () => string;
}

async function setup(edit?: Parameters<typeof makeWorld>[1]): Promise<Setup> {
  const w = await makeWorld("in-process", edit);
  worlds.push(w);
  const key = w.sim.platform.issueKey("demo-mm", [...ALL]).plaintext;
  const client = w.client({ apiKey: key });
  const wallet = w.wallets[0]!;
  const me = client.forWallet(wallet.address);
  const contracts = (await w.drive(client.platform.contracts())).data;
  const body: Setup["body"] = (o) =>
    signWithdrawalRequest(wallet.signer, contracts, {
      vault: wallet.vault,
      destination: o.destination ?? wallet.address,
      amount: o.amount ?? "100",
      nonce: o.nonce ?? 1n,
      deadline: o.deadline ?? BigInt(Math.floor(T0 / 1000) + 3600),
    });
  const control: Setup["control"] = async (path, b) => {
    const res = await w.transport.request({ method: "POST", path, headers: { "content-type": "application/json" }, body: JSON.stringify(b ?? {}) });
    return { status: res.status, json: JSON.parse(res.body) as Record<string, unknown> };
  };
  const available = () => formatMicros(w.sim.engine.balance(wallet.address).available);
  return { w, client, me, contracts, body, control, available };
}

async function accepted(s: Setup, b: WithdrawalRequestBody) {
  const r = await s.w.drive(s.me.withdrawals.request(b));
  if (r.outcome !== "accepted") throw new Error(`expected accepted, got ${JSON.stringify(r)}`);
  return r.withdrawal;
}

describe("withdrawals in the simulator", () => {
  it("a signed request is recorded PENDING, debits the vault and moves through 3.2 on the simulator clock", async () => {
    const s = await setup();
    const before = s.available();
    const wd = await accepted(s, await s.body({ amount: "250.5" }));
    expect(wd).toMatchObject({ status: "PENDING", amount: "250.5", destination: s.w.wallets[0]!.address, txHash: null });
    expect(s.available()).toBe(formatMicros(BigInt(Math.round(Number(before) * 1e6)) - 250_500_000n));

    await s.w.clock.advance(10_000);
    expect((await s.w.drive(s.me.withdrawals.get(wd.id))).data.status).toBe("CO_SIGNED");
    await s.w.clock.advance(5_000);
    const submitted = (await s.w.drive(s.me.withdrawals.get(wd.id))).data;
    expect(submitted.status).toBe("SUBMITTED");
    expect(submitted.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(submitted.updatedAt).toBe(new Date(T0 + 15_000).toISOString());
    // A jump over the confirmation lands CONFIRMED, stamped at its own due time.
    await s.w.clock.advance(60_000);
    const confirmed = (await s.w.drive(s.me.withdrawals.get(wd.id))).data;
    expect(confirmed).toMatchObject({ status: "CONFIRMED", updatedAt: new Date(T0 + 45_000).toISOString() });
  });

  it("a repeat of the same signed request answers the first record (nonce dedup); the nonce with other content is 409 nonce_reused", async () => {
    const s = await setup();
    const b = await s.body({ nonce: 7n, amount: "10" });
    const first = await accepted(s, b);
    const after = s.available();
    const again = await accepted(s, b);
    expect(again.id).toBe(first.id);
    expect(s.available()).toBe(after);
    const other = await s.w.drive(s.me.withdrawals.request(await s.body({ nonce: 7n, amount: "11" })));
    expect(other).toMatchObject({ outcome: "rejected", code: "nonce_reused", status: 409 });
  });

  it("lists newest first through the cursor helpers", async () => {
    const s = await setup();
    const ids: string[] = [];
    for (let n = 1n; n <= 5n; n++) ids.push((await accepted(s, await s.body({ nonce: n, amount: "1" }))).id);
    const page = await s.w.drive(s.me.withdrawals.listPage({ limit: 2 }));
    expect(page.data.withdrawals.map((x) => x.id)).toEqual([ids[4], ids[3]]);
    expect(page.data.nextCursor).not.toBeNull();
    const all: string[] = [];
    await s.w.drive(
      (async () => {
        for await (const x of s.me.withdrawals.list({ limit: 2 })) all.push(x.id);
      })(),
    );
    expect(all).toEqual([...ids].reverse());
    expect(s.w.transport.calls("GET", "/api/me/withdrawals").length).toBe(1 + 3);
  });

  it("answers the 200-envelope business refusals: destination_not_cleared, new_destination_edd (recorded in MLRO_REVIEW), aml_blocked, wallet_banned (banned destination)", async () => {
    const s = await setup();
    await s.control("/sim/withdrawals/config", { eddThreshold: "1000" });
    const small = await s.w.drive(s.me.withdrawals.request(await s.body({ destination: OTHER, amount: "50", nonce: 1n })));
    expect(small).toMatchObject({ outcome: "rejected", code: "destination_not_cleared", status: 200 });

    const big = await s.w.drive(s.me.withdrawals.request(await s.body({ destination: OTHER, amount: "1000", nonce: 2n })));
    expect(big).toMatchObject({ outcome: "rejected", code: "new_destination_edd", status: 200 });
    const held = big.outcome === "rejected" ? (big.details?.withdrawal as { id: string; status: string }) : undefined;
    expect(held?.status).toBe("MLRO_REVIEW");
    expect((await s.w.drive(s.me.withdrawals.get(held!.id))).data.status).toBe("MLRO_REVIEW");

    expect((await s.control("/sim/withdrawals/destinations", { destination: OTHER, state: "aml_blocked" })).status).toBe(200);
    const aml = await s.w.drive(s.me.withdrawals.request(await s.body({ destination: OTHER, amount: "50", nonce: 3n })));
    expect(aml).toMatchObject({ outcome: "rejected", code: "aml_blocked", status: 200 });

    await s.control("/sim/withdrawals/destinations", { destination: OTHER, state: "banned" });
    const bannedDest = await s.w.drive(s.me.withdrawals.request(await s.body({ destination: OTHER, amount: "50", nonce: 4n })));
    expect(bannedDest).toMatchObject({ outcome: "rejected", code: "wallet_banned", status: 200 });

    await s.control("/sim/withdrawals/destinations", { destination: OTHER, state: "cleared" });
    expect((await accepted(s, await s.body({ destination: OTHER, amount: "50", nonce: 5n }))).status).toBe("PENDING");

    s.w.sim.platform.wallets.ban(s.w.wallets[0]!.address);
    // A banned effective wallet is refused by the request checks of 5.2 (403) before the withdrawal desk.
    const banned = await s.w.drive(s.me.withdrawals.request(await s.body({ amount: "1", nonce: 6n })));
    expect(banned).toMatchObject({ outcome: "rejected", code: "wallet_banned", status: 403 });
  });

  it("cancels only in PENDING, MLRO_REVIEW and CO_SIGNED (funds back); 409 invalid_state after SUBMITTED; 404 for an unknown id", async () => {
    const s = await setup();
    await s.control("/sim/withdrawals/config", { auto: false });
    const start = s.available();
    const ids: string[] = [];
    for (let n = 1n; n <= 4n; n++) ids.push((await accepted(s, await s.body({ nonce: n, amount: "5" }))).id);
    expect((await s.control(`/sim/withdrawals/${ids[1]}/review`)).json.status).toBe("MLRO_REVIEW");
    expect((await s.control(`/sim/withdrawals/${ids[2]}/cosign`)).json.status).toBe("CO_SIGNED");
    await s.control(`/sim/withdrawals/${ids[3]}/cosign`);
    expect((await s.control(`/sim/withdrawals/${ids[3]}/broadcast`)).json.status).toBe("SUBMITTED");

    for (const id of ids.slice(0, 3)) {
      const r = await s.w.drive(s.me.withdrawals.cancel(id));
      expect(r.ok && r.data).toMatchObject({ id, status: "CANCELLED", reason: "cancelled by the user" });
    }
    const late = await s.w.drive(s.me.withdrawals.cancel(ids[3]!));
    expect(late).toMatchObject({ ok: false, code: "invalid_state", status: 409 });
    const unknown = await s.w.drive(s.me.withdrawals.cancel("00000000-0000-4000-8000-000000000000"));
    expect(unknown).toMatchObject({ ok: false, code: "withdrawal_not_found", status: 404 });
    // Three refunded, the submitted one still out.
    expect(s.available()).toBe(formatMicros(BigInt(Math.round(Number(start) * 1e6)) - 5_000_000n));
    // A repeat on CANCELLED answers the record again.
    const repeat = await s.w.drive(s.me.withdrawals.cancel(ids[0]!));
    expect(repeat.ok && repeat.data.status).toBe("CANCELLED");
  });

  it("control moves follow the 3.2 table: reject and fail carry a reason and refund, revert after SUBMITTED, a wrong move is 409", async () => {
    const s = await setup();
    await s.control("/sim/withdrawals/config", { auto: false });
    const a = await accepted(s, await s.body({ nonce: 1n, amount: "5" }));
    const b = await accepted(s, await s.body({ nonce: 2n, amount: "5" }));
    const c = await accepted(s, await s.body({ nonce: 3n, amount: "5" }));
    expect((await s.control(`/sim/withdrawals/${a.id}/reject`, { reason: "sanctions hit" })).json).toMatchObject({ status: "REJECTED", reason: "sanctions hit" });
    expect((await s.control(`/sim/withdrawals/${b.id}/fail`)).json).toMatchObject({ status: "FAILED", reason: "settlement failure" });
    await s.control(`/sim/withdrawals/${c.id}/cosign`);
    await s.control(`/sim/withdrawals/${c.id}/broadcast`);
    expect((await s.control(`/sim/withdrawals/${c.id}/revert`)).json).toMatchObject({ status: "REVERTED" });
    const wrong = await s.control(`/sim/withdrawals/${a.id}/confirm`);
    expect(wrong.status).toBe(409);
    expect((wrong.json.error as { code: string }).code).toBe("invalid_transition");
    expect(s.available()).toBe("10000");
  });

  it("refuses a signature by another key (400 bad_signature), a past deadline (400 expired), a foreign vault (401 wallet_mismatch), and a key without vault:write", async () => {
    const s = await setup();
    const good = await s.body({});
    const forged = await signWithdrawalRequest(s.w.wallets[1]!.signer, s.contracts, { vault: s.w.wallets[0]!.vault, destination: s.w.wallets[0]!.address, amount: "1", nonce: 9n, deadline: BigInt(good.deadline) });
    const bad = await s.w.drive(s.me.withdrawals.request(forged));
    expect(bad).toMatchObject({ outcome: "rejected", code: "bad_signature", status: 400 });
    expect(bad.outcome === "rejected" && bad.details?.recovered).toBe(s.w.wallets[1]!.signer.address);

    const expired = await s.w.drive(s.me.withdrawals.request(await s.body({ deadline: BigInt(Math.floor(T0 / 1000) - 1) })));
    expect(expired).toMatchObject({ outcome: "rejected", code: "expired" });

    const foreign = await s.w.drive(s.me.withdrawals.request({ ...good, vault: s.w.wallets[1]!.vault }));
    expect(foreign).toMatchObject({ outcome: "rejected", code: "wallet_mismatch", status: 401 });

    const dayOne = s.w.client().forWallet(s.w.wallets[0]!.address);
    const err = await s.w.drive(dayOne.withdrawals.request(good)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("api_key_scope_missing");
  });

  it("the fee preview and deposit sources answer for the wallet", async () => {
    const s = await setup();
    const fee = await s.w.drive(s.me.withdrawals.fee({ amount: "12.5" }));
    expect(fee.data).toMatchObject({ fee: "0", amount: "12.5", netAmount: "12.5" });
    const src = await s.w.drive(s.me.withdrawals.depositSources());
    expect(src.data).toMatchObject({ sources: [s.w.wallets[0]!.address], pinned: null });
  });

  it("the vault emergency cancels open orders and cancellable withdrawals, then freezes new requests", async () => {
    const s = await setup();
    await s.control("/sim/withdrawals/config", { auto: false });
    const wd = await accepted(s, await s.body({ nonce: 1n, amount: "5" }));
    const { body } = await s.w.order(0, { symbol: "ARS-CHE-ARS", price: "0.10", quantity: "5" });
    const placed = await s.w.drive(s.me.orders.place(body));
    expect(placed.outcome).toBe("accepted");
    const r = await s.w.drive(s.me.vault.emergency());
    expect(r.ok && r.data).toMatchObject({ status: "EMERGENCY", cancelledWithdrawals: [wd.id] });
    expect(r.ok && r.data.cancelledOrders).toHaveLength(1);
    const after = await s.w.drive(s.me.withdrawals.request(await s.body({ nonce: 2n, amount: "5" })));
    expect(after).toMatchObject({ outcome: "rejected", code: "invalid_state", status: 409 });
  });
});

describe("vault deployment through sign/submit", () => {
  it("a KYC-approved wallet without a vault signs the typed data, submits, and its vault exists vaultDeployMs later", async () => {
    const signer = WalletSigner.fromPrivateKey(KYC_KEY);
    const s = await setup({
      edit: (sc) => {
        (sc.partners as unknown[]).push({ id: "kyc-mm", name: "KYC MM", kind: "multi_wallet", requirePerWalletKyc: true, rateLimitPerMin: 600, associatedWallet: null, suspended: false, keys: [] });
        (sc.wallets as unknown[]).push({ name: "kyc-1", privateKey: KYC_KEY, address: signer.address, partner: "kyc-mm", kyc: { approved: true, tier: 1 }, banned: false, onboarded: false, balances: { collateral: 0n, positions: [] } });
      },
    });
    const key = s.w.sim.platform.issueKey("kyc-mm", ["portfolio:read", "vault:write"]).plaintext;
    const me = s.w.client({ apiKey: key }).forWallet(signer.address);
    expect((await s.w.drive(me.portfolio.vault())).data.deployed).toBe(false);

    const r = await s.w.drive(me.vault.deploy(signer));
    expect(r.ok && r.data).toMatchObject({ status: "DEPLOYING", deployedAt: null });
    await s.w.clock.advance(s.w.sim.platform.wallets.timings.vaultDeployMs);
    expect((await s.w.drive(me.portfolio.vault())).data.deployed).toBe(true);
    // Signing again once deployed: 409 invalid_state.
    const again = await s.w.drive(me.vault.deploySign());
    expect(again).toMatchObject({ ok: false, code: "invalid_state", status: 409 });
  });

  it("a submit signed by another key is 400 bad_signature; without a sign step 400 invalid_request", async () => {
    const signer = WalletSigner.fromPrivateKey(KYC_KEY);
    const s = await setup({
      edit: (sc) => {
        (sc.partners as unknown[]).push({ id: "kyc-mm", name: "KYC MM", kind: "multi_wallet", requirePerWalletKyc: true, rateLimitPerMin: 600, associatedWallet: null, suspended: false, keys: [] });
        (sc.wallets as unknown[]).push({ name: "kyc-1", privateKey: KYC_KEY, address: signer.address, partner: "kyc-mm", kyc: { approved: true, tier: 1 }, banned: false, onboarded: false, balances: { collateral: 0n, positions: [] } });
      },
    });
    const key = s.w.sim.platform.issueKey("kyc-mm", ["portfolio:read", "vault:write"]).plaintext;
    const me = s.w.client({ apiKey: key }).forWallet(signer.address);
    const none = await s.w.drive(me.vault.deploySubmit({ nonce: "1", deadline: "1", signature: "0x00" }));
    expect(none).toMatchObject({ ok: false, code: "invalid_request" });
    const signed = await s.w.drive(me.vault.deploySign());
    if (!signed.ok) throw new Error("sign refused");
    const d = signed.data as { digest: `0x${string}`; nonce: string; deadline: string };
    const forged = await s.w.wallets[0]!.signer.signDigest(d.digest);
    const bad = await s.w.drive(me.vault.deploySubmit({ nonce: d.nonce, deadline: d.deadline, signature: forged }));
    expect(bad).toMatchObject({ ok: false, code: "bad_signature", status: 400 });
  });
});
