/**
 * Second pass over spec 8.1 / 8.2: the listed number of every order-write bucket, the vault
 * buckets (wallet 3/s and the ip umbrella 100/60 s), rows that name several endpoints share one
 * counter (docs/spec-gaps.md), Retry-After equal to X-RateLimit-Reset on per-minute windows, a
 * higher tier scaling wallet buckets up but never ip buckets, and the forwarded-for entry that
 * counts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addTierPartner, boot, expectEnvelope, rateHeaders, T0, type Conformance, type Reply } from "./harness.js";

const FAST_KEY = "pmk_sim_fa00000000000001_FastPartnerSecret";
const FAST_WALLET = "0x3333333333333333333333333333333333333333";

let c: Conformance;
beforeEach(async () => {
  c = await boot({
    edit: addTierPartner({ id: "fast", rateLimitPerMin: 1200, key: FAST_KEY, wallet: FAST_WALLET }),
  });
});
afterEach(async () => {
  await c.close();
});

const rate = rateHeaders;

/** Send `n` requests; every one must pass the limiter (any status but 429). */
async function burn(n: number, send: () => Promise<Reply>): Promise<Reply> {
  let last: Reply | undefined;
  for (let i = 0; i < n; i++) {
    last = await send();
    if (last.status === 429) throw new Error(`request ${i + 1} of ${n} was rate limited`);
  }
  return last!;
}

async function vaultKey(): Promise<string> {
  const r = await c.send("/sim/keys", { body: { partnerId: "demo-mm", scopes: ["vault:write", "portfolio:read"] } });
  expect(r.status, r.text).toBe(201);
  return r.body.key as string;
}

describe("8.2 order-write buckets (wallet, 1 s)", () => {
  const cases: [string, unknown, number][] = [
    ["/api/orders/place-batch", { orders: [] }, 8],
    ["/api/orders/cancel", { orderId: "none" }, 40],
    ["/api/orders/cancel-batch", { orderIds: ["none"] }, 5],
  ];
  for (const [path, body, limit] of cases) {
    it(`${path}: ${limit} per second per wallet, then 429 with Retry-After 1`, async () => {
      const send = (w = 0) => c.send(path, { headers: c.auth(w), body });
      const last = await burn(limit, () => send());
      expect(rate(last.headers)).toEqual({ limit, remaining: 0, reset: 1 });
      const refused = await send();
      expectEnvelope(refused, 429, "rate_limited");
      expect(refused.headers.get("retry-after")).toBe("1");
      // per wallet: another wallet of the same partner is unaffected
      expect((await send(1)).status).not.toBe(429);
      await c.advance(1_000);
      expect((await send()).status).not.toBe(429);
    });
  }
});

describe("8.2 vault buckets", () => {
  it("split/merge/convert signatures share 3 per second per wallet", async () => {
    const key = await vaultKey();
    const h = { "X-Api-Key": key, "X-User-Wallet": c.auth(0)["X-User-Wallet"]! };
    const paths = ["/api/vault/split-signature", "/api/vault/merge-signature", "/api/vault/convert-signature"];
    // An empty body is a 400 invalid_request (test/sim/desk/vault-ops.test.ts), counted all the same.
    for (const p of paths) expect((await c.send(p, { headers: h, body: {} })).status).toBe(400);
    const refused = await c.send(paths[0]!, { headers: h, body: {} });
    expectEnvelope(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  it("POST /api/vault/* is capped at 100 per 60 s per ip, across wallets; another ip is unaffected", async () => {
    await c.advance(30_000);
    const key = await vaultKey();
    const ip = "198.51.100.77";
    let n = 0;
    // 3 per second per wallet: spread the 100 calls over 34 wallets so only the ip bucket binds
    await burn(100, () => {
      const wallet = "0x" + (Math.floor(n / 3) + 1).toString(16).padStart(40, "0");
      n++;
      return c.send("/api/vault/split-signature", { headers: { "X-Api-Key": key, "X-User-Wallet": wallet, "X-Forwarded-For": ip }, body: {} });
    });
    const fresh = "0x" + "ab".repeat(20);
    const refused = await c.send("/api/vault/split-signature", { headers: { "X-Api-Key": key, "X-User-Wallet": fresh, "X-Forwarded-For": ip }, body: {} });
    expectEnvelope(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(rate(refused.headers)).toEqual({ limit: 100, remaining: 0, reset: 30 });
    const other = await c.send("/api/vault/split-signature", { headers: { "X-Api-Key": key, "X-User-Wallet": fresh, "X-Forwarded-For": "198.51.100.78" }, body: {} });
    expect(other.status).toBe(400);
  });
});

describe("8.2 rows naming several endpoints share one counter", () => {
  it("order reads: open, history and {id} draw on one 300 / 60 s wallet bucket", async () => {
    const h = c.auth(0);
    expect(rate((await c.send("/api/orders/open", { headers: h })).headers)).toMatchObject({ limit: 300, remaining: 299 });
    expect(rate((await c.send("/api/orders/history", { headers: h })).headers).remaining).toBe(298);
    expect(rate((await c.send("/api/orders/o999", { headers: h })).headers).remaining).toBe(297);
    expect(rate((await c.send("/api/orders/o999/fills", { headers: h })).headers).remaining).toBe(296);
  });

  it("markets list, detail and order book share 600 / 60 s; trades and price-history share 240 / 60 s", async () => {
    const ip = { "X-Forwarded-For": "203.0.113.90" };
    const slug = (await c.send("/api/markets?limit=1", { headers: ip })).body.markets[0].slug;
    expect(rate((await c.send(`/api/markets/${slug}`, { headers: ip })).headers)).toMatchObject({ limit: 600, remaining: 598 });
    expect(rate((await c.send("/api/markets/ARS-CHE-ARS/orderbook", { headers: ip })).headers).remaining).toBe(597);
    expect(rate((await c.send("/api/markets/ARS-CHE-ARS/trades", { headers: ip })).headers)).toMatchObject({ limit: 240, remaining: 239 });
    expect(rate((await c.send("/api/markets/ARS-CHE-ARS/price-history", { headers: ip })).headers)).toMatchObject({ limit: 240, remaining: 238 });
  });

  it("portfolio reads share 600 / 60 s; deposit-limits, withdrawals and the fee preview have their own rows", async () => {
    const h = c.auth(1);
    expect(rate((await c.send("/api/me/balances", { headers: h })).headers)).toMatchObject({ limit: 600, remaining: 599 });
    expect(rate((await c.send("/api/me/positions", { headers: h })).headers).remaining).toBe(598);
    expect(rate((await c.send("/api/me/deposit-limits", { headers: h })).headers)).toMatchObject({ limit: 120, remaining: 119 });
    expect(rate((await c.send("/api/me/withdrawals", { headers: h })).headers)).toMatchObject({ limit: 60, remaining: 59 });
    expect(rate((await c.send("/api/me/withdrawals/deposit-sources", { headers: h })).headers)).toMatchObject({ limit: 60, remaining: 58 });
    expect(rate((await c.send("/api/me/withdrawals/fee", { headers: h })).headers)).toMatchObject({ limit: 30, remaining: 29 });
  });
});

describe("8.1 per-minute windows: Retry-After equals X-RateLimit-Reset (delta-seconds)", () => {
  it("GET /api/me/withdrawals/fee (30 / 60 s) exhausted 15 s into the window waits 45 s", async () => {
    await c.advance(15_000);
    const h = c.auth(2);
    await burn(30, () => c.send("/api/me/withdrawals/fee", { headers: h }));
    const refused = await c.send("/api/me/withdrawals/fee", { headers: h });
    expectEnvelope(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("45");
    expect(refused.headers.get("x-ratelimit-reset")).toBe("45");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    // the other rows of the same wallet are untouched
    expect((await c.send("/api/me/balances", { headers: h })).status).toBe(200);
    await c.advance(45_000);
    expect((await c.send("/api/me/withdrawals/fee", { headers: h })).status).toBe(200);
    expect(c.clock.now()).toBe(T0 + 60_000);
  });

  it("POST /api/me/withdrawals/{id}/cancel is 10 / 60 s per wallet", async () => {
    const key = await vaultKey();
    const h = { "X-Api-Key": key, "X-User-Wallet": c.auth(0)["X-User-Wallet"]! };
    const path = "/api/me/withdrawals/3f2b0c55-7d4c-4c1b-9f4e-2a9f4b7c1d10/cancel";
    const last = await burn(10, () => c.send(path, { method: "POST", headers: h }));
    expect(rate(last.headers)).toMatchObject({ limit: 10, remaining: 0 });
    expectEnvelope(await c.send(path, { method: "POST", headers: h }), 429, "rate_limited");
  });

  it("POST /api/withdrawals/request is 60 / 60 s per ip", async () => {
    const key = await vaultKey();
    const ip = "203.0.113.61";
    let n = 0;
    await burn(60, () => {
      const wallet = "0x" + (++n).toString(16).padStart(40, "0");
      return c.send("/api/withdrawals/request", { headers: { "X-Api-Key": key, "X-User-Wallet": wallet, "X-Forwarded-For": ip }, body: {} });
    });
    const refused = await c.send("/api/withdrawals/request", { headers: { "X-Api-Key": key, "X-User-Wallet": "0x" + "cd".repeat(20), "X-Forwarded-For": ip }, body: {} });
    expectEnvelope(refused, 429, "rate_limited");
  });
});

describe("8.1 tier and ip", () => {
  it("rateLimitPerMin 1200 doubles wallet buckets (place 40/s, cancel-all 2/s, reads 600/60 s) but never ip buckets", async () => {
    const h = { "X-Api-Key": FAST_KEY, "X-User-Wallet": FAST_WALLET };
    expect(rate((await c.send("/api/orders/place", { headers: h, body: {} })).headers).limit).toBe(40);
    expect(rate((await c.send("/api/orders/cancel-all", { headers: h, body: {} })).headers).limit).toBe(2);
    expect((await c.send("/api/orders/cancel-all", { headers: h, body: {} })).status).toBe(200);
    expectEnvelope(await c.send("/api/orders/cancel-all", { headers: h, body: {} }), 429, "rate_limited");
    expect(rate((await c.send("/api/orders/open", { headers: h })).headers).limit).toBe(600);
    expect(rate((await c.send("/api/markets", { headers: { ...h, "X-Forwarded-For": "203.0.113.99" } })).headers).limit).toBe(600);
    expect(rate((await c.send("/api/search?q=x", { headers: h })).headers).limit).toBe(60);
  });

  it("the caller ip is the forwarded-for entry added by the trusted ingress hop (the last one)", async () => {
    const markets = (xff: string) => c.send("/api/markets?limit=1", { headers: { "X-Forwarded-For": xff } });
    expect(rate((await markets("198.51.100.5")).headers).remaining).toBe(599);
    // a client-supplied entry in front does not change who is counted
    expect(rate((await markets("10.9.9.9, 198.51.100.5")).headers).remaining).toBe(598);
    expect(rate((await markets("198.51.100.5, 198.51.100.6")).headers).remaining).toBe(599);
  });
});
