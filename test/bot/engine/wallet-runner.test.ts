/**
 * One wallet's runner (src/bot/engine/wallet-runner.ts) against the in-process simulator on a
 * VirtualClock, with the daemon's real shared parts (runner-harness.ts): start-up (vault,
 * inventory anchor, stream, open-order walk, then quoting on its assigned market), an onboarding
 * answer holding its orders back until it clears, a fill of a resting order reaching the ledger
 * and the inventory once by either source, stopping (shutdown with its report, abandon), a restart
 * after a shutdown (the start-up path again, the books kept: no second anchor), and what
 * status() and memoryFigures() say it holds.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ONE } from "../../../src/core/money.js";
import { isClean } from "../../../src/bot/engine/shutdown.js";
import { settle } from "../../integration/harness.js";
import { MARKETS, ourBid, runnerWorld, takerHit, type RunnerWorld } from "./runner-harness.js";

let w: RunnerWorld | undefined;

afterEach(() => {
  w?.close();
  w = undefined;
});

const statesOf = (x: RunnerWorld): string[] => x.observer.of("wallet_state").filter((e) => e.wallet === x.wallet).map((e) => e.state);
const restingOf = (x: RunnerWorld) => x.sim.engine.openOrders(x.wallet);
const fillEvents = (x: RunnerWorld) => x.observer.of("fill").filter((e) => e.wallet === x.wallet);
const position0 = (x: RunnerWorld): bigint => x.inventory.positions(x.wallet, x.market).find((p) => p.outcome === 0)?.qty ?? 0n;

/** A started runner whose first cycles have had time to quote (books read, orders resting). */
async function quoting(): Promise<RunnerWorld> {
  const x = await runnerWorld();
  w = x;
  await settle(x.clock, x.started);
  await x.run(3_000);
  return x;
}

describe("WalletRunner start-up", () => {
  it("goes starting -> ready, resolves the vault, then quotes its assigned market only (orders rest on the platform)", async () => {
    const x = await runnerWorld();
    w = x;
    expect(x.runner.status().state).toBe("starting");
    expect(x.runner.isReady).toBe(false);
    await settle(x.clock, x.started);
    expect(statesOf(x)).toEqual(["ready"]);
    expect(x.runner.isReady).toBe(true);
    expect(x.runner.status().vault?.toLowerCase()).toBe(x.sim.platform.wallets.vaultInfo(x.wallet, x.clock.now()).vaultAddress.toLowerCase());
    expect(x.observer.of("synced").filter((e) => e.wallet === x.wallet).map((e) => e.reason)).toEqual(["startup"]);

    await x.run(3_000);
    const resting = restingOf(x);
    expect(resting.length).toBeGreaterThan(0);
    expect(new Set(resting.map((o) => o.marketId))).toEqual(new Set([x.market]));
    // Placed by this runner, under its client-order-id prefix (instance rt, wallet 0, session s1).
    const records = x.sim.desk.records.liveOf(x.wallet);
    expect(records.map((r) => r.clientOrderId?.startsWith("rt-0-s1-"))).toEqual(records.map(() => true));
    // The other wallet's market is left alone: that runner never started.
    const other = MARKETS.find((m) => m !== x.market)!;
    expect(x.sim.engine.openOrders(x.runners[1]!.wallet, other)).toEqual([]);
    const cycles = x.observer.of("cycle").filter((e) => e.wallet === x.wallet);
    expect(cycles.every((c) => c.marketId === x.market)).toBe(true);
    expect(cycles.map((c) => c.trigger)).toContain("book");
    expect(x.observer.of("order_placed").filter((e) => e.wallet === x.wallet).length).toBeGreaterThanOrEqual(resting.length);
  });

  it("an onboarding wallet waits for its vault, then places nothing while the platform says kyc_blocked, and quotes once it clears", async () => {
    // Wallet 1 is new to the platform: vault deployed 10 s after its first request, limits confirmed after 25 s.
    const x = await runnerWorld({ index: 1, onboarding: true });
    w = x;
    const t0 = x.clock.now();
    await x.run(5_000);
    expect(x.runner.status()).toMatchObject({ state: "onboarding", vault: undefined, liveOrders: 0 });
    expect(restingOf(x)).toEqual([]);

    await settle(x.clock, x.started);
    expect(x.clock.now() - t0).toBeGreaterThanOrEqual(10_000);
    expect(statesOf(x)).toEqual(["onboarding", "ready"]);
    expect(x.runner.status().vault).toBeDefined();
    // Ready, but the limits are still confirming: the first placement answers kyc_blocked and pauses quoting.
    await x.run(3_000);
    expect(x.clock.now() - t0).toBeLessThan(25_000);
    const refusals = () => x.observer.of("order_rejected").filter((e) => e.wallet === x.wallet);
    expect(refusals().length).toBeGreaterThan(0);
    expect(refusals().every((e) => e.code === "kyc_blocked" && e.handling === "onboarding_wait")).toBe(true);
    expect(restingOf(x)).toEqual([]);
    const refused = refusals().length;
    // Books keep updating, yet nothing more is sent until the wait the platform gave is over.
    while (x.clock.now() - t0 < 24_000) await x.run(1_000);
    expect(refusals().length).toBe(refused);
    expect(restingOf(x)).toEqual([]);

    await x.run(6_000);
    expect(refusals().length).toBe(refused);
    const resting = restingOf(x);
    expect(resting.length).toBeGreaterThan(0);
    expect(new Set(resting.map((o) => o.marketId))).toEqual(new Set([x.market]));
    expect(x.runner.status().liveOrders).toBe(resting.length);
  });

  it("stopped while onboarding (start aborted, then shutdown, as the daemon does): never ready, nothing placed", async () => {
    const x = await runnerWorld({ index: 1, onboarding: true });
    w = x;
    await x.run(3_000);
    expect(x.runner.status().state).toBe("onboarding");
    x.abort.abort(new Error("daemon stopping"));
    const report = await settle(x.clock, x.runner.shutdown(x.clock.now() + 20_000));
    await expect(x.started).rejects.toThrow("daemon stopping");
    expect(isClean(report)).toBe(true);
    await x.run(30_000);
    expect(statesOf(x)).toEqual(["onboarding", "stopping", "stopped"]);
    expect(x.runner.status()).toMatchObject({ state: "stopped", vault: undefined, liveOrders: 0, streamSubscribed: false });
    expect(x.observer.of("order_placed")).toEqual([]);
    expect(restingOf(x)).toEqual([]);
  });

  // The runner's own stop ends a start-up still under way (the daemon also aborts start()'s signal
  // first, but a runner must not rely on it): once the vault clears, no stream, no quoting, no
  // "ready" on a wallet whose shutdown report said it was clean and stopped.
  it("shutdown() during start-up without the signal aborted keeps the wallet stopped", async () => {
    const x = await runnerWorld({ index: 1, onboarding: true });
    w = x;
    await x.run(3_000);
    await settle(x.clock, x.runner.shutdown(x.clock.now() + 20_000));
    await x.run(40_000);
    expect(x.runner.status().state).toBe("stopped");
    expect(restingOf(x)).toEqual([]);
  });
});

describe("WalletRunner fills", () => {
  it("a fill by the stream reaches the ledger, the inventory and the tracker once; the trade pull that reads it again adds nothing", async () => {
    const x = await quoting();
    expect(position0(x)).toBe(0n);
    const bid = ourBid(x);
    expect(takerHit(x, bid.price, 2n * ONE).filledQty).toBe(2n * ONE);
    await x.run(500);

    const fills = x.ledger.fills(x.wallet);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ orderId: bid.id, marketId: x.market, outcome: 0, side: "BUY", price: bid.price, qty: 2n * ONE, role: "maker", source: "stream" });
    expect(position0(x)).toBe(2n * ONE);
    expect(fillEvents(x)).toHaveLength(1);
    expect(x.runner.tracker.getByOrderId(bid.id)?.filledQty).toBe(2n * ONE);
    // The fill triggered a cycle of that market.
    expect(x.observer.of("cycle").some((c) => c.wallet === x.wallet && c.trigger === "fill" && c.marketId === x.market)).toBe(true);

    await settle(x.clock, x.runner.sync("test"));
    expect(x.ledger.fills(x.wallet)).toHaveLength(1);
    expect(position0(x)).toBe(2n * ONE);
    expect(fillEvents(x)).toHaveLength(1);
    expect(x.runner.tracker.getByOrderId(bid.id)?.filledQty).toBe(2n * ONE);
  });

  it("a fill whose frame was lost arrives by the trade pull, once, however often the pull runs", async () => {
    const x = await quoting();
    x.connector.dropFills = true;
    const bid = ourBid(x);
    expect(takerHit(x, bid.price, 3n * ONE).filledQty).toBe(3n * ONE);
    await x.run(500);
    expect(x.connector.dropped).toBeGreaterThan(0);
    expect(x.ledger.fills(x.wallet)).toEqual([]);
    expect(position0(x)).toBe(0n);

    await settle(x.clock, x.runner.sync("test"));
    expect(x.ledger.fills(x.wallet)).toMatchObject([{ orderId: bid.id, qty: 3n * ONE, source: "trades_pull" }]);
    expect(position0(x)).toBe(3n * ONE);
    x.connector.dropFills = false;
    await settle(x.clock, x.runner.sync("again"));
    expect(x.ledger.fills(x.wallet)).toHaveLength(1);
    expect(position0(x)).toBe(3n * ONE);
    expect(fillEvents(x)).toHaveLength(1);
    expect(x.runner.tracker.getByOrderId(bid.id)?.filledQty).toBe(3n * ONE);
  });
});

describe("WalletRunner stopping", () => {
  it("shutdown(deadline): every order ends on the platform, the report is clean, the wallet is stopped", async () => {
    const x = await quoting();
    const before = restingOf(x).length;
    expect(before).toBeGreaterThan(0);
    const report = await settle(x.clock, x.runner.shutdown(x.clock.now() + 20_000));
    expect(isClean(report)).toBe(true);
    expect(report).toMatchObject({ wallet: x.wallet, name: "w0", unconfirmed: [], leftover: [], unresolved: [], finalWalk: { ok: true, open: 0 }, errors: [] });
    expect(report.cancelled).toBeGreaterThanOrEqual(before);
    expect(restingOf(x)).toEqual([]);
    expect(statesOf(x)).toEqual(["ready", "stopping", "stopped"]);
    expect(x.runner.status()).toMatchObject({ state: "stopped", liveOrders: 0, unknownOrders: 0, streamSubscribed: false });
    // Nothing quotes again: a trigger after the stop runs no cycle and places nothing.
    const cycles = x.observer.of("cycle").length;
    x.runner.trigger(x.market, "book");
    await x.run(3_000);
    expect(x.observer.of("cycle").length).toBe(cycles);
    expect(restingOf(x)).toEqual([]);
  });

  it("restart() after shutdown (shard.lease: a lost lease taken back): the start-up path again, books kept (no second anchor); only from stopped", async () => {
    const x = await quoting();
    await expect(x.runner.restart(new AbortController().signal)).rejects.toThrow(/restart from state ready/);
    const bid = ourBid(x);
    expect(takerHit(x, bid.price, 2n * ONE).filledQty).toBe(2n * ONE);
    await x.run(500);
    expect(position0(x)).toBe(2n * ONE);
    await settle(x.clock, x.runner.shutdown(x.clock.now() + 20_000));
    expect(restingOf(x)).toEqual([]);

    await settle(x.clock, x.runner.restart(new AbortController().signal));
    expect(statesOf(x)).toEqual(["ready", "stopping", "stopped", "starting", "ready"]);
    // The open-order reconciliation ran before the first cycle, as at start-up.
    expect(x.observer.of("synced").filter((e) => e.wallet === x.wallet).map((e) => e.reason).slice(-1)).toEqual(["startup"]);
    expect(x.observer.of("synced").filter((e) => e.wallet === x.wallet && e.reason === "startup")).toHaveLength(2);
    // Counted once: the platform holds 2, and so do we (a second anchor would count the fill again).
    expect(position0(x)).toBe(2n * ONE);
    expect(x.ledger.fills(x.wallet)).toHaveLength(1);
    await x.run(3_000);
    expect(restingOf(x).length).toBeGreaterThan(0);
    expect(x.runner.status()).toMatchObject({ state: "ready", streamSubscribed: true });
  });

  it("abandon(): nothing is cancelled, orders stay resting, the state is abandoned and no cycle runs again", async () => {
    const x = await quoting();
    const before = restingOf(x).map((o) => o.id).sort();
    expect(before.length).toBeGreaterThan(0);
    const cancels = x.observer.of("order_cancelled").length;
    x.runner.abandon();
    expect(x.runner.status().state).toBe("abandoned");
    expect(statesOf(x)).toEqual(["ready", "abandoned"]);
    const cycles = x.observer.of("cycle").length;
    await x.run(5_000);
    expect(restingOf(x).map((o) => o.id).sort()).toEqual(before);
    expect(x.observer.of("order_cancelled").length).toBe(cancels);
    expect(x.observer.of("cycle").length).toBe(cycles);
    expect(x.runner.status().streamSubscribed).toBe(false);
  });
});

describe("WalletRunner status and memory figures", () => {
  it("say what the wallet holds: its orders, its market, its stream, one strategy state", async () => {
    const x = await quoting();
    const resting = restingOf(x).length;
    expect(x.runner.status()).toEqual({
      name: "w0",
      wallet: x.wallet,
      state: "ready",
      vault: x.runner.status().vault,
      liveOrders: resting,
      unknownOrders: 0,
      streamSubscribed: true,
      markets: [x.market],
    });
    expect(x.runner.marketsToCycle()).toEqual([x.market]);
    expect(x.runner.streamStats()?.subscribed).toBe(true);
    const m = x.runner.memoryFigures();
    expect(m).toMatchObject({ unknownSince: 0, ownOrderMarkets: 1, strategyStates: 1, claimMarks: 0, foreignSeen: 0, retiredIds: 0, bufferedEvents: 0, bufferedIds: 0 });
    // Quotes unchanged since placed: the tracker and the own-order log hold exactly the resting orders.
    expect(m.orders).toBe(resting);
    expect(m.ownOrders).toBe(resting);
    // Pre-signing is on by default: the neighbours of the resting quotes are signed ahead.
    expect(x.runner.presignStats()).toBeDefined();
    expect(m.presigned).toBeGreaterThan(0);
  });

  it("an order filled in full is forgotten a minute later by maintenance (the figures shrink), while its fill stays", async () => {
    const x = await quoting();
    const bid = ourBid(x);
    expect(takerHit(x, bid.price, bid.remaining).filledQty).toBe(bid.remaining);
    await x.run(1_000);
    expect(x.runner.tracker.getByOrderId(bid.id)?.state).toBe("filled");
    const held = x.runner.memoryFigures();
    await x.run(61_000);
    await settle(x.clock, x.runner.maintain());
    const after = x.runner.memoryFigures();
    expect(x.runner.tracker.getByOrderId(bid.id)).toBeUndefined();
    expect(after.retiredIds).toBeGreaterThan(held.retiredIds);
    expect(after.orders).toBe(x.runner.status().liveOrders);
    expect(x.ledger.fills(x.wallet).map((f) => f.orderId)).toEqual([bid.id]);
  });
});
