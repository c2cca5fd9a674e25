/**
 * Wallet sections (src/config/wallets.ts) on plain values: live wallets need a key, an address
 * beside it must be the key's (EIP-55 checked only when written in mixed case), names and addresses
 * unique, 1..50 wallets; simulator wallets may omit the key and then get one derived from the seed
 * and the name (stable, distinct, never an address without its key).
 */
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { MAX_WALLETS, finalizeSimulatorWallets, liveWalletsSchema, simulatorWalletKey, simulatorWalletsSchema, type PendingWallet } from "../../src/config/wallets.js";
import { Secret } from "../../src/core/secret.js";
import { ADDRESS_1, ADDRESS_2, KEY_1, KEY_2 } from "./fixtures.js";

const ctx = { env: { K1: KEY_1, K2: KEY_2 }, baseDir: "/cfg" };
const live = liveWalletsSchema(ctx);
const sim = simulatorWalletsSchema(ctx);

function issues(schema: typeof live | typeof sim, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("live wallets", () => {
  it("derive the checksummed address from the key; an address given must match it", () => {
    const r = live.parse([{ name: "w1", privateKey: "${K1}", markets: ["btc-up"] }]);
    expect(r).toEqual([{ name: "w1", address: ADDRESS_1, privateKey: expect.any(Secret) as unknown, markets: ["btc-up"] }]);
    expect(issues(live, [{ name: "w1", privateKey: "${K1}", address: ADDRESS_2 }])).toEqual([`0.address: does not match privateKey (its address is ${ADDRESS_1})`]);
  });

  it("an all-lower-case address skips the checksum; a mixed-case one with a wrong checksum is refused", () => {
    expect(live.parse([{ name: "w1", privateKey: "${K1}", address: ADDRESS_1.toLowerCase() }])[0]!.address).toBe(ADDRESS_1);
    // Flip the case of one letter of the checksummed address.
    const i = [...ADDRESS_1].findIndex((ch, n) => n > 1 && /[a-fA-F]/.test(ch));
    const flipped = ADDRESS_1.slice(0, i) + (ADDRESS_1[i] === ADDRESS_1[i]!.toUpperCase() ? ADDRESS_1[i].toLowerCase() : ADDRESS_1[i]!.toUpperCase()) + ADDRESS_1.slice(i + 1);
    expect(issues(live, [{ name: "w1", privateKey: "${K1}", address: flipped }])).toEqual(["0.address: bad EIP-55 checksum (write it all lower-case to skip the check)"]);
    expect(issues(live, [{ name: "w1", privateKey: "${K1}", address: "0x1234" }])).toEqual(["0.address: expected an address: 0x followed by 40 hex digits"]);
  });

  it("need a key, a valid name, unique names and addresses, and 1..50 of them", () => {
    expect(issues(live, [{ name: "w1" }])).toEqual([expect.stringMatching(/^0.privateKey: required:/)]);
    expect(issues(live, [{ name: "has space", privateKey: "${K1}" }])).toEqual(["0.name: expected 1-32 characters of [A-Za-z0-9_-]"]);
    expect(issues(live, [{ name: "w", privateKey: "${K1}" }, { name: "w", privateKey: "${K2}" }])).toEqual(["1.name: duplicate wallet name w"]);
    expect(issues(live, [])).toHaveLength(1);
    const many = Array.from({ length: MAX_WALLETS + 1 }, (_, i) => ({ name: `w${i}`, privateKey: "${K1}" }));
    expect(issues(live, many)).toHaveLength(1);
    expect(issues(live, [{ name: "w1", privateKey: "${K1}", markets: [] }])).toHaveLength(1);
  });

  it("the same key under two names is refused: the derived addresses are compared, given or not", () => {
    expect(issues(live, [{ name: "a", privateKey: "${K1}" }, { name: "b", privateKey: "${K1}" }])).toEqual([`1.address: duplicate wallet address ${ADDRESS_1}`]);
    expect(issues(live, [{ name: "a", privateKey: "${K1}", address: ADDRESS_1 }, { name: "b", privateKey: "${K1}", address: ADDRESS_1 }])).toEqual([
      `1.address: duplicate wallet address ${ADDRESS_1}`,
    ]);
    expect(issues(live, [{ name: "a", privateKey: "${K1}" }, { name: "b", privateKey: "${K2}" }])).toEqual([]);
  });
});

describe("simulator wallets", () => {
  it("default to one wallet named maker-1, with no key yet", () => {
    expect(sim.parse(undefined)).toEqual([{ name: "maker-1" }]);
  });

  it("may omit the key; an address without its key is refused; a given key is used and checked", () => {
    expect(sim.parse([{ name: "a" }])).toEqual([{ name: "a" }]);
    expect(issues(sim, [{ name: "a", address: ADDRESS_1 }])).toEqual(["0.address: an address needs its privateKey (omit both to use a key derived from simulator.seed)"]);
    expect(sim.parse([{ name: "a", privateKey: "${K2}" }])[0]).toMatchObject({ name: "a", address: ADDRESS_2 });
  });
});

describe("simulatorWalletKey and finalizeSimulatorWallets", () => {
  it("derives a valid key from the seed and the name: the same inputs give the same key, others differ", () => {
    const k = simulatorWalletKey(1, "maker-1");
    expect(k.reveal()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(k.origin).toBe("simulator.seed 1");
    expect(simulatorWalletKey(1, "maker-1").reveal()).toBe(k.reveal());
    expect(simulatorWalletKey(2, "maker-1").reveal()).not.toBe(k.reveal());
    expect(simulatorWalletKey(1, "maker-2").reveal()).not.toBe(k.reveal());
  });

  it("gives derived keys to wallets without one and keeps the ones given", () => {
    const given: PendingWallet = { name: "b", privateKey: new Secret(KEY_1, "env K1"), address: ADDRESS_1 };
    const out = finalizeSimulatorWallets([{ name: "a", markets: ["X"] }, given], 9);
    expect(out[0]).toMatchObject({ name: "a", markets: ["X"] });
    expect(out[0]!.privateKey.reveal()).toBe(simulatorWalletKey(9, "a").reveal());
    expect(out[0]!.address).toBe(privateKeyToAddress(simulatorWalletKey(9, "a").reveal() as `0x${string}`));
    expect(out[1]).toEqual(given);
  });
});
