/**
 * Second pass over spec 5.2 - 5.4: the order WITHIN step 4 (revoked, expired, suspended, ip),
 * steps 1-4 before the wallet (5) and the wallet before the scope (6), the scope before the
 * compliance gate (7), the scope of every order / portfolio / vault route (5.4), per-wallet KYC
 * (5.3 requirePerWalletKyc), single_wallet partners acting for their associated wallet, and the
 * same gates on the /ws/user upgrade.
 */
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { API_KEY, boot, expectEnvelope, specOnlyBody, WALLETS, wsOpen, type Conformance, type Json } from "./harness.js";

const K = (id: string, secret: string): string => `pmk_sim_${id}_${secret}`;
const KEYS = {
  writeOnly: K("a100000000000001", "WriteOnlySecret"),
  readOnly: K("a100000000000002", "ReadOnlySecret"),
  portfolioOnly: K("a100000000000003", "PortfolioOnlySecret"),
  revokedExpired: K("a100000000000004", "RevokedExpiredSecret"),
  expiredAllowlisted: K("a100000000000005", "ExpiredAllowSecret"),
  suspendedExpired: K("a100000000000006", "SuspendedExpiredSecret"),
  suspendedAllowlisted: K("a100000000000007", "SuspendedAllowSecret"),
  kyc: K("a100000000000008", "KycPartnerSecret"),
  single: K("a100000000000009", "SingleWalletSecret"),
};
const PK = {
  kycOk: ("0x" + "11".repeat(32)) as `0x${string}`,
  kycTier0: ("0x" + "12".repeat(32)) as `0x${string}`,
  kycNone: ("0x" + "13".repeat(32)) as `0x${string}`,
  single: ("0x" + "14".repeat(32)) as `0x${string}`,
};
const ADDR = Object.fromEntries(Object.entries(PK).map(([k, v]) => [k, privateKeyToAccount(v).address])) as Record<keyof typeof PK, string>;
const BANNED = "0x00000000000000000000000000000000000000b1";
const W = WALLETS[0].address;

let c: Conformance;
const idx: Partial<Record<keyof typeof PK, number>> = {};
beforeAll(async () => {
  c = await boot({
    edit: (doc: Json) => {
      doc.partners[0].keys.push(
        { key: KEYS.writeOnly, scopes: ["orders:write"] },
        { key: KEYS.readOnly, scopes: ["orders:read"] },
        { key: KEYS.portfolioOnly, scopes: ["portfolio:read"] },
        { key: KEYS.revokedExpired, scopes: ["orders:read"], revoked: true, expiresAt: "-1m" },
        { key: KEYS.expiredAllowlisted, scopes: ["orders:read"], expiresAt: "-1m", ipAllowlist: ["203.0.113.7"] },
      );
      doc.wallets.push({ name: "banned-x", address: BANNED, partner: "demo-mm", banned: true });
      doc.partners.push(
        {
          id: "susp2",
          name: "Suspended too",
          kind: "multi_wallet",
          requirePerWalletKyc: false,
          suspended: true,
          keys: [
            { key: KEYS.suspendedExpired, scopes: ["orders:read"], expiresAt: "-1m" },
            { key: KEYS.suspendedAllowlisted, scopes: ["orders:read"], ipAllowlist: ["203.0.113.7"] },
          ],
        },
        {
          id: "kyc-mm",
          name: "KYC market maker",
          kind: "multi_wallet",
          requirePerWalletKyc: true,
          keys: [{ key: KEYS.kyc, scopes: ["orders:read", "orders:write", "portfolio:read"] }],
        },
        {
          id: "solo",
          name: "Single wallet partner",
          kind: "single_wallet",
          associatedWallet: "solo-1",
          keys: [{ key: KEYS.single, scopes: ["orders:read", "orders:write", "portfolio:read"] }],
        },
      );
      const fund = { collateral: "100" };
      doc.wallets.push(
        { name: "kyc-ok", privateKey: PK.kycOk, partner: "kyc-mm", kyc: { approved: true, tier: 1 }, balances: fund },
        { name: "kyc-tier0", privateKey: PK.kycTier0, partner: "kyc-mm", kyc: { approved: true, tier: 0 }, balances: fund },
        { name: "kyc-none", privateKey: PK.kycNone, partner: "kyc-mm", kyc: { approved: false, tier: 0 }, balances: fund },
        { name: "solo-1", privateKey: PK.single, partner: "solo", kyc: { approved: true, tier: 1 }, balances: fund },
      );
    },
  });
  for (const k of Object.keys(PK) as (keyof typeof PK)[]) idx[k] = c.addWallet(PK[k]);
});
afterAll(async () => {
  await c.close();
});
beforeEach(async () => {
  await c.advance(1_000);
});

const get = (path: string, headers: Record<string, string>) => c.send(path, { headers });
const post = (path: string, headers: Record<string, string>, body: unknown = {}) => c.send(path, { headers, body });

describe("5.2 step 4: revoked, then expired, then suspended, then ip", () => {
  it("a key both revoked and expired answers api_key_revoked", async () => {
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": KEYS.revokedExpired, "X-User-Wallet": W }), 401, "api_key_revoked");
  });

  it("an expired key with an IP allowlist answers api_key_expired", async () => {
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": KEYS.expiredAllowlisted, "X-User-Wallet": W }), 401, "api_key_expired");
  });

  it("an expired key of a suspended partner answers api_key_expired", async () => {
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": KEYS.suspendedExpired, "X-User-Wallet": W }), 401, "api_key_expired");
  });

  it("a key with an IP allowlist of a suspended partner answers api_key_suspended", async () => {
    const r = await get("/api/orders/open", { "X-Api-Key": KEYS.suspendedAllowlisted, "X-User-Wallet": W, "X-Forwarded-For": "203.0.113.7" });
    expectEnvelope(r, 401, "api_key_suspended");
  });
});

describe("5.2: key checks (1-4) before the wallet (5), the wallet before the scope (6), the scope before compliance (7)", () => {
  it("key failures win over a missing or malformed X-User-Wallet", async () => {
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": "not-a-key" }), 401, "api_key_bad_format");
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": K("ffffffffffffff00", "x") }), 401, "api_key_unknown_key");
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": K("5e1d000000000001", "Wrong"), "X-User-Wallet": "0x12" }), 401, "api_key_bad_secret");
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": KEYS.revokedExpired }), 401, "api_key_revoked");
    expectEnvelope(await get("/api/orders/open", { "X-Api-Key": KEYS.suspendedExpired, "X-User-Wallet": "nope" }), 401, "api_key_expired");
  });

  it("a malformed X-User-Wallet wins over a missing scope", async () => {
    expectEnvelope(await get("/api/me/balances", { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": "0xabc" }), 401, "api_key_user_wallet_invalid");
  });

  it("a missing scope wins over a banned wallet; with the scope the banned wallet is 403 wallet_banned", async () => {
    const e = expectEnvelope(await get("/api/me/balances", { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": BANNED }), 403, "api_key_scope_missing");
    expect(e.details.requiredScope).toBe("portfolio:read");
    expectEnvelope(await get("/api/me/balances", { "X-Api-Key": API_KEY, "X-User-Wallet": BANNED }), 403, "wallet_banned");
  });

  it("a banned effective wallet cannot place, cancel or read orders: 403 wallet_banned", async () => {
    const h = { "X-Api-Key": API_KEY, "X-User-Wallet": BANNED };
    expectEnvelope(await post("/api/orders/place", h, {}), 403, "wallet_banned");
    expectEnvelope(await post("/api/orders/cancel", h, { orderId: "x" }), 403, "wallet_banned");
    expectEnvelope(await get("/api/orders/history", h), 403, "wallet_banned");
  });
});

describe("5.4: the scope of every order, portfolio and vault route", () => {
  const ORDER_GETS = ["/api/orders/open", "/api/orders/history", "/api/orders/o1", "/api/orders/o1/fills", "/api/orders/o1/fees-summary", "/api/orders/lookup?clientOrderId=x"];
  const ORDER_POSTS: [string, unknown][] = [
    ["/api/orders/place", {}],
    ["/api/orders/place-batch", { orders: [] }],
    ["/api/orders/cancel", { orderId: "o1" }],
    ["/api/orders/cancel-batch", { orderIds: ["o1"] }],
    ["/api/orders/cancel-all", {}],
  ];
  const PORTFOLIO = ["vault", "balances", "positions", "portfolio", "fee-tier", "trades", "fees", "auto-redeem", "deposit-limits", "balance-events", "splits-merges"];
  const WITHDRAWAL_READS = ["/api/me/withdrawals", "/api/me/withdrawals/fee", "/api/me/withdrawals/deposit-sources", "/api/me/withdrawals/3f2b0c55-7d4c-4c1b-9f4e-2a9f4b7c1d10"];

  it("order GETs need orders:read: an orders:write-only key is 403 with requiredScope and have[]", async () => {
    const h = { "X-Api-Key": KEYS.writeOnly, "X-User-Wallet": W };
    for (const p of ORDER_GETS) {
      const e = expectEnvelope(await get(p, h), 403, "api_key_scope_missing");
      expect(e.details, p).toEqual(expect.objectContaining({ requiredScope: "orders:read", have: ["orders:write"] }));
    }
  });

  it("order POSTs need orders:write: an orders:read-only key is 403 on place, place-batch, cancel, cancel-batch, cancel-all", async () => {
    const h = { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": W };
    for (const [p, body] of ORDER_POSTS) {
      const e = expectEnvelope(await post(p, h, body), 403, "api_key_scope_missing");
      expect(e.details, p).toEqual(expect.objectContaining({ requiredScope: "orders:write", have: ["orders:read"] }));
    }
  });

  it("an orders:write-only key places and cancels (writes do not need orders:read)", async () => {
    const { body } = await c.order(0, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.02", quantity: "1" });
    const h = { "X-Api-Key": KEYS.writeOnly, "X-User-Wallet": W };
    const placed = await post("/api/orders/place", h, specOnlyBody(body));
    expect(placed.status).toBe(201);
    expect(placed.body.status).toBe("OPEN");
    const cancelled = await post("/api/orders/cancel", h, { orderId: placed.body.orderId });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("CANCELLED");
  });

  it("portfolio and withdrawal reads need portfolio:read (and nothing else)", async () => {
    const without = { "X-Api-Key": KEYS.readOnly, "X-User-Wallet": W };
    const only = { "X-Api-Key": KEYS.portfolioOnly, "X-User-Wallet": W };
    for (const p of [...PORTFOLIO.map((x) => `/api/me/${x}`), ...WITHDRAWAL_READS]) {
      const e = expectEnvelope(await get(p, without), 403, "api_key_scope_missing");
      expect(e.details.requiredScope, p).toBe("portfolio:read");
      expect([200, 404], p).toContain((await get(p, only)).status);
    }
    // and a portfolio-only key cannot read orders
    expect(expectEnvelope(await get("/api/orders/open", only), 403, "api_key_scope_missing").details.requiredScope).toBe("orders:read");
  });

  it("vault signatures and withdrawal mutations need vault:write, not granted by the day-one scopes", async () => {
    for (const p of ["/api/vault/merge-signature", "/api/vault/convert-signature", "/api/withdrawals/request"]) {
      const e = expectEnvelope(await post(p, c.auth(0), {}), 403, "api_key_scope_missing");
      expect(e.details, p).toEqual(expect.objectContaining({ requiredScope: "vault:write", have: ["orders:read", "orders:write", "portfolio:read"] }));
    }
  });
});

describe("5.3 requirePerWalletKyc true: each wallet must be APPROVED with tier >= 1", () => {
  const attempt = async (who: keyof typeof PK): Promise<Json> => {
    const { body } = await c.order(idx[who]!, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.05", quantity: "1", key: KEYS.kyc });
    const r = await post("/api/orders/place", c.auth(idx[who], KEYS.kyc), specOnlyBody(body));
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it("approved tier 1 trades; tier 0 and not approved are REJECTED kyc_blocked", async () => {
    expect((await attempt("kycOk")).status).toBe("OPEN");
    expect(await attempt("kycTier0")).toMatchObject({ status: "REJECTED", code: "kyc_blocked" });
    expect(await attempt("kycNone")).toMatchObject({ status: "REJECTED", code: "kyc_blocked" });
  });

  it("a first-seen wallet is not onboarded without KYC: kyc_blocked, also after the waived-KYC onboarding delays", async () => {
    const w = c.addWallet("0x" + "15".repeat(32));
    const once = async (): Promise<Json> => {
      const { body } = await c.order(w, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.05", quantity: "1", key: KEYS.kyc });
      return (await post("/api/orders/place", c.auth(w, KEYS.kyc), specOnlyBody(body))).body;
    };
    expect(await once()).toMatchObject({ status: "REJECTED", code: "kyc_blocked" });
    await c.advance(60_000);
    expect(await once()).toMatchObject({ status: "REJECTED", code: "kyc_blocked" });
  });
});

describe("5.3 single_wallet: the associated wallet acts, X-User-Wallet is ignored", () => {
  it("orders placed under a single_wallet key belong to the associated wallet whatever X-User-Wallet says", async () => {
    const { body } = await c.order(idx.single!, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.03", quantity: "2", key: KEYS.single });
    const h = { "X-Api-Key": KEYS.single, "X-User-Wallet": W };
    const placed = await post("/api/orders/place", h, specOnlyBody(body));
    expect(placed.status).toBe(201);
    expect(placed.body.status, placed.text).toBe("OPEN");
    const open = await get("/api/orders/open", h);
    expect(open.body.walletAddress).toBe(ADDR.single.toLowerCase());
    expect(open.body.orders.map((o: Json): string => String(o.id))).toEqual([placed.body.orderId]);
    // the wallet named in the ignored header does not see it
    const mine = await get("/api/orders/open?marketId=EPL-WINNER&outcome=3", c.auth(0));
    expect(mine.body.orders.map((o: Json): string => String(o.id))).not.toContain(placed.body.orderId);
  });
});

describe("5.1 / 5.2 on the /ws/user upgrade", () => {
  async function refused(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Json }> {
    const { default: WebSocket } = await import("ws");
    const ws = new WebSocket(c.url.replace(/^http/, "ws") + path, { headers });
    ws.on("error", () => undefined);
    return new Promise((resolve, reject) => {
      ws.once("unexpected-response", (req, res) => {
        const chunks: Buffer[] = [];
        res.on("data", (b: Buffer) => chunks.push(b));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        });
      });
      ws.once("open", () => {
        ws.terminate();
        reject(new Error("upgrade was accepted"));
      });
    });
  }

  it("revoked, wrong wallet format, missing scope and banned wallet are refused with the REST codes and envelope", async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{ "X-Api-Key": KEYS.revokedExpired, "X-User-Wallet": W }, 401, "api_key_revoked"],
      [{ "X-Api-Key": API_KEY, "X-User-Wallet": "0x1234" }, 401, "api_key_user_wallet_invalid"],
      [{ "X-Api-Key": KEYS.portfolioOnly, "X-User-Wallet": W }, 403, "api_key_scope_missing"],
      [{ "X-Api-Key": API_KEY, "X-User-Wallet": BANNED }, 403, "wallet_banned"],
    ];
    for (const [headers, status, code] of cases) {
      const r = await refused("/ws/user", headers);
      expect(r.status, code).toBe(status);
      expect(r.body).toMatchObject({ status, error: { code } });
      // a refused upgrade is an ordinary answer: common headers too (spec 4, 9)
      expect(r.headers["x-api-version"]).toBe("2026-10-09");
      expect(r.headers["x-request-id"]).toBeTruthy();
      expect(r.body.error.trace_id).toBe(r.headers["x-trace-id"]);
    }
  });

  it("?key= works for a single_wallet partner too; the stream binds to the associated wallet", async () => {
    const { ws, inbox } = await wsOpen(c.url, `/ws/user?key=${KEYS.single}`, { "X-User-Wallet": W });
    try {
      ws.send(JSON.stringify({ type: "subscribe", channel: "user_orders" }));
      expect((await inbox.next()).type).toBe("subscribed");
      const { body } = await c.order(idx.single!, { symbol: "EPL-WINNER", outcome: 3, side: "BUY", price: "0.02", quantity: "1", key: KEYS.single });
      const placed = await post("/api/orders/place", { "X-Api-Key": KEYS.single }, specOnlyBody(body));
      const f = await inbox.nextOf("order_placed");
      expect(f.orderId).toBe(placed.body.orderId);
      expect(f.walletAddress).toBe(ADDR.single.toLowerCase());
    } finally {
      ws.terminate();
    }
  });
});
