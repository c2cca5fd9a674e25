/**
 * GET /api/leaderboard (src/sim/http/routes/public-leaderboard.ts) on the plumbing scenario's four
 * wallets (w1..w4, vaults deployed): realised PnL by average cost (sells and settlements, fees
 * out, cost carried in from before the period), volume, the periods, the pnl and volume orders,
 * paging, search by name or address prefix, the caller's own entry, and the 400 refusals.
 */
import { describe, expect, it } from "vitest";
import { LEADERBOARD_PERIODS, leaderboardRoutes, periodStartMs } from "../../../../src/sim/http/routes/public-leaderboard.js";
import { vaultAddressOf } from "../../../../src/sim/platform/derive.js";
import { authHeaders, json, KEYS, makePipeline, req, T0, W1, W2, W3, W4 } from "../helpers.js";

const DAY = 86_400_000;
const M = 1_000_000n;

/**
 * All at T0 on TST (taker fee 100 bps, outside PnL and volume):
 *   t0 a mint: w2 rests BUY NO 0.60 x 10, w1 buys 10 YES at 0.40;
 *   t1 w1 sells 4 YES at 0.60 to w3 (w1 realises 2.4 - 4 x 0.4 = 0.8);
 *   t2 w2 sells 2 NO at 0.50 to w4 (w2 realises 1.0 - 2 x 0.6 = -0.2).
 * Volumes: w1 4 + 2.4 = 6.4, w2 6 + 1 = 7, w3 2.4, w4 1.
 */
function setup() {
  const { sim, clock, pipeline } = makePipeline(leaderboardRoutes, { rateLimits: false });
  for (const w of [W2, W3, W4]) sim.engine.deposit(w, 1000n * M);
  const place = (wallet: string, outcome: number, side: "BUY" | "SELL", priceMicros: bigint, qty: bigint, ioc = false) => {
    const r = sim.engine.place({ wallet, marketId: "TST", outcome, side, price: priceMicros, quantity: qty * M, ...(ioc ? { timeInForce: "IOC" as const } : {}) });
    if (r.status === "REJECTED") throw new Error(`${r.code}: ${r.message}`);
    return r;
  };
  place(W2, 1, "BUY", 600_000n, 10n);
  place(W1, 0, "BUY", 400_000n, 10n, true);
  place(W1, 0, "SELL", 600_000n, 4n);
  place(W3, 0, "BUY", 600_000n, 4n, true);
  place(W2, 1, "SELL", 500_000n, 2n);
  place(W4, 1, "BUY", 500_000n, 2n, true);
  expect(sim.engine.ledger.trades()).toHaveLength(3);
  const get = async (query = "", headers: Record<string, string> = {}) => {
    const r = await pipeline.handle(req("GET", `/api/leaderboard${query}`, { headers }));
    return { status: r.status, body: json(r) };
  };
  return { sim, clock, place, get };
}

interface Entry {
  rank: number | null;
  username: string | null;
  pnl: string;
  volume: string;
}
const rows = (body: { entries: Entry[] }): string[] => body.entries.map((e) => `${e.rank} ${e.username} ${e.pnl} ${e.volume}`);

describe("periodStartMs", () => {
  it("today from 00:00 UTC, week and month the last 7 and 30 days, all from the beginning", () => {
    const now = Date.UTC(2026, 5, 3, 17, 45, 12);
    expect(periodStartMs("today", now)).toBe(Date.UTC(2026, 5, 3));
    expect(periodStartMs("week", now)).toBe(now - 7 * DAY);
    expect(periodStartMs("month", now)).toBe(now - 30 * DAY);
    expect(periodStartMs("all", now)).toBe(Number.NEGATIVE_INFINITY);
    expect(LEADERBOARD_PERIODS).toEqual(["today", "week", "month", "all"]);
  });
});

describe("GET /api/leaderboard", () => {
  it("ranks every deployed wallet by realised PnL, then volume, with EIP-55 wallets, vaults and names", async () => {
    const { get } = setup();
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ period: "today", snapshotAt: new Date(T0).toISOString(), total: 4, nextCursor: null, me: null });
    expect(rows(r.body)).toEqual(["1 w1 0.8 6.4", "2 w3 0 2.4", "3 w4 0 1", "4 w2 -0.2 7"]);
    const first = r.body.entries[0];
    expect(first.walletAddress).toBe("0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e");
    expect(first.vaultAddress).toBe(vaultAddressOf(W1).toLowerCase());
  });

  it("sort=volume reorders the same snapshot and re-stamps the ranks", async () => {
    const { get } = setup();
    expect(rows((await get("?sort=volume")).body)).toEqual(["1 w2 -0.2 7", "2 w1 0.8 6.4", "3 w3 0 2.4", "4 w4 0 1"]);
  });

  it("a settlement realises payout minus the cost of what was held", async () => {
    const { sim, get } = setup();
    expect(sim.resolveMarket("TST", [1, 0]).ok).toBe(true);
    // w1 6 YES (cost 2.4) pays 6; w3 4 YES (cost 2.4) pays 4; w2 8 NO (cost 4.8) and w4 2 NO (cost 1) pay 0.
    expect(rows((await get("?period=all")).body)).toEqual(["1 w1 4.4 6.4", "2 w3 1.6 2.4", "3 w4 -1 1", "4 w2 -5 7"]);
  });

  it("counts only what happened in the period, at the cost carried in from before it", async () => {
    const { clock, place, get } = setup();
    await clock.advance(13 * 3_600_000); // 01:00 UTC the next day
    place(W1, 0, "SELL", 700_000n, 2n);
    place(W3, 0, "BUY", 700_000n, 2n, true);
    // w1 sells 2 YES at 0.70 that cost 0.40 each: 1.4 - 0.8 = 0.6.
    const today = (await get("?period=today")).body;
    expect(rows(today).slice(0, 2)).toEqual(["1 w1 0.6 1.4", "2 w3 0 1.4"]);
    expect(today.entries.slice(2).map((e: { pnl: string; volume: string }) => [e.pnl, e.volume])).toEqual([
      ["0", "0"],
      ["0", "0"],
    ]);
    for (const period of ["week", "month", "ALL"]) {
      expect(rows((await get(`?period=${period}`)).body), period).toEqual(["1 w1 1.4 7.8", "2 w3 0 3.8", "3 w4 0 1", "4 w2 -0.2 7"]);
    }
  });

  it("wallets without activity sort last by vault", async () => {
    const { clock, get } = setup();
    await clock.advance(13 * 3_600_000);
    const vaults = (await get("?period=today")).body.entries.map((e: { vaultAddress: string }) => e.vaultAddress);
    expect(vaults).toEqual([W1, W2, W3, W4].map((w) => vaultAddressOf(w).toLowerCase()).sort());
  });

  it("pages with an opaque cursor", async () => {
    const { get } = setup();
    const first = await get("?limit=3");
    expect(rows(first.body)).toEqual(["1 w1 0.8 6.4", "2 w3 0 2.4", "3 w4 0 1"]);
    expect(first.body.nextCursor).toBe(Buffer.from("lb:3").toString("base64url"));
    const second = await get(`?limit=3&cursor=${first.body.nextCursor}`);
    expect(rows(second.body)).toEqual(["4 w2 -0.2 7"]);
    expect(second.body.nextCursor).toBeNull();
    expect(second.body.total).toBe(4);
  });

  it("searches names by prefix, and wallets or vaults by 0x-hex prefix, keeping the overall ranks", async () => {
    const { get } = setup();
    const byName = (await get("?search=W4")).body;
    expect(rows(byName)).toEqual(["3 w4 0 1"]);
    expect(byName.total).toBe(1);
    expect(rows((await get(`?search=${W2.slice(0, 8).toUpperCase().replace("0X", "0x")}`)).body)).toEqual(["4 w2 -0.2 7"]);
    expect(rows((await get(`?search=${vaultAddressOf(W3).slice(0, 12)}`)).body)).toEqual(["2 w3 0 2.4"]);
    expect((await get("?search=nobody")).body).toMatchObject({ total: 0, entries: [], nextCursor: null });
  });

  it("`me`: the caller's entry when a key authenticates, rank null without activity in the period; a bad key is ignored", async () => {
    const { clock, get } = setup();
    expect((await get("", authHeaders(KEYS.mm, W1))).body.me).toMatchObject({ rank: 1, username: "w1", pnl: "0.8" });
    expect((await get("", { "X-Api-Key": "pmk_sim_nope_nope" })).body.me).toBeNull();
    await clock.advance(13 * 3_600_000);
    expect((await get("", authHeaders(KEYS.slow, W4))).body.me).toMatchObject({ rank: null, username: "w4", pnl: "0", volume: "0" });
    expect((await get("?period=all", authHeaders(KEYS.slow, W4))).body.me).toMatchObject({ rank: 3, username: "w4" });
  });

  it.each([
    ["?period=year", "period", "unknown period \"year\""],
    ["?sort=name", "sort", "unknown sort \"name\""],
    ["?limit=0", "limit", "limit must be an integer in 1..50"],
    ["?limit=51", "limit", "limit must be an integer in 1..50"],
    ["?limit=ten", "limit", "limit must be an integer in 1..50"],
    ["?cursor=abc", "cursor", "cursor is not a cursor of this endpoint"],
    [`?cursor=${Buffer.from("act:1").toString("base64url")}`, "cursor", "cursor is not a cursor of this endpoint"],
  ])("refuses %s with 400 bad_request naming the field", async (query, field, message) => {
    const { get } = setup();
    const r = await get(query);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "bad_request", message, details: { field, fields: [field] } });
  });

  it("lists the allowed values of period and sort", async () => {
    const { get } = setup();
    expect((await get("?period=year")).body.error.details.allowed).toEqual(["today", "week", "month", "all"]);
    expect((await get("?sort=name")).body.error.details.allowed).toEqual(["pnl", "volume"]);
  });
});
