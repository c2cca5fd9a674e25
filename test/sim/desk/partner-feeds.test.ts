/**
 * Partner feeds (src/sim/desk/partner-feeds.ts) over every wallet of a partner: the trades feed
 * (one row per trade leg of a partner wallet, each as that wallet sees it, newest first, keyset
 * cursor), the market-maker KPIs per wallet (trades, maker / taker volume, fees, open orders) and
 * the reconciliation snapshot; the strict query checks (undefined parameters, limit ranges, foreign
 * cursors refused with 400 invalid_request). Amounts are worked out by hand from the fills.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { base64url } from "../../../src/sim/desk/cursor.js";
import { mmKpis, partnerTrades, PARTNER_TRADES_DEFAULT_LIMIT, reconciliationSnapshot } from "../../../src/sim/desk/partner-feeds.js";
import { OrderRecords } from "../../../src/sim/desk/records.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { KEYS, SCENARIO, T0, W1, W2, W4 } from "../http/helpers.js";
import { deskOrder } from "./fixtures.js";
import { u } from "./harness.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
type Json = any;
type Row = Record<string, unknown>;
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Partner mm holds W1 and W4 (W4 moved from partner slow, left read-only); TST charges 100 bps. At T0+1s W4's NO BUY
 * at 0.40 x 5 takes W1's resting YES BUY at 0.60 (W4 fee 0.01 * 0.4 * 0.6 * 5 = 0.012); at T0+2s
 * W1 SELLs 2 YES at 0.50 into W2's bid (W2 is partner single's; W1 fee 0.01 * 0.25 * 2 = 0.005).
 */
async function world() {
  const clock = new VirtualClock(T0);
  const scenario = SCENARIO.replace(`address: "${W4}", partner: slow`, `address: "${W4}", partner: mm`)
    .replace(`{ key: ${KEYS.slow}, scopes: [orders:read, orders:write, portfolio:read] }`, `{ key: ${KEYS.slow}, scopes: [orders:read] }`)
    .replace("symbol: TST", "symbol: TST\n        feeTakerBps: 100");
  expect(scenario).toContain(`address: "${W4}", partner: mm`);
  const sim = new Simulator(parseScenario(scenario, "test.yaml"), { clock, pepper: new Uint8Array(32), flow: false });
  sim.engine.deposit(W4, u("100"));
  sim.engine.deposit(W2, u("100"));
  await clock.advance(1_000);
  const w1Bid = sim.engine.place({ wallet: W1, marketId: "TST", outcome: 0, side: "BUY", price: u("0.6"), quantity: u("5") });
  const t1 = sim.engine.place({ wallet: W4, marketId: "TST", outcome: 1, side: "BUY", price: u("0.4"), quantity: u("5") });
  await clock.advance(1_000);
  sim.engine.place({ wallet: W2, marketId: "TST", outcome: 0, side: "BUY", price: u("0.5"), quantity: u("2") });
  const t2 = sim.engine.place({ wallet: W1, marketId: "TST", outcome: 0, side: "SELL", price: u("0.5"), quantity: u("2") });
  expect([t1.status, t2.status]).toEqual(["FILLED", "FILLED"]);
  const [yes, no] = sim.market("TST")!.outcomeTokenIds;
  return { sim, clock, yes: yes!, no: no!, w1Bid: w1Bid.orderId, t1: t1.trades[0]!, t2: t2.trades[0]! };
}

const ok = (a: { status: number; body: unknown }): Json => {
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return a.body;
};

function records(): OrderRecords {
  const r = new OrderRecords();
  r.add(deskOrder({ id: "a1", wallet: W1, clientOrderId: null, orderHash: "0x01", status: "OPEN" }));
  r.add(deskOrder({ id: "a2", wallet: W1, clientOrderId: null, orderHash: "0x02", status: "PARTIAL" }));
  r.add(deskOrder({ id: "a3", wallet: W1, clientOrderId: null, orderHash: "0x03", status: "FILLED" }));
  r.add(deskOrder({ id: "b1", wallet: W4, clientOrderId: null, orderHash: "0x04", status: "OPEN" }));
  return r;
}

describe("partnerTrades", () => {
  it("lists one row per leg of a partner wallet, newest first, each as that wallet sees it", async () => {
    const w = await world();
    const body = ok(partnerTrades(w.sim.engine, w.sim.platform, "mm", {}));
    expect(body.partnerId).toBe("mm");
    expect(body.nextCursor).toBeNull();
    expect(body.trades.map((t: Row) => [t.id, t.walletAddress, t.role, t.tokenId, t.side, t.price, t.quantity, t.fee])).toEqual([
      [w.t2.id, W1, "taker", w.yes, "SELL", "0.5", "2", "0.005"],
      [w.t1.id, W1, "maker", w.yes, "BUY", "0.6", "5", "0"],
      [w.t1.id, W4, "taker", w.no, "BUY", "0.4", "5", "0.012"],
    ]);
    expect(body.trades[1]).toMatchObject({ orderId: w.w1Bid, outcome: 0, createdAt: iso(T0 + 1_000) });
  });

  it("a partner whose wallets never traded, or that has none, gets an empty feed", async () => {
    const w = await world();
    expect(ok(partnerTrades(w.sim.engine, w.sim.platform, "assoc", {}))).toEqual({ partnerId: "assoc", trades: [], nextCursor: null });
    expect(ok(partnerTrades(w.sim.engine, w.sim.platform, "slow", {})).trades).toEqual([]);
  });

  it("only the partner's legs: the other party of a trade is not listed", async () => {
    const w = await world();
    const single = ok(partnerTrades(w.sim.engine, w.sim.platform, "single", {}));
    expect(single.trades.map((t: Row) => [t.id, t.walletAddress, t.role])).toEqual([[w.t2.id, W2, "maker"]]);
  });

  it("pages with a keyset cursor (base64url of pt:<row>:<leg>), each leg once", async () => {
    const w = await world();
    const p1 = ok(partnerTrades(w.sim.engine, w.sim.platform, "mm", { limit: "1" }));
    expect(p1.nextCursor).toBe(base64url("pt:1:0"));
    const p2 = ok(partnerTrades(w.sim.engine, w.sim.platform, "mm", { limit: "1", cursor: p1.nextCursor }));
    expect(p2.trades.map((t: Row) => [t.id, t.role])).toEqual([[w.t1.id, "maker"]]);
    expect(p2.nextCursor).toBe(base64url("pt:0:1"));
    const p3 = ok(partnerTrades(w.sim.engine, w.sim.platform, "mm", { limit: "2", cursor: p2.nextCursor }));
    expect(p3.trades.map((t: Row) => [t.id, t.role])).toEqual([[w.t1.id, "taker"]]);
    expect(p3.nextCursor).toBeNull();
  });

  it("defaults to 50 rows", () => {
    expect(PARTNER_TRADES_DEFAULT_LIMIT).toBe(50);
  });

  it("refuses undefined parameters, a limit outside 1..300 and a cursor of another endpoint", async () => {
    const w = await world();
    const cases: [Record<string, string>, string][] = [
      [{ wallet: W1 }, "wallet"],
      [{ limit: "0" }, "limit"],
      [{ limit: "301" }, "limit"],
      [{ limit: "x" }, "limit"],
      [{ cursor: "garbage" }, "cursor"],
      [{ cursor: base64url("be:3") }, "cursor"],
      [{ cursor: base64url("pt:1:2") }, "cursor"],
    ];
    for (const [q, field] of cases) {
      const a = partnerTrades(w.sim.engine, w.sim.platform, "mm", q);
      const b = a.body as Json;
      expect([q, a.status, b.error.code, b.error.details.fields]).toEqual([q, 400, "invalid_request", [field]]);
    }
    expect(partnerTrades(w.sim.engine, w.sim.platform, "mm", { limit: "300" }).status).toBe(200);
  });
});

describe("mmKpis", () => {
  it("sums each wallet's legs: trade count, maker and taker volume, fees, live desk orders; wallets in address order", async () => {
    const w = await world();
    const body = ok(mmKpis(w.sim.engine, w.sim.platform, records(), "mm", T0 + 5_000, {}));
    expect(body).toEqual({
      partnerId: "mm",
      asOf: iso(T0 + 5_000),
      wallets: [
        { walletAddress: W4, trades: 1, volume: "2", makerVolume: "0", takerVolume: "2", feesPaid: "0.012", openOrders: 1 },
        { walletAddress: W1, trades: 2, volume: "4", makerVolume: "3", takerVolume: "1", feesPaid: "0.005", openOrders: 2 },
      ],
    });
  });

  it("limit keeps the first wallets; a wallet without trades shows zeros", async () => {
    const w = await world();
    expect(ok(mmKpis(w.sim.engine, w.sim.platform, records(), "mm", T0, { limit: "1" })).wallets.map((r: Row) => r.walletAddress)).toEqual([W4]);
    expect(ok(mmKpis(w.sim.engine, w.sim.platform, new OrderRecords(), "assoc", T0, {})).wallets).toEqual([
      { walletAddress: "0xde453b3c26ec811941f8f41048fbd568eae93368", trades: 0, volume: "0", makerVolume: "0", takerVolume: "0", feesPaid: "0", openOrders: 0 },
    ]);
  });

  it("refuses undefined parameters and a limit outside 1..1000", async () => {
    const w = await world();
    for (const q of [{ cursor: "x" }, { limit: "0" }, { limit: "1001" }]) {
      const a = mmKpis(w.sim.engine, w.sim.platform, records(), "mm", T0, q);
      expect([q, a.status, (a.body as Json).error.code]).toEqual([q, 400, "invalid_request"]);
    }
    expect(mmKpis(w.sim.engine, w.sim.platform, records(), "mm", T0, { limit: "1000" }).status).toBe(200);
  });
});

describe("reconciliationSnapshot", () => {
  it("shows every wallet's vault, collateral, positions (no average price) and live desk orders", async () => {
    const w = await world();
    const vault = (a: string) => w.sim.platform.wallets.vaultInfo(a, T0).vaultAddress.toLowerCase();
    expect(ok(reconciliationSnapshot(w.sim.engine, w.sim.platform, records(), "mm", T0 + 9_000, {}))).toEqual({
      partnerId: "mm",
      snapshotAt: iso(T0 + 9_000),
      wallets: [
        // 100 - 0.4 * 5 - 0.012
        { walletAddress: W4, vaultAddress: vault(W4), collateral: { total: "97.988", locked: "0", available: "97.988" }, positions: [{ marketId: "TST", tokenId: w.no, outcome: 1, quantity: "5", locked: "0" }], openOrders: 1 },
        // 1000 - 0.6 * 5 + 0.5 * 2 - 0.005
        { walletAddress: W1, vaultAddress: vault(W1), collateral: { total: "997.995", locked: "0", available: "997.995" }, positions: [{ marketId: "TST", tokenId: w.yes, outcome: 0, quantity: "3", locked: "0" }], openOrders: 2 },
      ],
    });
  });

  it("takes no parameters", async () => {
    const w = await world();
    const a = reconciliationSnapshot(w.sim.engine, w.sim.platform, records(), "mm", T0, { limit: "1" });
    expect([a.status, (a.body as Json).error.details.fields]).toEqual([400, ["limit"]]);
  });
});
