/** The flag layer every command parses with (src/cli/args.ts), and --log-level's precedence in mm run. */
import { describe, expect, it } from "vitest";
import { logFormatProblem, parseFlags, usageError } from "../../src/cli/args.js";
import { parseRunArgs } from "../../src/cli/run.js";

const SPECS = { config: { type: "string" }, compare: { type: "boolean" }, "log-level": { type: "string" } } as const;

describe("parseFlags", () => {
  it("takes --flag value, --flag=value and switches", () => {
    const p = parseFlags(["--config", "a.yaml", "--compare", "--log-level=debug"], SPECS);
    expect(typeof p === "string" ? p : Object.fromEntries(p.values)).toEqual({ config: "a.yaml", compare: true, "log-level": "debug" });
  });

  it.each([
    [["--confg", "a"], "unknown option --confg (did you mean --config?)"],
    [["--zzzzzz"], "unknown option --zzzzzz"],
    [["-x"], "unknown option -x"],
    [["--config"], "--config needs a value"],
    [["--config", "--compare"], "--config needs a value"],
    [["--config="], "--config needs a value"],
    [["--config", "a", "--config", "b"], "--config given twice"],
    [["--compare=no"], "--compare takes no value"],
    [["stray"], 'unexpected argument "stray"'],
    [["--log-level", "verbose"], '--log-level must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
  ])("%j: %s", (argv, message) => {
    expect(parseFlags(argv, SPECS)).toBe(message);
  });

  it("-h / --help wins over any other problem; `--` ends the options; - alone is a value", () => {
    expect(parseFlags(["--nope", "-h"], SPECS)).toMatchObject({ help: true });
    expect(parseFlags(["--", "--config"], SPECS, { maxPositionals: 1 })).toMatchObject({ positionals: ["--config"] });
    expect(parseFlags(["--config", "-"], SPECS)).toMatchObject({ values: new Map([["config", "-"]]) });
  });

  it("a usage error: the problem, the synopsis, where the help is", () => {
    expect(usageError("run", "unknown option --x", "Usage: mm run [--config FILE]\n\nLong text.\n")).toBe(
      "mm run: unknown option --x\nUsage: mm run [--config FILE]\nRun `mm help run` for the options.\n",
    );
  });

  it("MM_LOG_FORMAT is checked", () => {
    expect(logFormatProblem({})).toBeUndefined();
    expect(logFormatProblem({ MM_LOG_FORMAT: "pretty" })).toBeUndefined();
    expect(logFormatProblem({ MM_LOG_FORMAT: "text" })).toBe('MM_LOG_FORMAT must be json or pretty (got "text")');
  });
});

describe("mm run flags", () => {
  it("--log-level is kept for the logger (it wins over MM_LOG_LEVEL and log.level, applied with the config)", () => {
    expect(parseRunArgs(["--log-level", "warn"])).toEqual({ config: undefined, statusEverySec: 5, logLevel: "warn" });
    expect(parseRunArgs(["--config", "c.yaml", "--status-every", "0"])).toEqual({ config: "c.yaml", statusEverySec: 0, logLevel: undefined });
    expect(parseRunArgs(["--status-every", "-1"])).toBe('--status-every needs a number of seconds >= 0 (got "-1")');
  });
});
