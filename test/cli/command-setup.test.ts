/**
 * What `mm run` and `mm record` do before they start (src/cli/command-setup.ts): the config read
 * from its file, or exit code 2 with its problems written as `mm check-config` writes them (never a
 * secret in them); and the clock the config asks for: the real one, or a virtual clock started at
 * the real time and driven from it at simulator.speed (real timers faked here), until stopDriver.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { commandClock, loadCommandConfig } from "../../src/cli/command-setup.js";
import { RealClock, VirtualClock, flushMicrotasks } from "../../src/core/clock.js";
import { API_KEY, tempDir } from "../config/fixtures.js";

const SIM = "mode: simulator\nwallets:\n  - name: a\nstrategy:\n  name: ladder\n";
const T0 = Date.UTC(2026, 5, 1, 12);

/** Real timers and Date faked; setImmediate left real, so the virtual clock's own turns run. */
function fakeRealTime(): void {
  vi.useFakeTimers({ now: T0, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
}

/** `ms` of real time in the driver's 50 ms ticks, each tick's advance let finish. */
async function realTime(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 50) {
    await vi.advanceTimersByTimeAsync(50);
    await flushMicrotasks(10);
  }
}

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
  vi.useRealTimers();
});

function file(text: string): string {
  const d = tempDir({ "mm.yaml": text });
  dirs.push(d);
  return d.path("mm.yaml");
}

function load(path: string) {
  let err = "";
  const r = loadCommandConfig(path, (t) => (err += t));
  return { r, err };
}

describe("loadCommandConfig", () => {
  it("a valid file: its config, nothing written", () => {
    const { r, err } = load(file(SIM));
    expect(r).not.toBe(2);
    expect(r !== 2 && r.mode).toBe("simulator");
    expect(r !== 2 && r.wallets.map((w) => w.name)).toEqual(["a"]);
    expect(err).toBe("");
  });

  it("an invalid file: 2, its problems, then '<file>: invalid'", () => {
    const path = file(SIM.replace("ladder", "no_such_strategy"));
    const { r, err } = load(path);
    expect(r).toBe(2);
    expect(err).toContain("no_such_strategy");
    expect(err.endsWith(`\n${path}: invalid\n`)).toBe(true);
  });

  it("a missing file: 2, saying it cannot be read", () => {
    const path = `${file(SIM)}.missing`;
    const { r, err } = load(path);
    expect(r).toBe(2);
    expect(err).toContain("cannot read config file: no such file");
    expect(err).toContain(`${path}: invalid`);
  });

  it("a problem quoting something shaped like an API key: the key is scrubbed", () => {
    const { r, err } = load(file(`${SIM}${API_KEY}: 1\n`));
    expect(r).toBe(2);
    expect(err).toContain("unknown key");
    expect(err).not.toContain(API_KEY.split("_")[3]!);
    expect(err).toContain("[REDACTED]");
  });
});

describe("commandClock", () => {
  it("simulator.clock realtime (the default): the real clock, nothing to stop", () => {
    const { r } = load(file(SIM));
    const c = commandClock(r as Exclude<typeof r, 2>);
    expect(c.clock).toBeInstanceOf(RealClock);
    expect(c.clock).toBe(c.real);
    expect(c.stopDriver).toBeUndefined();
  });

  it("simulator.clock virtual: a virtual clock from the real time, advanced at simulator.speed until stopped", async () => {
    fakeRealTime();
    const { r } = load(file(SIM.replace("mode: simulator\n", "mode: simulator\nsimulator:\n  clock: virtual\n  speed: 20\n")));
    const c = commandClock(r as Exclude<typeof r, 2>);
    expect(c.clock).toBeInstanceOf(VirtualClock);
    expect(c.real).toBeInstanceOf(RealClock);
    expect(c.clock.now()).toBe(T0);
    // 100 ms of real time: two 50 ms ticks, each 50 x 20 ms of virtual time.
    await realTime(100);
    expect(c.clock.now()).toBe(T0 + 2_000);
    c.stopDriver!();
    await realTime(1_000);
    expect(c.clock.now()).toBe(T0 + 2_000);
  });

  it("virtual without a speed: one virtual ms per real ms", async () => {
    fakeRealTime();
    const { r } = load(file(SIM.replace("mode: simulator\n", "mode: simulator\nsimulator:\n  clock: virtual\n")));
    const c = commandClock(r as Exclude<typeof r, 2>);
    await realTime(500);
    expect(c.clock.now()).toBe(T0 + 500);
    c.stopDriver!();
  });
});
