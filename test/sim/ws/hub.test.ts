import { describe, expect, it } from "vitest";
import type { WsSink } from "../../../src/sim/ws/session.js";
import { parseServerFrame } from "../../../src/wire/frames.js";
import { KEYS, makePipeline, orderPlacedFrame, T0, W1, W2, W3 } from "../http/helpers.js";

class FakeSink implements WsSink {
  readonly sent: string[] = [];
  ended: "close" | "terminate" | undefined;
  closeCode: number | undefined;
  send(text: string): void {
    this.sent.push(text);
  }
  close(code: number): void {
    this.ended = "close";
    this.closeCode = code;
  }
  terminate(): void {
    this.ended = "terminate";
  }
  frames(): Record<string, unknown>[] {
    return this.sent.map((s) => JSON.parse(s) as Record<string, unknown>);
  }
  types(): string[] {
    return this.frames().map((f) => String(f.type));
  }
}

function connect(headers: Record<string, string> = { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 }, url = "/ws/user") {
  const env = makePipeline([]);
  const check = env.hub.upgrade({ url, headers });
  if (!check.ok) throw new Error(`refused: ${check.response.bodyText}`);
  const sink = new FakeSink();
  const session = env.hub.open(check.auth, sink);
  return { ...env, sink, session };
}

const subscribe = '{"type":"subscribe","channel":"user_orders"}';

describe("WsHub.upgrade", () => {
  it("accepts the key in X-Api-Key or in ?key=, the header winning", () => {
    const { hub } = makePipeline([]);
    const viaHeader = hub.upgrade({ url: "/ws/user", headers: { "x-api-key": KEYS.mm, "x-user-wallet": W1 } });
    expect(viaHeader.ok && viaHeader.auth.wallet).toBe(W1);
    const viaQuery = hub.upgrade({ url: `/ws/user?key=${KEYS.mm}`, headers: { "X-User-Wallet": W1 } });
    expect(viaQuery.ok && viaQuery.auth.partner.id).toBe("mm");
    const both = hub.upgrade({ url: `/ws/user?key=${KEYS.mm}`, headers: { "X-Api-Key": KEYS.revoked, "X-User-Wallet": W1 } });
    expect(!both.ok && JSON.parse(both.response.bodyText).error.code).toBe("api_key_revoked");
  });

  it("refuses with the HTTP status, the envelope and the common headers", () => {
    const { hub } = makePipeline([]);
    const none = hub.upgrade({ url: "/ws/user", headers: {} });
    expect(none.ok).toBe(false);
    if (none.ok) return;
    expect(none.response.status).toBe(401);
    const body = JSON.parse(none.response.bodyText);
    expect(body.error.code).toBe("auth_required");
    expect(body.error.trace_id).toBe(none.response.headers["X-Trace-Id"]);
    expect(none.response.headers["X-API-Version"]).toBe("2026-10-09");
    const path = hub.upgrade({ url: "/ws/other", headers: { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 } });
    expect(!path.ok && path.response.status).toBe(404);
  });

  it("binds a multi_wallet partner with an associated wallet to it, and a single_wallet partner to its wallet", () => {
    const { hub } = makePipeline([]);
    const assoc = hub.upgrade({ url: "/ws/user", headers: { "X-Api-Key": KEYS.assoc, "X-User-Wallet": W1 } });
    expect(assoc.ok && assoc.auth.wallet).toBe(W3);
    const single = hub.upgrade({ url: "/ws/user", headers: { "X-Api-Key": KEYS.single } });
    expect(single.ok && single.auth.wallet).toBe(W2);
  });
});

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

  it("closeAll closes every session with 1001", () => {
    const { hub, sink, sim } = connect();
    hub.closeAll();
    expect([sink.ended, sink.closeCode]).toEqual(["close", 1001]);
    expect(hub.size).toBe(0);
    expect(sim.bus.subscriberCount()).toBe(0);
  });
});
