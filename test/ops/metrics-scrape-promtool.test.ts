/**
 * The daemon's own /metrics, scraped over real HTTP after it quoted and filled for a while on the
 * virtual clock, passes `promtool check metrics` (lint included), carries real order, fill,
 * request, rate-gate, stream and position figures, and no secret: not the API key, not a wallet
 * private key, not the admin token, not even a wallet address (labels use wallet names).
 * promtool comes from Debian's prometheus package; without it the promtool check is skipped with a
 * notice (the rest still runs), and under CI the test FAILS (test/deploy/tools.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { promtoolCheckMetrics } from "../metrics/fixtures.js";
import { ADMIN_TOKEN, API_KEY, run, sample, settleIo, startOps, total, walletAddress, walletKey, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("daemon /metrics over HTTP", () => {
  it("passes promtool, shows orders and fills, leaks no secret", async () => {
    const o = (ops = await startOps(
      {
        wallets: 3,
        markets: [
          { symbol: "A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 },
          { symbol: "B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 },
          { symbol: "C", preMarketStartsAt: "-1h", opensAt: "+20s", closesAt: "+1d", takerArrivalPerMin: 30 },
        ],
      },
      { wallets: 3, slugs: ["A", "B", "C"], strategy: { levels: 2 }, processMetrics: true },
    ));
    const { host, port } = await o.daemon.serve();
    expect(host).toBe("127.0.0.1");
    expect(port).toBeGreaterThan(0);
    await run(o.h.clock, 60_000);

    const base = `http://127.0.0.1:${port}`;
    const res = await settleIo(o.h, fetch(`${base}/metrics`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await res.text();

    const check = promtoolCheckMetrics(body);
    if (check !== undefined) {
      expect(check.out).toBe("");
      expect(check.status).toBe(0);
    }

    expect(total(body, "mm_fills_total")).toBeGreaterThan(0);
    expect(total(body, "mm_traded_shares_total")).toBeGreaterThan(0);
    expect(total(body, "mm_orders_placed_total")).toBeGreaterThan(0);
    expect(total(body, "mm_orders_cancelled_total")).toBeGreaterThan(0);
    expect(total(body, "mm_live_quotes")).toBeGreaterThan(0);
    expect(total(body, "mm_quote_cycle_duration_seconds_count")).toBeGreaterThan(0);
    expect(total(body, "mm_rate_gate_admitted_total")).toBeGreaterThan(0);
    expect(sample(body, "mm_http_request_duration_seconds_count", { route: "/api/markets/{symbol}/orderbook", method: "GET", status: "200" })).toBeGreaterThan(0);
    expect(total(body, "mm_position_shares")).not.toBe(0);
    for (const w of ["w0", "w1", "w2"]) {
      expect(sample(body, "mm_stream_connected", { wallet: w })).toBe(1);
      expect(sample(body, "mm_orders_placed_total", { wallet: w, market: ["A", "B", "C"][Number(w[1])]! })).toBeGreaterThan(0);
    }
    // The trackers' anomaly counters exist per wallet and kind (none happened in a clean run).
    for (const kind of ["resurrected", "unreadable_trades", "not_found_too_soon", "impossible", "conflict", "overfill"]) {
      expect(sample(body, "mm_tracker_anomalies_total", { wallet: "w0", kind }), kind).toBe(0);
    }
    expect(sample(body, "mm_ready")).toBe(1);
    expect(sample(body, "mm_circuit_breaker_state", { state: "closed" })).toBe(1);
    expect(body).toMatch(/^process_cpu_seconds_total /m);

    for (const secret of [API_KEY, ADMIN_TOKEN, ...[0, 1, 2].flatMap((i) => [walletKey(i), walletKey(i).slice(2)])]) expect(body).not.toContain(secret);
    for (const i of [0, 1, 2]) expect(body.toLowerCase()).not.toContain(walletAddress(i).slice(2));

    expect((await settleIo(o.h, fetch(`${base}/health`))).status).toBe(200);
    expect((await settleIo(o.h, fetch(`${base}/ready`))).status).toBe(200);
  });
});
