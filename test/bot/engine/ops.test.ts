/**
 * The daemon's operations wiring (src/bot/engine/ops.ts) from a parsed config: the metrics built
 * from it (wallets by name, the daily loss limit, process metrics as configured), the active
 * config's hash and limit, requests timed on the monotonic clock, /ready read from the probes and
 * the risk facade, the trackers attached once, and the operator server on metrics.host:port
 * (/metrics, /health, /status only with its token, the admin routes with theirs), closed by close().
 */
import { afterEach, describe, expect, it } from "vitest";
import { DaemonOps } from "../../../src/bot/engine/ops.js";
import type { Halt } from "../../../src/bot/risk/types.js";
import { emptyCounters } from "../../../src/bot/orders/order-tracker-types.js";
import { parseConfig, type Config } from "../../../src/config/index.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros } from "../../../src/core/money.js";
import { createLogger } from "../../../src/log/index.js";
import type { StatusDocument } from "../../../src/metrics/status-route.js";
import { ADMIN_TOKEN, API_KEY, KEY_1, liveYaml } from "../../config/fixtures.js";
import { sample } from "../../metrics/samples.js";
import { T0 } from "./fakes.js";

const STATUS_TOKEN = "status-token-0123456789";

function config(extra = ""): Config {
  return parseConfig(
    liveYaml(`metrics:\n  port: 0\n  processMetrics: false\n  statusToken: \${MM_STATUS}\nadmin:\n  token: \${MM_ADMIN}\nrisk:\n  dailyLossLimit: "150"\n${extra}`),
    "ops-test.yaml",
    { MM_API_KEY: API_KEY, MM_WALLET_1_KEY: KEY_1, MM_ADMIN: ADMIN_TOKEN, MM_STATUS: STATUS_TOKEN },
  );
}

interface Line {
  level: string;
  msg: string;
  [k: string]: unknown;
}

let opened: DaemonOps[] = [];
afterEach(async () => {
  for (const o of opened) await o.close();
  opened = [];
});

function ops(c: Config = config(), halts: Halt[] = []) {
  const clock = new VirtualClock(T0);
  let mono = 0;
  const lines: Line[] = [];
  const log = createLogger({ level: "debug", format: "json" }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  const o = new DaemonOps({ config: c, clock, log, risk: () => ({ globallyHalted: () => false, halts: () => halts }), monotonic: () => mono });
  opened.push(o);
  return { o, clock, lines, c, advanceMono: (ms: number) => (mono += ms) };
}

describe("DaemonOps metrics", () => {
  it("labels the config's wallets by name and shows its daily loss limit; process metrics as configured", async () => {
    const { o, c } = ops();
    const address = c.wallets[0]!.address;
    o.events.ordersPlaced(address, "BTC-UP", 2);
    const text = await o.metrics.scrape();
    expect(sample(text, 'mm_orders_placed_total{wallet="w1",market="BTC-UP"}')).toBe(2);
    expect(sample(text, "mm_daily_loss_limit")).toBe(150);
    expect(text).not.toMatch(/^process_/m);
  });

  it("configActive: the hash in mm_config_info and the new daily loss limit", async () => {
    const { o, c } = ops();
    o.configActive("feedface", c);
    o.configActive("c0ffee00", { ...c, risk: { ...c.risk, dailyLossLimit: parseMicros("80.5") } });
    const text = await o.metrics.scrape();
    expect(sample(text, 'mm_config_info{hash="c0ffee00"}')).toBe(1);
    expect(sample(text, 'mm_config_info{hash="feedface"}')).toBeUndefined();
    expect(sample(text, "mm_daily_loss_limit")).toBe(80.5);
  });

  it("instrument: each request timed on the monotonic clock, by route template", async () => {
    const { o, advanceMono } = ops();
    const t = o.instrument({
      request: () => {
        advanceMono(250);
        return Promise.resolve({ status: 200, headers: {}, body: "{}" });
      },
    });
    await t.request({ method: "GET", path: "/api/orders/abc123", headers: {} });
    const text = await o.metrics.scrape();
    expect(sample(text, 'mm_http_request_duration_seconds_sum{route="/api/orders/{id}",method="GET",status="200"}')).toBe(0.25);
  });

  it("attach: mm_ready follows the probes (started, then a halt that blocks readiness)", async () => {
    const halts: Halt[] = [];
    const { o } = ops(config(), halts);
    o.attach({});
    expect(sample(await o.metrics.scrape(), "mm_ready")).toBe(0);
    o.probes.markStarted();
    expect(sample(await o.metrics.scrape(), "mm_ready")).toBe(1);
    halts.push({ scope: { kind: "wallet", wallet: "w1" }, reason: "stream_down", sinceMs: T0, detail: "" });
    expect(sample(await o.metrics.scrape(), "mm_ready")).toBe(0);
  });

  it("attachTrackers: the first source stays (a second call changes nothing)", async () => {
    const { o } = ops();
    const first = { ...emptyCounters(), conflict: 3 };
    const second = { ...emptyCounters(), conflict: 9 };
    o.attachTrackers(() => [{ wallet: "w1", counters: first }]);
    o.attachTrackers(() => [{ wallet: "w1", counters: second }]);
    expect(sample(await o.metrics.scrape(), 'mm_tracker_anomalies_total{wallet="w1",kind="conflict"}')).toBe(3);
  });
});

describe("DaemonOps server", () => {
  const document = (): StatusDocument => ({
    version: 1,
    at: new Date(T0).toISOString(),
    instance: "mm",
    running: true,
    ready: false,
    wallets: [],
    markets: [],
    totals: { openOrders: 0, unknownOrders: 0, fills: 0, positions: 0, sharesHeld: "0", pnl: { realised: "0", unrealised: "0", fees: "0", net: "0" } },
    halts: [],
  });

  it("serves on metrics.host and a free port; /metrics, /health, /status with its token; logs what it serves", async () => {
    const { o, lines } = ops();
    expect(o.address).toBeUndefined();
    const kills: string[] = [];
    const addr = await o.serve({ kill: (note) => (kills.push(note), Promise.resolve({ changes: [] })), resume: () => ({ changes: [] }) }, document);
    expect(addr.host).toBe("127.0.0.1");
    expect(addr.port).toBeGreaterThan(0);
    expect(o.address).toEqual(addr);
    const url = `http://127.0.0.1:${addr.port}`;
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/status`)).status).toBe(401);
    const status = await fetch(`${url}/status`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } });
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual(document());
    const kill = await fetch(`${url}/admin/kill`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: '{"note":"test"}' });
    expect(kill.status).toBe(200);
    expect(kills).toEqual(["admin: test"]);
    expect(lines.find((l) => l.msg === "serving /metrics /health /ready")).toMatchObject({ host: "127.0.0.1", port: addr.port, admin: true, status: true });
    // Serving again is the same server.
    expect(await o.serve({ kill: () => Promise.resolve({ changes: [] }), resume: () => ({ changes: [] }) })).toEqual(addr);
    await o.close();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("without a status document, or without a status token, /status does not exist (404)", async () => {
    const actions = { kill: () => Promise.resolve({ changes: [] }), resume: () => ({ changes: [] }) };
    const a = ops();
    const pa = (await a.o.serve(actions)).port;
    expect((await fetch(`http://127.0.0.1:${pa}/status`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } })).status).toBe(404);
    const noToken = parseConfig(liveYaml("metrics:\n  port: 0\n  processMetrics: false\n"), "ops-test.yaml", { MM_API_KEY: API_KEY, MM_WALLET_1_KEY: KEY_1 });
    const b = ops(noToken);
    const pb = (await b.o.serve(actions, document)).port;
    expect((await fetch(`http://127.0.0.1:${pb}/status`)).status).toBe(404);
    expect(b.lines.find((l) => l.msg === "serving /metrics /health /ready")).toMatchObject({ admin: false, status: false });
  });
});
