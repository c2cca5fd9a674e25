/**
 * The paper user stream (paper/connector.ts) on a virtual clock: a socket opens on the next tick,
 * refuses a send while connecting, answers ping with pong and a subscribe to user_orders with
 * subscribed (any other channel, an unknown or malformed frame with an error frame), pings every
 * 15 s, and delivers the paper account's frames for its own wallet only, once subscribed, the
 * response latency after the account made them; events never inside the caller's call; close and
 * terminate give one close event with the codes a WebSocket gives.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros as m } from "../../src/core/money.js";
import { Rng } from "../../src/core/rng.js";
import { constantLatency } from "../../src/backtest/models/latency.js";
import { PaperAccount } from "../../src/paper/account.js";
import { PaperConnector, type PaperSocket } from "../../src/paper/connector.js";

const T0 = Date.UTC(2026, 0, 1, 12);
const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

function setup(responseMs = 30) {
  const clock = new VirtualClock(T0);
  const account = new PaperAccount({ wallets: [A, B], startingCash: m("100"), queue: { kind: "risk-averse" }, now: () => clock.now() });
  const connector = new PaperConnector({ account, clock, latency: constantLatency(5, responseMs), rng: new Rng(1) });
  return { clock, account, connector };
}

/** A socket with everything it emits recorded (messages parsed, with the clock's time). */
function watch(s: PaperSocket, clock: VirtualClock) {
  const log: { at: number; event: string; data?: unknown }[] = [];
  s.on("open", () => log.push({ at: clock.now() - T0, event: "open" }));
  s.on("message", (d) => log.push({ at: clock.now() - T0, event: "message", data: JSON.parse(d) }));
  s.on("close", (code, reason) => log.push({ at: clock.now() - T0, event: "close", data: [code, reason] }));
  return log;
}

describe("a paper socket", () => {
  it("opens on the next tick and refuses a send until then", async () => {
    const { clock, connector } = setup();
    const s = connector.connect("/ws/user", { "X-User-Wallet": A.toUpperCase().replace("0X", "0x") });
    const log = watch(s, clock);
    expect(s.state).toBe("connecting");
    expect(s.wallet).toBe(A);
    expect(() => s.send('{"type":"ping"}')).toThrow("WebSocket is not open: readyState 0 (CONNECTING)");
    expect(log).toEqual([]);
    await clock.advance(0);
    expect(s.state).toBe("open");
    expect(log).toEqual([{ at: 0, event: "open" }]);
    expect(connector.openSockets).toBe(1);
  });

  it("answers ping, subscribe and bad frames, never inside the send", async () => {
    const { clock, connector } = setup();
    const s = connector.connect("/ws/user", { "x-user-wallet": A });
    const log = watch(s, clock);
    await clock.advance(0);
    await clock.advance(1_000);
    s.send('{"type":"ping"}');
    s.send('{"type":"subscribe","channel":"user_orders"}');
    s.send('{"type":"subscribe","channel":"trades"}');
    s.send('{"type":"hello"}');
    s.send("not json");
    expect(log).toHaveLength(1); // only the open: answers come on the clock
    await clock.advance(0);
    const ts = T0 + 1_000;
    expect(log.slice(1).map((x) => x.data)).toEqual([
      { type: "pong", serverTs: ts },
      { type: "subscribed", channel: "user_orders", serverTs: ts },
      { type: "error", code: "invalid_channel", message: "unknown channel trades", channel: "trades", serverTs: ts },
      { type: "error", code: "invalid_request", message: 'unknown frame type "hello"', serverTs: ts },
      { type: "error", code: "invalid_request", message: "frame is not valid JSON", serverTs: ts },
    ]);
    expect(s.subscribed).toBe(true);
  });

  it("pings every 15 s while open", async () => {
    const { clock, connector } = setup();
    const s = connector.connect("/ws/user", { "x-user-wallet": A });
    const log = watch(s, clock);
    await clock.advance(45_000);
    expect(log.filter((x) => x.event === "message").map((x) => [x.at, x.data])).toEqual([
      [15_000, { type: "ping", serverTs: T0 + 15_000 }],
      [30_000, { type: "ping", serverTs: T0 + 30_000 }],
      [45_000, { type: "ping", serverTs: T0 + 45_000 }],
    ]);
    s.close();
    await clock.advance(60_000);
    expect(log.filter((x) => x.event === "message")).toHaveLength(3);
  });

  it("delivers the account's frames for its wallet, once subscribed, the response latency later", async () => {
    const { clock, account, connector } = setup(30);
    const a = connector.connect("/ws/user", { "x-user-wallet": A });
    const b = connector.connect("/ws/user", { "x-user-wallet": B });
    const la = watch(a, clock);
    const lb = watch(b, clock);
    await clock.advance(0);
    account.onFrame!(A, { type: "order_placed", n: 1 }); // before the subscription: not delivered
    await clock.advance(100);
    a.send('{"type":"subscribe","channel":"user_orders"}');
    await clock.advance(0);
    account.onFrame!(A, { type: "user_fill", n: 2 });
    account.onFrame!(B, { type: "user_fill", n: 3 }); // B never subscribed
    await clock.advance(29);
    expect(la.filter((x) => x.event === "message").map((x) => (x.data as { type: string }).type)).toEqual(["subscribed"]);
    await clock.advance(1);
    expect(la.filter((x) => x.event === "message").map((x) => [x.at, x.data])).toEqual([
      [100, { type: "subscribed", channel: "user_orders", serverTs: T0 + 100 }],
      [130, { type: "user_fill", n: 2 }],
    ]);
    expect(lb.filter((x) => x.event === "message")).toEqual([]);
  });

  it("closes once, with the code given, 1005 without one, 1006 when not yet open or terminated", async () => {
    const { clock, connector } = setup();
    const open = async () => {
      const s = connector.connect("/ws/user", { "x-user-wallet": A });
      const log = watch(s, clock);
      await clock.advance(0);
      return { s, log };
    };
    const one = await open();
    one.s.close(4000, "bye");
    one.s.close(4001, "again");
    expect(one.s.state).toBe("closed");
    one.s.send('{"type":"ping"}'); // ignored once closed
    await clock.advance(0);
    expect(one.log.slice(1)).toEqual([{ at: 0, event: "close", data: [4000, "bye"] }]);

    const two = await open();
    two.s.close();
    const three = await open();
    three.s.terminate();
    const early = connector.connect("/ws/user", { "x-user-wallet": A });
    const earlyLog = watch(early, clock);
    early.close(1000, "never opened");
    await clock.advance(0);
    expect(two.log.slice(1)).toEqual([{ at: 0, event: "close", data: [1005, ""] }]);
    expect(three.log.slice(1)).toEqual([{ at: 0, event: "close", data: [1006, ""] }]);
    expect(earlyLog).toEqual([{ at: 0, event: "close", data: [1006, ""] }]);
    expect(connector.openSockets).toBe(0);
  });

  it("drops a frame that was on its way when the socket closed", async () => {
    const { clock, account, connector } = setup(30);
    const s = connector.connect("/ws/user", { "x-user-wallet": A });
    const log = watch(s, clock);
    await clock.advance(0);
    s.send('{"type":"subscribe","channel":"user_orders"}');
    await clock.advance(0);
    account.onFrame!(A, { type: "user_fill" });
    await clock.advance(10);
    s.close();
    await clock.advance(100);
    expect(log.map((x) => x.event)).toEqual(["open", "message", "close"]);
  });
});
