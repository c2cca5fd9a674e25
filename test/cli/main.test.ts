/**
 * The `mm` entry point: --version, help, -h on every command, "did you mean" for commands and
 * flags, exit codes. Everything the commands write is captured (a passing run prints nothing).
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COMMANDS, helpText, main, version, type MainIo } from "../../src/cli/main.js";

let out: string[];
let err: string[];
const io: MainIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) };

beforeEach(() => {
  out = [];
  err = [];
  // Commands loaded by main write through their own process io: capture that too.
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

const stdout = (): string => out.join("");
const stderr = (): string => err.join("");

describe("mm command line", () => {
  it("lists every command in --help", async () => {
    const text = helpText();
    for (const name of Object.keys(COMMANDS)) expect(text).toContain(name);
    expect(await main(["--help"], io)).toBe(0);
    expect(stdout()).toBe(text);
    expect(await main(["help"], io)).toBe(0);
  });

  it("no command: the help on stderr, exit 2", async () => {
    expect(await main([], io)).toBe(2);
    expect(stderr()).toBe(helpText());
    expect(stdout()).toBe("");
  });

  it("--version, -V and version print the package's version", async () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(version()).toBe(pkg.version);
    for (const v of ["--version", "-V", "version"]) {
      out = [];
      expect(await main([v], io)).toBe(0);
      expect(stdout()).toBe(`mm ${pkg.version}\n`);
    }
  });

  it("exits 2 on an unknown command, with a suggestion when one is close", async () => {
    expect(await main(["no-such-command"], io)).toBe(2);
    expect(stderr()).toBe('mm: unknown command "no-such-command"\nRun `mm --help` for the list of commands.\n');
    err = [];
    expect(await main(["bactest"], io)).toBe(2);
    expect(stderr()).toContain('mm: unknown command "bactest" (did you mean backtest?)');
    err = [];
    expect(await main(["--verison"], io)).toBe(2);
    expect(stderr()).toContain("mm: unknown option --verison (did you mean --version?)");
    expect(stdout()).toBe("");
  });

  it.each(Object.keys(COMMANDS))("mm help %s, -h and --help print the command's usage, exit 0", async (name) => {
    expect(await main(["help", name], io)).toBe(0);
    const help = stdout();
    expect(help).toMatch(new RegExp(`^Usage: mm ${name}`));
    for (const argv of [[name, "-h"], [name, "--help"], [name, "--no-such-flag", "-h"]]) {
      out = [];
      expect(await main(argv, io)).toBe(0);
      expect(stdout()).toBe(help);
    }
    expect(stderr()).toBe("");
  });

  it("mm help with an unknown command or too many names: exit 2", async () => {
    expect(await main(["help", "rnu"], io)).toBe(2);
    expect(stderr()).toContain('unknown command "rnu" (did you mean run?)');
    expect(await main(["help", "run", "sim"], io)).toBe(2);
  });

  it.each([
    [["run", "--confg", "x.yaml"], "mm run: unknown option --confg (did you mean --config?)"],
    [["run", "--config"], "mm run: --config needs a value"],
    [["run", "--log-level", "loud"], "mm run: --log-level must be one of fatal, error, warn, info, debug, trace, silent"],
    [["sim", "--prot", "1"], "mm sim: unknown option --prot (did you mean --port?)"],
    [["record", "--config", "a", "--out", "b", "--rotate-mb=1", "--duraton", "1m"], "mm record: unknown option --duraton (did you mean --duration?)"],
    [["backtest", "--engnie", "fast"], "mm backtest: unknown option --engnie (did you mean --engine?)"],
    [["backtest", "--compare=yes"], "mm backtest: --compare takes no value"],
    [["check-config"], "mm check-config: missing FILE"],
    [["check-config", "a.yaml", "b.yaml"], 'mm check-config: unexpected argument "b.yaml"'],
    [["check-config", "a.yaml", "--log-levle", "info"], "mm check-config: unknown option --log-levle (did you mean --log-level?)"],
  ])("%j: a usage error naming the flag, the synopsis, exit 2", async (argv, message) => {
    expect(await main(argv, io)).toBe(2);
    const text = stderr();
    expect(text.startsWith(message)).toBe(true);
    expect(text).toContain(`Usage: mm ${argv[0]}`);
    expect(text).toContain(`Run \`mm help ${argv[0]}\` for the options.`);
    expect(stdout()).toBe("");
  });
});
