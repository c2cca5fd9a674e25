/**
 * One /ws/user connection (src/sim/ws/session.ts): subscribe and forward the wallet's bus frames,
 * ping/pong and the server ping on the sim clock, error frames that keep the connection open, the WS
 * faults (disconnect, duplicate, reorder, latency), server close, a failing transport, and a
 * session without a wallet refused.
 */
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log/index.js";
import { WsSession } from "../../../src/sim/ws/session.js";
import { parseServerFrame } from "../../../src/wire/frames.js";
import { KEYS, orderPlacedFrame, T0, W1, W2 } from "../http/helpers.js";
import { connect, FakeSink, subscribe } from "./helpers.js";

describe("WsSession protocol", () => {
  it("answers subscribe with subscribed and forwards the wallet's bus frames only after it", () => {
    const { sim, sink, session } = connect();
    sim.bus.publish(W1, orderPlacedFrame(W1, "o0", T0));
    expect(sink.sent).toEqual([]);
    session.receive(subscribe);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    expect(sink.frames()).toEqual([{ type: "subscribed", channel: "user_orders", serverTs: T0 }, orderPlacedFrame(W1, "o1", T0)]);
  });

  it("keeps one feed per wallet when subscribe is repeated, and ignores other wallets", () => {
    const { sim, sink, session } = connect();
    session.receive(subscribe);
    session.receive(subscribe);
    expect(sim.bus.subscriberCount(W1)).toBe(1);
    sim.bus.publish(W2, orderPlacedFrame(W2, "x", T0));
    sim.bus.publish(W1.toUpperCase().replace("0X", "0x"), orderPlacedFrame(W1, "o1", T0));
    expect(sink.types()).toEqual(["subscribed", "subscribed", "order_placed"]);
    const f = parseServerFrame(sink.sent[2]);
    expect(f.kind).toBe("frame");
  });

  it("answers errors for an unknown channel, an unknown type and invalid JSON, and stays open", () => {
    const { sink, session } = connect();
    session.receive('{"type":"subscribe","channel":"market_data"}');
    session.receive('{"type":"unsubscribe","channel":"user_orders"}');
    session.receive("{not json");
    session.receive('{"type":"ping"}');
    const frames = sink.frames();
    expect(frames.map((f) => f.type)).toEqual(["error", "error", "error", "pong"]);
    expect(frames[0]).toMatchObject({ code: "invalid_request", channel: "market_data", serverTs: T0 });
    expect(String(frames[2]!.message)).toMatch(/JSON/);
    expect(frames[3]).toEqual({ type: "pong", serverTs: T0 });
    expect(session.isOpen).toBe(true);
    for (const text of sink.sent) expect(parseServerFrame(text).kind).toBe("frame");
  });

  it("pings every 15 s of sim-clock time and stops when the transport closes", async () => {
    const { sink, session, clock, sim } = connect();
    session.receive(subscribe);
    await clock.advance(14_999);
    expect(sink.types()).toEqual(["subscribed"]);
    await clock.advance(1);
    await clock.advance(15_000);
    expect(sink.frames().slice(1)).toEqual([
      { type: "ping", serverTs: T0 + 15_000 },
      { type: "ping", serverTs: T0 + 30_000 },
    ]);
    session.transportClosed();
    expect(sim.bus.subscriberCount(W1)).toBe(0);
    await clock.advance(60_000);
    expect(sink.sent).toHaveLength(3);
  });
});

describe("WsSession faults", () => {
  it("subscribe then frames: delivered in publish order, channel added when missing", () => {
    const { sim, sink, session } = connect();
    session.receive(subscribe);
    const { channel: _c, ...noChannel } = orderPlacedFrame(W1, "o1", T0);
    sim.bus.publish(W1, noChannel);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o2", T0));
    const frames = sink.frames();
    expect(frames.map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o1", "o2"]);
    expect(frames[1]!.channel).toBe("user_orders");
  });

  it("ws_disconnect drops the connection without a close frame and loses the frame", () => {
    const { sim, sink, session, hub } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_disconnect", nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    expect(sink.ended).toBe("terminate");
    expect(sink.types()).toEqual(["subscribed"]);
    expect(session.isOpen).toBe(false);
    expect(hub.size).toBe(0);
    expect(sim.bus.subscriberCount(W1)).toBe(0);
  });

  it("ws_duplicate_frames sends a frame `copies` times", () => {
    const { sim, sink, session } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_duplicate_frames", copies: 3, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    sim.bus.publish(W1, orderPlacedFrame(W1, "o2", T0));
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o1", "o1", "o1", "o2"]);
  });

  it("ws_reorder_frames swaps adjacent frames; an unfilled group is flushed in order", async () => {
    const { sim, sink, session, clock } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_reorder_frames", nextCalls: 1 }, T0);
    for (const id of ["o1", "o2"]) sim.bus.publish(W1, orderPlacedFrame(W1, id, T0));
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o2", "o1"]);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_reorder_frames", nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o3", T0));
    await clock.advance(999);
    expect(sink.sent).toHaveLength(3);
    await clock.advance(1);
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o2", "o1", "o3"]);
  });

  it("a latency fault delays a frame on the sim clock without letting later frames overtake it", async () => {
    const { sim, sink, session, clock } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "latency", latencyMs: 200, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    sim.bus.publish(W1, orderPlacedFrame(W1, "o2", T0));
    expect(sink.types()).toEqual(["subscribed"]);
    await clock.advance(200);
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o1", "o2"]);
  });

  it("never throws into the publisher: an unserialisable frame is dropped", () => {
    const { sim, sink, session } = connect();
    session.receive(subscribe);
    expect(() => sim.bus.publish(W1, { type: "order_placed", serverTs: T0, bad: 1n })).not.toThrow();
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o1"]);
  });
});

describe("WsSession lifecycle", () => {
  it("refuses to start without a wallet", () => {
    const { sim, hub } = connect();
    const check = hub.upgrade({ url: "/ws/user", headers: { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 } });
    if (!check.ok) throw new Error("refused");
    const opts = { sim, logger: createLogger({ level: "silent" }), pingIntervalMs: 15_000, reorderFlushMs: 1_000, id: 99 };
    expect(() => new WsSession({ ...check.auth, wallet: null }, new FakeSink(), opts)).toThrow("a /ws/user session needs a wallet");
  });

  it("lists each subscribed channel once", () => {
    const { session } = connect();
    expect(session.subscribedChannels).toEqual([]);
    session.receive(subscribe);
    session.receive(subscribe);
    expect(session.subscribedChannels).toEqual(["user_orders"]);
    expect([session.wallet, session.partnerId]).toEqual([W1, "mm"]);
  });

  it("close sends a close frame (1001 'server shutting down' by default), ends once, and stops the feed and the pings", async () => {
    const { sim, sink, session, hub, clock } = connect();
    session.receive(subscribe);
    session.close();
    expect([sink.ended, sink.closeCode, sink.closeReason]).toEqual(["close", 1001, "server shutting down"]);
    expect([session.isOpen, hub.size, sim.bus.subscriberCount(W1)]).toEqual([false, 0, 0]);
    session.close(4000, "again");
    expect(sink.closeCode).toBe(1001);
    session.receive('{"type":"ping"}');
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    await clock.advance(60_000);
    expect(sink.types()).toEqual(["subscribed"]);
  });

  it("close takes a code and reason", () => {
    const { sink, session } = connect();
    session.close(4001, "maintenance");
    expect([sink.closeCode, sink.closeReason]).toEqual([4001, "maintenance"]);
  });

  it("a frame delayed by latency or held by a reorder group is dropped when the session ends first", async () => {
    const { sim, sink, session, clock } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "latency", latencyMs: 200, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "late", T0));
    session.transportClosed();
    await clock.advance(5_000);
    expect(sink.types()).toEqual(["subscribed"]);
    expect(session.framesSent).toBe(0);

    const second = connect();
    second.session.receive(subscribe);
    second.sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_reorder_frames", nextCalls: 1 }, T0);
    second.sim.bus.publish(W1, orderPlacedFrame(W1, "held", T0));
    second.session.transportClosed();
    await second.clock.advance(5_000);
    expect(second.sink.types()).toEqual(["subscribed"]);
  });

  it("a transport whose send throws ends the session without throwing into the publisher", () => {
    const { sim, sink, session, hub } = connect();
    session.receive(subscribe);
    sink.failSends = true;
    expect(() => sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0))).not.toThrow();
    expect([session.isOpen, hub.size, sim.bus.subscriberCount(W1)]).toEqual([false, 0, 0]);
    expect(sink.ended).toBeUndefined(); // nothing more is tried on a broken transport
  });
});

describe("WsSession faults, further cases", () => {
  it("a reorder window of 3 holds three frames and sends them reversed; the next frame passes straight", () => {
    const { sim, sink, session } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_reorder_frames", reorderWindow: 3, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    sim.bus.publish(W1, orderPlacedFrame(W1, "o2", T0));
    expect(sink.types()).toEqual(["subscribed"]);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o3", T0));
    sim.bus.publish(W1, orderPlacedFrame(W1, "o4", T0));
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o3", "o2", "o1", "o4"]);
  });

  it("a shorter latency on a later frame does not let it overtake an earlier delayed one", async () => {
    const { sim, sink, session, clock } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "WS /ws/user", kind: "latency", latencyMs: 500, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    sim.platform.faults.add({ route: "WS /ws/user", kind: "latency", latencyMs: 100, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o2", T0));
    await clock.advance(100);
    expect(sink.types()).toEqual(["subscribed"]);
    await clock.advance(400);
    expect(sink.frames().map((f) => f.orderId ?? f.type)).toEqual(["subscribed", "o1", "o2"]);
  });

  it("framesSent counts order frames with their copies, not control frames", () => {
    const { sim, session } = connect();
    session.receive(subscribe);
    session.receive('{"type":"ping"}');
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_duplicate_frames", copies: 3, nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    sim.bus.publish(W1, orderPlacedFrame(W1, "o2", T0));
    expect(session.framesSent).toBe(4);
  });

  it("faults on other routes do not touch frames", () => {
    const { sim, sink, session } = connect();
    session.receive(subscribe);
    sim.platform.faults.add({ route: "POST /api/orders/place", kind: "ws_disconnect", nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    expect([session.isOpen, sink.types()]).toEqual([true, ["subscribed", "order_placed"]]);
  });
});
