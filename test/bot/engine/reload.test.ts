/**
 * ConfigReloader (src/bot/engine/reload.ts) over real files: a good file is applied (risk limits
 * into the facade, new active parameters, the hook called once); a bad file (YAML syntax, schema,
 * a change only a restart applies) is refused with the check-config lines and nothing changes;
 * reloads run one at a time.
 */
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigReloader, type ReloadOutcome } from "../../../src/bot/engine/reload.js";
import { LiveParams } from "../../../src/bot/engine/live-params.js";
import { Risk } from "../../../src/bot/risk/risk.js";
import { riskTuningOf } from "../../../src/bot/risk/core-risk.js";
import { checkConfig } from "../../../src/cli/check-config.js";
import { loadConfig, type Config } from "../../../src/config/index.js";
import { parseMicros } from "../../../src/core/money.js";
import { API_KEY, KEY_1, liveYaml, tempDir } from "../../config/fixtures.js";

const ENV = { MM_API_KEY: API_KEY, MM_WALLET_1_KEY: KEY_1 };
const BASE = "  params: { levels: 1 }\nrisk:\n  maxOrderSize: \"50\"\n";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function setup(text = liveYaml(BASE)) {
  const t = tempDir({ "mm.yaml": text });
  cleanups.push(t.cleanup);
  const file = t.path("mm.yaml");
  const config = loadConfig(file, ENV);
  const risk = new Risk({ limits: config.risk, tuning: riskTuningOf(config.risk) });
  const params = new LiveParams(config, 1_000);
  const applied: { version: number; changed: readonly string[] }[] = [];
  const logs: { level: string; msg: string; obj: object }[] = [];
  const reloader = new ConfigReloader({
    file,
    env: ENV,
    params,
    risk,
    clock: { now: () => 2_000 },
    log: { info: (obj, msg) => logs.push({ level: "info", msg, obj }), warn: (obj, msg) => logs.push({ level: "warn", msg, obj }) },
    applied: (a, changed) => applied.push({ version: a.version, changed }),
  });
  const write = (body: string): void => writeFileSync(file, body, { mode: 0o600 });
  return { file, config, risk, params, applied, logs, reloader, write };
}

function refused(o: ReloadOutcome): Extract<ReloadOutcome, { ok: false }> {
  if (o.ok) throw new Error(`expected a refusal, got ${JSON.stringify(o)}`);
  return o;
}

function unchanged(s: ReturnType<typeof setup>, before: { config: Config; hash: string; version: number }): void {
  expect(s.params.current.config).toBe(before.config);
  expect(s.params.current.hash).toBe(before.hash);
  expect(s.params.current.version).toBe(before.version);
  expect(s.risk.limits.maxOrderSize).toBe(parseMicros("50"));
  expect(s.applied).toEqual([]);
}

describe("ConfigReloader", () => {
  it("applies a good file: risk limits in the facade, strategy params, a new hash and version", async () => {
    const s = setup();
    const before = s.params.current;
    const strategyBefore = before.strategy;
    s.write(liveYaml("  params: { levels: 3 }\nrisk:\n  maxOrderSize: \"20\"\n  explainedRejectCodes: [market_not_open]\n"));
    const r = await s.reloader.reload("test");
    expect(r).toMatchObject({ ok: true, previousHash: before.hash, changed: ["risk.explainedRejectCodes", "risk.maxOrderSize", "strategy.params.levels"], version: 1 });
    expect(r.hash).not.toBe(before.hash);
    expect(s.params.current.hash).toBe(r.hash);
    expect(s.params.current.sinceMs).toBe(2_000);
    expect(s.risk.limits.maxOrderSize).toBe(parseMicros("20"));
    expect(s.risk.tuning.explainedRejectCodes).toEqual(["market_not_open"]);
    expect(s.params.current.strategy).not.toBe(strategyBefore);
    expect(s.params.current.strategy.params).toMatchObject({ levels: 3 });
    expect(s.applied).toEqual([{ version: 1, changed: ["risk.explainedRejectCodes", "risk.maxOrderSize", "strategy.params.levels"] }]);
    expect(s.logs.find((l) => l.msg.startsWith("config reloaded"))?.obj).toMatchObject({ source: "test", configHash: r.hash, previousHash: before.hash });

    // The same file again: nothing to apply, the strategy runner kept.
    const again = await s.reloader.reload("test");
    expect(again).toEqual({ ok: true, hash: r.hash, previousHash: r.hash, changed: [], version: 1 });
    expect(s.applied).toHaveLength(1);
  });

  it("keeps the strategy runner when only the limits change", async () => {
    const s = setup();
    const runner = s.params.current.strategy;
    s.write(liveYaml("  params: { levels: 1 }\nrisk:\n  maxOrderSize: \"51\"\n"));
    expect((await s.reloader.reload("test")).ok).toBe(true);
    expect(s.params.current.strategy).toBe(runner);
  });

  it("refuses a YAML syntax error with the check-config line, and changes nothing", async () => {
    const s = setup();
    const before = s.params.current;
    s.write(liveYaml(BASE) + "quoting: { refreshMs: 1000\n");
    const r = refused(await s.reloader.reload("SIGHUP"));
    expect(r.reason).toBe("invalid");
    expect(r.hash).toBe(before.hash);
    expect(r.errors[0]).toMatch(new RegExp(`^${s.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+: YAML syntax error`));
    unchanged(s, before);
    expect(s.logs.find((l) => l.level === "warn")).toMatchObject({ msg: "config reload refused: nothing changed", obj: { source: "SIGHUP", reason: "invalid" } });
  });

  it("refuses a schema error (every problem, file:line: key.path: problem), and changes nothing", async () => {
    const s = setup();
    const before = s.params.current;
    s.write(liveYaml("  params: { levels: 0 }\nrisk:\n  maxOrderSize: \"-5\"\n  maxOrderSise: \"1\"\n"));
    const r = refused(await s.reloader.reload("admin"));
    expect(r.reason).toBe("invalid");
    expect(r.errors).toHaveLength(3);
    expect(r.errors.join("\n")).toMatch(/mm\.yaml:\d+: strategy\.params\.levels: /);
    expect(r.errors.join("\n")).toMatch(/mm\.yaml:\d+: risk\.maxOrderSize: /);
    expect(r.errors.join("\n")).toMatch(/mm\.yaml:\d+: risk\.maxOrderSise: unknown key \(did you mean maxOrderSize\?\)/);
    // Exactly what `mm check-config` prints for the file.
    const err: string[] = [];
    expect(await checkConfig([s.file], { stdout: () => undefined, stderr: (t) => err.push(t), env: ENV })).toBe(2);
    expect(err.join("").split("\n").slice(0, 3)).toEqual(r.errors);
    unchanged(s, before);
  });

  it("refuses a change to what only a restart applies, naming it, even with live changes beside it", async () => {
    const s = setup();
    const before = s.params.current;
    s.write(liveYaml("  params: { levels: 1 }\nrisk:\n  maxOrderSize: \"20\"\n  staleDataSec: 5\nquoting: { refreshMs: 500 }\n").replace("https://api.example.test", "https://other.example.test"));
    const r = refused(await s.reloader.reload("admin"));
    expect(r).toMatchObject({ reason: "restart_needed", hash: before.hash, errors: ["restart needed for: platform.baseUrl, quoting.refreshMs, risk.staleDataSec"] });
    expect(r.restartNeeded).toEqual(["platform.baseUrl", "quoting.refreshMs", "risk.staleDataSec"]);
    unchanged(s, before);
  });

  it("refuses a file that is gone, and changes nothing", async () => {
    const s = setup();
    const before = s.params.current;
    cleanups.shift()!();
    const r = refused(await s.reloader.reload("admin"));
    expect(r.errors).toEqual([`${s.file}: cannot read config file: no such file`]);
    unchanged(s, before);
  });

  it("runs reloads one at a time, in the order asked", async () => {
    const s = setup();
    const order: string[] = [];
    const reloader = new ConfigReloader({
      file: s.file,
      env: ENV,
      params: s.params,
      risk: s.risk,
      clock: { now: () => 3_000 },
      log: { info: () => undefined, warn: () => undefined },
      applied: (a) => order.push(`applied ${a.version}`),
      load: (file, env) => {
        order.push("load");
        return loadConfig(file, env);
      },
    });
    s.write(liveYaml("  params: { levels: 1 }\nrisk:\n  maxOrderSize: \"21\"\n"));
    const first = reloader.reload("a");
    const second = reloader.reload("b");
    const [r1, r2] = await Promise.all([first, second]);
    expect(order).toEqual(["load", "applied 1", "load"]);
    expect(r1).toMatchObject({ ok: true, version: 1 });
    expect(r2).toMatchObject({ ok: true, version: 1, changed: [] });
  });
});
