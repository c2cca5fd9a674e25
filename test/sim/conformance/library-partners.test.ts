/**
 * configs/scenarios/partners.yaml: partners of every kind and state (spec 5.1-5.4) and the rate
 * tiers of 8.1 (wallet buckets scaled by rateLimitPerMin / 600; ip buckets never).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootLibrary, type Library } from "./library-harness.js";

const KEY = {
  mm: "pmk_sim_a000000000000001_MultiWalletSecret0001",
  readOnly: "pmk_sim_a000000000000002_ReadOnlySecret0002",
  expired: "pmk_sim_a000000000000003_ExpiredSecret0003",
  revoked: "pmk_sim_a000000000000004_RevokedSecret0004",
  allowlisted: "pmk_sim_a000000000000005_AllowlistSecret0005",
  single60: "pmk_sim_b000000000000001_SingleSecret0001",
  fast1200: "pmk_sim_c000000000000001_FastSecret0001",
  noWallet: "pmk_sim_d000000000000001_NoWalletSecret0001",
  suspended: "pmk_sim_e000000000000001_SuspendedSecret0001",
};
const W = {
  mmA: "0x03e999c4022f50fdb611bcacba720c44a8a4d5b3",
  banned: "0x2ead0f6d1ee84456fe81324d6fad45aad22c76db",
  single: "0x3b36c50d9f42f0d3e58091c8aef110c3dc324da6",
  fast: "0x10f1315339d072764bae9c364c04ec6a4a7e5774",
};

let lib: Library;
beforeAll(async () => {
  lib = await bootLibrary("partners");
});
afterAll(async () => {
  await lib.close();
});

async function code(path: string, headers: Record<string, string>, status: number): Promise<string> {
  const r = await lib.send(path, headers);
  expect(r.status, r.text.slice(0, 200)).toBe(status);
  return String(r.body.error.code);
}

describe("partners.yaml: every kind and state", () => {
  it("multi_wallet: the header names the wallet; missing is api_key_user_wallet_required", async () => {
    const r = await lib.send("/api/me/balances", { "X-Api-Key": KEY.mm, "X-User-Wallet": W.mmA });
    expect(r.status).toBe(200);
    expect(await code("/api/me/balances", { "X-Api-Key": KEY.mm }, 401)).toBe("api_key_user_wallet_required");
  });

  it("single_wallet: X-User-Wallet is ignored, the associated wallet acts", async () => {
    const r = await lib.send("/api/orders/open", { "X-Api-Key": KEY.single60, "X-User-Wallet": W.mmA });
    expect(r.status).toBe(200);
    expect(String(r.body.walletAddress).toLowerCase()).toBe(W.single);
  });

  it("single_wallet without an associated wallet: api_key_no_associated_wallet", async () => {
    expect(await code("/api/orders/open", { "X-Api-Key": KEY.noWallet }, 401)).toBe("api_key_no_associated_wallet");
  });

  it("a suspended partner: api_key_suspended", async () => {
    expect(await code("/api/orders/open", { "X-Api-Key": KEY.suspended, "X-User-Wallet": W.mmA }, 401)).toBe("api_key_suspended");
  });

  it("an IP-allowlisted key is refused on every call, from any address: api_key_ip_denied", async () => {
    for (const ip of ["203.0.113.7", "198.51.100.1"]) {
      expect(await code("/api/orders/open", { "X-Api-Key": KEY.allowlisted, "X-User-Wallet": W.mmA, "X-Forwarded-For": ip }, 401)).toBe("api_key_ip_denied");
    }
  });

  it("an expired key: api_key_expired; a revoked key: api_key_revoked", async () => {
    expect(await code("/api/orders/open", { "X-Api-Key": KEY.expired, "X-User-Wallet": W.mmA }, 401)).toBe("api_key_expired");
    expect(await code("/api/orders/open", { "X-Api-Key": KEY.revoked, "X-User-Wallet": W.mmA }, 401)).toBe("api_key_revoked");
  });

  it("a read-only key writing: 403 api_key_scope_missing naming orders:write", async () => {
    const r = await lib.send("/api/orders/cancel-all", { "X-Api-Key": KEY.readOnly, "X-User-Wallet": W.mmA }, { body: {} });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("api_key_scope_missing");
    expect(JSON.stringify(r.body)).toContain("orders:write");
  });

  it("a banned wallet: 403 wallet_banned", async () => {
    expect(await code("/api/orders/open", { "X-Api-Key": KEY.mm, "X-User-Wallet": W.banned }, 403)).toBe("wallet_banned");
  });
});

describe("partners.yaml: rate tiers (8.1)", () => {
  const limitOf = async (key: string, wallet: string): Promise<string | null> =>
    (await lib.send("/api/me/balances", { "X-Api-Key": key, "X-User-Wallet": wallet })).headers.get("x-ratelimit-limit");

  it("wallet buckets scale with rateLimitPerMin: 600 -> 600, 60 -> 60, 1200 -> 1200 on GET /api/me/balances", async () => {
    expect(await limitOf(KEY.mm, W.mmA)).toBe("600");
    expect(await limitOf(KEY.single60, W.single)).toBe("60");
    expect(await limitOf(KEY.fast1200, W.fast)).toBe("1200");
  });

  it("tier 60: the 61st read in a minute is 429 rate_limited with Retry-After; the ip bucket of a public read is not scaled", async () => {
    const h = { "X-Api-Key": KEY.single60, "X-Forwarded-For": "198.51.100.60" };
    let last = 0;
    let n = 0;
    for (; n < 70; n++) {
      const r = await lib.send("/api/me/balances", h);
      last = r.status;
      if (r.status === 429) {
        expect(r.body.error.code).toBe("rate_limited");
        expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
        break;
      }
    }
    expect(last).toBe(429);
    expect(n).toBeLessThanOrEqual(60);
    const pub = await lib.send("/api/markets", h);
    expect(pub.headers.get("x-ratelimit-limit")).toBe("600");
  });
});
