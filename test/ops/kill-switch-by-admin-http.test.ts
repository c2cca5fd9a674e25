/**
 * kill_switch through the authenticated admin endpoint: POST /admin/kill on the daemon's own
 * server (real HTTP) without or with a wrong token changes nothing; with the token it raises the
 * global halt, cancels every order, /ready turns 503 and /metrics shows the halt; nothing is
 * placed until POST /admin/resume, after which quoting comes back. The token never reaches a log.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, cleared, raised, run, sample, settleIo, startOps, until, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

async function post(url: string, token: string | undefined, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("kill switch: admin HTTP", () => {
  it("needs the token; then cancels everything, places nothing, is visible on /ready and /metrics; resume quotes again", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"] },
    ));
    const { port } = await o.daemon.serve();
    const base = `http://127.0.0.1:${port}`;
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length + (await o.openOn(1)).length).toBeGreaterThan(1);

    // No token, a wrong token: 401 and nothing happens.
    expect((await settleIo(o.h, post(`${base}/admin/kill`, undefined))).status).toBe(401);
    expect((await settleIo(o.h, post(`${base}/admin/kill`, "not-the-token-at-all"))).status).toBe(401);
    expect(raised(o, "kill_switch")).toBe(false);
    expect((await settleIo(o.h, fetch(`${base}/ready`))).status).toBe(200);

    const tKill = o.wire.mark();
    const killed = await settleIo(o.h, post(`${base}/admin/kill`, ADMIN_TOKEN, { note: "bad fills" }));
    expect(killed.status).toBe(200);
    expect(killed.json).toMatchObject({ ok: true, changes: [{ type: "raised", scope: "global", target: "all", reason: "kill_switch", detail: "admin: bad fills" }] });
    expect((killed.json["info"] as { openOrdersBefore: number }).openOrdersBefore).toBeGreaterThan(1);

    await run(o.h.clock, 20_000);
    expect(await o.openOn(0)).toEqual([]);
    expect(await o.openOn(1)).toEqual([]);
    const ready = await settleIo(o.h, fetch(`${base}/ready`));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, reason: "halted", halts: [{ reason: "kill_switch", detail: "admin: bad fills" }] });
    expect((await settleIo(o.h, fetch(`${base}/health`))).status).toBe(200);
    const text = await settleIo(o.h, fetch(`${base}/metrics`).then((r) => r.text()));
    expect(sample(text, "mm_risk_halt_active", { scope: "global", target: "all", reason: "kill_switch" })).toBe(1);
    expect(sample(text, "mm_risk_halts_active", { reason: "kill_switch" })).toBe(1);
    expect(sample(text, "mm_ready")).toBe(0);

    const tResume = o.wire.mark();
    expect(o.wire.places({ from: tKill, to: tResume })).toEqual([]);
    expect((await settleIo(o.h, post(`${base}/admin/resume`, "wrong-token-wrong-token"))).status).toBe(401);
    const resumed = await settleIo(o.h, post(`${base}/admin/resume`, ADMIN_TOKEN));
    expect(resumed.status).toBe(200);
    expect(resumed.json).toMatchObject({ ok: true, changes: [{ type: "cleared", reason: "kill_switch" }] });
    expect(cleared(o, "kill_switch")).toBe(true);
    await until(o.h, "quoting again", async () => (await o.openOn(0)).length > 0 && (await o.openOn(1)).length > 0, 15_000);
    expect((await settleIo(o.h, fetch(`${base}/ready`))).status).toBe(200);

    const logs = o.logs.raw.join("");
    expect(logs).toContain("admin kill switch");
    expect(logs).toContain("admin request refused: bad or missing token");
    expect(logs).not.toContain(ADMIN_TOKEN);
  });
});
