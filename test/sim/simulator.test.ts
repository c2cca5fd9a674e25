import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { checkInvariants } from "../../src/sim/engine/index.js";
import { defaultScenarioPath } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";
import { positionsPage } from "../../src/wire/index.js";
import { codeOf, parses, setup, T0, u, type Harness } from "./desk/harness.js";

const ARS = "ARS-CHE-ARS";

async function place(h: Harness, w: number, spec: Partial<Parameters<Harness["order"]>[1]> = {}) {
  const { body } = await h.order(w, { symbol: ARS, outcome: 0, side: "BUY", price: "0.5", quantity: "1", ...spec });
  return h.call("POST", "/api/orders/place", { body, wallet: w });
}

describe("Simulator construction", () => {
  it("registers every catalogue market under its symbol with the effective fee and its token ids", () => {
    const sim = Simulator.fromScenarioFile(defaultScenarioPath(), { clock: new VirtualClock(T0), flow: false });
    for (const m of sim.platform.catalogue.markets("all", true)) {
      const em = sim.engine.market(m.symbol);
      expect(em.tokenIds).toEqual(m.outcomeTokenIds);
      expect(em.feeRateBps).toBe(m.feeTakerBps ?? 100);
    }
    expect(sim.engine.market("ARS-CHE-GOAL5").feeRateBps).toBe(200);
    expect(sim.engine.balance(sim.platform.walletSecrets[0]!.address).total).toBe(u("10000"));
  });

  it("grants starting positions without printing a trade and keeps the ledger consistent", async () => {
    const h = setup({
      edit: (s) => {
        s.wallets[0]!.balances.positions = [{ market: ARS, outcome: 0, quantity: u("50") }];
      },
    });
    const p = parses(positionsPage, (await h.call("GET", "/api/me/positions")).body);
    expect(p.positions).toEqual([expect.objectContaining({ marketId: ARS, outcome: 0, quantity: "50", avgPrice: "0.45" })]);
    expect(h.sim.engine.ledger.trades()).toEqual([]);
    expect((await place(h, 0, { side: "SELL", price: "0.6", quantity: "20" })).body).toMatchObject({ status: "OPEN" });
    expect(checkInvariants(h.sim.engine)).toEqual([]);
  });
});

describe("market lifecycle drives the engine", () => {
  it("PRE_MARKET is post-only in the engine until opensAt, then full matching", async () => {
    const h = setup();
    h.sim.start();
    try {
      expect(h.sim.engine.market("BAR-RMA-BAR").postOnlyOnly).toBe(true);
      await h.clock.advance(20_000);
      expect(h.sim.engine.market("BAR-RMA-BAR").postOnlyOnly).toBe(false);
      expect(h.sim.engine.market("BAR-RMA-BAR").phase).toBe("open");
    } finally {
      h.sim.stop();
    }
  });

  it("pause keeps resting orders but refuses new ones; resume trades again", async () => {
    const h = setup();
    const id = ((await place(h, 0, { price: "0.4" })).body as { orderId: string }).orderId;
    expect(h.sim.setMarketStatus(ARS, "pause").ok).toBe(true);
    expect(h.sim.engine.isLive(id)).toBe(true);
    expect(h.sim.engine.market(ARS).phase).toBe("halted");
    expect(codeOf((await place(h, 0)).body)).toBe("market_not_open");
    expect(h.sim.setMarketStatus(ARS, "resume").ok).toBe(true);
    expect((await place(h, 0, { price: "0.41" })).body).toMatchObject({ status: "OPEN" });
  });

  it("resolve cancels resting orders (with frames) and pays the winning outcome", async () => {
    const h = setup();
    await place(h, 1, { outcome: 1, price: "0.4", quantity: "3" });
    expect((await place(h, 0, { price: "0.6", quantity: "3" })).body).toMatchObject({ status: "FILLED" });
    const resting = ((await place(h, 0, { price: "0.3", quantity: "2" })).body as { orderId: string }).orderId;
    const before = h.sim.engine.balance(h.wallets[0]!.address).total;
    const r = h.sim.resolveMarket(ARS, [1, 0]);
    expect(r.ok).toBe(true);
    expect(h.sim.engine.isLive(resting)).toBe(false);
    expect(h.frames(0).find((f) => f.type === "order_cancelled")).toMatchObject({ orderId: resting, status: "CANCELLED" });
    expect(h.sim.engine.balance(h.wallets[0]!.address).total - before).toBe(u("3"));
    expect(h.sim.settlements.get(ARS)?.payouts.length).toBeGreaterThan(0);
    expect((await place(h, 0)).status).toBe(409);
    expect(h.sim.resolveMarket(ARS, [0, 1]).ok).toBe(false);
    expect(checkInvariants(h.sim.engine)).toEqual([]);
  });

  it("void pays every outcome 1/n; unknown markets are 404", async () => {
    const h = setup();
    await place(h, 1, { outcome: 1, price: "0.4", quantity: "2" });
    await place(h, 0, { price: "0.6", quantity: "2" });
    const before = h.sim.engine.balance(h.wallets[0]!.address).total;
    expect(h.sim.voidMarket(ARS).ok).toBe(true);
    expect(h.sim.engine.balance(h.wallets[0]!.address).total - before).toBe(u("1"));
    const nope = h.sim.voidMarket("NOPE");
    expect(nope.ok === false && nope.code).toBe("market_not_found");
  });

  it("scheduled scenario actions run on the clock once started", async () => {
    const h = setup({
      edit: (s) => {
        s.events[0]!.markets[0]!.actions = [{ at: { kind: "relative", offsetMs: 60_000 }, action: "suspend" }];
      },
    });
    h.sim.start();
    try {
      await h.clock.advance(60_000);
      expect(h.sim.platform.catalogue.status(h.sim.market(ARS)!.id)).toBe("SUSPENDED");
      expect(h.sim.engine.market(ARS).phase).toBe("halted");
    } finally {
      h.sim.stop();
    }
  });
});
