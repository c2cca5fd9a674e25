import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkInvariants, type TradeRecord } from "../../../src/sim/engine/index.js";
import { parseServerFrame } from "../../../src/wire/index.js";
import { defaultScenarioPath, loadScenario } from "../../../src/sim/platform/scenario.js";
import { setup, type Harness } from "../desk/harness.js";

/** The default scenario's flow before informed flow: what the wallet count below was written for. */
const UNINFORMED = join(dirname(defaultScenarioPath()), "uninformed.yaml");

const ARS = "ARS-CHE-ARS";

function withFlow(seed?: number): Harness {
  return setup({ sim: { flow: true, ...(seed !== undefined ? { seed } : {}) } });
}

function tradeLog(h: Harness): string {
  return JSON.stringify(h.sim.engine.ledger.trades(), (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/** A scripted session: quotes from wallets 0 and 1 at fixed virtual times while the flow runs. */
async function session(h: Harness): Promise<void> {
  h.sim.start();
  try {
    for (let i = 0; i < 6; i++) {
      const fair = h.sim.flow.fairValue(ARS)![0]!;
      const px = (Number(fair - (fair % 1000n)) / 1e6).toFixed(3);
      const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: px, quantity: "10", clientOrderId: `q${i}` });
      await h.call("POST", "/api/orders/place", { body });
      const no = await h.order(1, { symbol: ARS, outcome: 1, side: "BUY", price: (1 - Number(px) - 0.002).toFixed(3), quantity: "10" });
      await h.call("POST", "/api/orders/place", { body: no.body, wallet: 1 });
      await h.clock.advance(60_000);
    }
    await h.clock.advance(10 * 60_000);
  } finally {
    h.sim.stop();
  }
}

describe("synthetic flow", () => {
  it("posts liquidity on both sides of the fair value as soon as it starts", () => {
    const h = withFlow();
    h.sim.start();
    try {
      for (const symbol of h.sim.flow.markets()) {
        const status = h.sim.platform.catalogue.status(h.sim.market(symbol)!.id);
        if (status !== "OPEN" && status !== "PRE_MARKET") continue;
        const book = h.sim.engine.book(symbol, 0);
        const fair = h.sim.flow.fairValue(symbol)![0]!;
        expect(book.bestBid, symbol).not.toBeNull();
        expect(book.bestAsk, symbol).not.toBeNull();
        expect(book.bestBid! < fair && fair < book.bestAsk!, symbol).toBe(true);
      }
      expect(h.sim.engine.market("BAR-RMA-BAR").postOnlyOnly).toBe(true);
      expect(h.sim.engine.book("BAR-RMA-BAR", 0).bids.length).toBeGreaterThan(0);
    } finally {
      h.sim.stop();
    }
  });

  it("uses its own wallets, never the scenario's", () => {
    // the flow before informed flow (uninformed.yaml): a taker and a liquidity wallet per market
    const h = setup({ sim: { flow: true }, edit: (s) => void (s.events = loadScenario(UNINFORMED).events) });
    const scenarioWallets = new Set(h.sim.platform.wallets.list().map((w) => w.address));
    const flow = h.sim.flow.wallets();
    expect(flow.length).toBe(h.sim.flow.markets().length * 2);
    for (const w of flow) expect(scenarioWallets.has(w)).toBe(false);
  });

  it("gives every agent of the default scenario its own wallet, never the scenario's", () => {
    const h = withFlow();
    const scenarioWallets = new Set(h.sim.platform.wallets.list().map((w) => w.address));
    const flow = h.sim.flow.wallets();
    let expected = 0;
    for (const e of loadScenario(defaultScenarioPath()).events) {
      for (const m of e.markets) expected += 2 + (m.flow.informed.arrivalPerMin > 0 ? 1 : 0) + (m.flow.noise.arrivalPerMin > 0 ? 1 : 0) + m.flow.makers.count;
    }
    expect(expected).toBeGreaterThan(h.sim.flow.markets().length * 4);
    expect(new Set(flow).size).toBe(expected);
    for (const w of flow) expect(scenarioWallets.has(w)).toBe(false);
  });

  it("moves the fair value and fills resting quotes (maker fills with frames), keeping the ledger consistent", async () => {
    const h = withFlow();
    const start = h.sim.flow.fairValue(ARS)![0]!;
    await session(h);
    expect(h.sim.flow.fairValue(ARS)![0]).not.toBe(start);
    const flowWallets = new Set(h.sim.flow.wallets().map((w) => w.toLowerCase()));
    const trades = h.sim.engine.ledger.trades().filter((t: TradeRecord) => t.marketId === ARS);
    expect(trades.length).toBeGreaterThan(20);
    expect(trades.some((t) => flowWallets.has(t.takerWallet.toLowerCase()))).toBe(true);
    const makerFills = [...h.frames(0), ...h.frames(1)].filter((f) => f.type === "user_fill" && f.role === "maker");
    expect(makerFills.length).toBeGreaterThan(0);
    for (const f of makerFills) expect(parseServerFrame(f).kind).toBe("frame");
    expect(h.sim.flow.stats(ARS)!.takerOrders).toBeGreaterThan(50);
    expect(checkInvariants(h.sim.engine)).toEqual([]);
  });

  it("is deterministic: same seed and inputs give a byte-identical trade log; another seed does not", async () => {
    const a = withFlow();
    await session(a);
    const b = withFlow();
    await session(b);
    const logA = tradeLog(a);
    expect(logA.length).toBeGreaterThan(1000);
    expect(tradeLog(b)).toBe(logA);
    const c = withFlow(424242);
    await session(c);
    expect(tradeLog(c)).not.toBe(logA);
  });

  it("takers wait for OPEN: nothing trades in PRE_MARKET, and the flow stops on a settled market", async () => {
    const h = withFlow();
    h.sim.start();
    try {
      await h.clock.advance(19_000);
      expect(h.sim.engine.ledger.trades().filter((t) => t.marketId === "BAR-RMA-BAR")).toEqual([]);
      expect(h.sim.resolveMarket(ARS, [1, 0]).ok).toBe(true);
      const before = h.sim.flow.stats(ARS)!.takerOrders;
      await h.clock.advance(10 * 60_000);
      expect(h.sim.flow.stats(ARS)!.takerOrders).toBe(before);
      expect(h.sim.engine.openOrders(h.sim.flow.wallets()[1]!, ARS)).toEqual([]);
    } finally {
      h.sim.stop();
    }
  });
});
