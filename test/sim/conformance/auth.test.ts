/**
 * Spec 5.1 - 5.4: the per-request checks in order with their exact codes, partner kinds and the
 * effective wallet, scopes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, boot, expectEnvelope, WALLETS, wsOpen, wsRefused, type Conformance, type Json } from "./harness.js";

const K = (id: string, secret: string): string => `pmk_sim_${id}_${secret}`;
const KEYS = {
  expiring: K("e0000000000000a1", "ExpiringSecret"),
  suspended: K("e0000000000000a2", "SuspendedSecret"),
  noAssoc: K("e0000000000000a3", "NoAssocSecret"),
  single: K("e0000000000000a4", "SingleSecret"),
  revoked: K("e0000000000000a5", "RevokedSecret"),
  readOnly: K("e0000000000000a6", "ReadOnlySecret"),
  bound: K("e0000000000000a7", "BoundSecret"),
  allowlisted: K("e0000000000000a8", "AllowSecret"),
};
const BANNED = "0x00000000000000000000000000000000000000bb";
const OUTSIDER = "0x00000000000000000000000000000000000000aa";

let c: Conformance;
beforeAll(async () => {
  c = await boot({
    edit: (doc: Json) => {
      doc.partners[0].keys.push(
        { key: KEYS.expiring, scopes: ["orders:read"], expiresAt: "+1m" },
        { key: KEYS.revoked, scopes: ["orders:read"], revoked: true },
        { key: KEYS.readOnly, scopes: ["orders:read"] },
        { key: KEYS.allowlisted, scopes: ["orders:read"], ipAllowlist: ["203.0.113.7"] },
      );
      doc.wallets.push({ name: "banned-1", address: BANNED, partner: "demo-mm", banned: true });
      doc.partners.push(
        { id: "susp", name: "Suspended", kind: "multi_wallet", requirePerWalletKyc: false, suspended: true, keys: [{ key: KEYS.suspended, scopes: ["orders:read"] }] },
        { id: "noassoc", name: "No assoc", kind: "single_wallet", keys: [{ key: KEYS.noAssoc, scopes: ["orders:read"] }] },
        { id: "single", name: "Single", kind: "single_wallet", associatedWallet: OUTSIDER, keys: [{ key: KEYS.single, scopes: ["orders:read", "portfolio:read"] }] },
        {
          id: "bound",
          name: "Bound",
          kind: "multi_wallet",
          requirePerWalletKyc: false,
          associatedWallet: "mm-3",
          keys: [{ key: KEYS.bound, scopes: ["orders:read"] }],
        },
      );
    },
  });
});
afterAll(async () => {
  await c.close();
});

const open = (headers: Record<string, string>) => c.send("/api/orders/open", { headers });
const W = WALLETS[0].address;

describe("5.2 step 1: key presence and shape", () => {
  it("no key on an authenticated endpoint: 401 auth_required", async () => {
    expectEnvelope(await open({}), 401, "auth_required");
    expectEnvelope(await open({ "X-User-Wallet": W }), 401, "auth_required");
  });

  it("bad shape: 401 api_key_bad_format", async () => {
    for (const k of ["garbage", "pmk_sim_abc", "pmk_sim_a_b_c", "pmk__abc_def", "pmk_sim_ab!c_def"]) {
      expectEnvelope(await open({ "X-Api-Key": k, "X-User-Wallet": W }), 401, "api_key_bad_format");
    }
  });

  it("Authorization: Bearer alone is no partner credential; with X-Api-Key the key wins", async () => {
    expectEnvelope(await open({ Authorization: "Bearer some.web.token", "X-User-Wallet": W }), 401, "auth_required");
    const r = await open({ Authorization: "Bearer some.web.token", "X-Api-Key": API_KEY, "X-User-Wallet": W });
    expect(r.status).toBe(200);
  });

  it("public endpoints ignore a key, even a broken one", async () => {
    for (const k of ["garbage", K("ffffffffffffffff", "nope")]) {
      const r = await c.send("/api/markets?limit=1", { headers: { "X-Api-Key": k } });
      expect(r.status).toBe(200);
      expect(r.body.markets).toHaveLength(1);
    }
  });
});

describe("5.2 steps 2-4 in order", () => {
  it("unknown keyId: api_key_unknown_key; known id with a wrong secret: api_key_bad_secret", async () => {
    expectEnvelope(await open({ "X-Api-Key": K("ffffffffffffffff", "whatever"), "X-User-Wallet": W }), 401, "api_key_unknown_key");
    expectEnvelope(await open({ "X-Api-Key": K("5e1d000000000001", "WrongSecret"), "X-User-Wallet": W }), 401, "api_key_bad_secret");
  });

  it("revoked: api_key_revoked, but a wrong secret on a revoked key is still api_key_bad_secret (step 3 first)", async () => {
    expectEnvelope(await open({ "X-Api-Key": KEYS.revoked, "X-User-Wallet": W }), 401, "api_key_revoked");
    expectEnvelope(await open({ "X-Api-Key": K("e0000000000000a5", "Wrong"), "X-User-Wallet": W }), 401, "api_key_bad_secret");
  });

  it("a key revoked at run time answers api_key_revoked at once (5.6)", async () => {
    const issued = await c.send("/sim/keys", { body: { partnerId: "demo-mm", scopes: ["orders:read"] } });
    expect(issued.status).toBe(201);
    const key = issued.body.key as string;
    expect((await open({ "X-Api-Key": key, "X-User-Wallet": W })).status).toBe(200);
    expect((await c.send(`/sim/keys/${issued.body.keyId}/revoke`, { method: "POST" })).status).toBe(200);
    expectEnvelope(await open({ "X-Api-Key": key, "X-User-Wallet": W }), 401, "api_key_revoked");
  });

  it("expired: api_key_expired once expiresAt passes", async () => {
    expect((await open({ "X-Api-Key": KEYS.expiring, "X-User-Wallet": W })).status).toBe(200);
    const at = c.clock.now();
    await c.advance(60_000);
    expectEnvelope(await open({ "X-Api-Key": KEYS.expiring, "X-User-Wallet": W }), 401, "api_key_expired");
    expect(c.clock.now()).toBe(at + 60_000);
  });

  it("source IP outside the key's allowlist: api_key_ip_denied", async () => {
    expectEnvelope(await open({ "X-Api-Key": KEYS.allowlisted, "X-User-Wallet": W, "X-Forwarded-For": "198.51.100.1" }), 401, "api_key_ip_denied");
  });

  it("partner suspended: api_key_suspended (before the wallet and scope checks)", async () => {
    expectEnvelope(await open({ "X-Api-Key": KEYS.suspended }), 401, "api_key_suspended");
  });
});

describe("5.3: effective wallet", () => {
  it("multi_wallet: missing X-User-Wallet is api_key_user_wallet_required, malformed is api_key_user_wallet_invalid", async () => {
    expectEnvelope(await open({ "X-Api-Key": API_KEY }), 401, "api_key_user_wallet_required");
    for (const bad of ["0x123", "86dE5549fb86499C2E7E935b175e2BB5c1Fde79e", "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79g", "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e0"]) {
      expectEnvelope(await open({ "X-Api-Key": API_KEY, "X-User-Wallet": bad }), 401, "api_key_user_wallet_invalid");
    }
  });

  it("multi_wallet: the header is lower-cased (either case accepted)", async () => {
    for (const w of [W, W.toLowerCase(), "0x" + W.slice(2).toUpperCase()]) {
      const r = await open({ "X-Api-Key": API_KEY, "X-User-Wallet": w });
      expect(r.status).toBe(200);
      expect(r.body.walletAddress).toBe(W.toLowerCase());
    }
  });

  it("single_wallet: X-User-Wallet is ignored, the associated wallet acts", async () => {
    for (const h of [{}, { "X-User-Wallet": W }, { "X-User-Wallet": "not-a-wallet" }] as Record<string, string>[]) {
      const r = await open({ "X-Api-Key": KEYS.single, ...h });
      expect(r.status).toBe(200);
      expect(r.body.walletAddress).toBe(OUTSIDER);
    }
  });

  it("single_wallet without an associated wallet: api_key_no_associated_wallet", async () => {
    expectEnvelope(await open({ "X-Api-Key": KEYS.noAssoc }), 401, "api_key_no_associated_wallet");
  });

  it("wallet checks (step 5) come before the scope check (step 6)", async () => {
    expectEnvelope(await c.send("/api/me/balances", { headers: { "X-Api-Key": KEYS.readOnly } }), 401, "api_key_user_wallet_required");
  });

  it("multi_wallet with an associated wallet: the user stream binds to it and ignores the header", async () => {
    const { ws, inbox } = await wsOpen(c.url, "/ws/user", { "X-Api-Key": KEYS.bound, "X-User-Wallet": WALLETS[0].address });
    try {
      ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
      expect((await inbox.next()).type).toBe("subscribed");
      expect(c.server.hub.sessions().map((s) => s.wallet)).toContain(WALLETS[2].address.toLowerCase());
    } finally {
      ws.terminate();
    }
  });
});

describe("5.2 step 7 / 7.3: wallet_banned", () => {
  it("a banned effective wallet is 403 wallet_banned", async () => {
    expectEnvelope(await open({ "X-Api-Key": API_KEY, "X-User-Wallet": BANNED }), 403, "wallet_banned");
  });
});

describe("5.2 step 6 / 5.4: scopes", () => {
  it("a missing scope is 403 api_key_scope_missing with requiredScope and have[]", async () => {
    const e = expectEnvelope(await c.send("/api/me/balances", { headers: { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": W } }), 403, "api_key_scope_missing");
    expect(e.details).toMatchObject({ requiredScope: "portfolio:read", have: ["orders:read"] });
    const place = await c.send("/api/orders/place", { headers: { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": W }, body: {} });
    expect(expectEnvelope(place, 403, "api_key_scope_missing").details).toMatchObject({ requiredScope: "orders:write", have: ["orders:read"] });
    const cancel = await c.send("/api/orders/cancel", { headers: { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": W }, body: { orderId: "x" } });
    expect(expectEnvelope(cancel, 403, "api_key_scope_missing").details.requiredScope).toBe("orders:write");
  });

  it("orders:read covers the order GETs; the day-one key covers portfolio reads", async () => {
    for (const p of ["/api/orders/open", "/api/orders/history"]) {
      expect((await c.send(p, { headers: { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": W } })).status).toBe(200);
    }
    for (const p of ["/api/me/balances", "/api/me/positions", "/api/me/vault", "/api/me/trades"]) {
      expect((await c.send(p, { headers: c.auth() })).status, p).toBe(200);
    }
  });
});

describe("5.1: WebSocket gateway authentication", () => {
  it("accepts X-Api-Key on the upgrade or ?key=, refuses with the same 401 codes", async () => {
    const a = await wsOpen(c.url, "/ws/user", c.auth());
    a.ws.terminate();
    const b = await wsOpen(c.url, `/ws/user?key=${API_KEY}`, { "X-User-Wallet": W });
    b.ws.terminate();
    const none = await wsRefused(c.url, "/ws/user", { "X-User-Wallet": W });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("auth_required");
    const bad = await wsRefused(c.url, "/ws/user", { "X-Api-Key": K("5e1d000000000001", "Wrong"), "X-User-Wallet": W });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe("api_key_bad_secret");
    const noWallet = await wsRefused(c.url, "/ws/user", { "X-Api-Key": API_KEY });
    expect(noWallet.body.error.code).toBe("api_key_user_wallet_required");
  });
});
