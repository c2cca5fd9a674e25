/**
 * The daemon's own promises (src/bot/engine/daemon.ts), on the in-process simulator and a virtual
 * clock (test/integration/harness.ts): start() reports the markets selected and each wallet ready,
 * marks the process ready and refuses a second start; stop() pulls every quote, reports each
 * wallet's stop (clean: exit code 0, nothing left on the platform), leaves the process not running
 * and gives the same report when asked again; a stop during start-up ends the start with nothing
 * started; what it refuses before doing anything (no API key, no reload file, platform info not
 * loaded yet); and createDaemon running a sharded replica under its own id with its own wallets.
 */
import { describe, expect, it, vi } from "vitest";
import { createDaemon } from "../../../src/bot/engine/daemon.js";
import { applyShard, shardOf } from "../../../src/config/shard-section.js";
import { configHash } from "../../../src/config/reload-diff.js";
import { API_KEY, daemonConfig, makeDaemon, run, settle, startSim, walletAddress, type SimHarness } from "../../integration/harness.js";

const MARKETS = ["DMN-A", "DMN-B"];

function sim(): SimHarness {
  return startSim({ wallets: 2, markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 2 })) });
}

describe("Daemon start and stop", () => {
  it("refuses to tell the platform's info before start() loaded it", () => {
    const h = sim();
    try {
      const { daemon } = makeDaemon(h, daemonConfig({ wallets: 2, slugs: MARKETS, strategy: { levels: 1 }, shutdownSec: 10 }));
      expect(() => daemon.platform).toThrow("platform info not loaded yet");
      expect(daemon.isRunning).toBe(false);
      expect(daemon.ops.probes.isReady()).toBe(false);
      daemon.abandon();
    } finally {
      h.sim.stop();
    }
  });

  // One daemon's life in order: each step needs the one before it, so they are one test.
  it("start(), a second start() refused, quotes resting, stop() clean, stop() again the same report", async () => {
    const h = sim();
    try {
      const { daemon } = makeDaemon(h, daemonConfig({ wallets: 2, slugs: MARKETS, strategy: { levels: 1 }, shutdownSec: 10 }));

      // 1. start(): the markets selected, every wallet ready, the process ready.
      const started = await settle(h.clock, daemon.start());
      expect(started.markets.sort()).toEqual(MARKETS);
      expect(started.wallets).toEqual([
        { name: "w0", ready: true },
        { name: "w1", ready: true },
      ]);
      expect(daemon.isRunning).toBe(true);
      expect(daemon.ops.probes.isReady()).toBe(true);
      expect(daemon.platform.feeConfig.defaultFeeTakerBps).toBe(100);
      expect(daemon.statusDocument().config).toEqual({ hash: daemon.params.current.hash, reloads: 0, since: new Date(daemon.sessionStartMs).toISOString() });

      // 2. A second start() is refused.
      await expect(daemon.start()).rejects.toThrow("daemon already started");

      // 3. Quotes: each wallet has orders resting on the platform.
      await run(h.clock, 5_000);
      for (let i = 0; i < 2; i++) expect(h.sim.engine.openOrders(walletAddress(i)).length, `w${i}`).toBeGreaterThan(0);

      // 4. stop(): every order ended, a clean report per wallet, exit code 0, not running, not ready.
      const p = daemon.stop("test");
      expect(daemon.stop("again")).toBe(p);
      const stopped = await settle(h.clock, p, 60_000);
      expect(stopped.reason).toBe("test");
      expect(stopped.exitCode).toBe(0);
      expect(stopped.wallets.map((w) => [w.name, w.wallet])).toEqual([
        ["w0", walletAddress(0)],
        ["w1", walletAddress(1)],
      ]);
      for (const w of stopped.wallets) {
        expect(w.unconfirmed).toEqual([]);
        expect(w.finalWalk).toEqual({ ok: true, open: 0 });
        expect(w.cancelled).toBeGreaterThan(0);
      }
      for (let i = 0; i < 2; i++) expect(h.sim.engine.openOrders(walletAddress(i))).toEqual([]);
      expect(daemon.isRunning).toBe(false);
      expect(daemon.ops.probes.readiness().body).toEqual({ ready: false, reason: "stopping" });

      // 5. stop() again gives the same report, doing nothing more.
      const before = h.transport.log.length;
      expect(await daemon.stop("later")).toBe(stopped);
      expect(h.transport.log.length).toBe(before);
    } finally {
      h.sim.stop();
    }
  });
});

describe("Daemon stopped during start-up", () => {
  it("the start ends with nothing started and the stop is clean", async () => {
    const h = sim();
    try {
      const { daemon } = makeDaemon(h, daemonConfig({ wallets: 1, slugs: MARKETS }));
      const start = daemon.start();
      const stop = daemon.stop("early");
      const [s, r] = await settle(h.clock, Promise.all([start, stop]), 60_000);
      expect(s).toEqual({ markets: [], wallets: [] });
      expect(r.exitCode).toBe(0);
      expect(h.sim.engine.openOrders(walletAddress(0))).toEqual([]);
      expect(daemon.ops.probes.isReady()).toBe(false);
    } finally {
      h.sim.stop();
    }
  });
});

describe("What the daemon refuses before doing anything", () => {
  it("a simulator config without an API key handed in", () => {
    const h = sim();
    try {
      expect(() => createDaemon(daemonConfig({ wallets: 1 }), { clock: h.clock, transport: h.transport, connector: h.connector })).toThrow("createDaemon: no API key (give deps.apiKey in simulator mode)");
    } finally {
      h.sim.stop();
    }
  });

  it("a reload when no config file was given", async () => {
    const h = sim();
    try {
      const { daemon } = makeDaemon(h, daemonConfig({ wallets: 1 }));
      await expect(daemon.reload("admin")).rejects.toThrow("no config file to reload (reloadFrom was not called)");
      daemon.abandon();
    } finally {
      h.sim.stop();
    }
  });

  it("shard.lease outside a pod with no lease API handed in: refused naming what is missing", () => {
    // Outside a pod whatever runs the tests: a CI runner in a Kubernetes pod sets these.
    vi.stubEnv("KUBERNETES_SERVICE_HOST", undefined);
    vi.stubEnv("KUBERNETES_SERVICE_PORT", undefined);
    const h = sim();
    try {
      const c = daemonConfig({ wallets: 2 });
      const config = { ...c, shard: { index: 0, count: 2, lease: { namespace: "mm", durationSec: 15, renewSec: 5, skewMarginSec: 2 } } };
      expect(() => createDaemon(config, { clock: h.clock, transport: h.transport, connector: h.connector, apiKey: API_KEY })).toThrow(/KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/);
    } finally {
      h.sim.stop();
      vi.unstubAllEnvs();
    }
  });
});

describe("createDaemon with a shard", () => {
  it("runs as <id>-s<index> with only the wallets of its shard; the config hash shown is the file's", () => {
    const h = sim();
    try {
      const c = daemonConfig({ wallets: 6, instance: "dm" });
      const config = { ...c, shard: { index: 1, count: 2 } };
      const { daemon } = makeDaemon(h, config);
      expect(daemon.config.instance.id).toBe("dm-s1");
      const mine = Array.from({ length: 6 }, (_, i) => walletAddress(i)).filter((w) => shardOf(w, 2) === 1);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.length).toBeLessThan(6);
      expect(daemon.runners.map((r) => r.wallet.toLowerCase()).sort()).toEqual(mine.sort());
      // The hash of the file as loaded (every replica shows the same), not of this replica's part.
      expect(daemon.params.current.hash).toBe(configHash(config));
      expect(daemon.params.current.hash).not.toBe(configHash(applyShard(config)));
      daemon.abandon();
    } finally {
      h.sim.stop();
    }
  });
});
