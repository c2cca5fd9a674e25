/**
 * The settlement reads (src/sim/desk/settlement-reads.ts): a wallet's balance events newest first
 * with signed amounts, the balance after each, the market and trade when they have one; the keyset
 * cursor, `before` (epoch ms or ISO-8601 date-time), the default and maximum limits, the 400s; and
 * auto-redeem's pending list of settled markets whose payout the wallet still waits for.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { autoRedeemState, balanceEvents, BALANCE_EVENTS_DEFAULT_LIMIT, BALANCE_EVENTS_MAX_LIMIT } from "../../../src/sim/desk/settlement-reads.js";
import { base64url } from "../../../src/sim/desk/cursor.js";
import { grantShares } from "../../../src/sim/desk/genesis.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { SCENARIO, T0, W1, W2, W4 } from "../http/helpers.js";
import { u } from "./harness.js";

const iso = (ms: number): string => new Date(ms).toISOString();

/** `withheld`: payouts wait for releasePayouts (set at run time: the constructor option reads null as 0). */
function world(withheld = false) {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(SCENARIO, "test.yaml"), { clock, pepper: new Uint8Array(32), flow: false });
  if (withheld) sim.setPayoutDelay(null);
  return { clock, sim };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
type Json = any;
type Row = Record<string, unknown>;
const events = (sim: Simulator, wallet: string, query: Record<string, string> = {}): Json => {
  const a = balanceEvents(sim.engine, wallet, query);
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return a.body;
};

/**
 * W1 (1000 at T0): +5 at T0+1s, -2 at T0+2s, a resting BUY of 5 YES at 0.60 filled by W4's NO at
 * 0.40 at T0+3s (W1 is the maker: -3, no fee), TST resolved YES at T0+4s (+5 payout).
 */
async function history() {
  const w = world();
  await w.clock.advance(1_000);
  w.sim.engine.deposit(W1, u("5"));
  await w.clock.advance(1_000);
  w.sim.engine.withdraw(W1, u("2"));
  await w.clock.advance(1_000);
  w.sim.engine.deposit(W4, u("100"));
  w.sim.engine.place({ wallet: W1, marketId: "TST", outcome: 0, side: "BUY", price: u("0.6"), quantity: u("5") });
  const fill = w.sim.engine.place({ wallet: W4, marketId: "TST", outcome: 1, side: "BUY", price: u("0.4"), quantity: u("5") });
  expect(fill.status).toBe("FILLED");
  await w.clock.advance(1_000);
  expect(w.sim.resolveMarket("TST", [1, 0]).ok).toBe(true);
  return { ...w, tradeId: fill.trades[0]!.id };
}

describe("balanceEvents", () => {
  it("lists the wallet's events newest first with signed amounts, balances after, market and trade", async () => {
    const h = await history();
    const body = events(h.sim, W1);
    expect(body.walletAddress).toBe(W1);
    expect(body.nextCursor).toBeNull();
    expect(body.events.map(({ id: _id, ...e }: Row) => e)).toEqual([
      { kind: "payout", amount: "5", balance: "1005", marketId: "TST", tradeId: null, createdAt: iso(T0 + 4_000) },
      { kind: "trade", amount: "-3", balance: "1000", marketId: "TST", tradeId: h.tradeId, createdAt: iso(T0 + 3_000) },
      { kind: "withdraw", amount: "-2", balance: "1003", marketId: null, tradeId: null, createdAt: iso(T0 + 2_000) },
      { kind: "deposit", amount: "5", balance: "1005", marketId: null, tradeId: null, createdAt: iso(T0 + 1_000) },
      { kind: "deposit", amount: "1000", balance: "1000", marketId: null, tradeId: null, createdAt: iso(T0) },
    ]);
    const seqs: number[] = body.events.map((e: Row) => Number(/^be(\d+)$/.exec(String(e.id))?.[1]));
    expect(seqs.every((s) => s > 0)).toBe(true);
    expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
    expect(seqs.at(-1)).toBe(1); // W1's funding is the ledger's first event
  });

  it("a taker's trade brings a fee event next to its trade event", async () => {
    const h = await history();
    // W4 takes 5 NO at 0.40: -2 for the shares and a -0.012 fee on the same trade, newest first.
    const rows = events(h.sim, W4).events.map((e: Row) => [e.kind, e.amount, e.tradeId]);
    expect(rows).toEqual([
      ["fee", "-0.012", "t1"],
      ["trade", "-2", "t1"],
      ["deposit", "100", null],
    ]);
    expect(h.tradeId).toBe("t1");
  });

  it("pages through the cursor (base64url of be:<seq>), each event once, the last page without a cursor", async () => {
    const h = await history();
    const all = events(h.sim, W1).events;
    const p1 = events(h.sim, W1, { limit: "2" });
    expect(p1.events).toEqual(all.slice(0, 2));
    expect(p1.nextCursor).toBe(base64url(`be:${all[1].id.slice(2)}`));
    const p2 = events(h.sim, W1, { limit: "2", cursor: p1.nextCursor });
    expect(p2.events).toEqual(all.slice(2, 4));
    const p3 = events(h.sim, W1, { limit: "2", cursor: p2.nextCursor });
    expect(p3).toEqual({ walletAddress: W1, events: all.slice(4), nextCursor: null });
  });

  it("a page that ends exactly at the last event has no cursor", async () => {
    const h = await history();
    expect(events(h.sim, W1, { limit: "5" }).nextCursor).toBeNull();
    expect(events(h.sim, W1, { limit: "4" }).nextCursor).not.toBeNull();
  });

  it("before keeps the events strictly older, given as epoch ms or an ISO-8601 date-time", async () => {
    const h = await history();
    expect(events(h.sim, W1, { before: String(T0 + 3_000) }).events.map((e: Row) => e.kind)).toEqual(["withdraw", "deposit", "deposit"]);
    expect(events(h.sim, W1, { before: "2026-06-01T12:00:02Z" }).events.map((e: Row) => e.amount)).toEqual(["5", "1000"]);
    expect(events(h.sim, W1, { before: String(T0) }).events).toEqual([]);
  });

  it("defaults to 100 events and caps the limit at 500", () => {
    const w = world();
    for (let i = 0; i < 600; i++) w.sim.engine.deposit(W2, 1n);
    expect([BALANCE_EVENTS_DEFAULT_LIMIT, BALANCE_EVENTS_MAX_LIMIT]).toEqual([100, 500]);
    const first = events(w.sim, W2);
    expect(first.events).toHaveLength(100);
    expect(first.events[0].balance).toBe("0.0006");
    const big = events(w.sim, W2, { limit: "100000" });
    expect(big.events).toHaveLength(500);
    expect(big.nextCursor).not.toBeNull();
    expect(events(w.sim, W2, { limit: "500", cursor: big.nextCursor }).events).toHaveLength(100);
  });

  it("a wallet the ledger never saw has no events", () => {
    const w = world();
    expect(events(w.sim, "0x9999999999999999999999999999999999999999")).toEqual({ walletAddress: "0x9999999999999999999999999999999999999999", events: [], nextCursor: null });
  });

  it("refuses a bad limit, a foreign or garbled cursor and a bad before with 400 invalid_request naming the field", () => {
    const w = world();
    const cases: [Record<string, string>, string][] = [
      [{ limit: "0" }, "limit"],
      [{ limit: "ten" }, "limit"],
      [{ cursor: "nope" }, "cursor"],
      [{ cursor: base64url("pt:1:0") }, "cursor"],
      [{ cursor: base64url("be:x") }, "cursor"],
      [{ before: "yesterday" }, "before"],
      [{ before: "2026-06-01" }, "before"],
      [{ before: "2026-06-01T99:99:99Z" }, "before"],
    ];
    for (const [q, field] of cases) {
      const a = balanceEvents(w.sim.engine, W1, q);
      const b = a.body as Json;
      expect([q, a.status, b.error.code, b.error.details.field]).toEqual([q, 400, "invalid_request", field]);
    }
  });
});

describe("autoRedeemState", () => {
  it("is enabled with nothing pending when payouts are paid at once", () => {
    const w = world();
    grantShares(w.sim.engine, W1, "TST", 0, u("10"), u("0.5"));
    w.sim.resolveMarket("TST", [1, 0]);
    expect(autoRedeemState(w.sim.platform, w.sim.engine, W1)).toEqual({ status: 200, body: { walletAddress: W1, enabled: true, pending: [] } });
  });

  it("lists a settled market whose payout is still owed to a holder, with its status and settlement time", async () => {
    const w = world(true);
    grantShares(w.sim.engine, W1, "TST", 0, u("10"), u("0.5"));
    await w.clock.advance(7_000);
    w.sim.resolveMarket("TST", [1, 0]);
    expect(autoRedeemState(w.sim.platform, w.sim.engine, W1).body).toEqual({ walletAddress: W1, enabled: true, pending: [{ marketId: "TST", status: "RESOLVED", settledAt: iso(T0 + 7_000) }] });
    // A wallet without shares there waits for nothing.
    expect((autoRedeemState(w.sim.platform, w.sim.engine, W2).body as Json).pending).toEqual([]);
    w.sim.releasePayouts();
    expect((autoRedeemState(w.sim.platform, w.sim.engine, W1).body as Json).pending).toEqual([]);
  });

  it("a voided market shows VOIDED with its void time", () => {
    const w = world(true);
    grantShares(w.sim.engine, W1, "TST", 1, u("2"), u("0.5"));
    w.sim.voidMarket("TST");
    expect((autoRedeemState(w.sim.platform, w.sim.engine, W1).body as Json).pending).toEqual([{ marketId: "TST", status: "VOIDED", settledAt: iso(T0) }]);
  });
});
