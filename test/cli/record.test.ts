import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRecordArgs, recordCommand, type RecordIo } from "../../src/cli/record.js";
import { readDataSet } from "../../src/data/index.js";

function io(): RecordIo & { out: string; err: string; stop: ((s: string) => void) | undefined } {
  const r = {
    out: "",
    err: "",
    stop: undefined as ((s: string) => void) | undefined,
    stdout: (t: string) => (r.out += t),
    stderr: (t: string) => (r.err += t),
    onStopSignal: (h: (s: string) => void) => {
      r.stop = h;
      return () => undefined;
    },
  };
  return r;
}

/** The demo config on a fast virtual clock (the embedded simulator's default scenario). */
function simConfig(speed = 400): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-rec-cli-"));
  const text = readFileSync("configs/demo.yaml", "utf8").replace(/clock: realtime.*/, `clock: virtual\n  speed: ${speed}`);
  const file = join(dir, "sim.yaml");
  writeFileSync(file, text);
  return file;
}

describe("mm record: flags", () => {
  it.each([
    [["--out", "d"], "--config FILE is required"],
    [["--config", "c.yaml"], "--out DIR is required"],
    [["--config", "c.yaml", "--out", "d", "--duration", "0m"], "--duration: "],
    [["--config", "c.yaml", "--out", "d", "--rotate-mb", "-1"], "--rotate-mb: must be a number of MiB above 0"],
    [["--config", "c.yaml", "--out", "d", "--rotate-mb", "lots"], "--rotate-mb: must be a number"],
    [["--config", "c.yaml", "--out", "d", "--log-level", "loud"], "--log-level must be one of"],
    [["--config", "--out", "d"], "--config needs a value"],
    [["--config", "c.yaml", "--out", "d", "--fast"], "unknown option --fast"],
  ])("%j is refused: %s", (argv, msg) => {
    expect(parseRecordArgs(argv)).toContain(msg);
  });

  it("bad flags exit 2 with the problem and the usage; --help exits 0", async () => {
    const a = io();
    expect(await recordCommand(["--out", "x"], a)).toBe(2);
    expect(a.err).toContain("mm record: --config FILE is required");
    expect(a.err).toContain("Usage: mm record");
    const b = io();
    expect(await recordCommand(["--help"], b)).toBe(0);
    expect(b.out).toContain("--rotate-mb N");
  });

  it("a config that does not load exits 2 naming the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-rec-cli-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "mode: simulator\nmarkets: { maxMarkets: -3 }\n");
    const a = io();
    expect(await recordCommand(["--config", file, "--out", join(dir, "ds")], a)).toBe(2);
    expect(a.err).toContain(`${file}: invalid`);
  });
});

describe("mm record: a run against the embedded simulator", () => {
  it("records for --duration, seals, exits 0; the data set holds rows, books and trades; a second run resumes it", async () => {
    const config = simConfig();
    const out = join(mkdtempSync(join(tmpdir(), "mm-rec-cli-")), "ds");
    const a = io();
    expect(await recordCommand(["--config", config, "--out", out, "--duration", "2m", "--log-level", "silent"], a)).toBe(0);
    expect(a.out).toMatch(/mm record: recording \d+ markets/);
    expect(a.out).toMatch(/stopped \(duration\): \d+ books, \d+ trades/);
    const first = await readDataSet(out);
    expect(first.stats.unsealed).toBe(0);
    const kinds = new Set(first.events.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(["book", "market", "trade"]);

    const b = io();
    expect(await recordCommand(["--config", config, "--out", out, "--duration", "30s", "--log-level", "silent"], b)).toBe(0);
    const second = await readDataSet(out);
    expect(second.stats.segments).toBe(first.stats.segments + 1);
    expect(second.events.length).toBeGreaterThan(first.events.length);
    expect(second.events.map((e) => e.seq)).toEqual(second.events.map((_, i) => i + 1));
  }, 60_000);

  it("the stop signal seals the segment and exits 0", async () => {
    const config = simConfig(50);
    const out = join(mkdtempSync(join(tmpdir(), "mm-rec-cli-")), "ds");
    const a = io();
    const done = recordCommand(["--config", config, "--out", out, "--log-level", "silent"], a);
    while (!a.out.includes("recording")) await new Promise((r) => setTimeout(r, 20));
    a.stop!("SIGTERM");
    expect(await done).toBe(0);
    expect(a.out).toContain("stopped (SIGTERM)");
    const { stats, events } = await readDataSet(out);
    expect(stats.unsealed).toBe(0);
    expect(events.length).toBeGreaterThan(0);
  }, 60_000);
});
