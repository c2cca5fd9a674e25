/**
 * The daemon's side of shard.lease (src/bot/engine/shard-lease.ts), over an in-memory Lease API on
 * a virtual clock: the leases built from the config (off without shard.lease; named after the base
 * instance id, held as the replica's own id; a start refused with what is missing outside a pod),
 * the metric rows, and the shutdown rules: a wallet stopped for a lost lease gives that stop's
 * report, one whose lease was never ours is dropped without cancelling anything, the rest stop as
 * always; leases released only for wallets whose orders all ended, and renewals stopped after.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { createLogger } from "../../../src/log/index.js";
import { leaseMetricRows, notOursReport, releaseLeases, stopLeasedWallet, walletLeasesFor } from "../../../src/bot/engine/shard-lease.js";
import { isClean, type WalletShutdownReport } from "../../../src/bot/engine/shutdown-report.js";
import type { LeaseSettings } from "../../../src/config/shard-section.js";
import type { WalletLeases } from "../../../src/bot/guards/wallet-lease.js";
import { MemoryLeaseApi } from "../guards/memory-lease-api.js";
import { T0 } from "./fakes.js";

const W1 = "0xaaaa000000000000000000000000000000000001";
const W2 = "0xbbbb000000000000000000000000000000000002";
const LEASE: LeaseSettings = { namespace: "mm", durationSec: 15, renewSec: 5, skewMarginSec: 2 };

interface Line {
  level: string;
  msg: string;
  component?: string;
  wallet?: string;
  lease?: string;
}

function logged() {
  const lines: Line[] = [];
  const log = createLogger({ level: "debug", format: "json" }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { log, lines };
}

function setup(opts: { lease?: LeaseSettings | undefined; shard?: boolean; id?: string; index?: number } = {}) {
  const clock = new VirtualClock(T0);
  const api = new MemoryLeaseApi(() => clock.now());
  const { log, lines } = logged();
  const lost: string[] = [];
  const index = opts.index ?? 1;
  const config = {
    instance: { id: opts.id ?? `mm-prod-s${index}` },
    shard: opts.shard === false ? undefined : { index, count: 2, lease: "lease" in opts ? opts.lease : LEASE },
  };
  const leases = walletLeasesFor(config, { api, clock, log, onLost: (w, why) => void lost.push(`${w}: ${why}`) });
  return { clock, api, log, lines, lost, leases };
}

/** Advance in 250 ms steps so the renewals' promises settle between timers. */
async function run(clock: VirtualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) await clock.advance(250);
}

function report(wallet: string, over: Partial<WalletShutdownReport> = {}): WalletShutdownReport {
  return { ...notOursReport(wallet, "w"), cancelled: 2, rounds: 1, ...over };
}

describe("walletLeasesFor", () => {
  it("is undefined when unsharded or when shard.lease is off", () => {
    expect(setup({ shard: false }).leases).toBeUndefined();
    expect(setup({ lease: undefined }).leases).toBeUndefined();
  });

  it("names the leases after the base instance id and holds them as this replica's id, with the configured timing", async () => {
    const { leases, api, clock } = setup({ id: "mm-prod-s1", index: 1 });
    expect(leases!.nameOf(W1)).toBe(`mm-prod-${W1}`);
    await expect(leases!.acquire(W1)).resolves.toEqual({ acquired: true });
    expect(api.leases.get(`mm-prod-${W1}`)).toMatchObject({ holder: "mm-prod-s1", durationSec: 15, renewTimeMs: T0 });
    // renewSec 5: renewed at T0 + 5 s.
    await run(clock, 5_000);
    expect(api.leases.get(`mm-prod-${W1}`)!.renewTimeMs).toBe(T0 + 5_000);
    leases!.stop();
  });

  it("an id that does not end in its own shard suffix is its own base", () => {
    const { leases } = setup({ id: "solo", index: 0 });
    expect(leases!.nameOf(W1)).toBe(`solo-${W1}`);
  });

  it("logs under component lease and calls onLost when the lease is taken", async () => {
    const { leases, api, clock, lines, lost } = setup();
    await leases!.acquire(W1);
    api.takenBy(`mm-prod-${W1}`, "mm-prod-s7");
    await run(clock, 5_000);
    expect(lost).toEqual([`${W1}: taken by mm-prod-s7`]);
    const line = lines.find((l) => l.msg.startsWith("shard lease: lost the wallet's lease"));
    expect(line).toMatchObject({ level: "error", component: "lease", wallet: W1 });
  });

  it("without an API given: refuses to start outside a pod, naming what is missing", () => {
    const clock = new VirtualClock(T0);
    const base = { clock, log: logged().log, onLost: () => undefined };
    const config = { instance: { id: "mm-s0" }, shard: { index: 0, count: 2, lease: LEASE } };
    expect(() => walletLeasesFor(config, { ...base, inCluster: { env: {} } })).toThrow(/KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/);
  });

  it("in a pod: the configured namespace, else the service account's; neither: refused", () => {
    const clock = new VirtualClock(T0);
    const base = { clock, log: logged().log, onLost: () => undefined };
    const files = (ns: string | undefined) => (p: string) => {
      if (p.endsWith("/namespace") && ns !== undefined) return ns;
      if (p.endsWith("/token")) return "tok";
      if (p.endsWith("/ca.crt")) return "PEM";
      throw new Error(`ENOENT ${p}`);
    };
    const env = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };
    const config = (namespace: string | undefined) => ({ instance: { id: "mm-s0" }, shard: { index: 0, count: 2, lease: { ...LEASE, namespace } } });
    expect(walletLeasesFor(config("mine"), { ...base, inCluster: { env, readFile: files("pods") } })!.o.api.describe).toBe("https://10.96.0.1:443 namespace mine");
    expect(walletLeasesFor(config(undefined), { ...base, inCluster: { env, readFile: files("pods\n") } })!.o.api.describe).toBe("https://10.96.0.1:443 namespace pods");
    expect(() => walletLeasesFor(config(undefined), { ...base, inCluster: { env, readFile: files(undefined) } })).toThrow(
      "shard.lease: no namespace: set shard.lease.namespace, or mount the service account (its namespace file)",
    );
  });
});

describe("leaseMetricRows", () => {
  it("one row per wallet asked: its state, seconds since the last write (none before the first), losses", async () => {
    const { leases, api, clock } = setup();
    await leases!.acquire(W1);
    api.takenBy(`mm-prod-${W2}`, "mm-prod-s0");
    await leases!.acquire(W2);
    await run(clock, 2_000);
    expect(leaseMetricRows(leases!, clock.now())).toEqual([
      { wallet: W1, state: "held", renewAgeSec: 2, losses: 0 },
      { wallet: W2, state: "waiting", renewAgeSec: undefined, losses: 0 },
    ]);
    // A "now" before the last write (clocks read apart): 0, never negative.
    expect(leaseMetricRows(leases!, T0 - 500)[0]!.renewAgeSec).toBe(0);
    leases!.stop();
  });
});

describe("notOursReport", () => {
  it("is a clean report with nothing cancelled and nothing left", () => {
    const r = notOursReport(W1, "alpha");
    expect(r).toEqual({ wallet: W1, name: "alpha", cancelled: 0, unconfirmed: [], leftover: [], unresolved: [], notRecorded: [], finalWalk: { ok: true, open: 0 }, rounds: 0, errors: [] });
    expect(isClean(r)).toBe(true);
  });
});

describe("stopLeasedWallet", () => {
  function wallet(address: string) {
    const calls: string[] = [];
    return {
      calls,
      r: {
        wallet: address,
        name: "alpha",
        shutdown: (deadline: number) => {
          calls.push(`shutdown ${deadline}`);
          return Promise.resolve(report(address));
        },
        abandon: () => void calls.push("abandon"),
      },
    };
  }

  it("a wallet stopped for a lost lease: that stop's report, no second stop", async () => {
    const { leases, log } = setup();
    const { r, calls } = wallet(W1);
    const earlier = report(W1, { cancelled: 7 });
    const stop = Promise.resolve(earlier);
    expect(await stopLeasedWallet(r, T0 + 20_000, leases!, new Map([[W1, stop]]), log)).toBe(earlier);
    expect(calls).toEqual([]);
  });

  it("a wallet whose lease was never ours: dropped without a cancel, reported clean, logged", async () => {
    const { leases, log, lines } = setup();
    const { r, calls } = wallet(W1);
    expect(await stopLeasedWallet(r, T0 + 20_000, leases!, new Map(), log)).toEqual(notOursReport(W1, "alpha"));
    expect(calls).toEqual(["abandon"]);
    expect(lines.find((l) => l.msg === "shard lease: the wallet's lease was never ours; nothing of it cancelled")).toMatchObject({ level: "info", wallet: W1, lease: `mm-prod-${W1}` });
  });

  it("a wallet whose lease is ours: stopped as always, by the deadline given", async () => {
    const { leases, log } = setup();
    await leases!.acquire(W1);
    const { r, calls } = wallet(W1);
    expect(await stopLeasedWallet(r, T0 + 20_000, leases!, new Map(), log)).toMatchObject({ cancelled: 2 });
    expect(calls).toEqual([`shutdown ${T0 + 20_000}`]);
    leases!.stop();
  });
});

describe("releaseLeases", () => {
  async function twoHeld() {
    const s = setup();
    await s.leases!.acquire(W1);
    await s.leases!.acquire(W2);
    return s;
  }

  it("releases the lease of each wallet whose orders all ended (holder empty, duration 1 s)", async () => {
    const { leases, api, log } = await twoHeld();
    await releaseLeases(leases as WalletLeases, [report(W1), report(W2)], log);
    expect(api.leases.get(`mm-prod-${W1}`)).toMatchObject({ holder: undefined, durationSec: 1 });
    expect(api.leases.get(`mm-prod-${W2}`)).toMatchObject({ holder: undefined, durationSec: 1 });
    expect(leases!.view(W1)!.state).toBe("released");
  });

  it("leaves the lease of a wallet with orders not confirmed ended to expire, with a warning", async () => {
    const { leases, api, log, lines } = await twoHeld();
    const unclean = report(W2, { unconfirmed: [{ orderId: "o9", reason: "cancel_pending", detail: "cancel_pending" }], leftover: ["o9"] });
    expect(isClean(unclean)).toBe(false);
    await releaseLeases(leases!, [report(W1), unclean], log);
    expect(api.leases.get(`mm-prod-${W1}`)!.holder).toBeUndefined();
    expect(api.leases.get(`mm-prod-${W2}`)!.holder).toBe("mm-prod-s1");
    expect(lines.find((l) => l.msg === "shard lease: not released (orders not confirmed ended); it expires by itself")).toMatchObject({ level: "warn", wallet: W2 });
  });

  it("skips wallets it does not hold, and stops every renewal after", async () => {
    const { leases, api, log, clock } = await twoHeld();
    const before = api.calls.length;
    await releaseLeases(leases!, [report("0xcccc000000000000000000000000000000000003")], log);
    expect(api.calls.slice(before)).toEqual([]);
    await run(clock, 30_000);
    // W1 and W2 were neither released nor renewed: stopped.
    expect(api.calls.slice(before)).toEqual([]);
    expect(api.leases.get(`mm-prod-${W1}`)!.renewTimeMs).toBe(T0);
  });
});
