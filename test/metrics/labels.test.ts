import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import {
  DaemonMetrics,
  LabelGuard,
  MetricsObserver,
  codeLabel,
  routeTemplate,
  statusLabel,
} from "../../src/metrics/index.js";
import { ERROR_CODES } from "../../src/wire/codes.js";

describe("label guards", () => {
  const ADDR = "0xAbCdEf0123456789abcdef0123456789ABCDEF01";

  it("labels wallets by configured name, from the name or the address in any case", () => {
    const g = new LabelGuard({ wallets: [{ name: "maker-1", address: ADDR }, { name: "maker-2" }] });
    expect(g.wallet("maker-1")).toBe("maker-1");
    expect(g.wallet(ADDR.toLowerCase())).toBe("maker-1");
    expect(g.wallet(ADDR)).toBe("maker-1");
    expect(g.wallet("maker-3")).toBe("other");
    expect(g.wallet(undefined)).toBe("other");
    expect(g.walletList()).toEqual(["maker-1", "maker-2"]);
  });

  it("caps distinct markets and refuses malformed or hex symbols", () => {
    const g = new LabelGuard({ wallets: [], maxMarkets: 3 });
    expect(["A", "B", "C", "D", "A"].map((x) => g.market(x))).toEqual(["A", "B", "C", "other", "A"]);
    const h = new LabelGuard({ wallets: [] });
    expect(h.market("bad symbol")).toBe("other");
    expect(h.market('x"}')).toBe("other");
    expect(h.market("0xdeadbeef")).toBe("other");
    expect(h.market("x".repeat(65))).toBe("other");
    expect(h.market("nba:lal-bos.2026")).toBe("nba:lal-bos.2026");
  });

  it("buckets unknown error codes as other, too_many_* as too_many", () => {
    for (const code of ERROR_CODES.keys()) expect(codeLabel(code)).toBe(code);
    expect(codeLabel("too_many_tag")).toBe("too_many");
    expect(codeLabel("brand_new_code")).toBe("other");
    expect(codeLabel("")).toBe("other");
    expect(codeLabel(undefined)).toBe("other");
  });

  it("labels statuses as digits, no answer as error", () => {
    expect([statusLabel(201), statusLabel(undefined), statusLabel(999), statusLabel(2.5)]).toEqual(["201", "error", "other", "other"]);
  });

  it("keeps the label sets bounded under a flood of distinct values", async () => {
    const m = new DaemonMetrics({ clock: new VirtualClock(0), wallets: [{ name: "w1" }], maxMarkets: 5, processMetrics: false });
    const o = new MetricsObserver(m);
    for (let i = 0; i < 500; i++) {
      o.orderRejected(`w${i}`, `MKT-${i}`, `code_${i}`);
      o.httpRequest({ method: "GET", path: `/api/orders/${i}/fills?cursor=${i}`, status: 200, durationMs: 1 });
      o.quotesDropped("w1", "MKT-1", `reason-${i}`);
    }
    await m.marketSeries.prune(); // removal runs in the background: let it finish
    let json = await m.registry.getMetricsAsJSON();
    const values = (name: string) => json.find((x) => x.name === name)!.values;
    // None of these markets is followed (no quotes, no position): each new one takes the label of
    // the one before. 5 hold a label, the 5 before them keep their counters until scraped.
    expect(values("mm_orders_rejected_total").length).toBe(10); // one wallet (other), one code (other)
    expect(values("mm_http_request_duration_seconds").filter((v) => v.labels["route"] !== undefined && !("le" in v.labels)).length).toBe(2);
    expect(values("mm_risk_quotes_dropped_total").map((v) => v.labels["reason"])).toEqual(["other"]);
    await m.scrape();
    await m.marketSeries.prune();
    json = await m.registry.getMetricsAsJSON();
    // MKT-1 (its drops come every round) keeps coming back, so it keeps its series.
    expect(values("mm_orders_rejected_total").map((v) => v.labels["market"])).toEqual(["MKT-1", "MKT-496", "MKT-497", "MKT-498", "MKT-499"]);
  });
});

describe("route templates", () => {
  it.each([
    ["/api/orders/open?limit=100&cursor=abc", "/api/orders/open"],
    ["/api/orders/0x1234", "/api/orders/{id}"],
    ["/api/orders/b5f0d6a2-1111/fills", "/api/orders/{id}/fills"],
    ["/api/orders/lookup?clientOrderId=mm1-x", "/api/orders/lookup"],
    ["/api/markets/disputable", "/api/markets/disputable"],
    ["/api/markets/some-slug", "/api/markets/{slug}"],
    ["/api/markets/SYM/orderbook", "/api/markets/{symbol}/orderbook"],
    ["/api/me/withdrawals/fee", "/api/me/withdrawals/fee"],
    ["/api/me/withdrawals/0f8c/cancel", "/api/me/withdrawals/{id}/cancel"],
    ["/api/users/0xabc/activity", "/api/users/{address}/activity"],
    ["/api/users/by-vault/0xabc/activity", "/api/users/by-vault/{vault}/activity"],
    ["/api/secret/thing", "other"],
    ["/", "other"],
  ])("%s -> %s", (path, template) => {
    expect(routeTemplate(path)).toBe(template);
  });
});
