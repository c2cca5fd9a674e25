import { describe, expect, it } from "vitest";
import {
  RATE_TABLE,
  RateTable,
  bucketsFor,
  requestClass,
  scaledLimit,
  type BucketRule,
} from "../../src/ratelimit/table.js";

const ids = (method: string, path: string): string[] => bucketsFor(method, path).map((r) => r.id);
const rule = (id: string): BucketRule => {
  const r = RATE_TABLE.find((x) => x.id === id);
  if (!r) throw new Error(id);
  return r;
};

describe("spec 8.2 table lookups", () => {
  // [method, path, expected bucket ids in checking order (ip, wallet, partner)]
  const cases: [string, string, string[]][] = [
    ["POST", "/api/orders/place", ["orders-post-ip", "orders-place"]],
    ["POST", "/api/orders/place-batch", ["orders-post-ip", "orders-place-batch"]],
    ["POST", "/api/orders/cancel", ["orders-post-ip", "orders-cancel"]],
    ["POST", "/api/orders/cancel-all", ["orders-post-ip", "orders-cancel-all"]],
    ["POST", "/api/orders/cancel-batch", ["orders-post-ip", "orders-cancel-batch"]],
    ["POST", "/api/orders/something-new", ["orders-post-ip"]],
    ["POST", "/api/vault/split-signature", ["vault-post-ip", "vault-sign"]],
    ["POST", "/api/vault/merge-signature", ["vault-post-ip", "vault-sign"]],
    ["POST", "/api/vault/convert-signature", ["vault-post-ip", "vault-sign"]],
    ["POST", "/api/vault/other", ["vault-post-ip"]],
    ["GET", "/api/orders/open", ["orders-read"]],
    ["GET", "/api/orders/open?limit=500&cursor=abc", ["orders-read"]],
    ["GET", "/api/orders/history", ["orders-read"]],
    ["GET", "/api/orders/0b9d6c1e-1111-2222-3333-444455556666", ["orders-read"]],
    ["GET", "/api/orders/ord_123/fills", ["orders-read"]],
    ["GET", "/api/orders/ord_123/fees-summary", ["orders-read"]],
    ["GET", "/api/markets", ["markets-read"]],
    ["GET", "/api/markets?limit=500&offset=0", ["markets-read"]],
    ["GET", "/api/markets/will-it-rain", ["markets-read"]],
    ["GET", "/api/markets/RAIN-YES/orderbook", ["markets-read"]],
    ["GET", "/api/markets/RAIN/trades", ["markets-trades"]],
    ["GET", "/api/markets/RAIN/price-history", ["markets-trades"]],
    ["GET", "/api/markets/RAIN/traders", ["markets-traders"]],
    ["GET", "/api/markets/RAIN/traders/by-outcome", ["markets-traders"]],
    ["GET", "/api/markets/RAIN/ohlc?interval=1h", ["markets-traders"]],
    ["GET", "/api/me/vault", ["me-portfolio"]],
    ["GET", "/api/me/balances", ["me-portfolio"]],
    ["GET", "/api/me/positions", ["me-portfolio"]],
    ["GET", "/api/me/portfolio", ["me-portfolio"]],
    ["GET", "/api/me/fee-tier", ["me-portfolio"]],
    ["GET", "/api/me/trades?limit=200", ["me-portfolio"]],
    ["GET", "/api/me/fees", ["me-portfolio"]],
    ["GET", "/api/me/auto-redeem", ["me-portfolio"]],
    ["GET", "/api/me/deposit-limits", ["me-deposit-limits"]],
    ["POST", "/api/me/vault/emergency", ["vault-emergency"]],
    ["GET", "/api/me/withdrawals", ["withdrawals-read"]],
    ["GET", "/api/me/withdrawals/6f1c2a7e-0000-4000-8000-000000000001", ["withdrawals-read"]],
    ["GET", "/api/me/withdrawals/deposit-sources", ["withdrawals-read"]],
    ["GET", "/api/me/withdrawals/fee", ["withdrawals-fee"]],
    ["POST", "/api/me/withdrawals/6f1c2a7e-0000-4000-8000-000000000001/cancel", ["withdrawals-cancel"]],
    ["POST", "/api/withdrawals/request", ["withdrawals-request"]],
    ["GET", "/api/leaderboard", ["leaderboard"]],
    ["GET", "/api/leaderboard?period=week&sort=volume", ["leaderboard"]],
    ["GET", "/api/leaderboard?search=0xabc", ["leaderboard-search"]],
    ["GET", "/api/leaderboard?period=all&search=alice", ["leaderboard-search"]],
    ["GET", "/api/leaderboard?search=", ["leaderboard"]],
    ["GET", "/api/search", ["search"]],
    ["GET", "/api/search/events?q=rain", ["search"]],
    ["GET", "/api/search/users", ["search"]],
    ["GET", "/api/events", ["events-list"]],
    ["GET", "/api/events/some-slug", ["events-list"]],
    ["GET", "/api/events/featured", ["events-list"]],
    ["GET", "/api/v1/partner/trades", ["partner-trades"]],
    ["GET", "/api/v1/partner/mm-kpis", ["partner-mm-kpis"]],
    ["GET", "/api/v1/partner/reconciliation/snapshot", ["partner-reconciliation"]],
  ];
  it.each(cases)("%s %s", (method, path, expected) => {
    expect(ids(method, path)).toEqual(expected);
  });

  it("covers every row of the table at least once", () => {
    const seen = new Set(cases.flatMap(([m, p]) => ids(m, p)));
    expect([...seen].sort()).toEqual(RATE_TABLE.map((r) => r.id).sort());
  });

  it("keeps literal routes from being taken as a path parameter", () => {
    expect(ids("GET", "/api/orders/lookup?clientOrderId=x")).toEqual([]);
    expect(ids("GET", "/api/markets/disputable")).toEqual([]);
    expect(ids("GET", "/api/orders/place")).toEqual([]); // no GET route; not an order id
    // `open` is its own route on the open-orders row, not `{id}`; both are the same row anyway
    expect(ids("GET", "/api/orders/open/fills")).toEqual([]);
    expect(ids("GET", "/api/me/withdrawals/fee")).toEqual(["withdrawals-fee"]);
  });

  it("gives no bucket to endpoints absent from the table", () => {
    for (const [m, p] of [
      ["GET", "/api/me/balance-events"],
      ["GET", "/api/me/splits-merges"],
      ["POST", "/api/me/splits-merges/op1/unlock"],
      ["GET", "/api/tags"],
      ["GET", "/api/matches"],
      ["GET", "/api/markets/RAIN/challenges"],
      ["GET", "/health"],
      ["GET", "/api/orders"],
      ["POST", "/api/orders"],
      ["DELETE", "/api/orders/place"],
    ] as const) {
      expect(ids(m, p), `${m} ${p}`).toEqual([]);
    }
  });

  it("normalises method case, trailing slash and fragments", () => {
    expect(ids("post", "/api/orders/place/")).toEqual(["orders-post-ip", "orders-place"]);
    expect(ids("GET", "/api/markets/x/orderbook#top")).toEqual(["markets-read"]);
  });

  it("carries the listed numbers", () => {
    const expected: Record<string, [string, number, number]> = {
      "orders-post-ip": ["ip", 6000, 60],
      "orders-place": ["wallet", 20, 1],
      "orders-place-batch": ["wallet", 8, 1],
      "orders-cancel": ["wallet", 40, 1],
      "orders-cancel-all": ["wallet", 1, 1],
      "orders-cancel-batch": ["wallet", 5, 1],
      "vault-sign": ["wallet", 3, 1],
      "vault-post-ip": ["ip", 100, 60],
      "orders-read": ["wallet", 300, 60],
      "markets-read": ["ip", 600, 60],
      "markets-trades": ["ip", 240, 60],
      "markets-traders": ["ip", 120, 60],
      "me-portfolio": ["wallet", 600, 60],
      "me-deposit-limits": ["wallet", 120, 60],
      "vault-emergency": ["wallet", 120, 60],
      "withdrawals-read": ["wallet", 60, 60],
      "withdrawals-fee": ["wallet", 30, 60],
      "withdrawals-cancel": ["wallet", 10, 60],
      "withdrawals-request": ["ip", 60, 60],
      leaderboard: ["ip", 600, 60],
      "leaderboard-search": ["ip", 120, 60],
      search: ["ip", 60, 60],
    };
    for (const [id, [scope, limit, windowSec]] of Object.entries(expected)) {
      const r = rule(id);
      expect({ id, scope: r.scope, limit: r.limit, windowSec: r.windowSec, stated: r.stated }).toEqual({
        id,
        scope,
        limit,
        windowSec,
        stated: true,
      });
    }
    expect(RATE_TABLE.filter((r) => !r.stated).map((r) => r.id)).toEqual([
      "events-list",
      "partner-trades",
      "partner-mm-kpis",
      "partner-reconciliation",
    ]);
  });

  it("rejects duplicate ids in a custom table", () => {
    expect(() => new RateTable([rule("search"), rule("search")])).toThrow(/duplicate/);
  });
});

describe("tier scaling (8.1)", () => {
  it("scales wallet buckets as floor(limit * perMin / 600), at least 1", () => {
    const place = rule("orders-place");
    expect(scaledLimit(place)).toBe(20);
    expect(scaledLimit(place, 600)).toBe(20);
    expect(scaledLimit(place, 30)).toBe(1);
    expect(scaledLimit(place, 6000)).toBe(200);
    expect(scaledLimit(place, 29)).toBe(1); // floor(0.96) = 0 -> minimum 1
    expect(scaledLimit(place, 1)).toBe(1);
    expect(scaledLimit(rule("orders-cancel"), 45)).toBe(3); // floor(40 * 45 / 600) = 3
    expect(scaledLimit(rule("orders-cancel-all"), 1200)).toBe(2);
    expect(scaledLimit(rule("orders-read"), 1000)).toBe(500);
  });
  it("scales the per-partner feed buckets", () => {
    expect(scaledLimit(rule("partner-trades"), 1200)).toBe(120);
  });
  it("never scales ip buckets", () => {
    for (const r of RATE_TABLE.filter((x) => x.scope === "ip")) {
      expect(scaledLimit(r, 30)).toBe(r.limit);
      expect(scaledLimit(r, 6000)).toBe(r.limit);
    }
  });
  it("refuses a negative tier", () => {
    expect(() => scaledLimit(rule("orders-place"), -1)).toThrow(RangeError);
  });
});

describe("request classes", () => {
  it("orders cancels, places and reads", () => {
    expect(requestClass("POST", "/api/orders/cancel")).toBe("cancel");
    expect(requestClass("POST", "/api/orders/cancel-all")).toBe("cancel");
    expect(requestClass("POST", "/api/orders/cancel-batch")).toBe("cancel");
    expect(requestClass("POST", "/api/orders/place")).toBe("place");
    expect(requestClass("POST", "/api/orders/place-batch")).toBe("place");
    expect(requestClass("GET", "/api/orders/open")).toBe("read");
    expect(requestClass("POST", "/api/vault/split-signature")).toBe("vault");
    expect(requestClass("POST", "/api/withdrawals/request")).toBe("withdrawal");
    expect(requestClass("POST", "/api/me/withdrawals/x/cancel")).toBe("withdrawal");
  });
});

describe("remembered answers", () => {
  it("a path asked again gets the same frozen answer; past the memo's bound every answer is still right", () => {
    const table = new RateTable(RATE_TABLE);
    const first = table.bucketsFor("POST", "/api/orders/place");
    expect(table.bucketsFor("POST", "/api/orders/place")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Many distinct paths (cursors) push the memo past its bound; answers do not change.
    const fresh = new RateTable(RATE_TABLE);
    for (let i = 0; i < 3000; i++) {
      const path = `/api/me/trades?cursor=c${i}`;
      expect(table.bucketsFor("GET", path).map((r) => r.id)).toEqual(fresh.bucketsFor("GET", path).map((r) => r.id));
      expect(table.classOf("GET", path)).toBe("read");
    }
    expect(table.bucketsFor("POST", "/api/orders/place").map((r) => r.id)).toEqual(first.map((r) => r.id));
    expect(table.classOf("POST", "/api/orders/cancel-batch")).toBe(requestClass("POST", "/api/orders/cancel-batch"));
  });
});
