/**
 * Split, merge and convert in the simulator, driven through the real client in-process (spec 4.8,
 * 7.3; shapes ours, docs/spec-gaps.md): the owner's EIP-712 signature, the off-chain lock taken at
 * once, the ledger effect after the confirmation delay on the simulator clock, an injected failure
 * left unlockable and its unlock, nonce dedup, the refusals (bad signature, insufficient shares,
 * resolved market, not neg-risk) and shard_owner_unavailable resent by the client.
 */
import { afterEach, describe, expect, it } from "vitest";
import { signVaultOperation } from "../../../src/api/index.js";
import type { WalletClient } from "../../../src/api/client.js";
import { formatMicros, parseMicros } from "../../../src/core/money.js";
import { checkInvariants } from "../../../src/sim/engine/invariants.js";
import { vaultOpsDesk, NEG_RISK_ADAPTER } from "../../../src/sim/desk/vault-ops.js";
import { WalletSigner } from "../../../src/signing/index.js";
import type { VaultOperation } from "../../../src/wire/index.js";
import type { PlatformContracts, VaultOpBody } from "../../../src/wire/index.js";
import { makeWorld, T0, type World } from "../../api/integration/world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

const ALL = ["orders:read", "orders:write", "portfolio:read", "vault:write"] as const;

interface Setup {
  w: World;
  me: WalletClient;
  contracts: PlatformContracts;
  body: (kind: "split" | "merge" | "convert", o: { marketId?: string; amount?: string; nonce?: bigint; deadline?: bigint }) => Promise<VaultOpBody>;
  cash: () => { total: string; available: string };
  shares: (marketId: string, outcome: number) => { quantity: string; locked: string };
}

let nonces = 1n;

async function setup(): Promise<Setup> {
  const w = await makeWorld("in-process");
  worlds.push(w);
  const key = w.sim.platform.issueKey("demo-mm", [...ALL]).plaintext;
  const wallet = w.wallets[0]!;
  const me = w.client({ apiKey: key }).forWallet(wallet.address);
  const contracts = (await w.drive(w.client({ apiKey: key }).platform.contracts())).data;
  const body: Setup["body"] = (kind, o) =>
    signVaultOperation(wallet.signer, contracts, {
      kind,
      vault: wallet.vault,
      marketId: o.marketId ?? "ARS-CHE-ARS",
      amount: o.amount ?? "100",
      nonce: o.nonce ?? nonces++,
      deadline: o.deadline ?? BigInt(Math.floor(T0 / 1000) + 3600),
    });
  const cash = () => {
    const b = w.sim.engine.balance(wallet.address);
    return { total: formatMicros(b.total), available: formatMicros(b.available) };
  };
  const shares = (marketId: string, outcome: number) => {
    const p = w.sim.engine.positions(wallet.address, marketId).find((x) => x.outcome === outcome);
    return { quantity: formatMicros(p?.quantity ?? 0n), locked: formatMicros(p?.locked ?? 0n) };
  };
  return { w, me, contracts, body, cash, shares };
}

async function ok(s: Setup, p: Promise<{ ok: true; data: VaultOperation } | { ok: false }>): Promise<VaultOperation> {
  const r = await s.w.drive(p);
  if (!r.ok) throw new Error(`expected an operation, got ${JSON.stringify(r)}`);
  return r.data;
}

async function split(s: Setup, amount: string, marketId = "ARS-CHE-ARS"): Promise<void> {
  const op = await ok(s, s.me.vault.splitSignature(await s.body("split", { amount, marketId })));
  await s.w.clock.advance(vaultOpsDesk(s.w.sim).config.confirmMs);
  expect((await s.w.drive(s.me.portfolio.splitsMergesPage())).data.operations.find((o) => o.opId === op.opId)?.status).toBe("confirmed");
}

describe("split, merge and convert in the simulator", () => {
  it("split locks the collateral at once and mints YES+NO after the confirmation delay", async () => {
    const s = await setup();
    const op = await ok(s, s.me.vault.splitSignature(await s.body("split", { amount: "250" })));
    expect(op).toMatchObject({ kind: "split", status: "pending", marketId: "ARS-CHE-ARS", amount: "250", lockedCollateral: "250", lockedShares: [], reason: null });
    expect(op.confirmsAt).toBe(new Date(T0 + 12_000).toISOString());
    expect(s.cash()).toEqual({ total: "10000", available: "9750" });
    expect(s.shares("ARS-CHE-ARS", 0).quantity).toBe("0");

    await s.w.clock.advance(11_999);
    expect(s.cash()).toEqual({ total: "10000", available: "9750" });
    await s.w.clock.advance(1);
    expect(s.cash()).toEqual({ total: "9750", available: "9750" });
    expect(s.shares("ARS-CHE-ARS", 0)).toEqual({ quantity: "250", locked: "0" });
    expect(s.shares("ARS-CHE-ARS", 1)).toEqual({ quantity: "250", locked: "0" });
    const listed = (await s.w.drive(s.me.portfolio.splitsMergesPage())).data.operations;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ opId: op.opId, status: "confirmed", confirmsAt: null, lockedCollateral: "0", updatedAt: new Date(T0 + 12_000).toISOString() });
    const events = s.w.sim.engine.ledger.balanceEvents(s.w.wallets[0]!.address).filter((e) => e.kind === "split");
    expect(events.map((e) => [e.amount, e.marketId, e.atMs])).toEqual([[-250_000_000n, "ARS-CHE-ARS", T0 + 12_000]]);
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
  });

  it("merge turns a YES+NO pair into cash after the delay; the shares are locked meanwhile (a SELL cannot use them)", async () => {
    const s = await setup();
    await split(s, "100");
    const op = await ok(s, s.me.vault.mergeSignature(await s.body("merge", { amount: "60" })));
    expect(op).toMatchObject({ kind: "merge", status: "pending", lockedCollateral: "0" });
    expect(op.lockedShares.map((x) => [x.outcome, x.quantity])).toEqual([
      [0, "60"],
      [1, "60"],
    ]);
    expect(s.shares("ARS-CHE-ARS", 0)).toEqual({ quantity: "100", locked: "60" });
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
    // Only 40 YES are free: a SELL of 50 is refused for lack of shares.
    const { body } = await s.w.order(0, { symbol: "ARS-CHE-ARS", side: "SELL", price: "0.9", quantity: "50" });
    const placed = await s.w.drive(s.me.orders.place(body));
    expect(JSON.stringify(placed)).toMatch(/insufficient/);

    const before = s.cash();
    await s.w.clock.advance(12_000);
    expect(s.shares("ARS-CHE-ARS", 0)).toEqual({ quantity: "40", locked: "0" });
    expect(s.shares("ARS-CHE-ARS", 1)).toEqual({ quantity: "40", locked: "0" });
    expect(parseMicros(s.cash().total) - parseMicros(before.total)).toBe(60_000_000n);
    const merges = s.w.sim.engine.ledger.balanceEvents(s.w.wallets[0]!.address).filter((e) => e.kind === "merge");
    expect(merges.map((e) => e.amount)).toEqual([60_000_000n]);
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
  });

  it("a merge whose chain transaction fails keeps its lock, is listed unlockable, and the unlock releases it", async () => {
    const s = await setup();
    await split(s, "100");
    vaultOpsDesk(s.w.sim).config.failNext = 1;
    const op = await ok(s, s.me.vault.mergeSignature(await s.body("merge", { amount: "100" })));
    await s.w.clock.advance(12_000);
    const failed = (await s.w.drive(s.me.portfolio.unlockable())).data.operations;
    expect(failed.map((o) => [o.opId, o.status, o.reason])).toEqual([[op.opId, "failed", "chain transaction not confirmed"]]);
    expect(s.shares("ARS-CHE-ARS", 0)).toEqual({ quantity: "100", locked: "100" });
    expect(s.cash().total).toBe("9900");

    const unlocked = await ok(s, s.me.vault.unlock(op.opId));
    expect(unlocked).toMatchObject({ opId: op.opId, status: "unlocked", lockedShares: [] });
    expect(s.shares("ARS-CHE-ARS", 0)).toEqual({ quantity: "100", locked: "0" });
    expect((await s.w.drive(s.me.portfolio.unlockable())).data.operations).toEqual([]);
    // A repeat answers the record again; a confirmed operation has nothing to unlock.
    expect((await s.w.drive(s.me.vault.unlock(op.opId))).ok).toBe(true);
    const first = (await s.w.drive(s.me.portfolio.splitsMergesPage())).data.operations.find((o) => o.kind === "split")!;
    expect(await s.w.drive(s.me.vault.unlock(first.opId))).toMatchObject({ ok: false, status: 409, code: "invalid_state" });
    expect(await s.w.drive(s.me.vault.unlock("no-such-op"))).toMatchObject({ ok: false, status: 404 });
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
  });

  it("the /sim control fails a pending operation; the config control sets the delay", async () => {
    const s = await setup();
    const cfg = await s.w.transport.request({ method: "POST", path: "/sim/vault-ops/config", headers: { "content-type": "application/json" }, body: JSON.stringify({ confirmMs: 3000 }) });
    expect(JSON.parse(cfg.body)).toMatchObject({ confirmMs: 3000 });
    const op = await ok(s, s.me.vault.splitSignature(await s.body("split", { amount: "10" })));
    const res = await s.w.transport.request({ method: "POST", path: `/sim/vault-ops/${op.opId}/fail`, headers: { "content-type": "application/json" }, body: "{}" });
    expect(JSON.parse(res.body)).toMatchObject({ status: "failed", lockedCollateral: "10" });
    await s.w.clock.advance(5000);
    expect(s.cash()).toEqual({ total: "10000", available: "9990" });
    await ok(s, s.me.vault.unlock(op.opId));
    expect(s.cash()).toEqual({ total: "10000", available: "10000" });
  });

  it("refusals: bad signature, insufficient shares or cash, unknown market, expired deadline, reused nonce", async () => {
    const s = await setup();
    const good = await s.body("merge", { amount: "5", nonce: 77n });
    const other = WalletSigner.fromPrivateKey("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    const forged = await signVaultOperation(other, s.contracts, { kind: "merge", vault: s.w.wallets[0]!.vault, marketId: "ARS-CHE-ARS", amount: "5", nonce: 78n, deadline: BigInt(good.deadline) });
    expect(await s.w.drive(s.me.vault.mergeSignature(forged))).toMatchObject({ ok: false, status: 400, code: "bad_signature" });
    // Signed as a split, sent as a merge: the kind is in the signed struct.
    const asSplit = await s.body("split", { amount: "5", nonce: 79n });
    expect(await s.w.drive(s.me.vault.mergeSignature(asSplit))).toMatchObject({ ok: false, code: "bad_signature" });
    expect(await s.w.drive(s.me.vault.mergeSignature(good))).toMatchObject({ ok: false, status: 200, code: "insufficient_funds" });
    expect(await s.w.drive(s.me.vault.splitSignature(await s.body("split", { amount: "10001" })))).toMatchObject({ ok: false, code: "insufficient_funds" });
    expect(await s.w.drive(s.me.vault.splitSignature(await s.body("split", { marketId: "NOPE" })))).toMatchObject({ ok: false, status: 404, code: "market_not_found" });
    expect(await s.w.drive(s.me.vault.splitSignature(await s.body("split", { deadline: BigInt(Math.floor(T0 / 1000) - 1) })))).toMatchObject({ ok: false, code: "expired" });
    const first = await ok(s, s.me.vault.splitSignature(await s.body("split", { amount: "1", nonce: 500n })));
    expect((await ok(s, s.me.vault.splitSignature(await s.body("split", { amount: "1", nonce: 500n })))).opId).toBe(first.opId);
    expect(await s.w.drive(s.me.vault.splitSignature(await s.body("split", { amount: "2", nonce: 500n })))).toMatchObject({ ok: false, status: 409, code: "nonce_reused" });
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
  });

  it("a resolved market is refused (redeem instead); an operation pending at resolution fails and unlocks", async () => {
    const s = await setup();
    await split(s, "20", "ARS-CHE-GOAL5");
    const op = await ok(s, s.me.vault.mergeSignature(await s.body("merge", { amount: "20", marketId: "ARS-CHE-GOAL5" })));
    const moved = s.w.sim.resolveMarket("ARS-CHE-GOAL5", [1, 0]);
    expect(moved.ok, JSON.stringify(moved)).toBe(true);
    expect(s.w.sim.engine.market("ARS-CHE-GOAL5").phase).toBe("resolved");
    expect(await s.w.drive(s.me.vault.splitSignature(await s.body("split", { amount: "1", marketId: "ARS-CHE-GOAL5" })))).toMatchObject({ ok: false, status: 409, code: "invalid_state" });
    await s.w.clock.advance(12_000);
    const after = (await s.w.drive(s.me.portfolio.splitsMergesPage())).data.operations.find((o) => o.opId === op.opId)!;
    expect(after.status).toBe("failed");
    expect(after.reason).toMatch(/resolved/);
    await ok(s, s.me.vault.unlock(op.opId));
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
  });

  it("convert: n NO of one neg-risk market become n YES of every other market of the event", async () => {
    const s = await setup();
    await split(s, "30", "ARS-CHE-DRAW");
    const op = await ok(s, s.me.vault.convertSignature(await s.body("convert", { amount: "30", marketId: "ARS-CHE-DRAW" })));
    expect(op.lockedShares.map((x) => [x.marketId, x.outcome, x.quantity])).toEqual([["ARS-CHE-DRAW", 1, "30"]]);
    expect(op.eventId).toEqual(expect.any(String));
    const cashBefore = s.cash().total;
    await s.w.clock.advance(12_000);
    expect(s.shares("ARS-CHE-DRAW", 1).quantity).toBe("0");
    expect(s.shares("ARS-CHE-DRAW", 0).quantity).toBe("30");
    expect(s.shares("ARS-CHE-ARS", 0).quantity).toBe("30");
    expect(s.shares("ARS-CHE-CHE", 0).quantity).toBe("30");
    expect(s.shares("ARS-CHE-ARS", 1).quantity).toBe("0");
    expect(s.cash().total).toBe(cashBefore);
    // The adapter holds the NO side of every market of the event.
    expect(s.w.sim.engine.positions(NEG_RISK_ADAPTER).map((p) => [p.marketId, p.outcome, formatMicros(p.quantity)]).filter((r) => r[2] !== "0").sort()).toEqual([
      ["ARS-CHE-ARS", 1, "30"],
      ["ARS-CHE-CHE", 1, "30"],
      ["ARS-CHE-DRAW", 1, "30"],
    ]);
    expect(checkInvariants(s.w.sim.engine)).toEqual([]);
    // A market outside a neg-risk event has nothing to convert into.
    expect(await s.w.drive(s.me.vault.convertSignature(await s.body("convert", { amount: "1", marketId: "ARS-CHE-GOAL5" })))).toMatchObject({ ok: false, status: 400, code: "invalid_request" });
  });

  it("shard_owner_unavailable (nothing recorded) is resent by the client and the operation recorded once", async () => {
    const s = await setup();
    s.w.fault({ route: "POST /api/vault/merge-signature", kind: "shard_owner_unavailable", nextCalls: 1 });
    s.w.fault({ route: "POST /api/me/splits-merges/*", kind: "shard_owner_unavailable", nextCalls: 1 });
    await split(s, "10");
    const op = await ok(s, s.me.vault.mergeSignature(await s.body("merge", { amount: "10" })));
    const calls = s.w.transport.calls("POST", "/api/vault/merge-signature");
    expect(calls.map((c) => c.status)).toEqual([503, 200]);
    expect(calls[0]!.code).toBe("shard_owner_unavailable");
    vaultOpsDesk(s.w.sim).fail(op.opId, s.w.clock.now());
    await ok(s, s.me.vault.unlock(op.opId));
    expect(s.w.transport.calls("POST", `/api/me/splits-merges/${op.opId}/unlock`).map((c) => c.status)).toEqual([503, 200]);
    expect((await s.w.drive(s.me.portfolio.splitsMergesPage())).data.operations).toHaveLength(2);
  });

  it("splits-merges pages newest first with a cursor", async () => {
    const s = await setup();
    for (let i = 0; i < 3; i++) await ok(s, s.me.vault.splitSignature(await s.body("split", { amount: "1" })));
    const p1 = (await s.w.drive(s.me.portfolio.splitsMergesPage({ limit: 2 }))).data;
    expect(p1.operations).toHaveLength(2);
    expect(p1.nextCursor).toEqual(expect.any(String));
    const all: string[] = [];
    for await (const o of s.me.portfolio.splitsMerges({ limit: 2 })) all.push(o.opId);
    expect(all).toHaveLength(3);
    expect(all.slice(0, 2)).toEqual(p1.operations.map((o) => o.opId));
  });
});
