/**
 * The /health and /ready answers (src/metrics/health.ts), as docs/metrics.md gives them:
 * liveness 200 "starting" for 120 s before the first tick then 503 "no_tick", 200 "ok" while the
 * last tick is at most 30 s old then 503 "loop_stalled"; readiness 503 "starting" / "stopping" /
 * "halted" (listing the halts that block it: any global one, and auth_refused, stream_down,
 * dead_man or capacity on any scope), else 200; halt texts scrubbed of secrets.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import type { Halt } from "../../src/bot/risk/types.js";
import { NOT_READY_HALT_REASONS, Probes, haltBlocksReadiness, haltJson } from "../../src/metrics/health.js";

const T0 = Date.UTC(2026, 2, 1, 12);

function halt(scope: Halt["scope"], reason: Halt["reason"], detail = "d"): Halt {
  return { scope, reason, sinceMs: T0 - 5_000, detail };
}

function risk(halts: Halt[], globally = false) {
  return { globallyHalted: () => globally, halts: () => halts };
}

describe("liveness", () => {
  it("before the first tick: starting for the 120 s grace (inclusive), then no_tick", async () => {
    const clock = new VirtualClock(T0);
    const p = new Probes({ clock });
    expect(p.liveness()).toEqual({ ok: true, body: { status: "starting" } });
    await clock.advance(120_000);
    expect(p.liveness()).toEqual({ ok: true, body: { status: "starting" } });
    await clock.advance(1);
    expect(p.liveness()).toEqual({ ok: false, body: { status: "no_tick" } });
  });

  it("after a tick: ok with its age while at most 30 s old, then loop_stalled; a new tick makes it ok again", async () => {
    const clock = new VirtualClock(T0);
    const p = new Probes({ clock });
    p.tick(clock.now());
    await clock.advance(412);
    expect(p.liveness()).toEqual({ ok: true, body: { status: "ok", lastTickAgeMs: 412 } });
    await clock.advance(30_000 - 412);
    expect(p.liveness()).toEqual({ ok: true, body: { status: "ok", lastTickAgeMs: 30_000 } });
    await clock.advance(1);
    expect(p.liveness()).toEqual({ ok: false, body: { status: "loop_stalled", lastTickAgeMs: 30_001 } });
    p.tick(clock.now());
    expect(p.liveness().ok).toBe(true);
  });

  it("takes other bounds when given", async () => {
    const clock = new VirtualClock(T0);
    const p = new Probes({ clock, maxTickAgeMs: 1_000, startupGraceMs: 5_000 });
    await clock.advance(5_001);
    expect(p.liveness().body).toEqual({ status: "no_tick" });
    p.tick(clock.now());
    await clock.advance(1_001);
    expect(p.liveness()).toEqual({ ok: false, body: { status: "loop_stalled", lastTickAgeMs: 1_001 } });
  });
});

describe("readiness", () => {
  it("starting until markStarted, then ready (no risk given: nothing can halt it)", () => {
    const p = new Probes({ clock: new VirtualClock(T0) });
    expect(p.readiness()).toEqual({ ok: false, body: { ready: false, reason: "starting" } });
    expect(p.isReady()).toBe(false);
    p.markStarted();
    expect(p.readiness()).toEqual({ ok: true, body: { ready: true } });
    expect(p.isReady()).toBe(true);
  });

  it("stopping wins over everything, even before the start completed", () => {
    const p = new Probes({ clock: new VirtualClock(T0) });
    p.markStopping();
    expect(p.readiness().body).toEqual({ ready: false, reason: "stopping" });
    p.markStarted();
    expect(p.readiness().body).toEqual({ ready: false, reason: "stopping" });
  });

  it("a wallet or market halt of another reason keeps it ready", () => {
    const halts = [halt({ kind: "wallet", wallet: "w1" }, "reject_storm"), halt({ kind: "market", market: "M" }, "stale_market_data"), halt({ kind: "wallet", wallet: "w2" }, "manual")];
    const p = new Probes({ clock: new VirtualClock(T0), risk: risk(halts) });
    p.markStarted();
    expect(p.readiness()).toEqual({ ok: true, body: { ready: true } });
  });

  it("halted: lists exactly the halts that block it", () => {
    const blocking = [halt({ kind: "global" }, "manual"), halt({ kind: "wallet", wallet: "w1" }, "auth_refused", "api_key_revoked"), halt({ kind: "market", market: "M" }, "capacity")];
    const other = halt({ kind: "wallet", wallet: "w2" }, "reject_storm");
    const p = new Probes({ clock: new VirtualClock(T0), risk: risk([blocking[0]!, other, blocking[1]!, blocking[2]!]) });
    p.markStarted();
    expect(p.readiness()).toEqual({
      ok: false,
      body: {
        ready: false,
        reason: "halted",
        halts: [
          { scope: "global", target: "all", reason: "manual", detail: "d", sinceMs: T0 - 5_000 },
          { scope: "wallet", target: "w1", reason: "auth_refused", detail: "api_key_revoked", sinceMs: T0 - 5_000 },
          { scope: "market", target: "M", reason: "capacity", detail: "d", sinceMs: T0 - 5_000 },
        ],
      },
    });
  });

  it("globally halted with no halt listed (an extra risk hook's): halted, with an empty list", () => {
    const p = new Probes({ clock: new VirtualClock(T0), risk: risk([], true) });
    p.markStarted();
    expect(p.readiness()).toEqual({ ok: false, body: { ready: false, reason: "halted", halts: [] } });
  });
});

describe("the halts that block readiness", () => {
  it("are auth_refused, stream_down, dead_man and capacity on any scope, as docs/metrics.md lists them", () => {
    expect([...NOT_READY_HALT_REASONS]).toEqual(["auth_refused", "stream_down", "dead_man", "capacity"]);
    for (const reason of NOT_READY_HALT_REASONS) {
      expect(haltBlocksReadiness(halt({ kind: "wallet", wallet: "w" }, reason))).toBe(true);
      expect(haltBlocksReadiness(halt({ kind: "market", market: "M" }, reason))).toBe(true);
    }
  });

  it("plus any global halt; other wallet and market halts do not", () => {
    expect(haltBlocksReadiness(halt({ kind: "global" }, "circuit_open"))).toBe(true);
    expect(haltBlocksReadiness(halt({ kind: "wallet", wallet: "w" }, "daily_loss"))).toBe(false);
    expect(haltBlocksReadiness(halt({ kind: "market", market: "M" }, "stale_market_data"))).toBe(false);
  });
});

describe("haltJson", () => {
  it("scrubs anything shaped like a key from the target and the detail", () => {
    const key = "pmk_live_abcd1234_ThisIsTheSecretPart0001";
    const j = haltJson(halt({ kind: "wallet", wallet: key }, "auth_refused", `refused ${key} at start-up`));
    expect(JSON.stringify(j)).not.toContain("ThisIsTheSecretPart0001");
    expect(j).toEqual({ scope: "wallet", target: "[REDACTED]", reason: "auth_refused", detail: "refused [REDACTED] at start-up", sinceMs: T0 - 5_000 });
  });
});
