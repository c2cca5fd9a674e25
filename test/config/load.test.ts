import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/core/validation.js";
import { ConfigError, Secret, configView, loadConfig, parseConfig, type Config } from "../../src/config/index.js";
import { ADDRESS_1, API_KEY, KEY_1, LIVE_ENV, LIVE_MIN_ENV, liveYaml, tempDir } from "./fixtures.js";

/** The ConfigError a parse throws (fails the test if it does not throw one). */
function errorOf(text: string, env: Record<string, string> = {}, file = "configs/x.yaml"): ConfigError {
  try {
    parseConfig(text, file, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

const SIM_MIN = "mode: simulator\nstrategy:\n  name: ladder\n";

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe("example configs", () => {
  it("configs/demo.yaml loads with no environment at all", () => {
    const config = loadConfig("configs/demo.yaml", {});
    expect(config.mode).toBe("simulator");
    if (config.mode !== "simulator") return;
    expect(config.simulator.seed).toBe(42);
    expect(config.wallets.map((w) => w.name)).toEqual(["maker-a", "maker-b", "maker-c"]);
    expect(new Set(config.wallets.map((w) => w.address)).size).toBe(3);
    for (const w of config.wallets) {
      expect(w.privateKey).toBeInstanceOf(Secret);
      expect(w.privateKey.reveal()).toMatch(/^0x[0-9a-f]{64}$/);
      expect(w.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
    // Same seed, same wallets.
    expect(loadConfig("configs/demo.yaml", {}).wallets.map((w) => w.address)).toEqual(config.wallets.map((w) => w.address));
  });

  it("configs/live.example.yaml loads with its environment variables and key file", () => {
    const tmp = tempDir({ "keys/wallet-2.key": `  0x${"22".repeat(32)}\n` });
    cleanup = tmp.cleanup;
    const text = readFileSync("configs/live.example.yaml", "utf8");
    const config = parseConfig(text, "configs/live.example.yaml", LIVE_ENV, { baseDir: tmp.dir });
    expect(config.mode).toBe("live");
    if (config.mode !== "live") return;
    expect(config.platform.baseUrl).toBe("https://api.example.test");
    expect(config.platform.apiKey.reveal()).toBe(API_KEY);
    expect(config.platform.apiKey.origin).toBe("env MM_API_KEY");
    expect(config.wallets[0]!.address).toBe(ADDRESS_1);
    expect(config.wallets[0]!.privateKey.reveal()).toBe(KEY_1);
    expect(config.wallets[1]!.privateKey.reveal()).toBe(`0x${"22".repeat(32)}`);
    expect(config.wallets[1]!.privateKey.origin).toBe("file keys/wallet-2.key");
    expect(config.admin.token?.reveal()).toBe(LIVE_ENV.MM_ADMIN_TOKEN);
    expect(config.risk.maxOrderSize).toBe(100_000_000n);
    expect(config.risk.priceBand).toEqual({ min: 20_000n, max: 980_000n });
    expect(config.markets.filters.vertical).toEqual(["football"]);
    expect(config.strategy.params).toMatchObject({ halfSpreadTicks: 20, levels: 2, size: "10" });
  });

  it("configs/live.example.yaml without its environment names every missing variable", () => {
    const error = errorOf(readFileSync("configs/live.example.yaml", "utf8"), {}, "live.yaml");
    for (const name of ["MM_BASE_URL", "MM_API_KEY", "MM_WALLET_1_KEY", "MM_WALLET_1_ADDRESS", "MM_ADMIN_TOKEN"]) {
      expect(error.message).toContain(`environment variable ${name} is not set`);
    }
  });
});

describe("defaults", () => {
  it("a three-line simulator config gets every default", () => {
    const config = parseConfig(SIM_MIN, "short.yaml", {});
    expect(config.mode).toBe("simulator");
    if (config.mode !== "simulator") return;
    expect(config.simulator).toEqual({ seed: 1, clock: "realtime" });
    expect(config.platform).toEqual({ partnerKind: "multi_wallet", rateLimitPerMin: 600, requestTimeoutMs: 10_000, rateSafetyMargin: 0.1 });
    expect(config.wallets).toHaveLength(1);
    expect(config.instance.id).toBe("mm1");
    expect(config.metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(config.log.level).toBe("info");
    expect(config.quoting.refreshMs).toBe(1_000);
    expect(config.risk.maxOrderSize).toBe(100_000_000n);
    expect(config.markets.filters).toEqual({ tag: [], vertical: [], stage: [] });
    expect(config.strategy.params).toEqual({});
    expect(config.admin.token).toBeUndefined();
    expect(config.shutdown.cancelDeadlineSec).toBe(15);
  });

  it("a minimal live config gets the platform defaults", () => {
    const config = parseConfig(liveYaml(), "live.yaml", LIVE_MIN_ENV);
    if (config.mode !== "live") throw new Error("expected live");
    expect(config.platform.rateLimitPerMin).toBe(600);
    expect(config.platform.partnerKind).toBe("multi_wallet");
    expect(config.platform.wsUrl).toBeUndefined();
    expect(config.wallets[0]!.address).toBe(ADDRESS_1);
  });
});

describe("errors name the file, the line, the key path and what was expected", () => {
  it("wrong type", () => {
    const error = errorOf(`${SIM_MIN}risk:\n  maxOpenOrdersPerMarket: ten\n`);
    expect(error.message).toBe("configs/x.yaml:5: risk.maxOpenOrdersPerMarket: expected number, received string");
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([
      { path: "risk.maxOpenOrdersPerMarket", message: "expected number, received string", line: 5 },
    ]);
  });

  it("unknown keys, at any depth, each at its own line", () => {
    const error = errorOf(`${SIM_MIN}quotng:\n  refreshMs: 5\nmarkets:\n  filters:\n    tags: [x]\n`);
    expect(error.message).toBe(
      ["configs/x.yaml:4: quotng: unknown key (did you mean quoting?)", "configs/x.yaml:8: markets.filters.tags: unknown key (did you mean tag?)"].join("\n"),
    );
  });

  it("a missing required section and a bad enum", () => {
    const error = errorOf("mode: simulator\nlog:\n  level: loud\n");
    expect(error.message).toContain("configs/x.yaml:3: log.level: expected one of");
    expect(error.message).toContain('"info"');
    expect(error.message).toMatch(/configs\/x\.yaml:1: strategy: required \(expected object\)/);
  });

  it("a bad or missing mode", () => {
    expect(errorOf("mode: staging\n").message).toBe('configs/x.yaml:1: mode: expected one of "live" | "simulator" | "paper"');
    expect(errorOf("strategy: {name: a}\n").message).toContain('mode: expected one of "live" | "simulator" | "paper"');
  });

  it("live mode needs a platform", () => {
    const error = errorOf("mode: live\nwallets: []\nstrategy: {name: s}\n");
    expect(error.message).toContain("platform: required (expected object)");
    expect(error.message).toContain("configs/x.yaml:2: wallets: Too small");
  });

  it("reports issues in file order", () => {
    const error = errorOf(`${SIM_MIN}metrics:\n  port: -1\nlog:\n  level: 3\ninstance:\n  id: UPPER\n`);
    const lines = error.issues.map((i) => i.line);
    expect(lines).toEqual([...lines].sort((a, b) => a! - b!));
    expect(error.issues.map((i) => i.path)).toEqual(["metrics.port", "log.level", "instance.id"]);
  });

  it("YAML syntax errors carry line and column and do not quote the source", () => {
    const error = errorOf("mode: simulator\nstrategy: [\n  name: x\n");
    expect(error.message).toMatch(/^configs\/x\.yaml:\d+: YAML syntax error \(column \d+\): /);
    const dup = errorOf("mode: simulator\nmode: live\n");
    expect(dup.message).toBe("configs/x.yaml:2: YAML syntax error (column 1): Map keys must be unique");
  });

  it("empty files and non-mapping roots", () => {
    expect(errorOf("").message).toBe("configs/x.yaml: the file is empty (expected at least mode and strategy)");
    expect(errorOf("# only a comment\n").message).toContain("the file is empty");
    expect(errorOf("- a\n- b\n").message).toBe("configs/x.yaml:1: expected a mapping of sections, received a list");
  });

  it("a missing file", () => {
    expect(() => loadConfig("configs/no-such-file.yaml", {})).toThrow(ConfigError);
    expect(() => loadConfig("configs/no-such-file.yaml", {})).toThrow("configs/no-such-file.yaml: cannot read config file: no such file");
    expect(() => loadConfig("configs", {})).toThrow("configs: cannot read config file: is a directory");
  });
});

describe("secrets", () => {
  it("refuses a literal secret and says to use an env var, without echoing the value", () => {
    const yaml = liveYaml().replace("${MM_API_KEY}", API_KEY);
    const error = errorOf(yaml, LIVE_MIN_ENV);
    expect(error.message).toContain("configs/x.yaml:4: platform.apiKey: a literal secret is not allowed");
    expect(error.message).toContain("environment variable");
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).not.toContain("AbCdEfGh");
  });

  it("refuses a literal private key and a literal admin token", () => {
    const yaml = liveYaml("admin:\n  token: hunter2-hunter2-hunter2\n").replace("${MM_WALLET_1_KEY}", KEY_1);
    const error = errorOf(yaml, LIVE_MIN_ENV);
    expect(error.issues.map((i) => i.path)).toEqual(["wallets[0].privateKey", "admin.token"]);
    expect(error.message).not.toContain(KEY_1.slice(2));
    expect(error.message).not.toContain("hunter2");
  });

  it("refuses references with text around them or a default", () => {
    for (const ref of ["pre${MM_API_KEY}", "${MM_API_KEY:-pmk_a_b_c}"]) {
      const error = errorOf(liveYaml().replace("${MM_API_KEY}", ref), LIVE_MIN_ENV);
      expect(error.message).toContain('platform.apiKey: a secret must be exactly one "${ENV_VAR}" reference');
    }
  });

  it("names a missing or empty variable, never a value", () => {
    expect(errorOf(liveYaml(), { MM_WALLET_1_KEY: KEY_1 }).message).toBe(
      "configs/x.yaml:4: platform.apiKey: environment variable MM_API_KEY is not set",
    );
    expect(errorOf(liveYaml(), { ...LIVE_MIN_ENV, MM_API_KEY: "  " }).message).toContain(
      "environment variable MM_API_KEY is empty",
    );
  });

  it("checks the shape of a resolved secret without printing it", () => {
    const badKey = "not-an-api-key-value";
    const error = errorOf(liveYaml(), { ...LIVE_MIN_ENV, MM_API_KEY: badKey, MM_WALLET_1_KEY: "0x1234" });
    expect(error.message).toContain("platform.apiKey: the value from env MM_API_KEY is not an API key of the form");
    expect(error.message).toContain("wallets[0].privateKey: the value from env MM_WALLET_1_KEY is not a 32-byte hex private key");
    expect(error.message).not.toContain(badKey);
    const zeroKey = errorOf(liveYaml(), { ...LIVE_MIN_ENV, MM_WALLET_1_KEY: `0x${"0".repeat(64)}` });
    expect(zeroKey.message).toContain("is not a valid secp256k1 private key");
    const shortToken = errorOf(liveYaml("admin:\n  token: ${T}\n"), { ...LIVE_MIN_ENV, T: "short" });
    expect(shortToken.message).toContain("admin.token: the value from env T is too short");
  });

  it("reads { file: path } relative to the config file, trimmed; reports missing and empty files", () => {
    const tmp = tempDir({ "k/w1.key": `${KEY_1.slice(2).toUpperCase()}\n`, "k/empty.key": "\n", "cfg/live.yaml": "" });
    cleanup = tmp.cleanup;
    const withFile = (ref: string): string => liveYaml().replace("${MM_WALLET_1_KEY}", ref);
    const config = parseConfig(withFile("{ file: ../k/w1.key }"), tmp.path("cfg/live.yaml"), LIVE_MIN_ENV);
    expect(config.wallets[0]!.privateKey.reveal()).toBe(KEY_1); // normalized: 0x, lower-case
    expect(config.wallets[0]!.privateKey.origin).toBe("file ../k/w1.key");
    const missing = errorOf(withFile("{ file: ../k/nope.key }"), LIVE_MIN_ENV, tmp.path("cfg/live.yaml"));
    expect(missing.message).toContain("wallets[0].privateKey: cannot read key file ../k/nope.key: ENOENT");
    const empty = errorOf(withFile("{ file: ../k/empty.key }"), LIVE_MIN_ENV, tmp.path("cfg/live.yaml"));
    expect(empty.message).toContain("key file ../k/empty.key is empty");
    expect(errorOf(withFile("{ path: x }"), LIVE_MIN_ENV).message).toContain("wallets[0].privateKey: expected { file: path }");
    expect(errorOf(withFile("12"), LIVE_MIN_ENV).message).toContain(
      'wallets[0].privateKey: expected "${ENV_VAR}" or { file: path }, received number',
    );
  });

  it("a loaded config prints no secret through JSON, inspect or template strings", () => {
    const config: Config = parseConfig(liveYaml("admin:\n  token: ${T}\n"), "live.yaml", { ...LIVE_MIN_ENV, T: "tok-0123456789abcdef" });
    const outputs = [
      JSON.stringify(config, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
      inspect(config, { depth: 10 }),
      // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- what a careless log line would do
      `${config.wallets[0]!.address} ${config.wallets[0]!.privateKey}`,
      JSON.stringify(configView(config)),
    ];
    for (const out of outputs) {
      expect(out).not.toContain(API_KEY);
      expect(out).not.toContain(KEY_1.slice(2));
      expect(out).not.toContain("tok-0123456789abcdef");
      expect(out).toContain("[REDACTED]");
      expect(out).toContain(ADDRESS_1);
    }
  });
});

describe("interpolation in non-secret fields", () => {
  it("expands ${VAR} and ${VAR:-default} in URLs and reports missing variables", () => {
    const yaml = liveYaml().replace("https://api.example.test", "${BASE:-https://fallback.test}/v1");
    const a = parseConfig(yaml, "a.yaml", LIVE_MIN_ENV);
    const b = parseConfig(yaml, "a.yaml", { ...LIVE_MIN_ENV, BASE: "https://env.test" });
    expect(a.mode === "live" && a.platform.baseUrl).toBe("https://fallback.test/v1");
    expect(b.mode === "live" && b.platform.baseUrl).toBe("https://env.test/v1");
    const missing = errorOf(liveYaml().replace("https://api.example.test", "${NO_SUCH}"), LIVE_MIN_ENV);
    expect(missing.message).toBe("configs/x.yaml:3: platform.baseUrl: environment variable NO_SUCH is not set");
  });

  it("validates the expanded value", () => {
    const error = errorOf(liveYaml().replace("https://api.example.test", "${U}"), { ...LIVE_MIN_ENV, U: "ftp://x" });
    expect(error.message).toBe("configs/x.yaml:3: platform.baseUrl: expected an http(s) URL");
  });
});

describe("money and prices", () => {
  it("accepts decimal strings and plain YAML numbers, as bigint micros", () => {
    const config = parseConfig(`${SIM_MIN}risk:\n  maxOrderSize: 12.5\n  dailyLossLimit: "0.000001"\n  maxNotionalTotal: 1e4\n`, "m.yaml", {});
    expect(config.risk.maxOrderSize).toBe(12_500_000n);
    expect(config.risk.dailyLossLimit).toBe(1n);
    expect(config.risk.maxNotionalTotal).toBe(10_000_000_000n);
  });

  it("reads a YAML number at a money key from its source text, digit for digit", () => {
    const config = parseConfig(`${SIM_MIN}risk:\n  maxOrderSize: 50.5\n  maxNotionalPerWallet: 1234567890.123456\n  maxNotionalTotal: "9999999999"\n  priceBand: { min: 0.07, max: +0.930 }\n`, "m.yaml", {});
    expect(config.risk.maxOrderSize).toBe(50_500_000n);
    // 16 significant digits: a double would not hold them all.
    expect(config.risk.maxNotionalPerWallet).toBe(1_234_567_890_123_456n);
    expect(config.risk.priceBand).toEqual({ min: 70_000n, max: 930_000n });
  });

  it.each([
    ["maxOrderSize: 0.1234567", "risk.maxOrderSize: more than 6 decimals"],
    ["maxOrderSize: '0.0000001'", "risk.maxOrderSize: more than 6 decimals"],
    ["maxOrderSize: 0.0000001", "risk.maxOrderSize: more than 6 decimals"],
    ["maxOrderSize: '1e5'", 'risk.maxOrderSize: not a decimal number: "1e5"'],
    ["maxOrderSize: 1e21", 'risk.maxOrderSize: money is never read from a float: write the amount as a quoted decimal string such as "12.5"'],
    ["maxOrderSize: 2.55e1", "risk.maxOrderSize: money is never read from a float"],
    ["maxOrderSize: -5", "risk.maxOrderSize: must be > 0"],
    ["maxOrderSize: 0", "risk.maxOrderSize: must be > 0"],
    ["maxOrderSize: [1]", 'risk.maxOrderSize: expected a decimal amount such as "12.5", received array'],
    ["priceBand: { min: 0.0555 }", "risk.priceBand.min: expected a price that is a multiple of 0.001 in [0.001, 0.999]"],
    ["priceBand: { min: 1 }", "risk.priceBand.min: expected a price that is a multiple of 0.001"],
    ["priceBand: { min: 0.6, max: 0.4 }", "risk.priceBand: min must be below max"],
    ["maxNotionalPerWallet: 6000", "risk.maxNotionalPerWallet: must not exceed risk.maxNotionalTotal"],
  ])("refuses %s", (line, message) => {
    expect(errorOf(`${SIM_MIN}risk:\n  ${line}\n`).message).toContain(message);
  });
});

describe("wallets", () => {
  const withAddress = (address: string): string =>
    liveYaml().replace("    privateKey:", `    address: "${address}"\n    privateKey:`);

  it("live: address must match the key; derived when omitted", () => {
    expect(parseConfig(withAddress(ADDRESS_1.toLowerCase()), "w.yaml", LIVE_MIN_ENV).wallets[0]!.address).toBe(ADDRESS_1);
    const other = "0x000000000000000000000000000000000000dEaD";
    expect(errorOf(withAddress(other), LIVE_MIN_ENV).message).toBe(
      `configs/x.yaml:7: wallets[0].address: does not match privateKey (its address is ${ADDRESS_1})`,
    );
  });

  it("refuses a bad EIP-55 checksum", () => {
    const i = ADDRESS_1.slice(2).search(/[a-fA-F]/) + 2; // flip the case of one checksummed letter
    const c = ADDRESS_1[i]!;
    const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    const badSum = ADDRESS_1.slice(0, i) + flipped + ADDRESS_1.slice(i + 1);
    expect(errorOf(withAddress(badSum), LIVE_MIN_ENV).message).toContain("wallets[0].address: bad EIP-55 checksum");
    expect(errorOf(withAddress("0x1234"), LIVE_MIN_ENV).message).toContain("wallets[0].address: expected an address");
  });

  it("refuses duplicates and too many or too few wallets", () => {
    const dup = errorOf(`${SIM_MIN}wallets:\n  - name: a\n  - name: a\n`);
    expect(dup.message).toBe("configs/x.yaml:6: wallets[1].name: duplicate wallet name a");
    const many = Array.from({ length: 51 }, (_, i) => `  - name: w${i}`).join("\n");
    expect(errorOf(`${SIM_MIN}wallets:\n${many}\n`).message).toContain("wallets: Too big");
    expect(errorOf(`${SIM_MIN}wallets: []\n`).message).toContain("wallets: Too small");
  });

  it("refuses a market assigned to two wallets", () => {
    const error = errorOf(`${SIM_MIN}wallets:\n  - name: a\n    markets: [m1, m2]\n  - name: b\n    markets: [m2]\n`);
    expect(error.message).toBe(
      "configs/x.yaml:8: wallets[1].markets[0]: market m2 is already assigned to wallet a (one wallet per market avoids self-trades)",
    );
  });

  it("simulator: keys derived from seed and name, stable, distinct; address without key refused", () => {
    const cfg = (seed: number): Config =>
      parseConfig(`${SIM_MIN}simulator: { seed: ${seed} }\nwallets: [{ name: a }, { name: b }]\n`, "s.yaml", {});
    const one = cfg(1).wallets.map((w) => w.address);
    expect(cfg(1).wallets.map((w) => w.address)).toEqual(one);
    expect(one[0]).not.toBe(one[1]);
    expect(cfg(2).wallets.map((w) => w.address)).not.toEqual(one);
    expect(cfg(1).wallets[0]!.privateKey.origin).toBe("simulator.seed 1");
    const error = errorOf(`${SIM_MIN}wallets:\n  - name: a\n    address: "${ADDRESS_1}"\n`);
    expect(error.message).toContain("wallets[0].address: an address needs its privateKey");
  });

  it("simulator: an explicit key is used as given", () => {
    const config = parseConfig(`${SIM_MIN}wallets:\n  - name: a\n    privateKey: \${K}\n`, "s.yaml", { K: KEY_1 });
    expect(config.wallets[0]!.address).toBe(ADDRESS_1);
    expect(config.wallets[0]!.privateKey.origin).toBe("env K");
  });
});

describe("other sections", () => {
  it("validates ranges and formats", () => {
    const tags = Array.from({ length: 21 }, (_, i) => `t${i}`).join(", ");
    const cases: [string, string][] = [
      ["platform:\n  rateSafetyMargin: 0.6", "platform.rateSafetyMargin: Too big"],
      ["instance:\n  id: Bad_Id", "instance.id: expected 1-16 characters of [a-z0-9-]"],
      ["quoting:\n  sizeTolerance: 2", "quoting.sizeTolerance: Too big"],
      [`markets:\n  filters:\n    tag: [${tags}]`, "markets.filters.tag: Too big"],
      ["simulator:\n  clock: fast", "simulator.clock:"],
      ["simulator:\n  seed: 1.5", "simulator.seed:"],
    ];
    for (const [yaml, message] of cases) expect(errorOf(`${SIM_MIN}${yaml}\n`).message).toContain(message);
  });

  it("a simulator scenario path resolves against the config file's directory", () => {
    const config = parseConfig(`${SIM_MIN}simulator:\n  scenario: scenarios/a.yaml\n`, "/etc/mm/config.yaml", {});
    expect(config.mode === "simulator" && config.simulator.scenario).toBe("/etc/mm/scenarios/a.yaml");
  });

  it("live mode refuses simulator-only sections", () => {
    expect(errorOf(liveYaml("simulator: { seed: 1 }\n"), LIVE_MIN_ENV).message).toContain("simulator: unknown key");
  });
});

describe("empty values", () => {
  it("treat `key:` with nothing after it as absent, so defaults apply", () => {
    const config = parseConfig(`${SIM_MIN}admin:\n  # token: \${T}\nmetrics:\nlog:\n  level:\n`, "e.yaml", {});
    expect(config.admin.token).toBeUndefined();
    expect(config.metrics.port).toBe(9464);
    expect(config.log.level).toBe("info");
  });

  it("still require required keys, and refuse null list entries", () => {
    expect(errorOf("mode: simulator\nstrategy:\n").message).toContain("strategy: required (expected object)");
    expect(errorOf(`${SIM_MIN}wallets:\n  -\n`).message).toContain("wallets[0]: expected object, received null");
  });
});

describe("strategy params are checked against the strategy's own schema", () => {
  it("names the unknown strategy and the known ones", () => {
    expect(() => parseConfig("mode: simulator\nstrategy:\n  name: nope\n", "x.yaml", {})).toThrow(
      /x\.yaml:3: strategy\.name: unknown strategy "nope"; known strategies: .*ladder/,
    );
  });
  it("names the bad param with its path and line", () => {
    const text = "mode: simulator\nstrategy:\n  name: ladder\n  params:\n    levels: many\n";
    expect(() => parseConfig(text, "x.yaml", {})).toThrow(/x\.yaml:5: strategy\.params\.levels: /);
  });
});
