import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import type { Harness } from "./helpers.js";
import { SEED, T0, harness, openAndSubscribe, orderPlaced } from "./helpers.js";

/** Full jitter worked out by hand: uniform in [0, cap) from the same seeded generator. */
function fullJitter(caps: number[], seed = SEED): number[] {
  const rng = new Rng(seed);
  return caps.map((cap) => Math.round(rng.float() * cap));
}

function refused(): Error {
  return Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:443"), { code: "ECONNREFUSED" });
}

/** Let the pending reconnect fire, checking it does not fire a millisecond early. */
async function waitOutBackoff(h: Harness, delayMs: number): Promise<void> {
  const before = h.connector.sockets.length;
  if (delayMs > 0) {
    await h.clock.advance(delayMs - 1);
    expect(h.connector.sockets).toHaveLength(before);
  }
  await h.clock.advance(delayMs > 0 ? 1 : 0);
  expect(h.connector.sockets).toHaveLength(before + 1);
}

describe("UserStream: disconnects and reconnects", () => {
  it("reports the gap, backs off with growing jittered waits, resubscribes and says it resumed", async () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    await h.clock.advance(1_000);
    h.connector.last.push(orderPlaced(T0 + 900));
    await h.clock.advance(4_000);
    h.connector.last.serverClose(1001, "going away");

    expect(h.of("disconnected")).toEqual([
      { code: 1001, reason: "going away", at: T0 + 5_000, lastServerTs: T0 + 900, gapStartedAt: T0 + 1_000 },
    ]);
    expect(h.stream.stats()).toMatchObject({ connected: false, subscribed: false, reconnects: 1 });

    const delays = fullJitter([500, 1_000, 2_000, 4_000, 8_000, 16_000]);
    // 1-3: refused before the socket opens.
    for (let i = 0; i < 3; i++) {
      await waitOutBackoff(h, delays[i]!);
      h.connector.last.fail(refused());
    }
    // 4: opens, then the server hangs up before confirming the subscription.
    await waitOutBackoff(h, delays[3]!);
    h.connector.last.open();
    h.connector.last.serverClose(1006, "");
    // 5: refused again.
    await waitOutBackoff(h, delays[4]!);
    h.connector.last.fail(refused());
    // 6: back.
    await waitOutBackoff(h, delays[5]!);
    const resumedAt = h.clock.now();
    openAndSubscribe(h, T0 + 40_000);

    expect(h.of("reconnecting").map((r) => [r.attempt, r.capMs, r.delayMs])).toEqual([
      [1, 500, delays[0]],
      [2, 1_000, delays[1]],
      [3, 2_000, delays[2]],
      [4, 4_000, delays[3]],
      [1, 8_000, delays[4]],
      [2, 16_000, delays[5]],
    ]);
    expect(h.of("connected").map((c) => c.attempt)).toEqual([1, 4, 2]);
    expect(h.of("error").map((e) => [e.kind, e.code])).toEqual([
      ["connect", "ECONNREFUSED"],
      ["connect", "ECONNREFUSED"],
      ["connect", "ECONNREFUSED"],
      ["connect", "ECONNREFUSED"],
    ]);
    // The gap is still counted from the last message of the lost subscription.
    expect(h.of("disconnected").map((d) => d.gapStartedAt)).toEqual([T0 + 1_000, T0 + 1_000]);
    expect(h.of("subscribed")[1]).toEqual({
      channel: "user_orders",
      serverTs: T0 + 40_000,
      at: resumedAt,
      resumed: true,
      gapStartedAt: T0 + 1_000,
      lastServerTs: T0 + 900,
    });
    expect(h.connector.last.sentFrames()[0]).toEqual({ type: "subscribe", channel: "user_orders" });
    expect(h.stream.stats()).toMatchObject({ connected: true, subscribed: true, reconnects: 6 });

    h.stream.stop();
    // Every connected has exactly one disconnected.
    expect(h.of("connected")).toHaveLength(h.of("disconnected").length);
    expect(h.clock.pending()).toBe(0);
  });

  it("is deterministic for a seed and differs across seeds", async () => {
    const run = async (seed: number): Promise<number[]> => {
      const h = harness({ rng: new Rng(seed) });
      h.stream.start();
      for (let i = 0; i < 5; i++) {
        h.connector.last.fail(refused());
        await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
      }
      h.stream.stop();
      return h.of("reconnecting").map((r) => r.delayMs);
    };
    expect(await run(SEED)).toEqual(await run(SEED));
    expect(await run(SEED)).toEqual(fullJitter([500, 1_000, 2_000, 4_000, 8_000]));
    expect(await run(SEED + 1)).not.toEqual(await run(SEED));
  });

  it("caps the wait at maxMs", async () => {
    const h = harness();
    h.stream.start();
    for (let i = 0; i < 9; i++) {
      h.connector.last.fail(refused());
      await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
    }
    const caps = h.of("reconnecting").map((r) => r.capMs);
    expect(caps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    for (const r of h.of("reconnecting")) expect(r.delayMs).toBeLessThanOrEqual(r.capMs);
    h.stream.stop();
  });

  it("starts the backoff again after a stable connection, but not after a flapping one", async () => {
    const h = harness();
    h.stream.start();
    h.connector.last.fail(refused());
    await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
    h.connector.last.fail(refused());
    await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
    // Subscribed, then frames for 30 s (server pings): stable.
    openAndSubscribe(h);
    for (let i = 0; i < 2; i++) {
      await h.clock.advance(15_000);
      h.connector.last.push({ type: "ping", serverTs: h.clock.now() });
    }
    h.connector.last.serverClose(1012, "restart");
    expect(h.of("reconnecting").map((r) => r.capMs)).toEqual([500, 1_000, 500]);

    // Subscribed for 1 s only: not stable, the cap keeps growing.
    await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
    openAndSubscribe(h);
    await h.clock.advance(1_000);
    h.connector.last.push({ type: "ping", serverTs: h.clock.now() });
    h.connector.last.serverClose(1012, "restart");
    expect(h.of("reconnecting").map((r) => r.capMs)).toEqual([500, 1_000, 500, 1_000]);
    h.stream.stop();
  });

  it("reconnects when the connector itself throws", async () => {
    const h = harness();
    h.connector.throwNext = new Error("bad URL");
    h.stream.start();
    expect(h.connector.sockets).toHaveLength(0);
    expect(h.of("error")).toEqual([{ kind: "connect", message: "bad URL", at: T0 }]);
    expect(h.of("reconnecting")).toHaveLength(1);
    await h.clock.advance(h.of("reconnecting")[0]!.delayMs);
    expect(h.connector.sockets).toHaveLength(1);
    h.stream.stop();
  });
});

describe("UserStream: dead connections and handshakes", () => {
  it("pings every 15 s and drops a connection on which nothing arrived for 45 s", async () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    const s = h.connector.last;
    await h.clock.advance(40_000);
    s.push({ type: "ping", serverTs: T0 + 40_000 }); // alive: the 45 s restart from here
    await h.clock.advance(44_999);
    expect(s.endedBy).toBeUndefined();
    expect(h.stream.stats().connected).toBe(true);
    await h.clock.advance(1);

    expect(s.endedBy).toEqual({ how: "terminate" });
    expect(s.sent.filter((m) => m === '{"type":"ping"}')).toHaveLength(5); // 15, 30, 45, 60, 75 s
    expect(h.of("disconnected")).toEqual([
      { code: 4000, reason: "no frame for 45000 ms", at: T0 + 85_000, lastServerTs: T0 + 40_000, gapStartedAt: T0 + 40_000 },
    ]);
    expect(h.of("reconnecting")).toHaveLength(1);
    await h.clock.advance(h.of("reconnecting")[0]!.delayMs);
    expect(h.connector.sockets).toHaveLength(2);
    h.stream.stop();
    expect(h.clock.pending()).toBe(0);
  });

  it("any message counts as alive, even one it cannot parse", async () => {
    const h = harness({ heartbeat: { deadAfterMs: 10_000, pingIntervalMs: 60_000 } });
    h.stream.start();
    openAndSubscribe(h);
    for (let i = 0; i < 5; i++) {
      await h.clock.advance(9_000);
      h.connector.last.push(i % 2 === 0 ? "not json" : { type: "novel", serverTs: 1 });
    }
    expect(h.stream.stats().connected).toBe(true);
    await h.clock.advance(10_000);
    expect(h.stream.stats().connected).toBe(false);
    h.stream.stop();
  });

  it("gives up on a connection whose subscription is not confirmed in time", async () => {
    const h = harness({ subscribeTimeoutMs: 5_000 });
    h.stream.start();
    await h.clock.advance(1_000);
    h.connector.last.open();
    h.connector.last.push({ type: "ping", serverTs: T0 });
    await h.clock.advance(3_999);
    expect(h.connector.last.endedBy).toBeUndefined();
    await h.clock.advance(1);
    expect(h.connector.last.endedBy).toEqual({ how: "close", code: 4001, reason: "subscribe not confirmed within 5000 ms" });
    expect(h.of("disconnected").map((d) => d.code)).toEqual([4001]);
    expect(h.of("reconnecting")).toHaveLength(1);
    h.stream.stop();
  });

  it("treats an error frame in answer to the subscribe as a failed attempt", () => {
    const h = harness();
    h.stream.start();
    h.connector.last.open();
    h.connector.last.push({ type: "error", code: "invalid_request", message: "unknown channel", channel: "user_orders" });
    expect(h.of("error")).toEqual([
      { kind: "subscribe", code: "invalid_request", message: "invalid_request: unknown channel", at: T0 },
    ]);
    expect(h.connector.last.endedBy).toMatchObject({ how: "close", code: 4002 });
    expect(h.of("subscribed")).toEqual([]);
    expect(h.of("reconnecting")).toHaveLength(1);
    h.stream.stop();
  });

  it("a socket error ends the connection even when no close event follows", () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.fail(new Error("read ECONNRESET"));
    expect(h.of("error").map((e) => e.kind)).toEqual(["socket"]);
    expect(h.connector.last.endedBy).toEqual({ how: "terminate" });
    expect(h.of("disconnected")).toMatchObject([{ code: 1006, reason: "read ECONNRESET" }]);
    expect(h.of("reconnecting")).toHaveLength(1);
    // The late close event of that socket is ignored.
    h.connector.last.serverClose(1006, "");
    expect(h.of("disconnected")).toHaveLength(1);
    expect(h.of("reconnecting")).toHaveLength(1);
    h.stream.stop();
  });

  it("a ping that cannot be sent ends the connection", async () => {
    const h = harness();
    h.stream.start();
    openAndSubscribe(h);
    h.connector.last.readyState = "closed"; // half-dead: send throws, no close event ever comes
    await h.clock.advance(15_000);
    expect(h.of("error")).toMatchObject([{ kind: "send", message: "send on a closed socket" }]);
    expect(h.of("disconnected")).toMatchObject([{ code: 1006, reason: "send failed: send on a closed socket" }]);
    expect(h.connector.last.endedBy).toEqual({ how: "terminate" });
    await h.clock.advance(h.of("reconnecting")[0]!.delayMs);
    expect(h.connector.sockets).toHaveLength(2);
    h.stream.stop();
  });
});
