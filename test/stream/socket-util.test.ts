/**
 * Ending a socket whatever its state: dropped at once when asked or when the code cannot be sent
 * (1006 is reported, never sent), else closed with the code and a reason cut to the protocol's
 * 123 bytes (whole characters or a replacement, never an invalid frame); a failing close falls back
 * to dropping, and nothing throws. Plus the two small readers of unknown values.
 */
import { describe, expect, it } from "vitest";
import { endSocket, messageOf, stringField } from "../../src/stream/socket-util.js";
import type { SocketLike } from "../../src/wire/transport.js";

interface Calls {
  closed: [number, string][];
  terminated: number;
}

function socket(opts: { terminate?: boolean; closeThrows?: boolean; terminateThrows?: boolean } = {}): { s: SocketLike; calls: Calls } {
  const calls: Calls = { closed: [], terminated: 0 };
  const s = {
    send: () => undefined,
    on: () => s,
    close: (code: number, reason: string) => {
      if (opts.closeThrows) throw new Error("already closed");
      calls.closed.push([code, reason]);
    },
    ...(opts.terminate === false
      ? {}
      : {
          terminate: () => {
            if (opts.terminateThrows) throw new Error("gone");
            calls.terminated += 1;
          },
        }),
  } as unknown as SocketLike;
  return { s, calls };
}

describe("endSocket", () => {
  it("does nothing without a socket or with ending none", () => {
    const { s, calls } = socket();
    endSocket(undefined, 1000, "bye", "close");
    endSocket(s, 1000, "bye", "none");
    expect(calls).toEqual({ closed: [], terminated: 0 });
  });

  it("closes with a sendable code and the reason", () => {
    for (const code of [1000, 4000, 4999, 3000]) {
      const { s, calls } = socket();
      endSocket(s, code, "stopping", "close");
      expect(calls).toEqual({ closed: [[code, "stopping"]], terminated: 0 });
    }
  });

  it("drops the connection when asked, or when the code can only be reported (1006)", () => {
    const a = socket();
    endSocket(a.s, 4000, "dead", "terminate");
    expect(a.calls).toEqual({ closed: [], terminated: 1 });
    const b = socket();
    endSocket(b.s, 1006, "errored", "close");
    expect(b.calls).toEqual({ closed: [], terminated: 1 });
  });

  it("closes normally when a code cannot be sent and the socket cannot be dropped", () => {
    const { s, calls } = socket({ terminate: false });
    endSocket(s, 1006, "errored", "terminate");
    expect(calls).toEqual({ closed: [[1000, "errored"]], terminated: 0 });
  });

  it("cuts a long reason to at most 123 bytes, multi-byte characters included", () => {
    for (const reason of ["x".repeat(500), "é".repeat(200), "€".repeat(100), "a🙂".repeat(80)]) {
      const { s, calls } = socket();
      endSocket(s, 4000, reason, "close");
      const sent = calls.closed[0]![1];
      expect(Buffer.byteLength(sent)).toBeLessThanOrEqual(123);
      expect(reason.startsWith(sent.replace(/\uFFFD$/, ""))).toBe(true);
    }
  });

  it("falls back to dropping when close throws, and swallows a failing drop", () => {
    const a = socket({ closeThrows: true });
    endSocket(a.s, 4000, "x", "close");
    expect(a.calls.terminated).toBe(1);
    const b = socket({ closeThrows: true, terminateThrows: true });
    expect(() => endSocket(b.s, 4000, "x", "close")).not.toThrow();
  });
});

describe("messageOf and stringField", () => {
  it("read an error's message or any value's text, and a string field or nothing", () => {
    expect(messageOf(new TypeError("bad"))).toBe("bad");
    expect(messageOf(42)).toBe("42");
    expect(stringField({ type: "pong" }, "type")).toBe("pong");
    expect(stringField({ type: 1 }, "type")).toBeUndefined();
    expect(stringField(null, "type")).toBeUndefined();
    expect(stringField("type", "type")).toBeUndefined();
  });
});
