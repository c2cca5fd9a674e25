/**
 * Public activity and challenge reads (src/sim/http/routes/public-activity.ts) behind the
 * pipeline: a wallet's fills as that wallet saw them, newest first, by address or by vault, with
 * the `act:` keyset cursor; the scenario's challenges newest first, shown from their createdAt
 * and OPEN until their resolvedAt, per market or all, with the `ch:` cursor; and the refusals
 * (malformed address or vault, foreign cursor, bad limit, unknown symbol).
 */
import { describe, expect, it } from "vitest";
import { parseMicros } from "../../../../src/core/money.js";
import { activityRoutes } from "../../../../src/sim/http/routes/public-activity.js";
import { vaultAddressOf } from "../../../../src/sim/platform/derive.js";
import { scenarioPipeline, T0 } from "./scenario-pipeline.js";

const A = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const C = "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC";
const HOUR = 3_600_000;
const cursor = (text: string) => Buffer.from(text).toString("base64url");

const SCENARIO = `
seed: 3
start: "2026-06-01T12:00:00Z"
wallets:
  - { name: alice, address: "${A}" }
  - { name: bob, address: "${B}" }
events:
  - title: Activity
    slug: activity
    markets:
      - { title: Will it?, symbol: ACT, tradingWindow: { opensAt: -1h }, flow: { enabled: false } }
      - { title: Who wins?, symbol: WHO, outcomeLabels: [X, Y, Z], tradingWindow: { opensAt: -1h }, flow: { enabled: false } }
challenges:
  - { id: c-old, market: ACT, challenger: alice, proposedOutcome: 1, reason: Old, bond: "250", status: UPHELD, createdAt: -2h, resolvedAt: -1h }
  - { id: c-mid, market: WHO, challenger: "${C}", proposedOutcome: 2, reason: Mid, createdAt: -1h }
  - { id: c-new, market: ACT, challenger: bob, proposedOutcome: 0, reason: New, status: DISMISSED, createdAt: -30m, resolvedAt: +30m }
  - { id: c-later, market: ACT, challenger: bob, proposedOutcome: 0, reason: Later, createdAt: +1h }
`;

/**
 * t1: bob sells 2 YES into alice's bid at 0.40 (alice maker); t2: alice buys 1 YES from bob's
 * ask at 0.45 (alice taker); t3: alice buys 3 YES at 0.70 from bob's NO bid at 0.30 (a mint).
 */
function setup() {
  const h = scenarioPipeline(SCENARIO, activityRoutes);
  const e = h.sim.engine;
  e.deposit(A, 1_000_000_000n);
  e.deposit(B, 1_000_000_000n);
  e.split(B, "ACT", 10_000_000n);
  const place = (wallet: string, outcome: number, side: "BUY" | "SELL", price: string, qty: number) =>
    e.place({ wallet, marketId: "ACT", outcome, side, price: parseMicros(price), quantity: BigInt(qty) * 1_000_000n });
  place(A, 0, "BUY", "0.4", 2);
  place(B, 0, "SELL", "0.4", 2);
  place(B, 0, "SELL", "0.45", 1);
  place(A, 0, "BUY", "0.45", 1);
  place(B, 1, "BUY", "0.3", 3);
  place(A, 0, "BUY", "0.7", 3);
  expect(e.ledger.trades().map((t) => t.id)).toEqual(["t1", "t2", "t3"]);
  return h;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const brief = (rows: any[]) => rows.map((r) => `${r.id} ${r.role} ${r.outcome} ${r.side} ${r.price} ${r.quantity} fee ${r.fee}`);

describe("GET /api/users/{address}/activity", () => {
  it("lists the wallet's fills newest first, each as that wallet saw it", async () => {
    const h = setup();
    const r = await h.get(`/api/users/${A}/activity`);
    expect(r.status).toBe(200);
    expect(r.body.walletAddress).toBe(A);
    expect(r.body.vaultAddress).toBe(vaultAddressOf(A).toLowerCase());
    expect(r.body.activity.every((x: { type: string }) => x.type === "trade")).toBe(true);
    // The taker pays 100 bps x p x (1 - p) x qty (the platform default fee); makers pay nothing.
    expect(brief(r.body.activity)).toEqual(["t3 taker 0 BUY 0.7 3 fee 0.0063", "t2 taker 0 BUY 0.45 1 fee 0.002475", "t1 maker 0 BUY 0.4 2 fee 0"]);
    expect(r.body.nextCursor).toBeNull();
    const bob = await h.get(`/api/users/${B}/activity`);
    expect(brief(bob.body.activity)).toEqual(["t3 maker 1 BUY 0.3 3 fee 0", "t2 maker 0 SELL 0.45 1 fee 0", "t1 taker 0 SELL 0.4 2 fee 0.0048"]);
  });

  it("pages with an opaque cursor naming the last row shown", async () => {
    const h = setup();
    const first = await h.get(`/api/users/${A}/activity?limit=2`);
    expect(first.body.activity.map((x: { id: string }) => x.id)).toEqual(["t3", "t2"]);
    expect(first.body.nextCursor).toBe(cursor("act:1"));
    const second = await h.get(`/api/users/${A}/activity?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.activity.map((x: { id: string }) => x.id)).toEqual(["t1"]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("reads the address in any case and answers an empty page for an address without activity", async () => {
    const h = setup();
    const upper = await h.get(`/api/users/0x${A.slice(2).toUpperCase()}/activity`);
    expect(upper.body.walletAddress).toBe(A);
    expect(upper.body.activity).toHaveLength(3);
    const none = "0x1234567890123456789012345678901234567890";
    expect((await h.get(`/api/users/${none}/activity`)).body).toEqual({ walletAddress: none, vaultAddress: vaultAddressOf(none).toLowerCase(), activity: [], nextCursor: null });
  });

  it("refuses a malformed address, a cursor of another endpoint and a bad limit", async () => {
    const h = setup();
    const bad = await h.get("/api/users/0x1234/activity");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", message: "address must be 0x followed by 40 hex characters", details: { field: "address" } });
    for (const c of [cursor("ch:1:x"), cursor("act:x"), "***"]) {
      const r = await h.get(`/api/users/${A}/activity?cursor=${encodeURIComponent(c)}`);
      expect(r.status, c).toBe(400);
      expect(r.body.error).toMatchObject({ code: "invalid_request", details: { fields: ["cursor"] } });
    }
    expect((await h.get(`/api/users/${A}/activity?limit=0`)).body.error.code).toBe("invalid_limit");
    expect((await h.get(`/api/users/${A}/activity?limit=1000`)).status).toBe(200);
  });
});

describe("GET /api/users/by-vault/{vault}/activity", () => {
  it("answers the activity of the vault's owner", async () => {
    const h = setup();
    const r = await h.get(`/api/users/by-vault/${vaultAddressOf(B)}/activity?limit=1`);
    expect(r.body.walletAddress).toBe(B);
    expect(r.body.vaultAddress).toBe(vaultAddressOf(B).toLowerCase());
    expect(r.body.activity.map((x: { id: string; role: string }) => [x.id, x.role])).toEqual([["t3", "maker"]]);
    expect(r.body.nextCursor).toBe(cursor("act:2"));
  });

  it("an unknown vault answers an empty page with no wallet; a malformed one is refused", async () => {
    const h = setup();
    const v = "0xDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD";
    expect((await h.get(`/api/users/by-vault/${v}/activity`)).body).toEqual({ walletAddress: null, vaultAddress: v.toLowerCase(), activity: [], nextCursor: null });
    const bad = await h.get("/api/users/by-vault/vault/activity");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ field: "vault", fields: ["vault"] });
  });
});

describe("GET /api/challenges", () => {
  it("lists the challenges shown now, newest first, OPEN until resolved", async () => {
    const h = setup();
    const r = await h.get("/api/challenges");
    expect(r.status).toBe(200);
    expect(r.body.nextCursor).toBeNull();
    expect(r.body.challenges.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ["c-new", "OPEN"],
      ["c-mid", "OPEN"],
      ["c-old", "UPHELD"],
    ]);
    const [fresh, mid, old] = r.body.challenges;
    expect(old).toMatchObject({
      marketSymbol: "ACT",
      eventSlug: "activity",
      challenger: A,
      proposedOutcome: 1,
      proposedOutcomeLabel: "No",
      reason: "Old",
      bond: "250",
      createdAt: new Date(T0 - 2 * HOUR).toISOString(),
      resolvedAt: new Date(T0 - HOUR).toISOString(),
    });
    expect(mid).toMatchObject({ marketSymbol: "WHO", challenger: C.toLowerCase(), proposedOutcomeLabel: "Z", bond: "0", resolvedAt: null });
    expect(fresh).toMatchObject({ challenger: B, resolvedAt: null });
  });

  it("shows a challenge's status once its resolvedAt has come, and a later one from its createdAt", async () => {
    const h = setup();
    await h.clock.advance(HOUR);
    const r = await h.get("/api/challenges");
    expect(r.body.challenges.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ["c-later", "OPEN"],
      ["c-new", "DISMISSED"],
      ["c-mid", "OPEN"],
      ["c-old", "UPHELD"],
    ]);
  });

  it("pages with a keyset cursor", async () => {
    const h = setup();
    const first = await h.get("/api/challenges?limit=2");
    expect(first.body.challenges.map((c: { id: string }) => c.id)).toEqual(["c-new", "c-mid"]);
    expect(first.body.nextCursor).toBe(cursor(`ch:${T0 - HOUR}:c-mid`));
    const second = await h.get(`/api/challenges?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.challenges.map((c: { id: string }) => c.id)).toEqual(["c-old"]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("refuses a cursor of another endpoint and a bad limit", async () => {
    const h = setup();
    const r = await h.get(`/api/challenges?cursor=${cursor("act:3")}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", message: "cursor is not a cursor of this endpoint" });
    expect((await h.get("/api/challenges?limit=-1")).body.error.code).toBe("invalid_limit");
  });
});

describe("GET /api/markets/{symbol}/challenges", () => {
  it("lists one market's challenges, and 404 market_not_found for an unknown symbol", async () => {
    const h = setup();
    expect((await h.get("/api/markets/ACT/challenges")).body.challenges.map((c: { id: string }) => c.id)).toEqual(["c-new", "c-old"]);
    expect((await h.get("/api/markets/WHO/challenges")).body.challenges.map((c: { id: string }) => c.id)).toEqual(["c-mid"]);
    const missing = await h.get("/api/markets/NOPE/challenges");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "market_not_found", details: { symbol: "NOPE" } });
  });
});
