/**
 * `mm paper`'s command line (src/cli/paper.ts): the flags read into the run's settings (defaults:
 * a status line every 5 s, the config's queue model and latency), each bad flag refused with what
 * is wrong, and the command's refusals before anything runs (exit 2): a usage error with the
 * synopsis, MM_LOG_FORMAT not json or pretty, an invalid config, a config that is not mode: paper.
 * A run against a platform: test/paper/cli-http.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { USAGE, paperCommand, parsePaperArgs } from "../../src/cli/paper.js";
import { tempDir } from "../config/fixtures.js";

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
  vi.unstubAllEnvs();
});

function io() {
  let out = "";
  let err = "";
  const signals: number[] = [];
  return {
    io: { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t), onStopSignal: () => (signals.push(1), () => undefined), exitNow: () => undefined },
    out: () => out,
    err: () => err,
    signals,
  };
}

describe("parsePaperArgs", () => {
  it("--config alone: a status line every 5 s, nothing else set", () => {
    expect(parsePaperArgs(["--config", "p.yaml"])).toEqual({ config: "p.yaml", statusEverySec: 5, logLevel: undefined });
  });

  it("reads every flag", () => {
    expect(
      parsePaperArgs(["--config", "p.yaml", "--out", "r.json", "--html", "r.html", "--queue", "prob-power:2", "--latency", "20,35", "--duration", "1h30m", "--status-every", "0.5", "--log-level", "debug"]),
    ).toEqual({
      config: "p.yaml",
      out: "r.json",
      html: "r.html",
      queue: { kind: "prob-power", n: 2 },
      latency: { entryMs: 20, responseMs: 35 },
      durationMs: 5_400_000,
      statusEverySec: 0.5,
      logLevel: "debug",
    });
    expect(parsePaperArgs(["--config", "p.yaml", "--queue", "risk-averse", "--status-every", "0"])).toMatchObject({ queue: { kind: "risk-averse" }, statusEverySec: 0 });
  });

  it("refuses each bad value, naming the flag", () => {
    expect(parsePaperArgs([])).toBe("--config FILE is required (a config with mode: paper)");
    expect(parsePaperArgs(["--config", "p.yaml", "--queue", "fifo"])).toMatch(/^--queue: expected risk-averse, prob-power:N, prob-log or prob-power-fraction:N \(got "fifo"\)/);
    expect(parsePaperArgs(["--config", "p.yaml", "--latency", "20"])).toBe('--latency: expected ENTRY_MS,RESPONSE_MS in whole ms (got "20")');
    expect(parsePaperArgs(["--config", "p.yaml", "--latency", "20,1.5"])).toMatch(/^--latency: expected ENTRY_MS,RESPONSE_MS/);
    expect(parsePaperArgs(["--config", "p.yaml", "--latency", "1234567,1"])).toMatch(/^--latency: expected ENTRY_MS,RESPONSE_MS/);
    expect(parsePaperArgs(["--config", "p.yaml", "--duration", "soon"])).toMatch(/^--duration: expected a duration such as/);
    expect(parsePaperArgs(["--config", "p.yaml", "--duration", "0s"])).toMatch(/^--duration: must be longer than zero/);
    expect(parsePaperArgs(["--config", "p.yaml", "--status-every", "-1"])).toBe('--status-every needs a number of seconds >= 0 (got "-1")');
    expect(parsePaperArgs(["--config", "p.yaml", "--status-every", "5s"])).toBe('--status-every needs a number of seconds >= 0 (got "5s")');
    expect(parsePaperArgs(["--config", "p.yaml", "--bogus"])).toMatch(/--bogus/);
    expect(parsePaperArgs(["--config", "p.yaml", "--log-level", "loud"])).toMatch(/--log-level/);
  });
});

describe("paperCommand refusals (exit 2, nothing run)", () => {
  it("--help prints the usage, exit 0", async () => {
    const a = io();
    expect(await paperCommand(["--help"], a.io)).toBe(0);
    expect(a.out()).toBe(USAGE);
  });

  it("a usage error: the problem, the synopsis and where the help is", async () => {
    const a = io();
    expect(await paperCommand(["--config", "p.yaml", "--latency", "x"], a.io)).toBe(2);
    expect(a.err()).toMatch(/^mm paper: --latency: expected ENTRY_MS,RESPONSE_MS/);
    expect(a.err()).toContain("Usage: mm paper --config FILE");
    expect(a.err()).toContain("mm help paper");
  });

  it("MM_LOG_FORMAT neither json nor pretty", async () => {
    vi.stubEnv("MM_LOG_FORMAT", "xml");
    const a = io();
    expect(await paperCommand(["--config", "p.yaml"], a.io)).toBe(2);
    expect(a.err()).toBe('mm paper: MM_LOG_FORMAT must be json or pretty (got "xml")\n');
  });

  it("an invalid config, as check-config reports it", async () => {
    const d = tempDir({ "p.yaml": "mode: paper\nstrategy: { name: nope }\n" });
    dirs.push(d);
    const a = io();
    expect(await paperCommand(["--config", d.path("p.yaml")], a.io)).toBe(2);
    expect(a.err()).toContain(`${d.path("p.yaml")}: invalid`);
    expect(a.signals).toEqual([]);
  });

  it("a config that is not mode: paper", async () => {
    const d = tempDir({ "s.yaml": "mode: simulator\nwallets:\n  - name: a\nstrategy:\n  name: ladder\n" });
    dirs.push(d);
    const a = io();
    expect(await paperCommand(["--config", d.path("s.yaml")], a.io)).toBe(2);
    expect(a.err()).toBe(`mm paper: ${d.path("s.yaml")}: mode simulator: paper trading needs a config with mode: paper (docs/backtest.md, "Paper trading")\n`);
    expect(a.signals).toEqual([]);
  });
});
