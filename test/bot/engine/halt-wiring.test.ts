/**
 * Between the risk facade and the daemon (src/bot/engine/halt-wiring.ts): a halt change as an
 * EngineEvent, which wallets re-run their cycles after a change of each scope, and the kill switch
 * (what it reports, that it re-runs every cycle even when already killed, and waits for them).
 * The wallet runners and the core risk are small recording fakes: only what HaltControl calls.
 */
import { describe, expect, it } from "vitest";
import { HaltControl, haltEvent, retriggerOf } from "../../../src/bot/engine/halt-wiring.js";
import type { WalletRunner } from "../../../src/bot/engine/wallet-runner.js";
import type { EngineEvent } from "../../../src/bot/observer.js";
import type { CoreRisk } from "../../../src/bot/risk/core-risk.js";
import { GLOBAL, Risk, type HaltChange } from "../../../src/bot/risk/index.js";
import { silentLogger } from "./fakes.js";

const NOW = 1_750_000_000_000;

function risk(): Risk {
  return new Risk({
    limits: {
      maxPositionPerMarket: 1n,
      maxNotionalPerWallet: 1n,
      maxNotionalTotal: 1n,
      maxOpenOrdersPerMarket: 1,
      maxOrderSize: 1n,
      priceBand: { min: 1n, max: 2n },
      dailyLossLimit: 1n,
      staleDataSec: 1,
      streamDownSec: 1,
      maxRejectsPerMin: 1,
    },
  });
}

/** A runner that records its triggers; `live` orders go to 0 once its cycles ran (idle). */
function runner(name: string, live: number, log: string[]) {
  let liveOrders = live;
  let pending = 0;
  const r = {
    name,
    triggerAll: (why: string) => {
      log.push(`${name}:all:${why}`);
      pending += 1;
    },
    trigger: (market: string, why: string) => log.push(`${name}:${market}:${why}`),
    idle: async () => {
      await Promise.resolve();
      if (pending > 0) liveOrders = 0;
      log.push(`${name}:idle`);
    },
    status: () => ({ liveOrders }),
  };
  return r as unknown as WalletRunner;
}

function control(runners: WalletRunner[], r = risk()) {
  const events: EngineEvent[] = [];
  const core = { kill: (note: string) => r.kill(note, NOW), resume: () => r.resume(NOW) } as unknown as CoreRisk;
  const hc = new HaltControl({ core: () => core, runners, observer: () => ({ onEvent: (e) => events.push(e) }), log: silentLogger() });
  return { hc, events, risk: r };
}

describe("haltEvent", () => {
  it("a raise names scope kind, target, reason, detail and time, without 'by'", () => {
    const c: HaltChange = { type: "raised", atMs: NOW, halt: { scope: { kind: "wallet", wallet: "maker-1" }, reason: "stream_down", sinceMs: NOW, detail: "down 20s" } };
    const e = haltEvent(c);
    expect(e).toEqual({ type: "halt", action: "raised", scope: "wallet", target: "maker-1", reason: "stream_down", detail: "down 20s", at: NOW });
    expect("by" in e).toBe(false);
  });

  it("a clear says who cleared it; the global scope's target is 'all'", () => {
    const c: HaltChange = { type: "cleared", atMs: NOW + 5, by: "operator", halt: { scope: GLOBAL, reason: "kill_switch", sinceMs: NOW, detail: "k" } };
    expect(haltEvent(c)).toEqual({ type: "halt", action: "cleared", scope: "global", target: "all", reason: "kill_switch", detail: "k", at: NOW + 5, by: "operator" });
  });
});

describe("retriggerOf", () => {
  it("global re-runs everything, a wallet its own cycles, a market that market everywhere", () => {
    expect(retriggerOf(GLOBAL)).toEqual({ all: true });
    expect(retriggerOf({ kind: "wallet", wallet: "maker-2" })).toEqual({ wallet: "maker-2" });
    expect(retriggerOf({ kind: "market", market: "BTC-UP" })).toEqual({ market: "BTC-UP" });
  });
});

describe("HaltControl.onChanges", () => {
  it("reports each change and re-runs only the cycles its scope touches", () => {
    const log: string[] = [];
    const { hc, events, risk: r } = control([runner("maker-1", 0, log), runner("maker-2", 0, log)]);
    const changes = [
      ...r.halt({ kind: "wallet", wallet: "maker-2" }, "", NOW),
      ...r.halt({ kind: "market", market: "BTC-UP" }, "", NOW),
      ...r.kill("", NOW),
    ];
    hc.onChanges(changes);
    expect(events.map((e) => (e.type === "halt" ? `${e.scope}:${e.target}` : e.type))).toEqual(["wallet:maker-2", "market:BTC-UP", "global:all"]);
    expect(log).toEqual(["maker-2:all:halt", "maker-1:BTC-UP:halt", "maker-2:BTC-UP:halt", "maker-1:all:halt", "maker-2:all:halt"]);
  });

  it("a wallet halt naming no running wallet re-runs nothing", () => {
    const log: string[] = [];
    const { hc, risk: r } = control([runner("maker-1", 0, log)]);
    hc.onChanges(r.halt({ kind: "wallet", wallet: "someone-else" }, "", NOW));
    expect(log).toEqual([]);
  });
});

describe("HaltControl.kill and resume", () => {
  it("raises the kill switch, re-runs every wallet, waits for them, and counts live orders before and after", async () => {
    const log: string[] = [];
    const { hc, risk: r } = control([runner("maker-1", 3, log), runner("maker-2", 2, log)]);
    const report = await hc.kill("operator signal");
    expect(report.openOrdersBefore).toBe(5);
    expect(report.openOrders).toBe(0);
    expect(report.changes).toMatchObject([{ type: "raised", halt: { reason: "kill_switch", detail: "operator signal" } }]);
    expect(r.globallyHalted()).toBe(true);
    expect(log).toEqual(["maker-1:all:halt", "maker-2:all:halt", "maker-1:idle", "maker-2:idle"]);
  });

  it("killed twice: no new change, but the cycles run again (orders acknowledged since then go too)", async () => {
    const log: string[] = [];
    const { hc } = control([runner("maker-1", 1, log)]);
    await hc.kill("first");
    log.length = 0;
    const again = await hc.kill("second");
    expect(again.changes).toEqual([]);
    expect(log).toEqual(["maker-1:all:halt", "maker-1:idle"]);
  });

  it("resume returns what the core cleared", async () => {
    const { hc, risk: r } = control([]);
    await hc.kill("stop");
    expect(hc.resume()).toMatchObject([{ type: "cleared", by: "operator", halt: { reason: "kill_switch" } }]);
    expect(r.globallyHalted()).toBe(false);
    expect(hc.resume()).toEqual([]);
  });
});
