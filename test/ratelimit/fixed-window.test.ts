import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { FixedWindowLimiter, decisionHeaders } from "../../src/ratelimit/fixed-window.js";
import { RATE_TABLE, bucketsFor, type BucketRule } from "../../src/ratelimit/table.js";

const W1 = "0x1111111111111111111111111111111111111111";
const W2 = "0x2222222222222222222222222222222222222222";
const T0 = Date.UTC(2026, 0, 1); // a multiple of 60 s
const PLACE = bucketsFor("POST", "/api/orders/place");
const rule = (id: string): BucketRule => RATE_TABLE.find((r) => r.id === id)!;

describe("FixedWindowLimiter (platform side)", () => {
  it("allows the limit, refuses limit+1 with the wait to the window end, and refills at the boundary", async () => {
    const clock = new VirtualClock(T0);
    const lim = new FixedWindowLimiter(clock);
    await clock.advance(250); // mid-window: 750 ms left
    for (let i = 0; i < 20; i++) expect(lim.check(PLACE, { ip: "1.2.3.4", wallet: W1 }).allowed).toBe(true);
    const refused = lim.check(PLACE, { ip: "1.2.3.4", wallet: W1 });
    expect(refused.allowed).toBe(false);
    if (refused.allowed) throw new Error("unreachable");
    expect(refused.bucket.id).toBe("orders-place");
    expect(refused.retryAfterSec).toBe(1); // ceil(0.75 s), at least 1
    expect(refused.headers).toEqual({ limit: 20, remaining: 0, resetSec: 1 });
    expect(decisionHeaders(refused)).toEqual({
      "X-RateLimit-Limit": "20",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": "1",
      "Retry-After": "1",
    });
    await clock.advance(749);
    expect(lim.check(PLACE, { ip: "1.2.3.4", wallet: W1 }).allowed).toBe(false);
    await clock.advance(1); // exactly T0 + 1000: the next window
    expect(lim.check(PLACE, { ip: "1.2.3.4", wallet: W1 }).allowed).toBe(true);
  });

  it("reports Retry-After as whole seconds rounded up for minute windows", () => {
    const lim = new FixedWindowLimiter();
    const rules = bucketsFor("GET", "/api/me/withdrawals/fee"); // 30 / 60 s
    const t = T0 + 12_300; // 47.7 s left in the window
    for (let i = 0; i < 30; i++) expect(lim.check(rules, { ip: "1.1.1.1", wallet: W1 }, t).allowed).toBe(true);
    const d = lim.check(rules, { ip: "1.1.1.1", wallet: W1 }, t);
    expect(d.allowed).toBe(false);
    expect(!d.allowed && d.retryAfterSec).toBe(48);
    expect(lim.check(rules, { ip: "1.1.1.1", wallet: W1 }, T0 + 59_999).allowed).toBe(false);
    expect(lim.check(rules, { ip: "1.1.1.1", wallet: W1 }, T0 + 60_000).allowed).toBe(true);
  });

  it("reports header values: limit, remaining after this request, delta-seconds to refill", () => {
    const lim = new FixedWindowLimiter();
    const rules = bucketsFor("GET", "/api/orders/open");
    const d1 = lim.check(rules, { ip: "1.1.1.1", wallet: W1 }, T0 + 20_000);
    expect(d1).toMatchObject({ allowed: true, headers: { limit: 300, remaining: 299, resetSec: 40 } });
    const d2 = lim.check(rules, { ip: "1.1.1.1", wallet: W1 }, T0 + 20_001);
    expect(d2.headers).toEqual({ limit: 300, remaining: 298, resetSec: 40 });
    expect(decisionHeaders(d2)).toEqual({
      "X-RateLimit-Limit": "300",
      "X-RateLimit-Remaining": "298",
      "X-RateLimit-Reset": "40",
    });
  });

  it("shows the most constrained bucket when several apply", () => {
    const lim = new FixedWindowLimiter();
    const d = lim.check(PLACE, { ip: "1.1.1.1", wallet: W1 }, T0);
    // wallet 19 left of 20 vs ip 5999 of 6000: the wallet bucket
    expect(d).toMatchObject({ allowed: true, bucket: { id: "orders-place" }, headers: { limit: 20, remaining: 19 } });
  });

  it("refuses on one exhausted bucket without consuming from the others", () => {
    const lim = new FixedWindowLimiter();
    const s = { ip: "1.1.1.1", wallet: W1 };
    const cancelAll = bucketsFor("POST", "/api/orders/cancel-all"); // wallet 1/s
    expect(lim.check(cancelAll, s, T0).allowed).toBe(true);
    const ipRule = rule("orders-post-ip");
    expect(lim.used(ipRule, s, T0)).toBe(1);
    for (let i = 0; i < 5; i++) expect(lim.check(cancelAll, s, T0 + 10).allowed).toBe(false);
    expect(lim.used(ipRule, s, T0)).toBe(1); // refusals consumed nothing from the shared ip bucket
    expect(lim.used(rule("orders-cancel-all"), s, T0)).toBe(1);
  });

  it("refuses with the FIRST exhausted bucket in checking order (ip before wallet)", () => {
    const lim = new FixedWindowLimiter();
    const split = bucketsFor("POST", "/api/vault/split-signature"); // ip 100/60 s, wallet 3/s
    expect(split.map((r) => r.id)).toEqual(["vault-post-ip", "vault-sign"]);
    // exhaust the ip umbrella from many wallets (3 each per second)
    let n = 0;
    for (let w = 0; n < 100; w++) {
      for (let k = 0; k < 3 && n < 100; k++, n++) {
        const wallet = `0x${w.toString(16).padStart(40, "0")}`;
        expect(lim.check(split, { ip: "9.9.9.9", wallet }, T0 + 30_000).allowed).toBe(true);
      }
    }
    const d = lim.check(split, { ip: "9.9.9.9", wallet: W2 }, T0 + 30_000);
    expect(d).toMatchObject({ allowed: false, bucket: { id: "vault-post-ip" }, retryAfterSec: 30 });
    // another IP is unaffected
    expect(lim.check(split, { ip: "9.9.9.8", wallet: W2 }, T0 + 30_000).allowed).toBe(true);
  });

  it("keeps wallets apart and shares the ip bucket; IPv6 by /64", () => {
    const lim = new FixedWindowLimiter();
    for (let i = 0; i < 20; i++) lim.check(PLACE, { ip: "2001:db8:1:2::1", wallet: W1 }, T0);
    expect(lim.check(PLACE, { ip: "2001:db8:1:2::1", wallet: W1.toUpperCase().replace("0X", "0x") }, T0).allowed).toBe(
      false,
    );
    expect(lim.check(PLACE, { ip: "2001:db8:1:2::ffff", wallet: W2 }, T0).allowed).toBe(true);
    const ipRule = rule("orders-post-ip");
    expect(lim.used(ipRule, { ip: "2001:db8:1:2:dead:beef::1" }, T0)).toBe(21);
    expect(lim.used(ipRule, { ip: "2001:db8:1:3::1" }, T0)).toBe(0);
  });

  it("scales wallet buckets by the tier but not ip buckets", () => {
    const lim = new FixedWindowLimiter();
    const s = { ip: "1.1.1.1", wallet: W1 };
    expect(lim.check(PLACE, s, T0, { rateLimitPerMin: 30 }).allowed).toBe(true);
    expect(lim.check(PLACE, s, T0, { rateLimitPerMin: 30 }).allowed).toBe(false); // 1/s
    let ok = 0;
    for (let i = 0; i < 250; i++) if (lim.check(PLACE, { ip: "1.1.1.2", wallet: W2 }, T0, { rateLimitPerMin: 6000 }).allowed) ok++;
    expect(ok).toBe(200);
    const search = bucketsFor("GET", "/api/search");
    let okSearch = 0;
    for (let i = 0; i < 100; i++) if (lim.check(search, { ip: "1.1.1.3" }, T0, { rateLimitPerMin: 6000 }).allowed) okSearch++;
    expect(okSearch).toBe(60);
  });

  it("skips wallet buckets when no wallet is known and sends no headers without a bucket", () => {
    const lim = new FixedWindowLimiter();
    const d = lim.check(bucketsFor("POST", "/api/orders/place"), { ip: "1.1.1.1" }, T0);
    expect(d).toMatchObject({ allowed: true, bucket: { id: "orders-post-ip" } });
    const none = lim.check([], { ip: "1.1.1.1" }, T0);
    expect(none).toEqual({ allowed: true });
    expect(decisionHeaders(none)).toEqual({});
  });

  it("keeps memory bounded by dropping ended windows", () => {
    const lim = new FixedWindowLimiter();
    for (let s = 0; s < 100; s++) {
      for (let w = 0; w < 50; w++) {
        const wallet = `0x${(s * 1000 + w).toString(16).padStart(40, "0")}`;
        lim.check(PLACE, { ip: "1.1.1.1", wallet }, T0 + s * 1000 + 10);
      }
      // 50 wallet counters of this second + the one ip counter (plus at most the previous second's)
      expect(lim.size()).toBeLessThanOrEqual(101);
    }
    lim.sweep(T0 + 3600_000);
    expect(lim.size()).toBe(0);
  });
});
