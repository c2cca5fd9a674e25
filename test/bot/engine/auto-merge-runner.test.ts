/* eslint-disable @typescript-eslint/require-await -- the stand-ins keep the async signatures of what they replace, and throw as rejections */
/**
 * Auto-merge, the shell (src/bot/engine/auto-merge-runner.ts), against a scripted vault API on the
 * virtual clock: merges sent for due pairs and locked, confirmed into the inventory from the
 * platform's record, failed ones unlocked and reported, unknown outcomes resent as they were, and
 * an earlier run's merges adopted.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/errors.js";
import { AutoMergeRunner, type AutoMergeRunnerOptions } from "../../../src/bot/engine/auto-merge-runner.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { RecordingObserver } from "../../../src/bot/observer.js";
import { MergeLocks } from "../../../src/bot/vault/auto-merge.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros as m } from "../../../src/core/money.js";
import { createLogger } from "../../../src/log/index.js";
import { WalletSigner } from "../../../src/signing/index.js";
import type { VaultOpBody, VaultOperation } from "../../../src/wire/index.js";

const signer = WalletSigner.fromPrivateKey(`0x${"33".repeat(32)}`);
const WALLET = signer.address.toLowerCase();
const VAULT = "0x2222222222222222222222222222222222222222";
const CONTRACTS = { chainId: 31337, domain: { name: "PartnerExchange", version: "1" } };
const T0 = Date.UTC(2026, 5, 1, 12);

/** record: answered; refuse / reject_api: refused; unknown: no answer, nothing recorded; lost: recorded, the answer lost. */
type SendScript = "record" | "refuse" | "reject_api" | "unknown" | "lost";

/** The platform's side: operations by id, a script for the next merge requests and unlocks. */
class FakeVault {
  readonly ops = new Map<string, VaultOperation>();
  readonly sent: VaultOpBody[] = [];
  readonly unlocks: string[] = [];
  sendScript: SendScript[] = [];
  unlockOk = true;
  pageFails = false;
  private n = 0;

  op(over: Partial<VaultOperation> & { opId: string; marketId: string; amount: string }): VaultOperation {
    const iso = new Date(T0).toISOString();
    const op: VaultOperation = {
      kind: "merge",
      walletAddress: signer.address,
      vaultAddress: VAULT,
      eventId: null,
      status: "pending",
      nonce: "1",
      createdAt: iso,
      updatedAt: iso,
      confirmsAt: null,
      txHash: null,
      reason: null,
      lockedCollateral: "0",
      lockedShares: [],
      ...over,
    };
    this.ops.set(op.opId, op);
    return op;
  }

  set(opId: string, over: Partial<VaultOperation>): void {
    this.ops.set(opId, { ...this.ops.get(opId)!, ...over });
  }

  readonly api = {
    portfolio: {
      splitsMergesPage: async () => {
        if (this.pageFails) throw new Error("socket hang up");
        return { ok: true as const, data: { operations: [...this.ops.values()] }, meta: {} };
      },
    },
    vault: {
      mergeSignature: async (body: VaultOpBody) => {
        this.sent.push(body);
        const how = this.sendScript.shift() ?? "record";
        if (how === "unknown") throw new Error("request timed out");
        if (how === "reject_api") throw new ApiError({ source: "http", status: 403, code: "insufficient_scope", message: "vault:write needed", method: "POST", path: "/api/vault/merge-signature" });
        if (how === "refuse") return { ok: false as const, code: "insufficient_shares", message: "not enough shares", details: undefined, handling: "fix_request", status: 409, meta: {} };
        // the same nonce answers the same operation
        const existing = [...this.ops.values()].find((o) => o.nonce === body.nonce);
        const op = existing ?? this.op({ opId: `op-${++this.n}`, marketId: body.marketId, amount: body.amount, nonce: body.nonce });
        if (how === "lost") throw new ApiError({ source: "transport", status: 0, code: "timeout", message: "no answer", method: "POST", path: "/api/vault/merge-signature", handling: "unknown_outcome" });
        return { ok: true as const, data: op, meta: {} };
      },
      unlock: async (opId: string) => {
        this.unlocks.push(opId);
        if (!this.unlockOk) return { ok: false as const, code: "exchange_unavailable", message: "later", details: undefined, handling: "retry", status: 503, meta: {} };
        this.set(opId, { status: "unlocked" });
        return { ok: true as const, data: this.ops.get(opId)!, meta: {} };
      },
    },
  };
}

function world(over: { vault?: string | undefined; followed?: Record<string, number>; live?: Record<string, number> } = {}) {
  const clock = new VirtualClock(T0);
  const platform = new FakeVault();
  const inventory = new Inventory();
  const locks = new MergeLocks();
  const observer = new RecordingObserver();
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const log = createLogger({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as { level: string; msg: string }) });
  const triggers: string[] = [];
  const followed = over.followed ?? { M: 2 };
  const opts: AutoMergeRunnerOptions = {
    wallet: WALLET,
    api: platform.api as unknown as AutoMergeRunnerOptions["api"],
    signer,
    vault: () => ("vault" in over ? over.vault : VAULT),
    contracts: () => CONTRACTS,
    inventory,
    liveOrders: (s) => over.live?.[s] ?? 0,
    outcomeCount: (s) => followed[s],
    trigger: (s) => void triggers.push(s),
    params: { threshold: m("5"), minSize: m("5"), checkIntervalSec: 10 },
    locks,
    clock,
    log,
    observer,
  };
  let n = 0;
  const hold = (market: string, outcome: number, qty: string, price = "0.45") =>
    inventory.applyFill({ tradeId: `t${++n}`, orderId: `o${n}`, wallet: WALLET, marketId: market, outcome, side: "BUY", price: m(price), qty: m(qty), fee: 0n, ts: T0 - 60_000 });
  const qty = (market: string, outcome: number) => inventory.positions(WALLET, market).find((p) => p.outcome === outcome)?.qty ?? 0n;
  return { clock, platform, inventory, locks, observer, lines, triggers, followed, runner: new AutoMergeRunner(opts), hold, qty };
}

const merges = (w: ReturnType<typeof world>) => w.observer.of("vault_merge").map((e) => `${e.result}:${e.marketId}:${e.amount}`);

describe("AutoMergeRunner: sending", () => {
  it("a due pair: merged in whole shares, signed with a fresh nonce and a 300 s deadline, its shares locked", async () => {
    const w = world();
    w.hold("M", 0, "12");
    w.hold("M", 1, "10.5");
    await w.clock.advance(1_234);
    await w.runner.pass();
    expect(w.platform.sent).toHaveLength(1);
    const body = w.platform.sent[0]!;
    const now = T0 + 1_234;
    expect(body).toMatchObject({ vault: VAULT, marketId: "M", amount: "10", nonce: String(BigInt(now) * 1000n), deadline: String(Math.floor(now / 1000) + 300) });
    expect(body.signature).toMatch(/^0x[0-9a-f]+$/);
    expect(w.runner.pendingMerges()).toEqual([{ opId: "op-1", marketId: "M", amount: m("10") }]);
    expect(w.locks.locked(WALLET, "M")).toBe(m("10"));
    expect(merges(w)).toEqual([`started:M:${m("10")}`]);
    // the inventory waits for the platform
    expect([w.qty("M", 0), w.qty("M", 1)]).toEqual([m("12"), m("10.5")]);
    // a pending merge: nothing more is sent
    await w.runner.pass();
    expect(w.platform.sent).toHaveLength(1);
  });

  it.each<{ name: string; over: { vault?: string; followed?: Record<string, number>; live?: Record<string, number> } }>([
    { name: "the vault is not known yet", over: { vault: undefined } },
    { name: "the market is not followed", over: { followed: {} } },
    { name: "orders are live in the market", over: { live: { M: 1 } } },
    { name: "the market has three outcomes", over: { followed: { M: 3 } } },
  ])("nothing sent when $name", async ({ over }) => {
    const w = world(over);
    w.hold("M", 0, "20");
    w.hold("M", 1, "20");
    await w.runner.pass();
    expect(w.platform.sent).toEqual([]);
  });

  it("below the threshold: nothing sent; outcomes above 1 never count as a pair", async () => {
    const w = world({ followed: { M: 2, N: 2 } });
    w.hold("M", 0, "4.9");
    w.hold("M", 1, "20");
    w.hold("N", 0, "20");
    w.hold("N", 2, "20");
    await w.runner.pass();
    expect(w.platform.sent).toEqual([]);
  });

  it("two sends in one millisecond get different nonces", async () => {
    const w = world({ followed: { A: 2, B: 2 } });
    for (const s of ["A", "B"]) for (const o of [0, 1]) w.hold(s, o, "6");
    await w.runner.pass();
    expect(w.platform.sent.map((b) => b.nonce)).toEqual([String(BigInt(T0) * 1000n), String(BigInt(T0) * 1000n + 1n)]);
  });

  it("a refusal by answer or by a definite error: warned, nothing locked, decided afresh at the next pass", async () => {
    const w = world();
    w.hold("M", 0, "10");
    w.hold("M", 1, "10");
    w.platform.sendScript = ["refuse", "reject_api"];
    await w.runner.pass();
    await w.runner.pass();
    expect(w.lines.filter((l) => l.level === "warn").map((l) => [l.msg, l.code])).toEqual([
      ["auto-merge: merge refused", "insufficient_shares"],
      ["auto-merge: merge request refused", "insufficient_scope"],
    ]);
    expect(w.locks.locked(WALLET, "M")).toBe(0n);
    await w.runner.pass();
    // the third send (a new decision) went through
    expect(w.platform.sent).toHaveLength(3);
    expect(w.platform.sent[2]!.nonce).not.toBe(w.platform.sent[0]!.nonce);
    expect(w.runner.pendingMerges()).toHaveLength(1);
  });

  it.each<{ script: SendScript; name: string }>([
    { script: "unknown", name: "nothing recorded" },
    { script: "lost", name: "recorded, the answer lost (the platform answers the same operation for the same nonce)" },
  ])("an unknown outcome ($name): the same signed body resent at the next pass, one merge locked", async ({ script }) => {
    const w = world();
    w.hold("M", 0, "10");
    w.hold("M", 1, "10");
    w.platform.sendScript = [script];
    await w.runner.pass();
    expect(w.runner.pendingMerges()).toEqual([]);
    expect(w.locks.locked(WALLET, "M")).toBe(0n);
    expect(w.lines.some((l) => l.msg.includes("outcome unknown"))).toBe(true);
    await w.clock.advance(10_000);
    await w.runner.pass();
    expect(w.platform.sent).toHaveLength(2);
    expect(w.platform.sent[1]).toEqual(w.platform.sent[0]);
    expect(w.runner.pendingMerges()).toEqual([{ opId: "op-1", marketId: "M", amount: m("10") }]);
    expect(w.locks.locked(WALLET, "M")).toBe(m("10"));
    expect(merges(w)).toEqual([`started:M:${m("10")}`]);
  });
});

describe("AutoMergeRunner: following", () => {
  /** One merge of M pending; then M no longer followed, so no new merge is decided there. */
  async function pending() {
    const w = world({ followed: { M: 2 } });
    w.hold("M", 0, "12", "0.45");
    w.hold("M", 1, "10", "0.50");
    await w.runner.pass();
    delete w.followed["M"];
    return w;
  }

  it("confirmed: two SELL legs at 0.5 stamped with the record's time, the lock released, the market cycled", async () => {
    const w = await pending();
    const at = T0 + 30_000;
    w.platform.set("op-1", { status: "confirmed", updatedAt: new Date(at).toISOString() });
    await w.runner.pass();
    expect([w.qty("M", 0), w.qty("M", 1)]).toEqual([m("2"), 0n]);
    const pos = w.inventory.positions(WALLET, "M");
    // the pair (10 YES at 0.45 and 10 NO at 0.50) became 10 in cash, each leg at 0.5: realised 10 - 9.5
    expect(pos.map((p) => [p.outcome, p.realisedPnl])).toEqual([
      [0, m("0.5")],
      [1, 0n],
    ]);
    expect(w.locks.locked(WALLET, "M")).toBe(0n);
    expect(w.runner.pendingMerges()).toEqual([]);
    expect(w.triggers).toEqual(["M"]);
    expect(merges(w)).toEqual([`started:M:${m("10")}`, `confirmed:M:${m("10")}`]);
  });

  it("failed: unlocked on the platform, then released and reported with the platform's reason", async () => {
    const w = await pending();
    w.platform.set("op-1", { status: "failed", reason: "tx reverted" });
    await w.runner.pass();
    expect(w.platform.unlocks).toEqual(["op-1"]);
    expect(w.locks.locked(WALLET, "M")).toBe(0n);
    expect(merges(w)).toEqual([`started:M:${m("10")}`, `failed:M:${m("10")}`]);
    expect(w.lines.find((l) => l.msg === "auto-merge: merge failed; shares unlocked")?.reason).toBe("tx reverted");
    expect(w.triggers).toEqual(["M"]);
    expect([w.qty("M", 0), w.qty("M", 1)]).toEqual([m("12"), m("10")]);
  });

  it("failed, the unlock refused: kept locked and pending, the unlock tried again at the next pass", async () => {
    const w = await pending();
    w.platform.set("op-1", { status: "failed", reason: null });
    w.platform.unlockOk = false;
    await w.runner.pass();
    expect(w.locks.locked(WALLET, "M")).toBe(m("10"));
    expect(w.runner.pendingMerges()).toHaveLength(1);
    w.platform.unlockOk = true;
    await w.runner.pass();
    expect(w.platform.unlocks).toEqual(["op-1", "op-1"]);
    expect(w.locks.locked(WALLET, "M")).toBe(0n);
    expect(w.lines.find((l) => l.msg === "auto-merge: merge failed; shares unlocked")?.reason).toBe("chain transaction not confirmed");
  });

  it("after a failure the pair, still due, is merged again in the same pass with a new nonce", async () => {
    const w = await pending();
    w.followed["M"] = 2;
    w.platform.set("op-1", { status: "failed" });
    await w.clock.advance(5);
    await w.runner.pass();
    expect(w.runner.pendingMerges()).toEqual([{ opId: "op-2", marketId: "M", amount: m("10") }]);
    expect(w.locks.locked(WALLET, "M")).toBe(m("10"));
    expect(w.platform.sent.map((b) => b.nonce)).toEqual([String(BigInt(T0) * 1000n), String(BigInt(T0 + 5) * 1000n + 1n)]);
    expect(merges(w)).toEqual([`started:M:${m("10")}`, `failed:M:${m("10")}`, `started:M:${m("10")}`]);
  });

  it("unlocked by someone else: released and reported as failed, no unlock sent", async () => {
    const w = await pending();
    w.platform.set("op-1", { status: "unlocked" });
    await w.runner.pass();
    expect(w.platform.unlocks).toEqual([]);
    expect(w.locks.locked(WALLET, "M")).toBe(0n);
    expect(merges(w).at(-1)).toBe(`failed:M:${m("10")}`);
  });

  it("a pending merge missing from the page stays pending", async () => {
    const w = await pending();
    w.platform.ops.clear();
    await w.runner.pass();
    expect(w.runner.pendingMerges()).toHaveLength(1);
    expect(w.locks.locked(WALLET, "M")).toBe(m("10"));
  });
});

describe("AutoMergeRunner: adopting an earlier run's merges", () => {
  it("pending and failed merges are locked and followed; other kinds and ended merges are left alone", async () => {
    const w = world({ vault: undefined });
    w.platform.op({ opId: "old-pending", marketId: "A", amount: "3" });
    w.platform.op({ opId: "old-failed", marketId: "B", amount: "4", status: "failed" });
    w.platform.op({ opId: "old-confirmed", marketId: "C", amount: "5", status: "confirmed" });
    w.platform.op({ opId: "a-split", kind: "split", marketId: "D", amount: "6" });
    await w.runner.pass();
    expect(w.runner.pendingMerges()).toEqual([{ opId: "old-pending", marketId: "A", amount: m("3") }]);
    expect(w.platform.unlocks).toEqual(["old-failed"]);
    expect([w.locks.locked(WALLET, "A"), w.locks.locked(WALLET, "B"), w.locks.locked(WALLET, "C"), w.locks.locked(WALLET, "D")]).toEqual([m("3"), 0n, 0n, 0n]);
    expect(merges(w)).toEqual([`failed:B:${m("4")}`]);
    // adopted once only
    await w.runner.pass();
    expect(w.locks.locked(WALLET, "A")).toBe(m("3"));
  });

  it("an adopted merge of a fraction of a share, confirmed: YES leaves at 1 and NO at 0 (the sum is exact)", async () => {
    const w = world({ vault: undefined });
    w.hold("A", 0, "3", "0.40");
    w.hold("A", 1, "3", "0.50");
    w.platform.op({ opId: "old", marketId: "A", amount: "2.5" });
    await w.runner.pass();
    w.platform.set("old", { status: "confirmed" });
    await w.runner.pass();
    expect([w.qty("A", 0), w.qty("A", 1)]).toEqual([m("0.5"), m("0.5")]);
    // YES out at 1: +0.60 a share; NO out at 0: -0.50 a share (2.5 pairs cost 2.25, paid 2.5)
    const realised = w.inventory.positions(WALLET, "A").map((p) => [p.outcome, p.realisedPnl]);
    expect(realised).toEqual([
      [0, m("1.5")],
      [1, m("-1.25")],
    ]);
  });
});

describe("AutoMergeRunner: passes and the timer", () => {
  it("a pass never throws (a failed read is warned, the next pass retries); a pass under way is not doubled", async () => {
    const w = world();
    w.platform.pageFails = true;
    await expect(w.runner.pass()).resolves.toBeUndefined();
    expect(w.lines.filter((l) => l.level === "warn").map((l) => l.msg)).toEqual(["auto-merge pass failed; next pass retries"]);
    w.platform.pageFails = false;
    w.hold("M", 0, "10");
    w.hold("M", 1, "10");
    await Promise.all([w.runner.pass(), w.runner.pass()]);
    expect(w.platform.sent).toHaveLength(1);
  });

  it("start: a pass every checkIntervalSec (once, however often started); stop ends them", async () => {
    const w = world();
    w.hold("M", 0, "10");
    w.hold("M", 1, "10");
    w.runner.start();
    w.runner.start();
    expect(w.clock.pending()).toBe(1);
    await w.clock.advance(9_999);
    expect(w.platform.sent).toHaveLength(0);
    await w.clock.advance(1);
    expect(w.platform.sent).toHaveLength(1);
    w.runner.stop();
    expect(w.clock.pending()).toBe(0);
  });
});
