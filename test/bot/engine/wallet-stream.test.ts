/**
 * A wallet's user stream wired to the runner (src/bot/engine/wallet-stream.ts), over a scripted
 * socket and the virtual clock: engine events, the runner's callbacks, the rate-limited warning
 * about unreadable frames, waiting for the first subscription, and the connector of a config.
 */
import { describe, expect, it } from "vitest";
import type { Config } from "../../../src/config/index.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { createLogger } from "../../../src/log/index.js";
import { RecordingObserver } from "../../../src/bot/observer.js";
import { connectorFor, startUserStream, waitForSubscription } from "../../../src/bot/engine/wallet-stream.js";
import { WsConnector } from "../../../src/stream/index.js";
import type { UserOrderFrame } from "../../../src/stream/index.js";
import { FakeConnector } from "../../stream/fake-socket.js";
import { API_KEY, T0, orderPlaced } from "../../stream/helpers.js";

/** Checksummed, as configured; events carry it lower-cased. */
const ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const WALLET = ADDRESS.toLowerCase();

function world() {
  const clock = new VirtualClock(T0);
  const connector = new FakeConnector();
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const log = createLogger({ level: "debug", clock }, { write: (l: string) => void lines.push(JSON.parse(l) as { level: string; msg: string }) });
  const observer = new RecordingObserver();
  const calls: string[] = [];
  const frames: UserOrderFrame[] = [];
  const stream = startUserStream({
    connector,
    apiKey: API_KEY,
    address: ADDRESS,
    clock,
    rng: new Rng(5),
    log,
    observer,
    onFrame: (f) => frames.push(f),
    onResumed: (gap) => calls.push(`resumed:${gap}`),
    onUp: () => calls.push("up"),
    onDown: (at) => calls.push(`down:${at}`),
  });
  const subscribe = (serverTs: number) => {
    connector.last.open();
    connector.last.push({ type: "subscribed", channel: "user_orders", serverTs });
  };
  const msgs = (re: RegExp) => lines.filter((l) => re.test(l.msg));
  return { clock, connector, lines, observer, calls, frames, stream, subscribe, msgs };
}

describe("startUserStream", () => {
  it("starts the stream on the given path with the key and the configured address", () => {
    const w = world();
    expect(w.connector.sockets).toHaveLength(1);
    expect(w.connector.last.headers).toEqual({ "X-Api-Key": API_KEY, "X-User-Wallet": ADDRESS });
    w.stream.stop();
  });

  it("connected and subscribed: stream_state events (lower-cased wallet), onUp before the subscribed event", async () => {
    const w = world();
    await w.clock.advance(50);
    w.subscribe(T0);
    expect(w.calls).toEqual(["up"]);
    expect(w.observer.of("stream_state")).toEqual([
      { type: "stream_state", wallet: WALLET, state: "connected", at: T0 + 50 },
      { type: "stream_state", wallet: WALLET, state: "subscribed", at: T0 + 50 },
    ]);
    w.stream.stop();
  });

  it("each frame: a stream_frame event with its serverTs and the receive time, then onFrame", async () => {
    const w = world();
    w.subscribe(T0);
    await w.clock.advance(30);
    w.connector.last.push(orderPlaced(T0 + 10));
    expect(w.frames.map((f) => f.type)).toEqual(["order_placed"]);
    // the subscribed message is a frame of the stream too (a stream_frame), not an order frame
    expect(w.observer.of("stream_frame").at(-1)).toEqual({ type: "stream_frame", wallet: WALLET, serverTs: T0 + 10, at: T0 + 30 });
    w.stream.stop();
  });

  it("a lost subscription: onDown and disconnected/reconnecting; back: onUp then onResumed with the gap", async () => {
    const w = world();
    w.subscribe(T0);
    await w.clock.advance(1_000);
    w.connector.last.serverClose(1006, "abnormal");
    expect(w.calls).toEqual(["up", `down:${T0 + 1_000}`]);
    expect(w.observer.of("stream_state").map((e) => e.state)).toEqual(["connected", "subscribed", "disconnected", "reconnecting"]);
    // not the routine close: info
    expect(w.msgs(/^stream disconnected$/).map((l) => [l.level, l.code])).toEqual([["info", 1006]]);
    // to the reconnect (its backoff is the seeded Rng's)
    while (w.connector.sockets.length < 2) await w.clock.advanceTo(w.clock.nextDue()!);
    await w.clock.advance(200);
    const seen: { at: number; gapStartedAt: number }[] = [];
    w.stream.on("subscribed", (e) => seen.push(e));
    w.subscribe(w.clock.now());
    // the gap as the stream reports it (from its gapStartedAt), handed on as it is
    const gap = seen[0]!.at - seen[0]!.gapStartedAt;
    expect(gap).toBeGreaterThanOrEqual(w.clock.now() - (T0 + 1_000));
    expect(w.calls).toEqual(["up", `down:${T0 + 1_000}`, "up", `resumed:${gap}`]);
    expect(w.msgs(/^stream resumed/).map((l) => l.gapMs)).toEqual([gap]);
    w.stream.stop();
  });

  it("our own close (1000) at stop is logged at debug only", () => {
    const w = world();
    w.subscribe(T0);
    w.stream.stop();
    expect(w.msgs(/^stream disconnected$/).map((l) => [l.level, l.code])).toEqual([["debug", 1000]]);
    expect(w.observer.of("stream_state").at(-1)!.state).toBe("disconnected");
  });

  it("unreadable frames: warned at most once a minute, with the count since the last warning", async () => {
    const w = world();
    w.subscribe(T0);
    w.connector.last.push("{not json");
    expect(w.msgs(/unreadable/).map((l) => l.frames)).toEqual([1]);
    await w.clock.advance(30_000);
    w.connector.last.push("[1]");
    w.connector.last.push("{bad");
    expect(w.msgs(/unreadable/)).toHaveLength(1);
    await w.clock.advance(30_000);
    // 60 s after the last warning: warned, with the three seen since
    w.connector.last.push("{again");
    expect(w.msgs(/unreadable/).map((l) => [l.frames, l.level])).toEqual([
      [1, "warn"],
      [3, "warn"],
    ]);
    // the counter restarts
    await w.clock.advance(60_000);
    w.connector.last.push("{x");
    expect(w.msgs(/unreadable/).at(-1)!.frames).toBe(1);
    w.stream.stop();
  });

  it("a long unreadable frame's message is cut to 300 characters", () => {
    const w = world();
    w.subscribe(T0);
    w.connector.last.push({ type: "order_placed", channel: "user_orders", serverTs: T0, walletAddress: "x".repeat(1_000) });
    const warned = w.msgs(/unreadable/);
    expect(warned).toHaveLength(1);
    expect(String(warned[0]!.message).length).toBeLessThanOrEqual(300);
    w.stream.stop();
  });
});

describe("waitForSubscription", () => {
  it.each([
    { name: "subscribed before the wait is over: no warning", subscribeAt: 100, waitMs: 1_000, warned: 0, doneAt: T0 + 100 },
    { name: "not subscribed within the wait: goes on, warned", subscribeAt: undefined, waitMs: 1_000, warned: 1, doneAt: T0 + 1_000 },
  ])("$name", async ({ subscribeAt, waitMs, warned, doneAt }) => {
    const w = world();
    let done: number | undefined;
    const wait = waitForSubscription(w.stream, w.clock, waitMs, new AbortController().signal, createLogger({ level: "debug", clock: w.clock }, { write: (l: string) => void w.lines.push(JSON.parse(l) as { level: string; msg: string }) })).then(() => (done = w.clock.now()));
    if (subscribeAt !== undefined) {
      await w.clock.advance(subscribeAt);
      w.subscribe(T0);
    }
    await w.clock.advance(waitMs);
    await wait;
    expect(done).toBe(doneAt);
    expect(w.msgs(/not subscribed yet/)).toHaveLength(warned);
    // the wait's timer does not outlive it
    w.stream.stop();
    expect(w.clock.pending()).toBe(0);
  });

  it("an abort ends the wait at once", async () => {
    const w = world();
    const ac = new AbortController();
    let done = false;
    const wait = waitForSubscription(w.stream, w.clock, 10_000, ac.signal, createLogger({ level: "silent" })).then(() => (done = true));
    await w.clock.advance(10);
    expect(done).toBe(false);
    ac.abort();
    await wait;
    expect(done).toBe(true);
    expect(w.clock.now()).toBe(T0 + 10);
    w.stream.stop();
  });
});

describe("connectorFor", () => {
  const live = (platform: Partial<Config["platform"]>) => ({ mode: "live", platform: { baseUrl: "https://api.example.com", ...platform } }) as unknown as Config;
  const fieldsOf = (c: unknown) => c as { baseUrl: string; localAddress: string | undefined };

  it("a given connector is used as it is, with no path", () => {
    const given = new FakeConnector();
    expect(connectorFor(live({}), given)).toEqual({ connector: given, streamPath: undefined });
    expect(connectorFor({ mode: "simulator" } as Config, given).connector).toBe(given);
  });

  it("simulator mode needs one given", () => {
    expect(() => connectorFor({ mode: "simulator" } as Config, undefined)).toThrow(/give deps.connector in simulator mode/);
  });

  it.each([
    { name: "no wsUrl: the REST base URL, the default path", platform: {}, baseUrl: "https://api.example.com", path: undefined },
    { name: "a wsUrl: its origin, and its path with the query", platform: { wsUrl: "wss://stream.example.com:8443/v2/ws/user?region=eu" }, baseUrl: "wss://stream.example.com:8443", path: "/v2/ws/user?region=eu" },
    { name: "the local address is kept", platform: { wsUrl: "wss://s.example.com/ws", localAddress: "10.0.0.5" }, baseUrl: "wss://s.example.com", path: "/ws", localAddress: "10.0.0.5" },
  ])("live: $name", ({ platform, baseUrl, path, localAddress }) => {
    const r = connectorFor(live(platform), undefined);
    expect(r.connector).toBeInstanceOf(WsConnector);
    expect(fieldsOf(r.connector).baseUrl).toBe(baseUrl);
    expect(fieldsOf(r.connector).localAddress).toBe(localAddress);
    expect(r.streamPath).toBe(path);
  });
});
