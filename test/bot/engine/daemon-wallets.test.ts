/**
 * The daemon's wallets (src/bot/engine/daemon-wallets.ts): starting them all at once within a
 * wait (startWallets, over stand-in runners and the virtual clock), and one runner per configured
 * wallet (buildWalletRunners).
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { createLogger } from "../../../src/log/index.js";
import { parseConfig } from "../../../src/config/index.js";
import { Rng } from "../../../src/core/rng.js";
import { WalletSigner } from "../../../src/signing/index.js";
import { buildWalletRunners, startWallets, type DaemonWalletParts, type WalletHold } from "../../../src/bot/engine/daemon-wallets.js";
import { DEFAULT_TUNING } from "../../../src/bot/engine/tuning.js";
import { NOOP_OBSERVER } from "../../../src/bot/observer.js";
import type { WalletRunner } from "../../../src/bot/engine/wallet-runner.js";

const T0 = Date.UTC(2026, 5, 1);

/** A runner whose start() ends when the test says (or after `ms` of clock time). */
function runner(clock: VirtualClock, name: string, how: { ms?: number; fail?: string } = {}) {
  const r = {
    name,
    wallet: `0x${name}`,
    started: [] as number[],
    start(signal: AbortSignal): Promise<void> {
      r.started.push(clock.now());
      void signal;
      return new Promise<void>((resolve, reject) => {
        if (how.ms === undefined) return;
        clock.setTimeout(() => (how.fail === undefined ? resolve() : reject(new Error(how.fail))), how.ms);
      });
    },
  };
  return r;
}
const asRunners = (rs: ReturnType<typeof runner>[]) => rs as unknown as WalletRunner[];

function logged() {
  const lines: { level: string; msg: string; wallet?: string; err?: string }[] = [];
  const log = createLogger({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as { level: string; msg: string }) });
  return { lines, log };
}

function run(rs: ReturnType<typeof runner>[], clock: VirtualClock, waitMs: number, opts: { signal?: AbortSignal; hold?: WalletHold; log?: ReturnType<typeof logged> } = {}) {
  const l = opts.log ?? logged();
  let doneAt: number | undefined;
  const p = startWallets(asRunners(rs), opts.signal ?? new AbortController().signal, clock, waitMs, l.log, opts.hold).then((r) => ((doneAt = clock.now()), r));
  return { p, doneAt: () => doneAt, lines: l.lines };
}

describe("startWallets", () => {
  it.each([
    { name: "every wallet ready before the wait is over: returns when the last is", ms: [100, 300], waitMs: 1_000, ready: [true, true], at: 300 },
    { name: "a wallet slower than the wait: returns at the wait with it not ready", ms: [100, 5_000], waitMs: 1_000, ready: [true, false], at: 1_000 },
  ])("$name", async ({ ms, waitMs, ready, at }) => {
    const clock = new VirtualClock(T0);
    const rs = ms.map((x, i) => runner(clock, `w${i}`, { ms: x }));
    const r = run(rs, clock, waitMs);
    await clock.advance(waitMs);
    const report = await r.p;
    expect(r.doneAt()).toBe(T0 + at);
    expect(report.map((x) => [x.name, x.ready])).toEqual(rs.map((x, i) => [x.name, ready[i]]));
    // every wallet started at once
    expect(rs.map((x) => x.started)).toEqual(rs.map(() => [T0]));
    // the wait's timer is cleared (only a slow wallet's own timer may be left)
    expect(clock.pending()).toBe(ms.filter((x) => x > at).length);
  });

  it("a wallet that fails: its error, logged at error level; the others unaffected", async () => {
    const clock = new VirtualClock(T0);
    const rs = [runner(clock, "ok", { ms: 10 }), runner(clock, "bad", { ms: 20, fail: "vault not found" })];
    const r = run(rs, clock, 1_000);
    await clock.advance(50);
    const report = await r.p;
    expect(report).toEqual([
      { name: "ok", ready: true },
      { name: "bad", ready: false, error: "vault not found" },
    ]);
    expect(r.lines.filter((l) => l.level === "error").map((l) => [l.msg, l.wallet, l.err])).toEqual([["wallet start-up failed", "0xbad", "vault not found"]]);
  });

  it("a failure after the abort (shutdown) is reported but not logged", async () => {
    const clock = new VirtualClock(T0);
    const ac = new AbortController();
    const rs = [runner(clock, "bad", { ms: 20, fail: "aborted" })];
    const r = run(rs, clock, 1_000, { signal: ac.signal });
    ac.abort();
    await clock.advance(50);
    expect((await r.p)[0]).toEqual({ name: "bad", ready: false, error: "aborted" });
    expect(r.lines.filter((l) => l.level === "error")).toEqual([]);
  });

  it("a held wallet (shard hand-off) starts when released, without holding the others back", async () => {
    const clock = new VirtualClock(T0);
    const rs = [runner(clock, "free", { ms: 10 }), runner(clock, "held", { ms: 10 })];
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    const hold: WalletHold = (wallet) => Promise.resolve(wallet === "0xheld" ? { until } : undefined);
    const r = run(rs, clock, 1_000, { hold });
    await clock.advance(20);
    const report = await r.p;
    expect(r.doneAt()).toBe(T0 + 10);
    expect(report).toEqual([
      { name: "free", ready: true },
      { name: "held", ready: false },
    ]);
    expect(rs[1]!.started).toEqual([]);
    await clock.advance(100);
    release();
    await clock.advance(0);
    expect(rs[1]!.started).toEqual([T0 + 120]);
  });

  it("a held wallet that then fails to start: logged at error level", async () => {
    const clock = new VirtualClock(T0);
    const rs = [runner(clock, "held", { ms: 10, fail: "no key" })];
    const l = logged();
    const r = run(rs, clock, 1_000, { hold: () => Promise.resolve({ until: Promise.resolve() }), log: l });
    // the start-up does not wait for a held wallet
    expect((await r.p)[0]).toMatchObject({ name: "held", ready: false });
    expect(r.doneAt()).toBe(T0);
    await clock.advance(20);
    expect(l.lines.filter((x) => x.level === "error").map((x) => [x.wallet, x.err])).toEqual([["0xheld", "no key"]]);
  });

  it("a hold that throws: the wallet starts now", async () => {
    const clock = new VirtualClock(T0);
    const rs = [runner(clock, "w", { ms: 10 })];
    const r = run(rs, clock, 1_000, {
      hold: () => Promise.reject(new Error("lease store down")),
    });
    await clock.advance(10);
    expect(await r.p).toEqual([{ name: "w", ready: true }]);
  });

  it("no wallets: an empty report at once", async () => {
    const clock = new VirtualClock(T0);
    const r = run([], clock, 1_000);
    expect(await r.p).toEqual([]);
    expect(r.doneAt()).toBe(T0);
    expect(clock.pending()).toBe(0);
  });
});

describe("buildWalletRunners", () => {
  function setup(orderSigners?: DaemonWalletParts["orderSigners"]) {
    const config = parseConfig("mode: simulator\nsimulator:\n  seed: 3\ninstance:\n  id: t\nwallets:\n  - name: a\n  - name: b\nstrategy:\n  name: ladder\n", "test.yaml", {}, { baseDir: "/cfg" });
    const forWallet: string[] = [];
    const forks: string[] = [];
    const rng = new Rng(1);
    const fork = rng.fork.bind(rng);
    rng.fork = (label: string) => (forks.push(label), fork(label));
    const parts = {
      config,
      client: { forWallet: (a: string) => (forWallet.push(a), {}) },
      rng,
      log: createLogger({ level: "silent" }),
      clock: new VirtualClock(T0),
      tuning: DEFAULT_TUNING,
      session: "s1",
      risk: { core: { facade: { limits: {}, tuning: {} } }, hook: undefined },
      observer: NOOP_OBSERVER,
      orderSigners,
    } as unknown as DaemonWalletParts;
    return { config, parts, forWallet, forks };
  }

  it("one runner per configured wallet, in config order: its index, name, lower-cased address, client view and Rng fork", () => {
    const { config, parts, forWallet, forks } = setup();
    const runners = buildWalletRunners(parts);
    expect(runners.map((r) => [r.index, r.name, r.wallet])).toEqual(config.wallets.map((w, i) => [i, w.name, w.address.toLowerCase()]));
    expect(forWallet).toEqual(config.wallets.map((w) => w.address));
    expect(forks).toEqual(["wallet:0", "wallet:1"]);
  });

  it("a wallet whose key is not its configured address is refused, naming the wallet", () => {
    const { config, parts } = setup();
    config.wallets[1] = { ...config.wallets[1]!, address: config.wallets[0]!.address };
    expect(() => buildWalletRunners(parts)).toThrow(/wallet b privateKey/);
  });

  it("order signers given (backtests): asked once per wallet, the configured keys not used", () => {
    const asked: string[] = [];
    const { config, parts } = setup((w) => (asked.push(`${w.name}:${w.address}`), WalletSigner.fromPrivateKey(`0x${"22".repeat(32)}`)));
    // a key that would be refused if it were used
    config.wallets[1] = { ...config.wallets[1]!, address: config.wallets[0]!.address };
    expect(buildWalletRunners(parts)).toHaveLength(2);
    expect(asked).toEqual(config.wallets.map((w) => `${w.name}:${w.address}`));
  });
});
