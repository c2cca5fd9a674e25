/**
 * No secret (API key, wallet private key, admin token) ever reaches /metrics, a label or a probe
 * answer, even when a caller passes one where a label value belongs. Wallet addresses are not
 * secret, but labels use the configured name: the address never appears either.
 */
import { describe, expect, it } from "vitest";
import { MetricsServer, riskAdminActions } from "../../src/metrics/index.js";
import { ADMIN_TOKEN, API_KEY, KEY_1 } from "../config/fixtures.js";
import { daemon, populate, streamStats } from "./fixtures.js";

describe("secrets never in metrics", () => {
  it("label values that carry a secret or an address become other; nothing leaks over HTTP", async () => {
    const d = daemon();
    await populate(d);
    expect(d.config.platform).toBeDefined();
    const secrets = [API_KEY, KEY_1, KEY_1.slice(2), ADMIN_TOKEN];
    const forbidden = [...secrets, d.wallet.address, d.wallet.address.toLowerCase()];
    const o = d.observer;
    for (const s of [...secrets, d.wallet.address]) {
      o.liveQuotes(s, s, { buy: 1, sell: 1 });
      o.ordersPlaced(d.wallet.address, s);
      o.orderRejected(s, "M", s);
      o.fill({ wallet: s, market: s, role: "maker", qty: 1n, price: 1n, fee: 0n });
      o.position(d.wallet.name, s, 0, 1n);
      o.quotesDropped(s, s, s);
      o.rateGateWait(s, 5);
      o.httpRequest({ method: s, path: `/api/orders/${s}?key=${s}`, status: 200, durationMs: 1 });
      o.httpRequest({ method: "GET", path: `/${s}`, status: 200, durationMs: 1 });
      d.risk.halt({ kind: "market", market: s }, `note ${s}`, d.clock.now());
      d.risk.halt({ kind: "wallet", wallet: s }, s, d.clock.now());
    }
    d.metrics.setSources({ streams: () => [{ wallet: API_KEY, stats: () => streamStats() }, { wallet: d.wallet.address, stats: () => streamStats() }] });

    const server = new MetricsServer({
      host: "127.0.0.1",
      port: 0,
      metrics: d.metrics,
      probes: d.probes,
      admin: { token: d.config.admin.token, actions: riskAdminActions(d.risk, d.clock) },
    });
    const { port } = await server.start();
    try {
      const url = `http://127.0.0.1:${port}`;
      const kill = await fetch(`${url}/admin/kill`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ note: `leaked ${API_KEY} and ${ADMIN_TOKEN}` }),
      });
      expect(kill.status).toBe(200);
      const texts = [await kill.text(), await (await fetch(`${url}/metrics`)).text(), await (await fetch(`${url}/ready`)).text()];
      for (const text of texts) for (const f of forbidden) expect(text.includes(f), `${f} leaked`).toBe(false);
      const metrics = texts[1]!;
      // The guards did their job rather than the values being absent.
      // Several markets under "other": the sum of their live quotes.
      expect(metrics).toMatch(/^mm_live_quotes\{wallet="other",market="other",side="buy"\} \d+$/m);
      expect(metrics).toMatch(/mm_orders_rejected_total\{wallet="other",market="M",code="other"\}/);
      expect(metrics).toMatch(/mm_http_request_duration_seconds_count\{route="\/api\/orders\/\{id\}",method="other",status="200"\}/);
      expect(metrics).toMatch(/mm_http_request_duration_seconds_count\{route="other",method="GET",status="200"\}/);
      expect(metrics).toMatch(/mm_risk_halt_active\{scope="market",target="other",reason="manual"\} 1/);
      expect(metrics).toMatch(/mm_stream_connected\{wallet="w1"\} 1/);
      expect(metrics).toMatch(/mm_stream_connected\{wallet="other"\} 1/);
      expect(metrics).toMatch(/mm_rate_gate_admitted_total\{bucket="orders-place",subject="w1"\} 19/);
    } finally {
      await server.close();
      d.dispose();
    }
  });
});
