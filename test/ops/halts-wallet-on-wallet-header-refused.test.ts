/**
 * auth_refused, wallet scope, while running: the platform starts refusing one wallet's requests
 * with 401 `api_key_user_wallet_invalid` (a wallet-header refusal: the key itself is fine). Only
 * that wallet is halted - it places nothing - while the other keeps quoting; /ready is 503 and
 * names the wallet. When the platform accepts the wallet again, the probe's next read (at most
 * 30 s later) succeeds, the halt clears by itself and the wallet quotes again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleared, clearedAt, jsonError, raisedAt, raised, run, sample, startOps, until, walletAddress, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("halt: a wallet refused by the platform (401 wallet code)", () => {
  it("halts that wallet only, says so on /ready, probes, and clears when the wallet is accepted again", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"] },
    ));
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length).toBeGreaterThan(0);
    const w0 = walletAddress(0);
    const w1 = walletAddress(1);

    o.wire.intercept = (req, wallet) => (wallet === w0 && req.headers["x-api-key"] !== undefined ? jsonError(401, "api_key_user_wallet_invalid", "malformed X-User-Wallet") : undefined);
    // Something keyed for w0 must go out: its next fill sync at the latest (10 s here).
    await until(o.h, "auth_refused on w0", () => raised(o, "auth_refused", "w0"), 15_000);
    const raise = raisedAt(o, "auth_refused", "w0")!;
    expect(raised(o, "auth_refused", "all")).toBe(false);
    await run(o.h.clock, 30_000);

    expect(o.wire.places({ from: raise, wallet: w0 })).toEqual([]);
    expect(o.wire.places({ from: raise, wallet: w1 }).length + (await o.openOn(1)).length).toBeGreaterThan(0);
    const ready = o.daemon.ops.probes.readiness();
    expect(ready.ok).toBe(false);
    expect(ready.body).toMatchObject({ ready: false, reason: "halted", halts: [{ scope: "wallet", target: "w0", reason: "auth_refused", detail: "401 api_key_user_wallet_invalid" }] });
    const text = await o.scrape();
    expect(sample(text, "mm_auth_refusals_total", { wallet: "w0", code: "api_key_user_wallet_invalid" })).toBeGreaterThan(0);
    expect(sample(text, "mm_auth_refusals_total", { wallet: "w1", code: "api_key_user_wallet_invalid" }) ?? 0).toBe(0);
    // The probe reads as the refused wallet.
    expect(o.wire.requests(raise.at).some((e) => e.path === "/api/me/balances" && e.wallet === w0 && e.status === 401)).toBe(true);

    const tFix = o.h.clock.now();
    o.wire.intercept = undefined;
    await until(o.h, "auth_refused cleared on w0", () => cleared(o, "auth_refused", "w0"), 35_000);
    expect(clearedAt(o, "auth_refused", "w0")!.at - tFix).toBeLessThanOrEqual(31_000);
    expect(o.daemon.ops.probes.isReady()).toBe(true);
    await until(o.h, "w0 quoting again", async () => (await o.openOn(0)).length > 0, 20_000);
  });
});
