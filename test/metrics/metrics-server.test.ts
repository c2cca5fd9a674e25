import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { RiskSnapshot } from "../../src/bot/risk/index.js";
import { MetricsServer, bearerMatches, riskAdminActions, type AdminActions } from "../../src/metrics/index.js";
import { ADMIN_TOKEN } from "../config/fixtures.js";
import { daemon, type Daemon } from "./fixtures.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/** A raw node:http request (fetch would refuse some of the malformed requests tried here). */
function call(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> });
      });
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function start(d: Daemon, opts: { admin?: boolean; actions?: AdminActions } = {}): Promise<number> {
  const server = new MetricsServer({
    host: d.config.metrics.host,
    port: 0,
    metrics: d.metrics,
    probes: d.probes,
    ...(opts.admin === false ? {} : { admin: { token: d.config.admin.token, actions: opts.actions ?? riskAdminActions(d.risk, d.clock) } }),
  });
  const { port, host } = await server.start();
  expect(host).toBe("127.0.0.1");
  cleanup.push(async () => {
    await server.close();
    d.dispose();
  });
  return port;
}

const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe("/health and /ready", () => {
  it("/ready is 503 while starting, 200 once started, 503 with the halts while globally halted", async () => {
    const d = daemon({ processMetrics: false });
    const port = await start(d);
    let r = await call(port, "GET", "/ready");
    expect([r.status, r.json()]).toEqual([503, { ready: false, reason: "starting" }]);
    d.probes.markStarted();
    expect((await call(port, "GET", "/ready")).status).toBe(200);

    // A wallet halt alone keeps the process ready.
    d.risk.halt({ kind: "wallet", wallet: "w1" }, "look", d.clock.now());
    expect((await call(port, "GET", "/ready")).status).toBe(200);

    d.risk.evaluate({ breaker: "open" }, d.clock.now());
    r = await call(port, "GET", "/ready");
    expect(r.status).toBe(503);
    expect(r.json()).toMatchObject({ ready: false, reason: "halted", halts: [{ scope: "global", reason: "circuit_open", detail: "circuit breaker open" }] });
    expect(await d.metrics.scrape()).toMatch(/^mm_ready 0$/m);

    d.risk.evaluate({ breaker: "closed" }, d.clock.now());
    expect((await call(port, "GET", "/ready")).status).toBe(200);
    d.probes.markStopping();
    expect((await call(port, "GET", "/ready")).json()).toEqual({ ready: false, reason: "stopping" });
  });

  it("/health is 200 while the loop ticks and 503 once it stalls", async () => {
    const d = daemon({ processMetrics: false });
    const port = await start(d);
    expect((await call(port, "GET", "/health")).json()).toEqual({ status: "starting" });
    d.probes.tick(d.clock.now());
    await d.clock.advance(30_000);
    expect((await call(port, "GET", "/health")).status).toBe(200);
    await d.clock.advance(1);
    const r = await call(port, "GET", "/health");
    expect([r.status, r.json()]).toEqual([503, { status: "loop_stalled", lastTickAgeMs: 30_001 }]);
    d.probes.tick(d.clock.now());
    expect((await call(port, "GET", "/health")).status).toBe(200);
  });

  it("answers 404 elsewhere, 405 with Allow for a wrong method, HEAD on GET routes", async () => {
    const d = daemon({ processMetrics: false });
    const port = await start(d);
    expect((await call(port, "GET", "/nope")).status).toBe(404);
    const r = await call(port, "POST", "/metrics");
    expect([r.status, r.headers["allow"]]).toEqual([405, "GET, HEAD"]);
    expect((await call(port, "GET", "/admin/kill", AUTH)).status).toBe(405);
    expect((await call(port, "HEAD", "/health")).status).toBe(200);
    expect((await call(port, "GET", "/metrics?x=1")).status).toBe(200);
  });
});

describe("admin kill switch", () => {
  it("kills with the right token: quotes pulled everywhere, /ready 503; resume restores", async () => {
    const d = daemon({ processMetrics: false });
    d.probes.markStarted();
    const port = await start(d);
    const r = await call(port, "POST", "/admin/kill", { ...AUTH, "content-type": "application/json" }, JSON.stringify({ note: "bad fills" }));
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ ok: true, changes: [{ type: "raised", scope: "global", reason: "kill_switch", detail: "admin: bad fills" }] });

    const snap = new RiskSnapshot([]);
    const quote = { outcome: 0, side: "BUY" as const, price: 500_000n, size: 10_000_000n, postOnly: true };
    expect(d.risk.filter("w1", "ANY", [quote], snap).allowed).toEqual([]);
    expect((await call(port, "GET", "/ready")).json()).toMatchObject({ reason: "halted", halts: [{ reason: "kill_switch" }] });
    expect(await d.metrics.scrape()).toMatch(/^mm_risk_halt_active\{scope="global",target="all",reason="kill_switch"\} 1$/m);

    const back = await call(port, "POST", "/admin/resume", AUTH);
    expect(back.json()).toMatchObject({ ok: true, changes: [{ type: "cleared", reason: "kill_switch" }] });
    expect(d.risk.filter("w1", "ANY", [quote], snap).allowed).toHaveLength(1);
    expect((await call(port, "GET", "/ready")).status).toBe(200);
  });

  it("refuses a missing or wrong token with 401 and changes nothing", async () => {
    const d = daemon({ processMetrics: false });
    const port = await start(d);
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${ADMIN_TOKEN}x` }, { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` }, { authorization: ADMIN_TOKEN }, { authorization: "Bearer " }];
    for (const headers of attempts) {
      const r = await call(port, "POST", "/admin/kill", headers);
      expect(r.status).toBe(401);
      expect(r.headers["www-authenticate"]).toBe('Bearer realm="mm-admin"');
      expect(r.text).not.toContain(ADMIN_TOKEN);
    }
    expect(d.risk.halts()).toEqual([]);
  });

  it("is 404 when no admin token is configured", async () => {
    const d = daemon({ withAdmin: false, processMetrics: false });
    expect(d.config.admin.token).toBeUndefined();
    const port = await start(d);
    expect((await call(port, "POST", "/admin/kill", AUTH)).status).toBe(404);
    expect(d.risk.halts()).toEqual([]);
  });

  it("refuses a bad body (400) and a body over 4 KiB (413)", async () => {
    const d = daemon({ processMetrics: false });
    const port = await start(d);
    expect((await call(port, "POST", "/admin/kill", AUTH, "{not json")).status).toBe(400);
    expect((await call(port, "POST", "/admin/kill", AUTH, JSON.stringify({ note: 5 }))).status).toBe(400);
    expect((await call(port, "POST", "/admin/kill", AUTH, JSON.stringify({ note: "x".repeat(5000) }))).status).toBe(413);
    expect(d.risk.halts()).toEqual([]);
  });

  it("runs the engine's actions (e.g. cancel-all) and reports a failing action as 500", async () => {
    const d = daemon({ processMetrics: false });
    const calls: string[] = [];
    const base = riskAdminActions(d.risk, d.clock);
    const port = await start(d, {
      actions: {
        kill: async (note) => {
          calls.push(`kill:${note}`);
          return { ...(await base.kill(note)), info: { cancelledOrders: 7 } };
        },
        resume: () => {
          throw new Error("boom");
        },
      },
    });
    const r = await call(port, "POST", "/admin/kill", AUTH);
    expect(r.json()).toMatchObject({ info: { cancelledOrders: 7 } });
    expect(calls).toEqual(["kill:admin kill switch"]);
    expect((await call(port, "POST", "/admin/resume", AUTH)).status).toBe(500);
  });
});

describe("bearerMatches", () => {
  it("compares whole tokens of any length without throwing", () => {
    expect(bearerMatches(`Bearer ${ADMIN_TOKEN}`, ADMIN_TOKEN)).toBe(true);
    expect(bearerMatches(`bearer   ${ADMIN_TOKEN}`, ADMIN_TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${ADMIN_TOKEN}a`, ADMIN_TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer a`, ADMIN_TOKEN)).toBe(false);
    expect(bearerMatches(undefined, ADMIN_TOKEN)).toBe(false);
    expect(bearerMatches("Bearer ", "")).toBe(false);
    expect(bearerMatches(`Basic ${ADMIN_TOKEN}`, ADMIN_TOKEN)).toBe(false);
  });
});
