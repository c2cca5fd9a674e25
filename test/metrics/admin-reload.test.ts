/**
 * POST /admin/reload on the operator server: authenticated like /admin/kill (404 without an admin
 * token, 401 with a wrong or missing one, the refusal logged without the token), 404 when the
 * daemon has no config file to read, 200 {hash, changed} when applied, 422 with the error lines
 * when refused; GET is 405.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { MetricsServer, riskAdminActions, type AdminActions, type ReloadAnswer } from "../../src/metrics/metrics-server.js";
import { ADMIN_TOKEN } from "../config/fixtures.js";
import { daemon, type Daemon } from "./fixtures.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function call(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; json: () => Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) as Record<string, unknown> });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function start(d: Daemon, actions: AdminActions, withToken = true): Promise<{ port: number; warns: { obj: object; msg: string }[] }> {
  const warns: { obj: object; msg: string }[] = [];
  const server = new MetricsServer({
    host: "127.0.0.1",
    port: 0,
    metrics: d.metrics,
    probes: d.probes,
    admin: { token: withToken ? d.config.admin.token : undefined, actions },
    log: { warn: (obj, msg) => warns.push({ obj, msg }), info: () => undefined },
  });
  const { port } = await server.start();
  cleanup.push(async () => {
    await server.close();
    d.dispose();
  });
  return { port, warns };
}

const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };

function withReload(d: Daemon, answers: ReloadAnswer[]): AdminActions & { calls: number } {
  const base = riskAdminActions(d.risk, d.clock);
  const actions = {
    ...base,
    calls: 0,
    reload: () => {
      actions.calls += 1;
      return Promise.resolve(answers.shift()!);
    },
  };
  return actions;
}

describe("POST /admin/reload", () => {
  it("is 404 without an admin token, and when the daemon has no config file to reload", async () => {
    const d1 = daemon();
    const a1 = withReload(d1, []);
    const s1 = await start(d1, a1, false);
    expect((await call(s1.port, "POST", "/admin/reload", AUTH)).status).toBe(404);
    const d2 = daemon();
    const s2 = await start(d2, riskAdminActions(d2.risk, d2.clock));
    expect((await call(s2.port, "POST", "/admin/reload", AUTH)).status).toBe(404);
    // The kill switch is still there.
    expect((await call(s2.port, "POST", "/admin/resume", AUTH)).status).toBe(200);
    expect(a1.calls).toBe(0);
  });

  it("is 401 with a wrong or missing token (logged without it), and reloads nothing", async () => {
    const d = daemon();
    const a = withReload(d, []);
    const s = await start(d, a);
    const tries: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }, { authorization: ADMIN_TOKEN }];
    for (const headers of tries) {
      const r = await call(s.port, "POST", "/admin/reload", headers);
      expect(r.status).toBe(401);
      expect(r.json()).toEqual({ error: "unauthorized" });
    }
    expect(a.calls).toBe(0);
    expect(s.warns.map((w) => w.msg)).toEqual(Array(3).fill("admin request refused: bad or missing token"));
    expect(JSON.stringify(s.warns)).not.toContain(ADMIN_TOKEN);
    expect((await call(s.port, "GET", "/admin/reload", AUTH)).status).toBe(405);
  });

  it("answers 200 with the hash and what changed, 422 with the error lines when refused", async () => {
    const d = daemon();
    const a = withReload(d, [
      { ok: true, hash: "bbbb", previousHash: "aaaa", changed: ["risk.maxOrderSize"] },
      { ok: false, reason: "invalid", hash: "bbbb", errors: ["mm.yaml:12: risk.maxOrderSize: must be > 0"] },
      { ok: false, reason: "restart_needed", hash: "bbbb", errors: ["restart needed for: wallets, platform.baseUrl"], restartNeeded: ["wallets", "platform.baseUrl"] },
    ]);
    const s = await start(d, a);
    let r = await call(s.port, "POST", "/admin/reload", AUTH);
    expect([r.status, r.json()]).toEqual([200, { ok: true, hash: "bbbb", previousHash: "aaaa", changed: ["risk.maxOrderSize"] }]);
    r = await call(s.port, "POST", "/admin/reload", AUTH);
    expect([r.status, r.json()]).toEqual([422, { ok: false, reason: "invalid", hash: "bbbb", errors: ["mm.yaml:12: risk.maxOrderSize: must be > 0"] }]);
    r = await call(s.port, "POST", "/admin/reload", AUTH);
    expect(r.status).toBe(422);
    expect(r.json()).toMatchObject({ reason: "restart_needed", errors: ["restart needed for: wallets, platform.baseUrl"] });
    expect(a.calls).toBe(3);
    expect(s.warns.filter((w) => w.msg === "admin config reload")).toHaveLength(3);
  });
});
