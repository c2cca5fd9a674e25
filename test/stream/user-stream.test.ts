import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { VirtualClock } from "../../src/core/clock.js";
import { UserStream } from "../../src/stream/index.js";
import { OTHER_WALLET } from "../wire/fixtures.js";
import { FakeConnector } from "./fake-socket.js";
import { API_KEY, T0, WALLET, harness, openAndSubscribe, orderEnded, orderPlaced, userFill } from "./helpers.js";

describe("UserStream: connect and subscribe", () => {
  it("connects to /ws/user with the key and wallet in headers, subscribes, and reports each step", async () => {
    const h = harness();
    h.stream.start();
    expect(h.connector.sockets).toHaveLength(1);
    const s = h.connector.last;
    expect(s.path).toBe("/ws/user");
    expect(s.path).not.toContain(API_KEY);
    expect(s.headers).toEqual({ "X-Api-Key": API_KEY, "X-User-Wallet": WALLET });
    expect(s.sent).toEqual([]);

    await h.clock.advance(120);
    s.open();
    expect(h.of("connected")).toEqual([{ attempt: 1, at: T0 + 120 }]);
    expect(s.sentFrames()).toEqual([{ type: "subscribe", channel: "user_orders" }]);
    expect(h.stream.stats()).toMatchObject({ connected: true, subscribed: false });

    const ready = h.stream.ready();
    s.push({ type: "subscribed", channel: "user_orders", serverTs: T0 + 100 });
    await expect(ready).resolves.toBeUndefined();
    expect(h.of("subscribed")).toEqual([
      { channel: "user_orders", serverTs: T0 + 100, at: T0 + 120, resumed: false, gapStartedAt: T0, lastServerTs: undefined },
    ]);
    expect(h.stream.stats()).toMatchObject({ connected: true, subscribed: true, lastServerTs: T0 + 100, framesReceived: 1 });
    h.stream.stop();
  });

  it("delivers order frames as typed frames, in order", () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    const s = h.connector.last;
    s.push(orderPlaced(T0 + 1));
    s.push(userFill(T0 + 2, { role: null }));
    s.push(orderEnded("order_cancelled", T0 + 3));
    s.push(orderEnded("order_expired", T0 + 4));
    s.push({ type: "ping", serverTs: T0 + 5 });
    s.push({ type: "pong", serverTs: T0 + 6 });

    const frames = h.of("frame");
    expect(frames.map((f) => f.type)).toEqual(["order_placed", "user_fill", "order_cancelled", "order_expired"]);
    const fill = frames[1]!;
    expect(fill.type === "user_fill" && fill.role).toBeUndefined(); // null role means unknown
    expect(fill.type === "user_fill" && fill.quantity).toBe("4");
    expect(h.stream.stats()).toMatchObject({ framesReceived: 7, unknownFrames: 0, invalidFrames: 0, lastServerTs: T0 + 6 });
    h.stream.stop();
  });

  it("surfaces an unknown frame kind and keeps going", () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    const s = h.connector.last;
    s.push({ type: "market_resolved", marketId: "X", serverTs: T0 + 50 });
    s.push(orderPlaced(T0 + 60));

    expect(h.of("unknown_frame")).toEqual([
      { type: "market_resolved", data: { type: "market_resolved", marketId: "X", serverTs: T0 + 50 }, at: T0 },
    ]);
    expect(h.of("frame").map((f) => f.type)).toEqual(["order_placed"]);
    expect(h.stream.stats()).toMatchObject({ unknownFrames: 1, subscribed: true, lastServerTs: T0 + 60 });
    expect(h.of("disconnected")).toEqual([]);
    h.stream.stop();
  });

  it("counts and surfaces invalid frames without dropping the connection", () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    const s = h.connector.last;
    s.push("{not json");
    s.push("[1,2]");
    s.push(userFill(T0 + 1, { remainingQty: 6 }));
    s.push(userFill(T0 + 2));

    const invalid = h.of("invalid_frame").map((e) => e.message);
    expect(invalid).toHaveLength(3);
    expect(invalid[0]).toBe("frame is not valid JSON");
    expect(invalid[1]).toBe("frame is not a JSON object");
    expect(invalid[2]).toMatch(/^user_fill: remainingQty/);
    expect(h.of("frame")).toHaveLength(1);
    expect(h.stream.stats()).toMatchObject({ invalidFrames: 3, framesReceived: 5, connected: true, subscribed: true });
    expect(s.isClosedByClient).toBe(false);
    h.stream.stop();
  });

  it("keeps lastServerTs as the maximum seen, whatever order frames arrive in", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1e13 }), { minLength: 1, maxLength: 30 }), (stamps) => {
        const h = harness();
        h.stream.start();
        h.connector.last.open();
        let max = -1;
        for (const ts of stamps) {
          h.connector.last.push({ type: "ping", serverTs: ts });
          max = Math.max(max, ts);
          expect(h.stream.stats().lastServerTs).toBe(max);
        }
        // A frame without a usable serverTs never lowers it.
        h.connector.last.push({ type: "mystery", serverTs: "soon" });
        h.connector.last.push("garbage");
        expect(h.stream.stats().lastServerTs).toBe(max);
        h.stream.stop();
        expect(h.of("disconnected")[0]?.lastServerTs).toBe(max);
      }),
      { seed: 7, numRuns: 50 },
    );
  });

  it("reports frames for another wallet once per connection and still delivers them", () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.push(orderPlaced(T0 + 1, { walletAddress: OTHER_WALLET }));
    h.connector.last.push(orderPlaced(T0 + 2, { walletAddress: OTHER_WALLET }));
    h.connector.last.push(orderPlaced(T0 + 3, { walletAddress: WALLET.toUpperCase().replace("0X", "0x") }));
    expect(h.of("wallet_mismatch")).toEqual([{ expected: WALLET, actual: OTHER_WALLET, at: T0 }]);
    expect(h.of("frame")).toHaveLength(3);
    h.stream.stop();
  });

  it("survives a listener that throws and reports it", () => {
    const h = harness();
    let calls = 0;
    h.stream.on("frame", () => {
      calls++;
      throw new Error("consumer bug");
    });
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.push(orderPlaced(T0 + 1));
    h.connector.last.push(orderPlaced(T0 + 2));
    expect(calls).toBe(2);
    expect(h.of("frame")).toHaveLength(2);
    expect(h.of("error")).toEqual([
      { kind: "listener", message: "frame listener threw: consumer bug", at: T0 },
      { kind: "listener", message: "frame listener threw: consumer bug", at: T0 },
    ]);
    expect(h.stream.stats().subscribed).toBe(true);
    h.stream.stop();
  });

  it("reports a server error frame on a live subscription without dropping it", () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.push({ type: "error", code: "internal_error", message: "hiccup", serverTs: T0 + 9 });
    expect(h.of("error")).toEqual([{ kind: "server", code: "internal_error", message: "internal_error: hiccup", at: T0 }]);
    expect(h.stream.stats().subscribed).toBe(true);
    h.stream.stop();
  });

  it("validates its options without echoing the key", () => {
    const clock = new VirtualClock(T0);
    const base = { connector: new FakeConnector(), apiKey: API_KEY, wallet: WALLET, clock, rng: new Rng(1) };
    expect(() => new UserStream({ ...base, wallet: "0x123" })).toThrow(/wallet: expected 0x/);
    expect(() => new UserStream({ ...base, apiKey: " " })).toThrow(/apiKey/);
    expect(() => new UserStream({ ...base, backoff: { factor: 0.5 } })).toThrow(/backoff.factor/);
    expect(() => new UserStream({ ...base, heartbeat: { deadAfterMs: 0 } })).toThrow(/heartbeat.deadAfterMs/);
    let thrown: unknown;
    expect(() => {
      try {
        new UserStream({ ...base, wallet: "nope" });
      } catch (e) {
        thrown = e;
        throw e;
      }
    }).toThrow(/wallet/);
    expect(String(thrown)).not.toContain(API_KEY);
    expect(JSON.stringify(thrown)).not.toContain(API_KEY);
  });
});

describe("UserStream: stop", () => {
  it("stop() while subscribed closes with 1000, emits one disconnected, leaves no timer and never reconnects", async () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    await h.clock.advance(20_000); // a ping went out, timers are armed
    expect(h.clock.pending()).toBeGreaterThan(0);
    h.stream.stop();
    expect(h.connector.last.endedBy).toEqual({ how: "close", code: 1000, reason: "client stop" });
    expect(h.clock.pending()).toBe(0);
    expect(h.of("disconnected")).toEqual([
      { code: 1000, reason: "client stop", at: T0 + 20_000, lastServerTs: T0, gapStartedAt: T0 },
    ]);
    // The socket's late close event changes nothing.
    h.connector.last.serverClose(1000, "bye");
    await h.clock.advance(3_600_000);
    expect(h.connector.sockets).toHaveLength(1);
    expect(h.of("disconnected")).toHaveLength(1);
    expect(h.of("reconnecting")).toEqual([]);
    await expect(h.stream.ready()).rejects.toThrow(/not running/);
  });

  it("stop() during a backoff wait cancels the reconnect", async () => {
    const h = harness();
    h.stream.start();
    h.connector.last.fail(new Error("connect ECONNREFUSED 127.0.0.1:1"));
    expect(h.of("reconnecting")).toHaveLength(1);
    expect(h.clock.pending()).toBe(1);
    h.stream.stop();
    expect(h.clock.pending()).toBe(0);
    await h.clock.advance(3_600_000);
    expect(h.connector.sockets).toHaveLength(1);
  });

  it("stop() before the socket opens: no disconnected (nothing was connected), pending ready() rejects", async () => {
    const h = harness();
    h.stream.start();
    const ready = h.stream.ready();
    h.stream.stop();
    await expect(ready).rejects.toThrow(/stopped/);
    expect(h.connector.last.endedBy?.how).toBe("close");
    expect(h.of("disconnected")).toEqual([]);
    expect(h.clock.pending()).toBe(0);
  });

  it("a listener may stop the stream from inside an event", async () => {
    const h = harness();
    h.stream.on("disconnected", () => h.stream.stop());
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.serverClose(1011, "boom");
    expect(h.of("reconnecting")).toEqual([]);
    expect(h.clock.pending()).toBe(0);
    await h.clock.advance(60_000);
    expect(h.connector.sockets).toHaveLength(1);
  });

  it("can start again after stop and reports the gap stop() opened", async () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.push(orderPlaced(T0 + 5));
    await h.clock.advance(1_000);
    h.stream.stop();
    await h.clock.advance(10_000);
    h.stream.start();
    expect(h.connector.sockets).toHaveLength(2);
    openAndSubscribe(h, T0 + 11_000);
    expect(h.of("subscribed")[1]).toMatchObject({ resumed: true, gapStartedAt: T0, lastServerTs: T0 + 5 });
    h.stream.stop();
  });
});
