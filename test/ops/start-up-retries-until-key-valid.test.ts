/**
 * A key the platform does not know yet (issued, not yet propagated: spec 5.6 allows up to 60 s)
 * at start-up. Every wallet's first keyed read is refused with 401 `api_key_unknown_key`; the
 * daemon keeps retrying with capped backoff instead of giving up on the wallet, holds the global
 * `auth_refused` halt meanwhile (nothing is placed), and counts the refusals. 40 s later the
 * platform learns the key: within one backoff step (at most 30 s) the halt clears, both wallets
 * become ready and quote. The key never reaches a log line, and each state change is logged once.
 *
 * Before this fix each wallet logged "wallet start-up failed ... api_key_unknown_key" once and
 * stayed not ready for ever.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDaemon, type Daemon, type StartReport } from "../../src/bot/engine/daemon.js";
import { RecordingObserver, type EngineEvent } from "../../src/bot/observer.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import { DAY_ONE_SCOPES } from "../../src/sim/platform/index.js";
import { platformOpenOrders, startSim, type SimHarness } from "../integration/harness.js";
import { LogLines, Wire, opsConfig, run, sample, settle, until, walletAddress } from "./harness.js";

/** Same partner, a key id the simulator has not seen yet. */
const NEW_KEY = "pmk_sim_5e1d0000000000bb_FreshlyIssuedKeyNotPropagated0001";
const SECRET_PART = "FreshlyIssuedKeyNotPropagated0001";

let h: SimHarness | undefined;
let daemon: Daemon | undefined;
afterEach(async () => {
  if (h !== undefined && daemon !== undefined) await settle(h.clock, daemon.stop(), 120_000);
  h?.sim.stop();
  h = undefined;
  daemon = undefined;
});

interface HaltSeen {
  action: string;
  scope: string;
  reason: string;
  detail: string;
  at: number;
}

describe("start-up: a key not yet valid", () => {
  it("retries with backoff under auth_refused, counts the refusals, and quotes once the platform accepts the key", async () => {
    const sim = (h = startSim({ wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] }));
    const wire = new Wire(sim.transport, sim.clock);
    const logs = new LogLines();
    const observer = new RecordingObserver();
    const halts: HaltSeen[] = [];
    const marker = {
      onEvent: (e: EngineEvent) => {
        if (e.type === "halt") halts.push({ action: e.action, scope: e.scope, reason: e.reason, detail: e.detail, at: e.at });
      },
    };
    const d = (daemon = createDaemon(opsConfig({ wallets: 2, slugs: ["A", "B"] }), {
      clock: sim.clock,
      rng: new Rng(7),
      transport: wire,
      connector: sim.connector,
      apiKey: NEW_KEY,
      logger: createLogger({ level: "info", clock: sim.clock }, logs),
      observer: [observer, marker],
      tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
    }));
    const t0 = sim.clock.now();
    let report: StartReport | undefined;
    void d.start().then((r) => (report = r));

    await run(sim.clock, 40_000);
    // Refused all along: halted globally, no wallet ready, nothing placed, no start-up given up.
    expect(halts.filter((x) => x.reason === "auth_refused")).toEqual([
      { action: "raised", scope: "global", reason: "auth_refused", detail: "401 api_key_unknown_key", at: expect.any(Number) as number },
    ]);
    expect(d.runners.map((r) => r.isReady)).toEqual([false, false]);
    expect(report).toBeUndefined();
    expect(wire.places()).toEqual([]);
    expect(logs.withMsg("wallet start-up failed")).toEqual([]);
    expect(d.ops.probes.readiness().ok).toBe(false);
    // The first keyed reads of start-up: the instance fence's look at each wallet's open orders
    // (before any wallet starts), then the wallet's vault.
    const refusedVaultReads = wire.log.filter((e) => (e.path === "/api/me/vault" || e.path.startsWith("/api/orders/open")) && e.status === 401);
    // Both wallets kept asking, on a backoff: more than once each, far fewer than once a second.
    for (const i of [0, 1]) {
      const n = refusedVaultReads.filter((e) => e.wallet === walletAddress(i)).length;
      expect(n).toBeGreaterThanOrEqual(4);
      expect(n).toBeLessThanOrEqual(8);
    }
    let text = await d.ops.metrics.scrape();
    expect(sample(text, "mm_auth_refusals_total", { wallet: "w0", code: "api_key_unknown_key" })).toBeGreaterThanOrEqual(4);
    expect(sample(text, "mm_auth_refusals_total", { wallet: "w1", code: "api_key_unknown_key" })).toBeGreaterThanOrEqual(4);
    expect(sample(text, "mm_risk_halt_active", { scope: "global", target: "all", reason: "auth_refused" })).toBe(1);

    // The key propagates.
    const tKey = sim.clock.now();
    sim.sim.platform.keys.register(NEW_KEY, "mm", DAY_ONE_SCOPES, { nowMs: tKey });
    const tClear = await until(sim, "auth_refused cleared", () => halts.some((x) => x.reason === "auth_refused" && x.action === "cleared"), 40_000);
    expect(tClear - tKey).toBeLessThanOrEqual(31_000);
    await until(sim, "start-up done", () => report !== undefined, 60_000);
    expect(report!.wallets).toEqual([
      { name: "w0", ready: true },
      { name: "w1", ready: true },
    ]);
    await until(sim, "both wallets quoting", async () => (await platformOpenOrders(sim, walletAddress(0))).length > 0 && (await platformOpenOrders(sim, walletAddress(1))).length > 0, 30_000);
    expect(wire.places().every((p) => p.at >= tKey)).toBe(true);
    expect(d.coreRisk.facade.halts()).toEqual([]);
    expect(d.ops.probes.readiness()).toEqual({ ok: true, body: { ready: true } });
    expect(d.auth.current()).toEqual([]);
    text = await d.ops.metrics.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "global", target: "all", reason: "auth_refused" }) ?? 0).toBe(0);

    // One line per state change, each naming the code, none carrying the key.
    expect(logs.withMsg("API key refused: auth_refused halt, probing with backoff until a request with the key succeeds")).toHaveLength(1);
    expect(logs.withMsg("API key refused: auth_refused halt, probing with backoff until a request with the key succeeds")[0]).toMatchObject({ code: "api_key_unknown_key", target: "all" });
    expect(logs.withMsg("API key accepted again: auth_refused cleared")).toHaveLength(1);
    expect(logs.raw.some((l) => l.includes(SECRET_PART) || l.includes(NEW_KEY))).toBe(false);
    expect(sim.clock.now() - t0).toBeLessThan(150_000);
  });
});
