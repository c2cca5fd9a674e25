/**
 * The embedded simulator of `mm run` in simulator mode (src/bot/engine/demo.ts): the daemon's
 * wallets the scenario does not know join its first multi_wallet partner with an orders:write key,
 * onboarded and funded with DEMO_COLLATERAL; a wallet the scenario already has (by address, or by
 * the address its private key derives) is not added twice; a scenario with no partner that can
 * trade is refused; the demo's virtual clock follows real time at its speed until stopped.
 */
import { existsSync } from "node:fs";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseConfig } from "../../../src/config/index.js";
import { DEMO_COLLATERAL, defaultDemoConfigPath, driveVirtualClock, scenarioWithWallets, startEmbeddedSimulator } from "../../../src/bot/engine/demo.js";
import { parseScenario } from "../../../src/sim/platform/index.js";
import { Simulator } from "../../../src/sim/simulator.js";

const KEY_A = `0x${"11".repeat(32)}` as const;
const KEY_B = `0x${"22".repeat(32)}` as const;
const ADDR_A = privateKeyToAddress(KEY_A).toLowerCase();
const ADDR_B = privateKeyToAddress(KEY_B).toLowerCase();
const ADDR_C = "0x00000000000000000000000000000000000000c3";

function scenario(partners: string, wallets: string): string {
  return `seed: 1
start: "2026-06-01T12:00:00.000Z"
partners:
${partners}
wallets:
${wallets}
events:
  - title: Demo
    markets:
      - { title: TST, symbol: TST, tradingWindow: { opensAt: "-1h", closesAt: "+1d" } }
`;
}

const TRADING_PARTNERS = `  - id: reader
    name: Reader
    kind: multi_wallet
    requirePerWalletKyc: false
    keys: [{ key: pmk_sim_aaaa000000000001_ReaderOnlyKey000000000000000001, scopes: [orders:read] }]
  - id: mm
    name: Maker
    kind: multi_wallet
    requirePerWalletKyc: false
    keys:
      - { key: pmk_sim_bbbb000000000001_RevokedWriterKey0000000000000001, scopes: [orders:read, orders:write], revoked: true }
      - { key: pmk_sim_bbbb000000000002_LiveWriterKey00000000000000000002, scopes: [orders:read, orders:write] }`;

describe("scenarioWithWallets", () => {
  it("adds the wallets the scenario does not know to the first partner that can trade, onboarded and funded", () => {
    const base = parseScenario(scenario(TRADING_PARTNERS, `  - { name: known, address: "${ADDR_C}", partner: mm, balances: { collateral: "5" } }`), "s.yaml");
    const out = scenarioWithWallets(base, [
      { name: "a", address: ADDR_A.toUpperCase().replace("0X", "0x") },
      { name: "c", address: ADDR_C },
    ]);
    // The reader partner has no orders:write key; mm's first key is revoked: its second one is the key.
    expect(out.partnerId).toBe("mm");
    expect(out.apiKey).toBe("pmk_sim_bbbb000000000002_LiveWriterKey00000000000000000002");
    expect(out.scenario.wallets).toHaveLength(2);
    const added = out.scenario.wallets[1]!;
    expect(added).toMatchObject({ name: "a", address: ADDR_A, partner: "mm", kyc: { approved: true, tier: 1 }, banned: false, onboarded: true });
    expect(added.balances).toEqual({ collateral: DEMO_COLLATERAL, positions: [] });
    // The scenario given is left as it was.
    expect(base.wallets).toHaveLength(1);
    // And the result builds a simulator.
    expect(() => new Simulator(out.scenario, { clock: new VirtualClock(Date.UTC(2026, 5, 1, 12)), flow: false })).not.toThrow();
  });

  it("knows a scenario wallet given by its private key alone by the address the key derives (no duplicate wallet)", () => {
    const base = parseScenario(scenario(TRADING_PARTNERS, `  - { name: a, privateKey: "${KEY_A}", partner: mm, kyc: { approved: true, tier: 1 } }`), "s.yaml");
    const out = scenarioWithWallets(base, [
      { name: "a", address: ADDR_A },
      { name: "b", address: ADDR_B },
    ]);
    expect(out.scenario.wallets.map((w) => w.name)).toEqual(["a", "b"]);
    expect(() => new Simulator(out.scenario, { clock: new VirtualClock(Date.UTC(2026, 5, 1, 12)), flow: false })).not.toThrow();
  });

  it("refuses a scenario without a multi_wallet partner holding a live orders:write key", () => {
    const readerOnly = `  - id: reader
    name: Reader
    kind: multi_wallet
    requirePerWalletKyc: false
    keys: [{ key: pmk_sim_aaaa000000000001_ReaderOnlyKey000000000000000001, scopes: [orders:read] }]`;
    const base = parseScenario(scenario(readerOnly, `  - { name: a, address: "${ADDR_C}", partner: reader }`), "s.yaml");
    expect(() => scenarioWithWallets(base, [])).toThrow("the scenario has no multi_wallet partner with an orders:write key: the daemon cannot trade");
  });
});

describe("driveVirtualClock", () => {
  it("moves the virtual clock `speed` ms per real ms, tick by tick, until stopped", async () => {
    const real = new VirtualClock(0);
    const clock = new VirtualClock(1_000_000);
    const stop = driveVirtualClock(clock, 10, real, 50);
    await real.advance(500);
    expect(clock.now()).toBe(1_000_000 + 10 * 500);
    stop();
    await real.advance(500);
    expect(clock.now()).toBe(1_000_000 + 10 * 500);
  });
});

describe("the demo's files and the embedded simulator", () => {
  it("finds configs/demo.yaml of the package", () => {
    const path = defaultDemoConfigPath();
    expect(path.endsWith("configs/demo.yaml")).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it("serves a simulator with the config's wallets on the scenario's trading partner, until stopped", () => {
    const file = `mode: simulator
instance: { id: demo-test }
wallets: [{ name: w0, privateKey: "\${W0_KEY}" }]
markets: { slugs: [TST] }
strategy: { name: ladder, params: { size: "10", levels: 1, halfSpreadTicks: 1 } }
log: { level: silent }
`;
    const config = parseConfig(file, "demo-test.yaml", { W0_KEY: KEY_B });
    if (config.mode !== "simulator") throw new Error("expected a simulator-mode config");
    const clock = new VirtualClock(Date.UTC(2026, 5, 1, 12));
    const base = parseScenario(scenario(TRADING_PARTNERS, `  - { name: known, address: "${ADDR_C}", partner: mm }`), "s.yaml");
    const embedded = startEmbeddedSimulator(config, clock, undefined, { scenario: base, flow: false });
    try {
      expect(embedded.partnerId).toBe("mm");
      expect(embedded.apiKey).toBe("pmk_sim_bbbb000000000002_LiveWriterKey00000000000000000002");
      expect(embedded.sim.platform.wallets.listByPartner("mm").map((w) => w.address).sort()).toEqual([ADDR_C, ADDR_B].sort());
    } finally {
      embedded.stop();
    }
  });
});
