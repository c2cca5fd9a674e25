import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { API_KEY, T0, harness, openAndSubscribe } from "./helpers.js";

/** A key of an odd shape, so only the by-value scrub (not the shape scrubber) can catch it. */
const ODD_KEY = "k3y-not-shaped-like-the-spec";
const SECRET_PART = API_KEY.split("_").at(-1)!;

describe("UserStream never leaks the API key", () => {
  for (const [label, key] of [
    ["a spec-shaped key", API_KEY],
    ["an odd key held as a Secret-like value", ODD_KEY],
  ] as const) {
    it(`keeps ${label} out of events, error messages and stats`, async () => {
      const h = harness({ apiKey: key === ODD_KEY ? { reveal: () => key } : key });
      h.connector.throwNext = new Error(`cannot connect to wss://x/ws/user?key=${key}`);
      h.stream.start();
      await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
      expect(h.connector.last.headers["X-Api-Key"]).toBe(key); // it does go where it must

      h.connector.last.fail(Object.assign(new Error(`upgrade refused for ${key}`), { code: key }));
      await h.clock.advance(h.of("reconnecting").at(-1)!.delayMs);
      openAndSubscribe(h);
      h.connector.last.push(`{"type":"user_fill","serverTs":"${key}"}`);
      h.connector.last.push({ type: "error", code: "bad", message: `key ${key} revoked`, serverTs: T0 });
      h.connector.last.serverClose(4401, `revoked ${key}`);
      h.stream.stop();

      const everything = JSON.stringify({ events: h.events, stats: h.stream.stats() });
      expect(h.events.length).toBeGreaterThan(8);
      expect(everything).not.toContain(key);
      if (key === API_KEY) expect(everything).not.toContain(SECRET_PART);
      const messages = h.of("error").map((e) => e.message);
      expect(messages.every((m) => !m.includes(key))).toBe(true);
      expect(messages.some((m) => m.includes("[REDACTED]"))).toBe(true);
      expect(h.of("disconnected")[0]!.reason).toBe("revoked [REDACTED]");
      expect(inspect(Object.values(h.stream), { depth: 0 })).not.toContain(key);
      expect(JSON.stringify(Object.keys(h.stream))).not.toContain("apiKey");
    });
  }
});
