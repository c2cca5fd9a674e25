/**
 * The user stream's options: defaults filled in, every number and the wallet checked with an error
 * naming the field, and an error never carrying the API key's value (a key given by mistake where a
 * number goes, or a malformed key, must not be echoed into logs).
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { DEFAULT_HEARTBEAT, DEFAULT_SUBSCRIBE_TIMEOUT_MS, USER_STREAM_PATH, resolveStreamOptions, type UserStreamOptions } from "../../src/stream/options.js";
import { DEFAULT_BACKOFF } from "../../src/stream/backoff.js";
import { USER_ORDERS_CHANNEL } from "../../src/wire/frames.js";

const KEY = "pmk_live_0123456789abcdef_SuperSecretValue0000000000000001";
const WALLET = "0x1111111111111111111111111111111111111111";

function opts(over: Partial<UserStreamOptions> = {}): UserStreamOptions {
  return { connector: { connect: () => { throw new Error("not used"); } }, apiKey: KEY, wallet: WALLET, clock: new VirtualClock(0), rng: new Rng(1), ...over };
}

function refusal(over: Partial<UserStreamOptions>): string {
  try {
    resolveStreamOptions(opts(over));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("accepted");
}

describe("resolveStreamOptions", () => {
  it("fills in the defaults", () => {
    const r = resolveStreamOptions(opts());
    expect(r).toEqual({ apiKey: KEY, wallet: WALLET, channel: USER_ORDERS_CHANNEL, path: USER_STREAM_PATH, backoff: DEFAULT_BACKOFF, heartbeat: DEFAULT_HEARTBEAT, subscribeTimeoutMs: DEFAULT_SUBSCRIBE_TIMEOUT_MS });
  });

  it("keeps what was given, a key holder revealed once, partial heartbeats merged", () => {
    const r = resolveStreamOptions(opts({ apiKey: { reveal: () => KEY }, heartbeat: { pingIntervalMs: 5_000 }, subscribeTimeoutMs: 2_000, channel: "c", path: "/ws/x" }));
    expect(r.apiKey).toBe(KEY);
    expect(r.heartbeat).toEqual({ pingIntervalMs: 5_000, deadAfterMs: DEFAULT_HEARTBEAT.deadAfterMs });
    expect([r.subscribeTimeoutMs, r.channel, r.path]).toEqual([2_000, "c", "/ws/x"]);
  });

  it.each([
    [{ apiKey: "  " }, /^apiKey: /],
    [{ wallet: "0x123" }, /^wallet: /],
    [{ heartbeat: { deadAfterMs: 0 } }, /^heartbeat\.deadAfterMs: /],
    [{ heartbeat: { pingIntervalMs: Number.NaN } }, /^heartbeat\.pingIntervalMs: /],
    [{ subscribeTimeoutMs: -1 }, /^subscribeTimeoutMs: /],
    [{ subscribeTimeoutMs: Infinity }, /^subscribeTimeoutMs: /],
  ] as [Partial<UserStreamOptions>, RegExp][])("refuses %o naming the field", (over, message) => {
    expect(refusal(over)).toMatch(message);
  });

  it("never puts the key into an error, whatever else is wrong", () => {
    for (const over of [{ wallet: KEY }, { heartbeat: { deadAfterMs: -5 } }, { subscribeTimeoutMs: 0 }] as Partial<UserStreamOptions>[]) {
      const message = refusal(over);
      expect(message).not.toContain("SuperSecret");
      expect(message).not.toContain(KEY);
    }
  });
});
