/**
 * Follow the user stream (`/ws/user`, channel `user_orders`): connect, wait for the subscription,
 * print order frames, and reconcile after a reconnect. Against the simulator it places and
 * cancels one order to have frames to show, then stops. Run: `npx tsx examples/client/follow-stream.ts`.
 */
import { Rng } from "../../src/core/rng.js";
import { parseMicros } from "../../src/core/money.js";
import { buildOrder, placeOrderBody } from "../../src/signing/index.js";
import { UserStream, type UserOrderFrame } from "../../src/stream/index.js";
import { connect, isMain } from "./setup.js";

export async function main(): Promise<{ frames: string[] }> {
  const { client, connector, apiKey, wallet, signer, clock, target, close } = connect();
  const stream = new UserStream({ connector, apiKey, wallet, clock, rng: new Rng(Date.now() >>> 0) });
  const frames: string[] = [];
  let cancelled: () => void = () => undefined;
  const sawCancel = new Promise<void>((resolve) => (cancelled = resolve));

  stream.on("frame", (f: UserOrderFrame) => {
    frames.push(f.type);
    console.log(`${f.type} ${f.orderId} ${"status" in f ? String(f.status) : ""}`);
    if (f.type === "order_cancelled") cancelled();
  });
  stream.on("disconnected", (e) => {
    if (e.code !== 1000) console.log(`disconnected (${e.code}); frames may be lost from ${new Date(e.gapStartedAt).toISOString()}`);
  });
  stream.on("subscribed", (e) => {
    // After a reconnect, read what the gap may have hidden (open orders, fills) before trusting the stream again.
    if (e.resumed) console.log("resubscribed: reconcile with orders.open() / portfolio.trades()");
  });
  stream.on("error", (e) => console.log(`stream error ${e.kind}: ${e.message}`));

  try {
    stream.start();
    await stream.ready();
    console.log(`subscribed to user_orders for ${wallet}`);
    if (target !== "simulator") {
      await clock.sleep(30_000); // watch a real account for a while
      return { frames };
    }

    const me = client.forWallet(wallet);
    const contracts = (await client.platform.contracts()).data;
    const market = (await client.markets.list()).data.markets.find((m) => m.status === "OPEN")!;
    const vault = (await me.portfolio.vault()).data.vaultAddress;
    const built = buildOrder({ contracts, market, intent: { outcome: 0, side: "BUY", price: parseMicros("0.02"), quantity: parseMicros("1"), postOnly: true }, wallet, vault });
    const { signature } = await signer.signOrder(built.struct, built.domain);
    const placed = await me.orders.place(placeOrderBody(built, { signature, clientOrderId: `stream-example-${clock.now()}` }));
    if (placed.outcome !== "accepted") throw new Error(`not placed: ${placed.outcome}`);
    await me.orders.cancelUntilFinal([placed.orderId], { deadlineMs: 30_000 });
    await sawCancel;
    return { frames };
  } finally {
    stream.stop();
    close();
  }
}

if (isMain(import.meta.url)) await main();
