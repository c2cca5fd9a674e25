/**
 * Every config problem in one pass (the strategy's name and params, the cross-field rules of the
 * sections that are valid, bad environment overrides, next to the schema's own problems), "did
 * you mean" for misspelt keys and values, and the MM_LOG_LEVEL / MM_METRICS_HOST /
 * MM_METRICS_PORT overrides (flag > env > file > default).
 */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/index.js";
import { applyEnvOverrides, envLogLevel } from "../../src/config/env-overrides.js";
import { closest, editDistance } from "../../src/config/suggest.js";

function problems(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, "c.yaml", env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
}

const SIM = "mode: simulator\nstrategy:\n  name: ladder\n";

describe("every problem in one pass", () => {
  it("a misspelt strategy name is reported with the schema's problems, not after they are fixed", () => {
    const text = ["mode: simulator", "strategy:", "  name: ladderr", "quoting:", "  refreshMs: 10", "metrics:", "  prot: 3", ""].join("\n");
    expect(problems(text)).toEqual([
      'c.yaml:3: strategy.name: unknown strategy "ladderr"; known strategies: avellaneda-stoikov, inventory-skew, ladder (did you mean ladder?)',
      "c.yaml:5: quoting.refreshMs: Too small: expected number to be >=50",
      "c.yaml:7: metrics.prot: unknown key (did you mean port?)",
    ]);
  });

  it("strategy params, the cross-field rules of valid sections and bad environment values join the schema's problems", () => {
    const text = [SIM + "  params: { levels: 0 }", "risk:", '  maxNotionalPerWallet: "6000"', "wallets:", "  - name: a", "    markets: [m1]", "  - name: b", "    markets: [m1]", "quoting: { refreshMs: 1 }", ""].join("\n");
    const lines = problems(text, { MM_METRICS_PORT: "http" });
    expect(lines).toContain("c.yaml:4: strategy.params.levels: Too small: expected number to be >=1");
    expect(lines).toContain("c.yaml:6: risk.maxNotionalPerWallet: must not exceed risk.maxNotionalTotal");
    expect(lines.some((l) => l.includes("wallets[1].markets[0]: market m1 is already assigned to wallet a"))).toBe(true);
    expect(lines).toContain("c.yaml:12: quoting.refreshMs: Too small: expected number to be >=50");
    expect(lines).toContain('c.yaml: metrics.port: MM_METRICS_PORT must be a port number 0..65535 (got "http")');
    expect(lines).toHaveLength(5);
  });

  it("says each problem once", () => {
    const lines = problems(`${SIM}wallets:\n  - name: a\n    markets: [m]\n  - name: b\n    markets: [m]\n`);
    expect(lines).toEqual(["c.yaml:8: wallets[1].markets[0]: market m is already assigned to wallet a (one wallet per market avoids self-trades)"]);
  });
});

describe("did you mean", () => {
  it("for keys at any depth, enum values and the mode", () => {
    expect(problems(`${SIM}risk:\n  maxOrderSise: "5"\n`)).toEqual(["c.yaml:5: risk.maxOrderSise: unknown key (did you mean maxOrderSize?)"]);
    expect(problems(`${SIM}simulator: { clock: virtaul }\n`)[0]).toBe('c.yaml:4: simulator.clock: expected one of "realtime" | "virtual" (did you mean virtual?)');
    expect(problems("mode: simulater\n")[0]).toBe('c.yaml:1: mode: expected one of "live" | "simulator" | "paper" (did you mean simulator?)');
    expect(problems(`${SIM}stratgy: {}\n`)[0]).toBe("c.yaml:4: stratgy: unknown key (did you mean strategy?)");
    // Nothing close: no guess.
    expect(problems(`${SIM}zzz: 1\n`)[0]).toBe("c.yaml:4: zzz: unknown key");
  });

  it("closeness: a swap of neighbours is one edit; far names are not offered", () => {
    expect(editDistance("ladedr", "ladder")).toBe(1);
    expect(editDistance("Config", "config")).toBe(0);
    expect(closest("--confg", ["--config", "--out"])).toBe("--config");
    expect(closest("run", ["sim", "record"])).toBeUndefined();
    expect(closest("bactest", ["backtest", "record"])).toBe("backtest");
  });
});

describe("environment overrides", () => {
  it("MM_LOG_LEVEL, MM_METRICS_HOST and MM_METRICS_PORT win over the file; empty counts as unset", () => {
    const text = `${SIM}metrics: { host: 127.0.0.1, port: 9464 }\nlog: { level: info }\n`;
    const c = parseConfig(text, "c.yaml", { MM_LOG_LEVEL: "debug", MM_METRICS_HOST: "0.0.0.0", MM_METRICS_PORT: "9500" });
    expect(c.log.level).toBe("debug");
    expect(c.metrics).toMatchObject({ host: "0.0.0.0", port: 9500 });
    const same = parseConfig(text, "c.yaml", { MM_LOG_LEVEL: "", MM_METRICS_PORT: " " });
    expect(same.log.level).toBe("info");
    expect(same.metrics.port).toBe(9464);
    // Over the defaults when the file says nothing.
    expect(parseConfig(SIM, "c.yaml", { MM_METRICS_PORT: "0" }).metrics.port).toBe(0);
  });

  it("a bad value names the variable, at the line of the setting it overrides", () => {
    const text = `${SIM}log:\n  level: info\n`;
    expect(problems(text, { MM_LOG_LEVEL: "verbose", MM_METRICS_PORT: "65536", MM_METRICS_HOST: "a b" })).toEqual([
      "c.yaml:5: log.level: MM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got \"verbose\")",
      'c.yaml: metrics.host: MM_METRICS_HOST must be a host name or address without spaces (got "a b")',
      'c.yaml: metrics.port: MM_METRICS_PORT must be a port number 0..65535 (got "65536")',
    ]);
    expect(envLogLevel({ MM_LOG_LEVEL: "wrn" })).toEqual({ problem: 'MM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "wrn") (did you mean warn?)' });
  });

  it("does not change its input, and leaves a non-mapping section to the schema", () => {
    const input = { metrics: { port: 1 } };
    const out = applyEnvOverrides(input, { MM_METRICS_PORT: "2" });
    expect(input.metrics.port).toBe(1);
    expect(out.value).toEqual({ metrics: { port: 2 } });
    expect(applyEnvOverrides({ metrics: "x" }, { MM_METRICS_PORT: "2" }).value).toEqual({ metrics: "x" });
  });
});
