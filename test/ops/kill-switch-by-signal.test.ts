/**
 * kill_switch through the signal: exactly what `mm run` runs on SIGUSR2 (onKillSignal) raises the
 * global halt, cancels every order of every wallet, and nothing is placed afterwards while the
 * process stays up and not ready; an operator resume brings quoting back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { KILL_SIGNAL, onKillSignal } from "../../src/cli/run.js";
import { cleared, raised, run, sample, settle, startOps, until, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

describe("kill switch: signal", () => {
  it("SIGUSR2 cancels everything on every wallet, places nothing, keeps the daemon up; resume quotes again", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"] },
    ));
    await run(o.h.clock, 8_000);
    const before = [...(await o.openOn(0)), ...(await o.openOn(1))];
    expect(before.length).toBeGreaterThan(1);
    expect(new Set(before.map((x) => x.marketId))).toEqual(new Set(["A", "B"]));

    expect(KILL_SIGNAL).toBe("SIGUSR2");
    const err: string[] = [];
    const tKill = o.wire.mark();
    await settle(o.h.clock, onKillSignal(o.daemon, KILL_SIGNAL, (t) => err.push(t)));
    expect(raised(o, "kill_switch", "all")).toBe(true);
    expect(err.join("")).toContain("SIGUSR2: kill switch");
    expect(err.join("")).toMatch(/kill switch: \d+ open orders before, \d+ still open/);

    await run(o.h.clock, 20_000);
    expect(await o.openOn(0)).toEqual([]);
    expect(await o.openOn(1)).toEqual([]);
    expect(o.wire.places({ from: tKill })).toEqual([]);
    expect(o.daemon.isRunning).toBe(true);
    expect(o.daemon.status().halts).toEqual(["all kill_switch"]);
    expect(o.daemon.ops.probes.readiness()).toMatchObject({ ok: false, body: { reason: "halted" } });
    const text = await o.scrape();
    expect(sample(text, "mm_risk_halt_active", { scope: "global", target: "all", reason: "kill_switch" })).toBe(1);
    expect(sample(text, "mm_ready")).toBe(0);
    expect(o.logs.withMsg("risk halt raised: quotes pulled").find((l) => l["reason"] === "kill_switch")).toMatchObject({ haltScope: "global", detail: "signal SIGUSR2" });

    // A second signal is harmless (already killed); quoting stays off until resume.
    await settle(o.h.clock, onKillSignal(o.daemon, KILL_SIGNAL, () => undefined));
    await run(o.h.clock, 5_000);
    const tResume = o.wire.mark();
    expect(o.wire.places({ from: tKill, to: tResume })).toEqual([]);

    const changes = o.daemon.resume();
    expect(changes.map((c) => [c.type, c.halt.reason])).toEqual([["cleared", "kill_switch"]]);
    expect(cleared(o, "kill_switch")).toBe(true);
    await until(o.h, "quoting again", async () => (await o.openOn(0)).length > 0 && (await o.openOn(1)).length > 0, 15_000);
    expect(o.wire.places({ from: tResume }).length).toBeGreaterThan(0);
    expect(o.daemon.ops.probes.readiness().ok).toBe(true);
  });
});
