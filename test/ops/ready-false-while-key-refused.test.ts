/**
 * /ready tells the truth.
 *
 * A running, quoting daemon; its key is revoked through the simulator's operator route
 * (`POST /sim/keys/{keyId}/revoke`). The next keyed answer is a 401 `api_key_revoked`: the global
 * `auth_refused` halt is raised at once, /ready (real HTTP) answers 503 with that halt in its JSON
 * within a few seconds of virtual time, /health stays 200 (the process is alive: restarting it
 * would not bring the key back), nothing is placed any more, and the refusals are counted. A
 * revoked key never works again (spec 5.6), so the probe keeps asking on its backoff: at most
 * one read every 30 s once it has backed off, never a storm.
 *
 * Reproduced before the fix: /ready answered {"ready":true} 12 s after the revocation.
 *
 * And the readiness rule itself (Probes.readiness, no daemon): a wallet-scope stream_down or a
 * market-scope capacity halt makes /ready false with the halt in its JSON; a market-scope
 * stale-data halt or a wallet's manual halt alone does not.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Risk } from "../../src/bot/risk/risk.js";
import type { RiskLimits } from "../../src/bot/risk/types.js";
import { VirtualClock } from "../../src/core/clock.js";
import { NOT_READY_HALT_REASONS, Probes } from "../../src/metrics/health.js";
import { API_KEY, raisedAt, run, sample, settleIo, startOps, until, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

/** The key id of `pmk_sim_<keyId>_<secret>`. */
const KEY_ID = API_KEY.split("_")[2]!;

describe("/ready while the key is refused", () => {
  it("turns 503 with auth_refused within seconds of the revocation; /health stays 200; nothing placed; probes back off", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60 }, { symbol: "B", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 60 }] },
      { wallets: 2, slugs: ["A", "B"] },
    ));
    const { port } = await o.daemon.serve();
    const base = `http://127.0.0.1:${port}`;
    await run(o.h.clock, 8_000);
    expect((await o.openOn(0)).length + (await o.openOn(1)).length).toBeGreaterThan(1);
    expect((await settleIo(o.h, fetch(`${base}/ready`))).status).toBe(200);

    const revoked = await o.h.pipeline.handle({ method: "POST", url: `/sim/keys/${KEY_ID}/revoke`, headers: {}, bodyText: "", remoteAddress: "127.0.0.1" });
    expect(revoked.status).toBe(200);
    const tRevoke = o.wire.mark();

    await until(o.h, "auth_refused raised", () => raisedAt(o, "auth_refused", "all") !== undefined, 10_000);
    const raise = raisedAt(o, "auth_refused", "all")!;
    expect(raise.at - tRevoke.at).toBeLessThanOrEqual(5_000);
    // The first 401 after the revocation raised it: no keyed 2xx was answered in between.
    const firstRefusal = o.wire.log.findIndex((e, i) => i >= tRevoke.index && e.status === 401);
    expect(firstRefusal).toBeGreaterThanOrEqual(tRevoke.index);
    expect(raise.index).toBeGreaterThan(firstRefusal);
    await run(o.h.clock, 1_000);

    const ready = await settleIo(o.h, fetch(`${base}/ready`));
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { ready: boolean; reason: string; halts: Record<string, unknown>[] };
    expect(body).toMatchObject({ ready: false, reason: "halted" });
    expect(body.halts).toContainEqual({ scope: "global", target: "all", reason: "auth_refused", detail: "401 api_key_revoked", sinceMs: raise.at });
    expect(JSON.stringify(body)).not.toContain(API_KEY.split("_")[3]!);
    expect((await settleIo(o.h, fetch(`${base}/health`))).status).toBe(200);

    const text = await o.scrape();
    expect(sample(text, "mm_ready")).toBe(0);
    expect(sample(text, "mm_risk_halt_active", { scope: "global", target: "all", reason: "auth_refused" })).toBe(1);
    expect((sample(text, "mm_auth_refusals_total", { wallet: "w0", code: "api_key_revoked" }) ?? 0) + (sample(text, "mm_auth_refusals_total", { wallet: "w1", code: "api_key_revoked" }) ?? 0)).toBeGreaterThan(0);

    // Halted: nothing placed from the raise on (cancels are tried; they are refused too).
    await run(o.h.clock, 120_000);
    expect(o.wire.places({ from: raise })).toEqual([]);
    // Still refused, still not ready, and the probe backed off to at most one read per 30 s.
    expect(o.daemon.ops.probes.readiness().ok).toBe(false);
    const probes = o.wire.requests(raise.at + 60_000).filter((e) => e.path === "/api/me/balances");
    expect(probes.length).toBeGreaterThanOrEqual(1);
    expect(probes.length).toBeLessThanOrEqual(3);
    expect(probes.every((p) => p.status === 401)).toBe(true);
    expect(o.daemon.auth.current()).toEqual([{ scope: { kind: "global" }, code: "api_key_revoked", sinceMs: raise.at }]);
    expect(o.logs.withMsg("API key refused: auth_refused halt, probing with backoff until a request with the key succeeds")).toHaveLength(1);
    expect(o.logs.raw.some((l) => l.includes(API_KEY.split("_")[3]!))).toBe(false);
  });
});

const LIMITS: RiskLimits = {
  maxPositionPerMarket: 1_000_000_000n,
  maxNotionalPerWallet: 1_000_000_000_000n,
  maxNotionalTotal: 1_000_000_000_000n,
  maxOpenOrdersPerMarket: 100,
  maxOrderSize: 1_000_000_000n,
  priceBand: { min: 1_000n, max: 999_000n },
  dailyLossLimit: 1_000_000_000n,
  staleDataSec: 10,
  streamDownSec: 30,
  maxRejectsPerMin: 20,
};

function probesWith(risk: Risk, clock: VirtualClock): Probes {
  const p = new Probes({ clock, risk });
  p.markStarted();
  return p;
}

describe("Probes.readiness", () => {
  it("names the not-ready reasons in one exported set", () => {
    expect([...NOT_READY_HALT_REASONS].sort()).toEqual(["auth_refused", "capacity", "dead_man", "stream_down"]);
  });

  it("is false for a wallet-scope stream_down halt, with the halt in its JSON", () => {
    const clock = new VirtualClock(1_000_000);
    const risk = new Risk({ limits: LIMITS });
    const probes = probesWith(risk, clock);
    expect(probes.readiness()).toEqual({ ok: true, body: { ready: true } });
    risk.condition({ kind: "wallet", wallet: "w0" }, "stream_down", "down 31 s", clock.now());
    expect(probes.readiness()).toEqual({
      ok: false,
      body: { ready: false, reason: "halted", halts: [{ scope: "wallet", target: "w0", reason: "stream_down", detail: "down 31 s", sinceMs: 1_000_000 }] },
    });
    risk.condition({ kind: "wallet", wallet: "w0" }, "stream_down", null, clock.now());
    expect(probes.isReady()).toBe(true);
  });

  it("is false for a market-scope capacity halt, and lists only the halts that block readiness", async () => {
    const clock = new VirtualClock(2_000_000);
    const risk = new Risk({ limits: LIMITS });
    const probes = probesWith(risk, clock);
    // Ordinary risk working on one scope: still ready.
    risk.condition({ kind: "market", market: "ARS-CHE" }, "stale_market_data", "book 12 s old", clock.now());
    risk.halt({ kind: "wallet", wallet: "w1" }, "look", clock.now());
    expect(probes.isReady()).toBe(true);
    await clock.advance(500);
    risk.condition({ kind: "market", market: "LOW-PRIO" }, "capacity", "shed: loop lag 900 ms", clock.now());
    const r = probes.readiness();
    expect(r.ok).toBe(false);
    expect(r.body).toEqual({
      ready: false,
      reason: "halted",
      halts: [{ scope: "market", target: "LOW-PRIO", reason: "capacity", detail: "shed: loop lag 900 ms", sinceMs: 2_000_500 }],
    });
  });

  it("keeps the global rule (any global halt) and says starting / stopping first", () => {
    const clock = new VirtualClock(0);
    const risk = new Risk({ limits: LIMITS });
    const probes = new Probes({ clock, risk });
    risk.kill("test", 0);
    expect(probes.readiness().body).toEqual({ ready: false, reason: "starting" });
    probes.markStarted();
    expect(probes.readiness().body).toMatchObject({ ready: false, reason: "halted", halts: [{ scope: "global", reason: "kill_switch" }] });
    probes.markStopping();
    expect(probes.readiness().body).toEqual({ ready: false, reason: "stopping" });
  });
});
