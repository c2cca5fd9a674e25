/**
 * `mm sim`'s own pieces (src/cli/sim.ts) that the serving tests (test/sim/integration/mm-sim.test.ts)
 * do not pin down: the banner of test credentials (every key not revoked with its partner and
 * scopes, every wallet, a curl line that works as written, the client examples' variables as one
 * shell line, quoted when a value needs it), which key and wallet the examples get (a multi_wallet
 * partner first, a key that may place orders first, a wallet with a private key), and the flags
 * read with the environment (MM_LOG_LEVEL, MM_LOG_FORMAT) and refused when empty.
 */
import { privateKeyToAddress } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_HOST, DEFAULT_PORT, credentialsBanner, examplesEnv, parseSimArgs } from "../../src/cli/sim.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseScenario, type Scenario } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";

const SOLO_KEY = "pmk_sim_aaaa000000000001_SoloReadSecret000000000000001";
const OLD_KEY = "pmk_sim_bbbb000000000001_DeskOldSecret0000000000000001";
const READ_KEY = "pmk_sim_bbbb000000000002_DeskReadSecret000000000000002";
const WRITE_KEY = "pmk_sim_bbbb000000000003_DeskWriteSecret00000000000003";
const TRADER_KEY = `0x${"11".repeat(32)}` as const;
const LONER_KEY = `0x${"22".repeat(32)}` as const;
const TRADER = privateKeyToAddress(TRADER_KEY).toLowerCase();
const LONER = privateKeyToAddress(LONER_KEY).toLowerCase();
const WATCHER = "0x00000000000000000000000000000000000000aa";
const URL = "http://127.0.0.1:8080";

function scenarioText(wallets: string, keys = `      - { key: ${OLD_KEY}, scopes: [orders:read, orders:write], revoked: true }
      - { key: ${READ_KEY}, scopes: [orders:read] }
      - { key: ${WRITE_KEY}, scopes: [orders:read, orders:write] }`): string {
  return `seed: 1
start: "2026-06-01T12:00:00Z"
partners:
  - id: solo
    name: Solo
    kind: single_wallet
    keys:
      - { key: ${SOLO_KEY}, scopes: [orders:read] }
  - id: desk
    name: Desk
    kind: multi_wallet
    requirePerWalletKyc: false
    keys:
${keys}
wallets:
${wallets}
`;
}

const WALLETS = `  - { name: watcher, address: "${WATCHER}", partner: desk }
  - { name: trader, privateKey: "${TRADER_KEY}", partner: desk, kyc: { approved: true, tier: 1 } }
  - { name: loner, privateKey: "${LONER_KEY}", partner: solo }`;

const sims: Simulator[] = [];
afterEach(() => {
  for (const s of sims.splice(0)) s.stop();
});

function build(text: string): { scenario: Scenario; sim: Simulator } {
  const scenario = parseScenario(text, "cli-sim.yaml");
  const sim = new Simulator(scenario, { clock: new VirtualClock(Date.UTC(2026, 5, 1, 12)) });
  sims.push(sim);
  return { scenario, sim };
}

describe("credentialsBanner", () => {
  it("lists every key not revoked, every wallet, a curl line with the first key and wallet, and the examples' variables", () => {
    const { scenario, sim } = build(scenarioText(WALLETS));
    const lines = credentialsBanner(scenario, URL, sim).split("\n");
    expect(lines.slice(0, 3)).toEqual([`mm sim: listening on ${URL}`, "", "  SIMULATOR TEST CREDENTIALS (from the scenario file; never use them anywhere real):"]);
    expect(lines.filter((l) => l.startsWith("    partner "))).toEqual([
      `    partner solo (single_wallet) key: ${SOLO_KEY}  scopes: orders:read`,
      `    partner desk (multi_wallet) key: ${READ_KEY}  scopes: orders:read`,
      `    partner desk (multi_wallet) key: ${WRITE_KEY}  scopes: orders:read,orders:write`,
    ]);
    expect(lines.join("\n")).not.toContain(OLD_KEY);
    expect(lines.filter((l) => l.startsWith("    wallet "))).toEqual([`    wallet watcher: ${WATCHER} (partner desk)`, `    wallet trader: ${TRADER} (partner desk)`, `    wallet loner: ${LONER} (partner solo)`]);
    expect(lines).toContain(`  try: curl -s ${URL}/api/markets | head -c 400`);
    expect(lines).toContain(`       curl -s -H "X-Api-Key: ${SOLO_KEY}" -H "X-User-Wallet: ${WATCHER}" ${URL}/api/me/balances`);
    expect(lines).toContain(`    export PM_BASE_URL=${URL} PM_API_KEY=${WRITE_KEY} PM_WALLET=${TRADER} PM_WALLET_KEY=${TRADER_KEY}`);
    expect(lines).toContain("    npx tsx examples/client/place-order.ts");
    expect(credentialsBanner(scenario, URL, sim).endsWith("\n\n")).toBe(true);
  });

  it("quotes a value the shell would split (single quotes, an embedded one escaped)", () => {
    const { scenario, sim } = build(scenarioText(WALLETS));
    const odd = "http://h/x?a=1&b='2'";
    const text = credentialsBanner(scenario, odd, sim);
    expect(text).toContain(`export PM_BASE_URL='http://h/x?a=1&b='\\''2'\\''' PM_API_KEY=${WRITE_KEY}`);
  });

  it("no wallet with a private key: no examples' line", () => {
    const { scenario, sim } = build(scenarioText(`  - { name: watcher, address: "${WATCHER}", partner: desk }`, `      - { key: ${READ_KEY}, scopes: [orders:read] }`));
    const text = credentialsBanner(scenario, URL, sim);
    expect(text).not.toContain("export PM_");
    expect(text).toContain(`-H "X-User-Wallet: ${WATCHER}"`);
  });
});

describe("examplesEnv", () => {
  it("a multi_wallet partner first, its key that may place orders, its wallet with a private key", () => {
    const { scenario, sim } = build(scenarioText(WALLETS));
    expect(examplesEnv(scenario, URL, sim)).toEqual({ PM_BASE_URL: URL, PM_API_KEY: WRITE_KEY, PM_WALLET: TRADER, PM_WALLET_KEY: TRADER_KEY });
  });

  it("without a key that may place orders: the first live key; a partner without such a wallet is passed over", () => {
    const { scenario, sim } = build(scenarioText(`  - { name: watcher, address: "${WATCHER}", partner: desk }\n  - { name: loner, privateKey: "${LONER_KEY}", partner: solo }`, `      - { key: ${READ_KEY}, scopes: [orders:read] }`));
    expect(examplesEnv(scenario, URL, sim)).toEqual({ PM_BASE_URL: URL, PM_API_KEY: SOLO_KEY, PM_WALLET: LONER, PM_WALLET_KEY: LONER_KEY });
  });

  it("undefined when no partner has a wallet with a private key", () => {
    const { scenario, sim } = build(scenarioText(`  - { name: watcher, address: "${WATCHER}", partner: desk }`, `      - { key: ${READ_KEY}, scopes: [orders:read] }`));
    expect(examplesEnv(scenario, URL, sim)).toBeUndefined();
  });
});

describe("parseSimArgs with the environment", () => {
  it("defaults: loopback, port 8080, realtime, info", () => {
    expect([DEFAULT_HOST, DEFAULT_PORT]).toEqual(["127.0.0.1", 8080]);
    expect(parseSimArgs([], {})).toMatchObject({ host: "127.0.0.1", port: 8080, clock: "realtime", logLevel: "info" });
  });

  it("MM_LOG_LEVEL when no --log-level; the flag wins over it", () => {
    expect(parseSimArgs([], { MM_LOG_LEVEL: "warn" })).toMatchObject({ logLevel: "warn" });
    expect(parseSimArgs(["--log-level", "debug"], { MM_LOG_LEVEL: "warn" })).toMatchObject({ logLevel: "debug" });
  });

  it("refuses a bad MM_LOG_LEVEL or MM_LOG_FORMAT, an empty host or scenario, and the edges of port and seed", () => {
    expect(parseSimArgs([], { MM_LOG_LEVEL: "loud" })).toMatch(/MM_LOG_LEVEL/);
    expect(parseSimArgs([], { MM_LOG_FORMAT: "xml" })).toBe('MM_LOG_FORMAT must be json or pretty (got "xml")');
    expect(parseSimArgs(["--host", " "], {})).toBe("--host must not be empty");
    expect(parseSimArgs(["--scenario", " "], {})).toBe("--scenario must not be empty");
    expect(parseSimArgs(["--port", "65535", "--seed", "4294967295"], {})).toMatchObject({ port: 65535, seed: 4294967295 });
    expect(parseSimArgs(["--seed", "4294967296"], {})).toBe('--seed must be an integer in 0..4294967295, got "4294967296"');
    expect(parseSimArgs(["--port", "65536"], {})).toBe('--port must be an integer in 0..65535, got "65536"');
  });
});
