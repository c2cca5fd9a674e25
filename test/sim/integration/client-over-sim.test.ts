/**
 * The real client (PartnerClient + UserStream) against the simulator, twice: in-process
 * (InProcessTransport + InProcessSocketConnector) and over loopback HTTP/WS (FetchTransport +
 * WsConnector on a SimServer). Same scenario, seed and clock: both worlds must answer alike.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../../src/api/client.js";
import { FetchTransport } from "../../../src/api/fetch-transport.js";
import type { SocketConnector, Transport } from "../../../src/wire/transport.js";
import { flushMicrotasks, VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { InProcessSocketConnector, InProcessTransport } from "../../../src/sim/http/in-process.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { startSimServer, type SimServer } from "../../../src/sim/http/server.js";
import { defaultScenarioPath, loadScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { WsHub } from "../../../src/sim/ws/hub.js";
import { buildOrder, placeOrderBody, WalletSigner, type SigningMarket } from "../../../src/signing/index.js";
import { UserStream } from "../../../src/stream/index.js";
import type { UserOrderFrame } from "../../../src/stream/events.js";
import { WsConnector } from "../../../src/stream/ws-connector.js";

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Kind = "in-process" | "loopback";

async function world(kind: Kind) {
  const scenario = loadScenario(defaultScenarioPath());
  const clock = new VirtualClock(T0);
  const sim = new Simulator(scenario, { clock, pepper: new Uint8Array(32), flow: false });
  let transport: Transport;
  let connector: SocketConnector;
  if (kind === "in-process") {
    const pipeline = new Pipeline({ sim, routes: allRoutes() });
    transport = new InProcessTransport(pipeline);
    connector = new InProcessSocketConnector(new WsHub({ sim, pipeline }));
  } else {
    const server: SimServer = await startSimServer({ sim, routes: allRoutes(), port: 0 });
    cleanups.push(() => server.close());
    transport = new FetchTransport({ baseUrl: server.url, clock });
    connector = new WsConnector({ baseUrl: server.url });
  }
  const apiKey = scenario.partners[0]!.keys[0]!.key;
  const wallet = sim.platform.walletSecrets[0]!;
  const client = createClient({ transport, apiKey, clock, rng: new Rng(7) });
  const stream = new UserStream({ connector, apiKey, wallet: wallet.address, clock, rng: new Rng(8) });
  cleanups.push(() => stream.stop());
  return { sim, clock, client, stream, wallet };
}

async function scriptedSession(kind: Kind) {
  const { client, stream, wallet } = await world(kind);
  const frames: UserOrderFrame[] = [];
  let frameArrived: () => void = () => undefined;
  stream.on("frame", (f) => {
    frames.push(f);
    frameArrived();
  });
  stream.start();
  await stream.ready();

  const health = await client.health();
  const contracts = (await client.platform.contracts()).data;
  const markets = (await client.markets.list({ limit: 50 })).data.markets;
  const market = markets.find((m) => m.symbol === "ARS-CHE-ARS") as unknown as SigningMarket;
  const w = client.forWallet(wallet.address);
  const vault = (await w.portfolio.vault()).data.vaultAddress;
  const before = (await w.portfolio.balances()).data;

  const built = buildOrder({
    contracts,
    market,
    intent: { outcome: 0, side: "BUY", price: 400_000n, quantity: 10_000_000n, postOnly: true },
    wallet: wallet.address,
    vault,
    saltSource: () => 12345n,
  });
  const signer = WalletSigner.fromPrivateKey(wallet.privateKey!);
  const { signature } = await signer.signOrder(built.struct, built.domain);
  const framePromise = new Promise<void>((resolve) => (frameArrived = resolve));
  const placed = await w.orders.place(placeOrderBody(built, { signature, clientOrderId: "it-000001" }));
  await framePromise;
  const open = (await w.orders.openPage()).data;
  const after = (await w.portfolio.balances()).data;
  return {
    health: health.data,
    placed: placed.outcome === "accepted" ? { orderId: placed.orderId, status: placed.status } : placed,
    frame: frames[0],
    openIds: open.orders.map((o) => o.id),
    before: before.collateral,
    after: after.collateral,
  };
}

describe("the client against the simulator", () => {
  it("places a signed order and sees its frame, in-process and over loopback, with identical answers", async () => {
    const local = await scriptedSession("in-process");
    expect(local.health).toMatchObject({ status: "ok" });
    expect(local.placed).toMatchObject({ status: "OPEN" });
    const orderId = (local.placed as { orderId: string }).orderId;
    expect(local.frame).toMatchObject({ type: "order_placed", orderId, clientOrderId: "it-000001", marketId: "ARS-CHE-ARS" });
    expect(local.openIds).toEqual([orderId]);
    expect(local.after.locked).not.toBe(local.before.locked);

    const net = await scriptedSession("loopback");
    expect(net).toEqual(local);
  });
});

describe("the user stream over in-process sockets", () => {
  it("survives a ws_disconnect fault: reconnects on the sim clock and reports the gap", async () => {
    const { sim, clock, stream, wallet } = await world("in-process");
    const seen: string[] = [];
    stream.on("disconnected", (e) => seen.push(`disconnected ${e.code}`));
    stream.on("subscribed", (e) => seen.push(`subscribed resumed=${e.resumed}`));
    stream.start();
    await stream.ready();
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_disconnect", nextCalls: 1 }, clock.now());
    sim.bus.publish(wallet.address, { type: "order_placed", serverTs: clock.now() });
    await flushMicrotasks();
    expect(seen).toEqual(["subscribed resumed=false", "disconnected 1006"]);
    await clock.advance(60_000);
    expect(seen).toEqual(["subscribed resumed=false", "disconnected 1006", "subscribed resumed=true"]);
    // heartbeats (server pings, pongs) keep the reconnected stream alive past the client's 45 s dead timer
    await clock.advance(120_000);
    expect(seen).toHaveLength(3);
    expect(stream.stats()).toMatchObject({ connected: true, subscribed: true, reconnects: 1 });
  });
});
