/**
 * GET /status on a running daemon (in-process simulator, virtual clock, the operator server on a
 * real loopback port) and `mm status` reading it: 404 without metrics.statusToken, 401 without or
 * with a wrong token, 200 with the document whose open orders are the platform's; no secret in
 * the body; the tables name every wallet and every open order; --json passes the document on.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDaemon, type Daemon } from "../../src/bot/engine/daemon.js";
import { statusCommand, statusTables, statusUrl } from "../../src/cli/status.js";
import { parseConfig } from "../../src/config/index.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import { STATUS_VERSION, type StatusDocument, type StatusWallet } from "../../src/metrics/status-route.js";
import { API_KEY, platformOpenOrders, run, settle, startSim, walletAddress, walletKey, type SimHarness } from "../integration/harness.js";

const STATUS_TOKEN = "status-token-0123456789abcdef";
const ADMIN_TOKEN = "admin-token-fedcba9876543210";

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function startDaemon(opts: { statusToken: boolean }): Promise<{ h: SimHarness; daemon: Daemon; base: string }> {
  const h = startSim({ wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] });
  const env: Record<string, string> = { W0: walletKey(0), W1: walletKey(1), MM_STATUS_TOKEN: STATUS_TOKEN, MM_ADMIN_TOKEN: ADMIN_TOKEN };
  const text = `mode: simulator
instance: { id: st }
wallets:
  - { name: alpha, privateKey: "\${W0}" }
  - { name: beta, privateKey: "\${W1}" }
markets: { slugs: [A, B], maxMarkets: 10, refreshSec: 30 }
strategy: { name: ladder, params: { size: "10", levels: 2 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 1, pullBeforeCloseSec: 30 }
metrics: { host: 127.0.0.1, port: 0, processMetrics: false${opts.statusToken ? ', statusToken: "${MM_STATUS_TOKEN}"' : ""} }
admin: { token: "\${MM_ADMIN_TOKEN}" }
log: { level: silent }
`;
  const config = parseConfig(text, "status-daemon.yaml", env);
  const daemon = createDaemon(config, {
    clock: h.clock,
    rng: new Rng(7),
    transport: h.transport,
    connector: h.connector,
    apiKey: API_KEY,
    logger: createLogger({ level: "silent" }),
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
  });
  await settle(h.clock, daemon.start());
  cleanup.push(async () => {
    await settle(h.clock, daemon.stop());
    h.sim.stop();
  });
  await run(h.clock, 8_000);
  const { port } = await daemon.serve();
  return { h, daemon, base: `http://127.0.0.1:${port}` };
}

function capture(): { io: { stdout: (t: string) => void; stderr: (t: string) => void }; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { io: { stdout: (t) => (out += t), stderr: (t) => (err += t) }, out: () => out, err: () => err };
}

function tokenFile(content: string, mode = 0o600): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-status-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "status-token");
  writeFileSync(file, `${content}\n`);
  chmodSync(file, mode);
  return file;
}

/** Every open order on the platform, by wallet address. */
async function platformIds(h: SimHarness): Promise<string[]> {
  const ids: string[] = [];
  for (const i of [0, 1]) ids.push(...(await platformOpenOrders(h, walletAddress(i))).map((o) => o.id));
  return ids.sort();
}

describe("GET /status", () => {
  it("is 401 without the token or with a wrong one, 200 with it: the daemon's wallets, markets, open orders, PnL, no secret", async () => {
    const { h, base } = await startDaemon({ statusToken: true });
    expect((await fetch(`${base}/status`)).status).toBe(401);
    const wrong = await fetch(`${base}/status`, { headers: { authorization: "Bearer not-the-status-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain("Bearer");
    // The admin token is not the status token.
    expect((await fetch(`${base}/status`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(401);

    const res = await fetch(`${base}/status`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    const doc = JSON.parse(text) as StatusDocument;
    expect(doc.version).toBe(1);
    expect(doc.instance).toBe("st");
    expect(doc.running).toBe(true);
    expect(doc.wallets.map((w) => [w.name, w.address])).toEqual([
      ["alpha", walletAddress(0)],
      ["beta", walletAddress(1)],
    ]);
    expect(doc.markets.map((m) => m.symbol)).toEqual(["A", "B"]);
    const ids = doc.wallets.flatMap((w) => w.orders.map((o) => o.orderId)).sort();
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).toEqual(await platformIds(h));
    expect(doc.totals.openOrders).toBe(ids.length);
    for (const w of doc.wallets) {
      for (const o of w.orders) {
        expect(o.price).toMatch(/^0\.\d{1,3}$/);
        expect(o.size).toMatch(/^\d+(\.\d+)?$/);
      }
      expect(w.pnl.net).toMatch(/^-?\d+(\.\d{1,6})?$/);
    }
    // No secret: the API key, the wallet keys (with or without 0x), the tokens.
    for (const secret of [API_KEY, walletKey(0), walletKey(1), walletKey(0).slice(2), walletKey(1).slice(2), STATUS_TOKEN, ADMIN_TOKEN]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/privateKey|apiKey|token/i);
    // HEAD: the same status, no body.
    const head = await fetch(`${base}/status`, { method: "HEAD", headers: { authorization: `Bearer ${STATUS_TOKEN}` } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    // Read only.
    expect((await fetch(`${base}/status`, { method: "POST", headers: { authorization: `Bearer ${STATUS_TOKEN}` } })).status).toBe(405);
  });

  it("is 404 when no metrics.statusToken is configured, whatever the request carries", async () => {
    const { base } = await startDaemon({ statusToken: false });
    expect((await fetch(`${base}/status`)).status).toBe(404);
    expect((await fetch(`${base}/status`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } })).status).toBe(404);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});

describe("mm status", () => {
  it("prints the daemon's wallets, markets and every open order as tables; --json is the document", async () => {
    const { h, base } = await startDaemon({ statusToken: true });
    const file = tokenFile(STATUS_TOKEN);
    const t = capture();
    expect(await statusCommand(["--url", base, "--token-file", file], t.io, { env: {} })).toBe(0);
    expect(t.err()).toBe("");
    const out = t.out();
    expect(out).toMatch(/^instance st at .*: running, ready; open orders \d+/);
    for (const heading of ["Wallets", "Markets", "Open orders", "Inventory", "Halts: none"]) expect(out).toContain(heading);
    for (const name of ["alpha", "beta", walletAddress(0), walletAddress(1)]) expect(out).toContain(name);
    const ids = await platformIds(h);
    expect(ids.length).toBeGreaterThan(1);
    for (const id of ids) expect(out).toMatch(new RegExp(`\\s${id}\\s`));
    expect(out).not.toContain(STATUS_TOKEN);

    const j = capture();
    expect(await statusCommand(["--url", `${base}/status`, "--json"], j.io, { env: { MM_STATUS_TOKEN: STATUS_TOKEN } })).toBe(0);
    const doc = JSON.parse(j.out()) as StatusDocument;
    expect(doc.wallets.flatMap((w) => w.orders.map((o) => o.orderId)).sort()).toEqual(ids);
  });

  it("names what is wrong: no token, a wrong token, an open token file, no /status, nobody listening, a bad URL", async () => {
    const { base } = await startDaemon({ statusToken: true });
    const none = capture();
    expect(await statusCommand(["--url", base], none.io, { env: {} })).toBe(2);
    expect(none.err()).toContain("no token: give --token-file F or set MM_STATUS_TOKEN");

    const wrong = capture();
    expect(await statusCommand(["--url", base], wrong.io, { env: { MM_STATUS_TOKEN: "wrong-token-0123456789" } })).toBe(1);
    expect(wrong.err()).toContain("refused the token (401)");
    expect(wrong.out()).toBe("");

    const open = capture();
    expect(await statusCommand(["--url", base, "--token-file", tokenFile(STATUS_TOKEN, 0o644)], open.io, { env: {} })).toBe(2);
    expect(open.err()).toContain("is readable by others (mode 0644): chmod 600 it");
    expect(open.err()).not.toContain(STATUS_TOKEN);

    const bad = capture();
    expect(await statusCommand(["--url", "ftp://x"], bad.io, { env: { MM_STATUS_TOKEN: STATUS_TOKEN } })).toBe(2);
    expect(bad.err()).toContain("expected an http(s) URL");
    const flag = capture();
    expect(await statusCommand(["--urll", base], flag.io, { env: {} })).toBe(2);
    expect(flag.err()).toContain("unknown option --urll");

    const off = await startDaemon({ statusToken: false });
    const notFound = capture();
    expect(await statusCommand(["--url", off.base], notFound.io, { env: { MM_STATUS_TOKEN: STATUS_TOKEN } })).toBe(1);
    expect(notFound.err()).toContain("set metrics.statusToken");

    const refused = capture();
    const gone = { fetch: (() => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))) as typeof fetch, env: { MM_STATUS_TOKEN: STATUS_TOKEN } };
    expect(await statusCommand(["--url", "http://127.0.0.1:9"], refused.io, gone)).toBe(1);
    expect(refused.err()).toContain("cannot reach http://127.0.0.1:9/status: ECONNREFUSED");
  });

  it("shows halts: after the kill switch the document and the tables carry the global kill_switch halt, not ready, no open order", async () => {
    const { h, daemon, base } = await startDaemon({ statusToken: true });
    await settle(h.clock, daemon.kill("operator test"));
    await run(h.clock, 3_000);
    const res = await fetch(`${base}/status`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } });
    const doc = (await res.json()) as StatusDocument;
    expect(doc.ready).toBe(false);
    expect(doc.halts).toEqual([{ scope: "global", target: "all", reason: "kill_switch", detail: "operator test", since: expect.any(String) as string }]);
    expect(doc.totals.openOrders).toBe(0);
    expect(await platformIds(h)).toEqual([]);
    const t = capture();
    expect(await statusCommand(["--url", base], t.io, { env: { MM_STATUS_TOKEN: STATUS_TOKEN } })).toBe(0);
    expect(t.out()).toContain("NOT READY");
    expect(t.out()).toMatch(/Halts \(1\)[\s\S]*global\s*│\s*all\s*│\s*kill_switch\s*│\s*operator test/);
  });

  it("shows each wallet's Lease (shard.lease) in a table of its own, and no such table without leases", () => {
    const pnl = { realised: "0", unrealised: "0", fees: "0", net: "0" };
    const wallet = (name: string, lease?: StatusWallet["lease"]): StatusWallet => ({
      name,
      address: `0x${name.padStart(40, "0")}`,
      state: "running",
      streamSubscribed: true,
      markets: [],
      openOrders: 0,
      unknownOrders: 0,
      pnl,
      positions: [],
      orders: [],
      ...(lease === undefined ? {} : { lease }),
    });
    const doc = (wallets: StatusWallet[]): StatusDocument => ({
      version: STATUS_VERSION,
      at: "2026-06-01T12:00:00.000Z",
      instance: "mm-a",
      running: true,
      ready: true,
      wallets,
      markets: [],
      totals: { openOrders: 0, unknownOrders: 0, fills: 0, positions: 0, sharesHeld: "0", pnl },
      halts: [],
    });
    const held = { name: "mm-a-0xaa", state: "held", holder: "mm-a-pod-0", renewedAt: "2026-06-01T11:59:48.000Z", renewAgeSec: 12, since: "2026-06-01T11:00:00.000Z", losses: 1, error: null };
    const waiting = { name: "mm-a-0xbb", state: "waiting", holder: "mm-a-pod-1", renewedAt: null, renewAgeSec: null, since: "2026-06-01T11:00:00.000Z", losses: 0, error: "connect ECONNREFUSED" };
    const out = statusTables(doc([wallet("alpha", held), wallet("beta", waiting), wallet("gamma")]));
    const section = out.slice(out.indexOf("Leases"), out.indexOf("Markets"));
    expect(section).toMatch(/alpha\s.*held\s.*mm-a-pod-0\s.*12 s ago/);
    expect(section).toMatch(/beta\s.*waiting\s.*mm-a-pod-1\s.*never.*connect ECONNREFUSED/);
    expect(section).not.toContain("gamma");
    expect(statusTables(doc([wallet("gamma")]))).not.toContain("Leases");
  });

  it("adds /status to the server's root URL once", () => {
    expect(String(statusUrl("http://127.0.0.1:9464"))).toBe("http://127.0.0.1:9464/status");
    expect(String(statusUrl("http://127.0.0.1:9464/"))).toBe("http://127.0.0.1:9464/status");
    expect(String(statusUrl("http://h:1/status"))).toBe("http://h:1/status");
    expect(statusUrl("not a url")).toMatch(/is not a URL/);
  });
});
