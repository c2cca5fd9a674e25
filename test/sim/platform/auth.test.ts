import { describe, expect, it } from "vitest";
import type { AuthRequest } from "../../../src/sim/platform/auth.js";
import { ASSOC, authSetup, DAY_ONE, key, KEYS, T0, WALLET_A, WALLET_B } from "./fixtures.js";

const { auth, keys } = authSetup();

function req(over: Partial<AuthRequest>): AuthRequest {
  return { apiKeyHeader: KEYS.mm, userWalletHeader: WALLET_A, ip: "203.0.113.9", requiredScopes: ["orders:write"], nowMs: T0 + 10, ...over };
}

function code(over: Partial<AuthRequest>): string {
  const r = auth.authenticate(req(over));
  return r.ok ? "ok" : r.code;
}

describe("step 1: key presence and shape", () => {
  it("no key on an authenticated endpoint is 401 auth_required", () => {
    for (const h of [undefined, null, "", "   ", []]) {
      const r = auth.authenticate(req({ apiKeyHeader: h }));
      expect(r).toMatchObject({ ok: false, status: 401, code: "auth_required" });
    }
  });

  it("a Bearer token alone is not a partner credential", () => {
    expect(code({ apiKeyHeader: undefined, authorizationHeader: "Bearer eyJhbGciOi.session.token" })).toBe("auth_required");
  });

  it("with both Bearer and X-Api-Key, the key wins", () => {
    expect(code({ authorizationHeader: "Bearer whatever" })).toBe("ok");
  });

  it("malformed keys are 401 api_key_bad_format", () => {
    const bad = [
      "garbage",
      "pmk_sim_abc",
      "pmk_sim_00000000000000a1_secret_extra",
      "pmk__00000000000000a1_secret",
      "pmk_sim_0000-000000000a1_secret",
      "pmk_sim_00000000000000a1_sécret",
      `pmk_sim_00000000000000a1_${"x".repeat(600)}`,
    ];
    for (const k of bad) {
      const r = auth.authenticate(req({ apiKeyHeader: k }));
      expect(r, k).toMatchObject({ ok: false, status: 401, code: "api_key_bad_format" });
    }
  });

  it("a repeated X-Api-Key header is malformed", () => {
    expect(code({ apiKeyHeader: [KEYS.mm, KEYS.readOnly] })).toBe("api_key_bad_format");
    expect(code({ apiKeyHeader: [KEYS.mm] })).toBe("ok");
  });
});

describe("steps 2-4: key identity, secret and state", () => {
  it("unknown keyId is 401 api_key_unknown_key", () => {
    expect(code({ apiKeyHeader: key("ffffffffffffffff") })).toBe("api_key_unknown_key");
  });

  it("a known keyId under another prefix or env is unknown", () => {
    expect(code({ apiKeyHeader: KEYS.mm.replace("pmk_sim_", "pmk_prod_") })).toBe("api_key_unknown_key");
    expect(code({ apiKeyHeader: KEYS.mm.replace("pmk_sim_", "abc_sim_") })).toBe("api_key_unknown_key");
  });

  it("a wrong secret is 401 api_key_bad_secret", () => {
    expect(code({ apiKeyHeader: key("00000000000000a1", "wrongsecret") })).toBe("api_key_bad_secret");
  });

  it("a wrong secret never reveals that the key is revoked, expired or suspended", () => {
    for (const id of ["00000000000000a3", "00000000000000a4", "00000000000000a5"]) {
      expect(code({ apiKeyHeader: key(id, "wrong"), nowMs: T0 + 3_600_000 })).toBe("api_key_bad_secret");
    }
  });

  it("revoked key is 401 api_key_revoked, even with a bad wallet header or when also expired", () => {
    expect(auth.authenticate(req({ apiKeyHeader: KEYS.revoked }))).toMatchObject({ status: 401, code: "api_key_revoked" });
    expect(code({ apiKeyHeader: KEYS.revoked, userWalletHeader: "0xnope" })).toBe("api_key_revoked");
    expect(code({ apiKeyHeader: KEYS.revoked, nowMs: T0 + 999_999 })).toBe("api_key_revoked");
  });

  it("expiry follows the given clock: valid before expiresAt, api_key_expired from it", () => {
    expect(code({ apiKeyHeader: KEYS.expired, nowMs: T0 + 59_999 })).toBe("ok");
    expect(code({ apiKeyHeader: KEYS.expired, nowMs: T0 + 60_000 })).toBe("api_key_expired");
  });

  it("suspended partner is 401 api_key_suspended, after the expiry check", () => {
    expect(auth.authenticate(req({ apiKeyHeader: KEYS.suspended }))).toMatchObject({ status: 401, code: "api_key_suspended" });
    expect(code({ apiKeyHeader: KEYS.suspendedExpired, nowMs: T0 + 5 })).toBe("api_key_expired");
  });

  it("revocation through the store takes effect on the next request", () => {
    const s = authSetup();
    expect(s.auth.authenticate(req({})).ok).toBe(true);
    s.keys.revoke("00000000000000a1", T0 + 5);
    expect(s.auth.authenticate(req({}))).toMatchObject({ code: "api_key_revoked" });
  });

  it("a key with an IP allowlist is refused on every call, from any address (spec 5.1)", () => {
    for (const ip of ["10.1.2.3", "::ffff:10.1.2.3", "192.168.1.5", "2001:DB8::1", "192.168.1.6", null]) {
      expect(code({ apiKeyHeader: KEYS.ip, ip })).toBe("api_key_ip_denied");
    }
    // IP is step 4: it comes before the wallet (5) and scope (6) checks.
    expect(code({ apiKeyHeader: KEYS.ip, ip: "11.0.0.1", userWalletHeader: undefined, requiredScopes: ["vault:write"] })).toBe(
      "api_key_ip_denied",
    );
  });
});

describe("step 5: effective wallet", () => {
  it("multi_wallet: X-User-Wallet lower-cased", () => {
    const r = auth.authenticate(req({ userWalletHeader: WALLET_A }));
    expect(r.ok && r.wallet).toBe(WALLET_A.toLowerCase());
  });

  it("multi_wallet: missing header is 401 api_key_user_wallet_required", () => {
    for (const h of [undefined, "", []]) {
      expect(auth.authenticate(req({ userWalletHeader: h }))).toMatchObject({ status: 401, code: "api_key_user_wallet_required" });
    }
  });

  it("multi_wallet: malformed header is 401 api_key_user_wallet_invalid", () => {
    for (const h of ["0x123", "86dE5549fb86499C2E7E935b175e2BB5c1Fde79e", `0x${"g".repeat(40)}`, `${WALLET_A}0`, [WALLET_A, WALLET_B]]) {
      expect(auth.authenticate(req({ userWalletHeader: h }))).toMatchObject({ status: 401, code: "api_key_user_wallet_invalid" });
    }
  });

  it("multi_wallet: partner-level endpoints may allow no wallet, but never a malformed one", () => {
    const r = auth.authenticate(req({ userWalletHeader: undefined, walletRequired: false }));
    expect(r.ok && r.wallet).toBeNull();
    expect(code({ userWalletHeader: "0x1", walletRequired: false })).toBe("api_key_user_wallet_invalid");
  });

  it("multi_wallet with an associated wallet: REST still uses the header", () => {
    const r = auth.authenticate(req({ apiKeyHeader: KEYS.assoc, userWalletHeader: WALLET_A }));
    expect(r.ok && r.wallet).toBe(WALLET_A.toLowerCase());
  });

  it("single_wallet: the associated wallet, header ignored even when malformed", () => {
    for (const h of [undefined, WALLET_A, "0xnot-a-wallet"]) {
      const r = auth.authenticate(req({ apiKeyHeader: KEYS.single, userWalletHeader: h }));
      expect(r.ok && r.wallet).toBe(WALLET_B);
    }
  });

  it("single_wallet without associated wallet is 401 api_key_no_associated_wallet", () => {
    expect(auth.authenticate(req({ apiKeyHeader: KEYS.singleNone, requiredScopes: ["orders:read"] }))).toMatchObject({
      status: 401,
      code: "api_key_no_associated_wallet",
    });
  });
});

describe("step 6: scopes", () => {
  it("missing scope is 403 api_key_scope_missing with requiredScope and have[]", () => {
    const r = auth.authenticate(req({ apiKeyHeader: KEYS.readOnly, requiredScopes: ["orders:write"] }));
    expect(r).toEqual({
      ok: false,
      status: 403,
      code: "api_key_scope_missing",
      message: expect.any(String),
      details: { requiredScope: "orders:write", have: ["orders:read"] },
    });
  });

  it("every listed scope is required; the first missing one is named", () => {
    const r = auth.authenticate(req({ requiredScopes: ["orders:read", "vault:write", "portfolio:read"] }));
    expect(r).toMatchObject({ code: "api_key_scope_missing", details: { requiredScope: "vault:write", have: DAY_ONE } });
    expect(code({ requiredScopes: ["orders:read", "orders:write", "portfolio:read"] })).toBe("ok");
    expect(code({ requiredScopes: [] })).toBe("ok");
  });

  it("the wallet check (5) comes before the scope check (6)", () => {
    expect(code({ apiKeyHeader: KEYS.readOnly, userWalletHeader: undefined, requiredScopes: ["vault:write"] })).toBe(
      "api_key_user_wallet_required",
    );
  });

  it("success carries partner, key record (no secret) and wallet", () => {
    const r = auth.authenticate(req({}));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.partner.id).toBe("mm");
    expect(r.key.keyId).toBe("00000000000000a1");
    expect(JSON.stringify(r.key)).not.toContain(KEYS.mm.split("_")[3]);
  });
});

describe("WebSocket upgrade", () => {
  const base = { ip: "203.0.113.9", nowMs: T0 + 10 };

  it("accepts the key in the header or in ?key=; the header wins", () => {
    expect(auth.authenticateWs({ ...base, apiKeyHeader: KEYS.mm, userWalletHeader: WALLET_A }).ok).toBe(true);
    expect(auth.authenticateWs({ ...base, apiKeyHeader: undefined, queryKey: KEYS.mm, userWalletHeader: WALLET_A }).ok).toBe(true);
    expect(auth.authenticateWs({ ...base, apiKeyHeader: KEYS.revoked, queryKey: KEYS.mm, userWalletHeader: WALLET_A })).toMatchObject({
      code: "api_key_revoked",
    });
    expect(auth.authenticateWs({ ...base, apiKeyHeader: undefined })).toMatchObject({ code: "auth_required" });
  });

  it("a multi_wallet partner with an associated wallet binds the stream to it and ignores the header", () => {
    for (const h of [undefined, WALLET_A, "0xbad"]) {
      const r = auth.authenticateWs({ ...base, apiKeyHeader: KEYS.assoc, userWalletHeader: h });
      expect(r.ok && r.wallet).toBe(ASSOC);
    }
  });

  it("without an associated wallet the header rules of 5.3 apply", () => {
    expect(auth.authenticateWs({ ...base, apiKeyHeader: KEYS.mm })).toMatchObject({ code: "api_key_user_wallet_required" });
    expect(auth.authenticateWs({ ...base, apiKeyHeader: KEYS.mm, userWalletHeader: "0x12" })).toMatchObject({
      code: "api_key_user_wallet_invalid",
    });
    const single = auth.authenticateWs({ ...base, apiKeyHeader: KEYS.single });
    expect(single.ok && single.wallet).toBe(WALLET_B);
  });

  it("requires orders:read by default", () => {
    keys.register(key("00000000000000b1"), "mm", ["portfolio:read"], { nowMs: T0 });
    expect(auth.authenticateWs({ ...base, apiKeyHeader: key("00000000000000b1"), userWalletHeader: WALLET_A })).toMatchObject({
      status: 403,
      code: "api_key_scope_missing",
      details: { requiredScope: "orders:read" },
    });
  });
});
