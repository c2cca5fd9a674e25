/**
 * MM_LOG_LEVEL, MM_METRICS_HOST and MM_METRICS_PORT written over the config's plain value: each
 * set variable replaces its setting, an empty one counts as unset, a bad one is a problem naming
 * the variable and the setting's path (the setting left as it was), and the input is not changed.
 */
import { describe, expect, it } from "vitest";
import { ENV_OVERRIDES, applyEnvOverrides, envLogLevel } from "../../src/config/env-overrides.js";

describe("envLogLevel", () => {
  it("unset or blank: undefined; a known level, trimmed: that level", () => {
    expect(envLogLevel({})).toBeUndefined();
    expect(envLogLevel({ MM_LOG_LEVEL: "" })).toBeUndefined();
    expect(envLogLevel({ MM_LOG_LEVEL: "   " })).toBeUndefined();
    expect(envLogLevel({ MM_LOG_LEVEL: " debug " })).toBe("debug");
    expect(envLogLevel({ MM_LOG_LEVEL: "silent" })).toBe("silent");
  });

  it("an unknown level lists the known ones; without a close one, no suggestion", () => {
    expect(envLogLevel({ MM_LOG_LEVEL: "verbose" })).toEqual({
      problem: 'MM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    });
    // Levels are matched exactly: upper case is not a level, but it is close enough to suggest.
    expect(envLogLevel({ MM_LOG_LEVEL: "INFO" })).toEqual({
      problem: 'MM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "INFO") (did you mean info?)',
    });
  });
});

describe("applyEnvOverrides", () => {
  it("names the three variables and the settings they override", () => {
    expect(ENV_OVERRIDES.map((o) => `${o.variable}=${o.path.join(".")}`)).toEqual(["MM_LOG_LEVEL=log.level", "MM_METRICS_HOST=metrics.host", "MM_METRICS_PORT=metrics.port"]);
  });

  it("no variables: the value as it was, no issues", () => {
    const input = { log: { level: "warn" }, metrics: { port: 9100 } };
    expect(applyEnvOverrides(input, {})).toEqual({ value: input, issues: [] });
  });

  it("writes each set variable over the file's value, keeping the section's other keys", () => {
    const input = { mode: "simulator", log: { level: "warn" }, metrics: { host: "127.0.0.1", port: 9100, extra: true } };
    const out = applyEnvOverrides(input, { MM_LOG_LEVEL: "trace", MM_METRICS_HOST: "0.0.0.0", MM_METRICS_PORT: " 9464 " });
    expect(out.issues).toEqual([]);
    expect(out.value).toEqual({ mode: "simulator", log: { level: "trace" }, metrics: { host: "0.0.0.0", port: 9464, extra: true } });
    expect(input).toEqual({ mode: "simulator", log: { level: "warn" }, metrics: { host: "127.0.0.1", port: 9100, extra: true } });
  });

  it("creates a section the file leaves out", () => {
    expect(applyEnvOverrides({}, { MM_METRICS_PORT: "0", MM_LOG_LEVEL: "error" }).value).toEqual({ log: { level: "error" }, metrics: { port: 0 } });
  });

  it("empty variables count as unset", () => {
    expect(applyEnvOverrides({ metrics: { port: 1 } }, { MM_LOG_LEVEL: "", MM_METRICS_HOST: " ", MM_METRICS_PORT: "" })).toEqual({ value: { metrics: { port: 1 } }, issues: [] });
  });

  it("accepts ports 0 and 65535, refuses 65536, signs, decimals and words, naming the variable", () => {
    expect(applyEnvOverrides({}, { MM_METRICS_PORT: "65535" }).value).toEqual({ metrics: { port: 65_535 } });
    for (const bad of ["65536", "-1", "80.0", "http", "123456"]) {
      const out = applyEnvOverrides({ metrics: { port: 9100 } }, { MM_METRICS_PORT: bad });
      expect(out.issues, bad).toEqual([{ path: "metrics.port", message: `MM_METRICS_PORT must be a port number 0..65535 (got ${JSON.stringify(bad)})` }]);
      expect(out.value).toEqual({ metrics: { port: 9100 } });
    }
  });

  it("refuses a host with a space inside", () => {
    const out = applyEnvOverrides({}, { MM_METRICS_HOST: "my host" });
    expect(out).toEqual({ value: {}, issues: [{ path: "metrics.host", message: 'MM_METRICS_HOST must be a host name or address without spaces (got "my host")' }] });
  });

  it("reports every bad variable, and still applies the good ones", () => {
    const out = applyEnvOverrides({}, { MM_LOG_LEVEL: "loud", MM_METRICS_HOST: "::", MM_METRICS_PORT: "x" });
    expect(out.issues.map((i) => i.path)).toEqual(["log.level", "metrics.port"]);
    expect(out.value).toEqual({ metrics: { host: "::" } });
  });

  it("leaves a section that is not a mapping for the schema to report", () => {
    for (const metrics of ["x", null, [1], 3]) {
      expect(applyEnvOverrides({ metrics }, { MM_METRICS_HOST: "h", MM_METRICS_PORT: "2" })).toEqual({ value: { metrics }, issues: [] });
    }
  });
});
