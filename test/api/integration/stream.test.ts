/**
 * The user stream (UserStream) against the simulator's `/ws/user` gateway, over a REAL WebSocket
 * (WsConnector to the loopback SimServer) and in-process: a forced disconnect (the ws_disconnect
 * fault, or the server closing the socket) is reported as `disconnected`, followed by a reconnect
 * on the virtual clock and `subscribed` with resumed=true and the gap; frames flow again, and the
 * frame lost in the gap is recovered by reading open orders.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { frameKey, UserStream } from "../../../src/stream/index.js";
import type { DisconnectedEvent, SubscribedEvent, UserOrderFrame } from "../../../src/stream/events.js";
import { KINDS, makeWorld, type World } from "./world.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Wait (real time: socket I/O) until `cond` holds; fails after `ms`. */
async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const start = performance.now();
  while (!cond()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((r) => setImmediate(r));
  }
}

async function streamWorld(kind: (typeof KINDS)[number]) {
  const w: World = await makeWorld(kind);
  cleanups.push(() => w.close());
  const wallet = w.wallets[0]!;
  const me = w.client().forWallet(wallet.address);
  const stream = new UserStream({
    connector: w.connector,
    apiKey: w.apiKey,
    wallet: wallet.address,
    clock: w.clock,
    rng: new Rng(11),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
  cleanups.push(() => stream.stop());
  const frames: UserOrderFrame[] = [];
  const lifecycle: string[] = [];
  const disconnects: DisconnectedEvent[] = [];
  const subscribes: SubscribedEvent[] = [];
  stream.on("frame", (f) => frames.push(f));
  stream.on("connected", () => lifecycle.push("connected"));
  stream.on("disconnected", (e) => {
    lifecycle.push(`disconnected ${e.code}`);
    disconnects.push(e);
  });
  stream.on("subscribed", (e) => {
    lifecycle.push(`subscribed resumed=${e.resumed}`);
    subscribes.push(e);
  });
  let n = 0;
  const place = async (): Promise<string> => {
    const { body } = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.30", quantity: "1", clientOrderId: `ws-${++n}` });
    const out = await w.drive(me.orders.place(body));
    if (out.outcome !== "accepted") throw new Error(`setup: ${out.outcome}`);
    return out.orderId;
  };
  stream.start();
  await until(() => subscribes.length === 1, "the first subscription");
  return { w, me, stream, frames, lifecycle, disconnects, subscribes, place };
}

describe.each(KINDS)("user stream over %s", (kind) => {
  it("reconnects after a ws_disconnect fault; frames flow again; the lost frame's order is found by a read", async () => {
    const { w, me, stream, frames, lifecycle, disconnects, subscribes, place } = await streamWorld(kind);

    const first = await place();
    await until(() => frames.length === 1, "the first frame");
    expect(frames[0]).toMatchObject({ type: "order_placed", orderId: first, clientOrderId: "ws-1" });

    // The next frame drops the connection without a close frame; that frame is lost.
    w.fault({ route: "WS /ws/user", kind: "ws_disconnect", nextCalls: 1 });
    const lost = await place();
    await until(() => disconnects.length === 1, "the disconnect");
    expect(disconnects[0]).toMatchObject({ code: 1006 });
    const droppedAt = w.clock.now();

    // The reconnect waits on the (virtual) clock: at most the first backoff cap.
    await w.clock.advance(500);
    await until(() => subscribes.length === 2, "the resumed subscription");
    expect(lifecycle).toEqual(["connected", "subscribed resumed=false", "disconnected 1006", "connected", "subscribed resumed=true"]);
    expect(subscribes[1]).toMatchObject({ resumed: true });
    expect(subscribes[1]!.gapStartedAt).toBeLessThanOrEqual(droppedAt);
    expect(stream.stats()).toMatchObject({ connected: true, subscribed: true, reconnects: 1 });

    const third = await place();
    await until(() => frames.length === 2, "a frame after the reconnect");
    expect(frames.map((f) => f.orderId)).toEqual([first, third]);

    // Reconcile the gap: the order whose frame was lost is open on the platform.
    const open = (await w.drive(me.orders.openPage())).data.orders.map((o) => o.id);
    expect(open).toContain(lost);
  });

  it("delivers duplicated frames as received, with equal frameKeys for the consumer to drop", async () => {
    const { w, frames, place } = await streamWorld(kind);
    w.fault({ route: "WS /ws/user", kind: "ws_duplicate_frames", copies: 3, nextCalls: 1 });

    const id = await place();
    await until(() => frames.length === 3, "three copies");
    const second = await place();
    await until(() => frames.length === 4, "the next frame, once");

    expect(frames.map((f) => f.orderId)).toEqual([id, id, id, second]);
    expect(new Set(frames.slice(0, 3).map(frameKey)).size).toBe(1);
    expect(frameKey(frames[3]!)).not.toBe(frameKey(frames[0]!));
  });

  it("reconnects after the server closes the socket (close frame 1001)", async () => {
    const { w, frames, lifecycle, subscribes, place } = await streamWorld(kind);

    w.hub.closeAll(1001, "going away");
    await until(() => lifecycle.includes("disconnected 1001"), "the server close");
    await w.clock.advance(500);
    await until(() => subscribes.length === 2, "the resumed subscription");
    expect(subscribes[1]).toMatchObject({ resumed: true });

    const id = await place();
    await until(() => frames.length === 1, "a frame after the reconnect");
    expect(frames[0]).toMatchObject({ type: "order_placed", orderId: id });
  });
});
