/**
 * The rest of the named surface: 4.1 matches, 4.3 ohlc / traders / disputable, 4.4 leaderboard,
 * 4.5 upcoming, 4.7 / 4.8 wallet endpoints and their scopes, 4.9 search, geo and partner feeds,
 * 4.6 place-batch per-entry results.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, boot, expectEnvelope, specOnlyBody, WALLETS, type Conformance, type Json } from "./harness.js";

let c: Conformance;
let vaultKey: string;
beforeAll(async () => {
  c = await boot();
  const issued = await c.send("/sim/keys", { body: { partnerId: "demo-mm", scopes: ["vault:write", "portfolio:read"] } });
  expect(issued.status).toBe(201);
  vaultKey = issued.body.key;
});
afterAll(async () => {
  await c.close();
});

describe("4.1 matches", () => {
  it("GET /api/matches lists (none: every simulated fixture is match-less); limit 1..500", async () => {
    const r = await c.send("/api/matches?limit=500&offset=0");
    expect(r.status).toBe(200);
    expect(r.body.matches).toEqual([]);
    expect((await c.send("/api/matches?limit=0")).status).toBe(400);
    expect((await c.send("/api/matches?limit=501")).status).toBe(400);
  });

  it("GET /api/matches/{slug}: 404 match_not_found", async () => {
    expectEnvelope(await c.send("/api/matches/arsenal-vs-chelsea"), 404, "match_not_found");
  });
});

describe("4.3 ohlc, traders, disputable", () => {
  it("ohlc: unknown interval is 400 invalid_interval with details.allowed", async () => {
    const e = expectEnvelope(await c.send("/api/markets/ARS-CHE-ARS/ohlc?interval=7m"), 400, "invalid_interval");
    expect(Array.isArray(e.details.allowed)).toBe(true);
    expect(e.details.allowed).toContain("1h");
    const okr = await c.send("/api/markets/ARS-CHE-ARS/ohlc?interval=1m");
    expect(okr.status).toBe(200);
    expectEnvelope(await c.send("/api/markets/NOPE/ohlc?interval=1m"), 404, "market_not_found");
  });

  it("traders and traders/by-outcome: limit default 50, max 200 (clamped)", async () => {
    const t = await c.send("/api/markets/ARS-CHE-ARS/traders?limit=1000");
    expect(t.status).toBe(200);
    expect(Array.isArray(t.body.traders)).toBe(true);
    const b = await c.send("/api/markets/EPL-WINNER/traders/by-outcome?limit=0");
    expect(b.status).toBe(200);
    expect(b.body.outcomes).toHaveLength(4);
    expect((await c.send("/api/markets/ARS-CHE-ARS/traders?limit=x")).status).toBe(400);
  });

  it("disputable: a literal path, not a market slug", async () => {
    const r = await c.send("/api/markets/disputable?limit=500");
    expect(r.status).toBe(200);
    expect(r.body.markets).toEqual([]);
    expect((await c.send("/api/markets/disputable?limit=501")).status).toBe(400);
  });
});

describe("4.4 leaderboard", () => {
  it("shape of 2.10; me null for anonymous callers; every deployed user ranked", async () => {
    const r = await c.send("/api/leaderboard");
    expect(r.status).toBe(200);
    for (const k of ["period", "snapshotAt", "total", "entries", "nextCursor", "me"]) expect(r.body).toHaveProperty(k);
    expect(r.body.period).toBe("today");
    expect(r.body.me).toBeNull();
    expect(r.body.total).toBe(3);
    for (const e of r.body.entries) {
      for (const k of ["rank", "vaultAddress", "username", "pnl", "volume"]) expect(e).toHaveProperty(k);
      expect(Number.isInteger(e.rank)).toBe(true);
    }
    expect(r.body.entries.map((e: Json): number => Number(e.rank))).toEqual([1, 2, 3]);
  });

  it("with a key `me` is filled (rank null without realised activity)", async () => {
    const r = await c.send("/api/leaderboard?period=all", { headers: c.auth(0) });
    expect(r.body.me).toMatchObject({ rank: null, pnl: "0", volume: "0" });
  });

  it("paging with an opaque cursor, nextCursor null on the last page; total independent of the page", async () => {
    const a = await c.send("/api/leaderboard?limit=2");
    expect(a.body.entries).toHaveLength(2);
    expect(a.body.total).toBe(3);
    const b = await c.send(`/api/leaderboard?limit=2&cursor=${a.body.nextCursor}`);
    expect(b.body.entries).toHaveLength(1);
    expect(b.body.nextCursor).toBeNull();
    expect(b.body.entries[0].rank).toBe(3);
  });

  it("bad period, sort, limit or cursor: 400 bad_request", async () => {
    for (const q of ["period=year", "sort=roi", "limit=0", "limit=51", "cursor=zzz"]) {
      expectEnvelope(await c.send(`/api/leaderboard?${q}`), 400, "bad_request");
    }
    expect((await c.send("/api/leaderboard?period=week&sort=volume&limit=50")).status).toBe(200);
    const s = await c.send(`/api/leaderboard?search=${WALLETS[1].address.slice(0, 8).toLowerCase()}`);
    expect(s.body.total).toBe(1);
  });
});

describe("4.5 upcoming, 4.9 search and geo", () => {
  it("upcoming: the scenario's competitions (premier-league, la-liga); a bad window is 400", async () => {
    const r = await c.send("/api/upcoming");
    expect(r.status).toBe(200);
    expect((r.body.upcoming as Json[]).map((u): string => String(u.competition.slug)).sort()).toEqual(["la-liga", "premier-league"]);
    expect((await c.send("/api/upcoming?from=2026-06-01&to=2028-01-01")).status).toBe(200);
    expect((await c.send("/api/upcoming?from=garbage")).status).toBe(400);
  });

  it("search: limit default 50, max 50", async () => {
    const r = await c.send("/api/search?q=arsenal");
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: Json): string => String(e.slug))).toEqual(["arsenal-vs-chelsea"]);
    for (const p of ["/api/search/events?q=real", "/api/search/matches?q=x", "/api/search/users?q=x"]) expect((await c.send(p)).status, p).toBe(200);
    expect((await c.send("/api/search/events?limit=51")).status).toBe(400);
    expect(Number((await c.send("/api/search?q=x")).headers.get("x-ratelimit-limit"))).toBe(60);
  });

  it("compliance/geo answers", async () => {
    expect((await c.send("/api/compliance/geo")).status).toBe(200);
  });
});

describe("4.7 / 4.8 wallet endpoints and scopes", () => {
  it("portfolio reads answer 200 with portfolio:read", async () => {
    for (const p of ["portfolio", "fee-tier", "auto-redeem", "deposit-limits", "balance-events", "splits-merges", "splits-merges/unlockable", "withdrawals", "withdrawals/fee", "withdrawals/deposit-sources"]) {
      const r = await c.send(`/api/me/${p}`, { headers: c.auth(0) });
      expect(r.status, p).toBe(200);
    }
  });

  it("withdrawal detail: 404 withdrawal_not_found", async () => {
    expectEnvelope(await c.send("/api/me/withdrawals/3f2b0c55-7d4c-4c1b-9f4e-2a9f4b7c1d10", { headers: c.auth(0) }), 404, "withdrawal_not_found");
  });

  it("withdrawal mutations need vault:write (403 with the day-one key); unknown id 404 withdrawal_not_found", async () => {
    const id = "3f2b0c55-7d4c-4c1b-9f4e-2a9f4b7c1d10";
    const e = expectEnvelope(await c.send(`/api/me/withdrawals/${id}/cancel`, { method: "POST", headers: c.auth(0) }), 403, "api_key_scope_missing");
    expect(e.details).toMatchObject({ requiredScope: "vault:write", have: ["orders:read", "orders:write", "portfolio:read"] });
    const headers = { "X-Api-Key": vaultKey, "X-User-Wallet": WALLETS[0].address };
    expectEnvelope(await c.send(`/api/me/withdrawals/${id}/cancel`, { method: "POST", headers }), 404, "withdrawal_not_found");
  });

  it("vault and withdrawal mutations: scope first, then the body is checked", async () => {
    expectEnvelope(await c.send("/api/vault/split-signature", { headers: c.auth(0), body: {} }), 403, "api_key_scope_missing");
    const headers = { "X-Api-Key": vaultKey, "X-User-Wallet": WALLETS[0].address };
    // Modelled (test/sim/desk/vault-ops.test.ts): an empty split / merge / convert body is a 400.
    for (const p of ["/api/vault/split-signature", "/api/vault/merge-signature", "/api/vault/convert-signature"]) {
      expectEnvelope(await c.send(p, { headers, body: {} }), 400, "invalid_request");
    }
    // Modelled (test/sim/desk/withdrawals.test.ts): an empty withdrawal body is a 400, the emergency answers.
    expectEnvelope(await c.send("/api/withdrawals/request", { headers, body: {} }), 400, "invalid_request");
    expect((await c.send("/api/me/vault/emergency", { headers, body: {} })).status).toBe(200);
  });
});

describe("4.9 tags, activity and challenges", () => {
  it("GET /api/tags: the full tag record carries isFeatured", async () => {
    const tags = (await c.send("/api/tags")).body.tags as Json[];
    expect(tags.length).toBeGreaterThan(0);
    for (const t of tags) for (const k of ["slug", "name", "color", "iconUrl", "isFeatured"]) expect(t).toHaveProperty(k);
  });

  it("activity by address and by vault; limit default 20 max 100; malformed address 400", async () => {
    const w = WALLETS[0].address;
    const a = await c.send(`/api/users/${w}/activity?limit=1000`);
    expect(a.status).toBe(200);
    expect(a.body.walletAddress).toBe(w.toLowerCase());
    const vault = (await c.send("/api/me/vault", { headers: c.auth(0) })).body.vaultAddress;
    const b = await c.send(`/api/users/by-vault/${vault}/activity`);
    expect(b.body.walletAddress).toBe(w.toLowerCase());
    expect((await c.send("/api/users/0x123/activity")).status).toBe(400);
  });

  it("challenges: empty pages; unknown market 404", async () => {
    expect((await c.send("/api/challenges")).body).toEqual({ challenges: [], nextCursor: null });
    expect((await c.send("/api/markets/ARS-CHE-ARS/challenges")).status).toBe(200);
    expectEnvelope(await c.send("/api/markets/NOPE/challenges"), 404, "market_not_found");
  });

  it("the new routes sit in their 8.2 buckets", async () => {
    const lim = async (path: string, headers: Record<string, string> = {}) => Number((await c.send(path, { headers })).headers.get("x-ratelimit-limit"));
    expect(await lim("/api/markets/ARS-CHE-ARS/traders")).toBe(120);
    expect(await lim("/api/markets/ARS-CHE-ARS/ohlc")).toBe(120);
    expect(await lim("/api/leaderboard")).toBe(600);
    expect(await lim("/api/leaderboard?search=mm")).toBe(120);
    expect(await lim("/api/me/withdrawals", c.auth(0))).toBe(60);
    expect(await lim("/api/me/withdrawals/fee", c.auth(0))).toBe(30);
    expect(await lim("/api/me/deposit-limits", c.auth(0))).toBe(120);
    expect(await lim("/api/me/portfolio", c.auth(0))).toBe(600);
  });
});

describe("4.9 partner feeds reject undefined parameters", () => {
  it("trades, mm-kpis and reconciliation snapshot: 200, and 400 invalid_request for an undefined parameter", async () => {
    const key = { "X-Api-Key": API_KEY };
    for (const p of ["/api/v1/partner/trades", "/api/v1/partner/mm-kpis", "/api/v1/partner/reconciliation/snapshot"]) {
      expect((await c.send(p, { headers: key })).status, p).toBe(200);
      const e = expectEnvelope(await c.send(`${p}?bogus=1`, { headers: key }), 400, "invalid_request");
      expect(e.details.fields).toContain("bogus");
    }
    expect((await c.send("/api/v1/partner/trades?limit=301", { headers: key })).status).toBe(400);
    expect((await c.send("/api/v1/partner/mm-kpis?limit=1000", { headers: key })).status).toBe(200);
    expectEnvelope(await c.send("/api/v1/partner/trades"), 401, "auth_required");
  });

  it("the partner trade feed pages its wallets' fills newest first", async () => {
    await c.advance(1_000);
    const maker = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.4", quantity: "3" });
    expect((await c.send("/api/orders/place", { headers: c.auth(0), body: maker.body })).body.status).toBe("OPEN");
    for (let i = 0; i < 3; i++) {
      const taker = await c.order(1, { symbol: "ARS-CHE-DRAW", outcome: 1, side: "BUY", price: "0.6", quantity: "1" });
      expect((await c.send("/api/orders/place", { headers: c.auth(1), body: taker.body })).body.status).toBe("FILLED");
    }
    // 3 trades, both legs are partner wallets: 6 rows
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: Json = await c.send(`/api/v1/partner/trades?limit=4${cursor ? `&cursor=${cursor}` : ""}`, { headers: { "X-Api-Key": API_KEY } });
      expect(r.status).toBe(200);
      seen.push(...r.body.trades.map((t: Json) => `${t.id}:${t.role}`));
      cursor = r.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it("after trading, the leaderboard ranks the caller in `me` and counts its volume", async () => {
    const r = await c.send("/api/leaderboard?period=all&sort=volume", { headers: c.auth(1) });
    expect(r.body.me.rank).toBe(1);
    expect(r.body.me.volume).toBe("1.8");
    expect(r.body.entries[0].vaultAddress).toBe(r.body.me.vaultAddress);
  });
});

describe("4.6 place-batch", () => {
  it("a rejected entry has success: false and a code; other entries keep their results", async () => {
    await c.advance(1_000);
    const good = await c.order(0, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.1", quantity: "1", clientOrderId: "pb-1" });
    const mismatch = await c.order(0, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.1", quantity: "1", clientOrderId: "pb-2" });
    const broke = await c.order(0, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.5", quantity: "900000", clientOrderId: "pb-3" });
    const r = await c.send("/api/orders/place-batch", {
      headers: c.auth(0),
      body: { orders: [specOnlyBody(good.body), { ...specOnlyBody(mismatch.body), maker: WALLETS[2].address }, specOnlyBody(broke.body)] },
    });
    expect(r.status).toBe(201);
    const [a, b, d] = r.body.results;
    expect(a).toMatchObject({ success: true, status: "OPEN" });
    expect(b).toMatchObject({ success: false, code: "maker_mismatch", clientOrderId: "pb-2" });
    expect(d).toMatchObject({ success: false, code: "insufficient_funds", clientOrderId: "pb-3" });
  });
});
