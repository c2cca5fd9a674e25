/**
 * parseConfig builds the config schema once per process and points it at each load's environment
 * and directory while it parses (src/config/load.ts): loads one after another, with different
 * environments and directories, a failed load among them, each see their own and nothing else.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/index.js";
import { ADDRESS_1, ADDRESS_2, API_KEY, KEY_1, KEY_2, tempDir } from "./fixtures.js";

const live = (key: string) =>
  ["mode: live", "platform:", "  baseUrl: ${BASE}", "  apiKey: ${MM_API_KEY}", "wallets:", `  - { name: w1, address: "\${ADDR}", privateKey: ${key} }`, "strategy: { name: ladder }", ""].join("\n");

describe("the shared config schema", () => {
  it("resolves each load against its own environment and directory, whatever loads came before", () => {
    const a = tempDir({ "keys/w1": KEY_1 });
    const b = tempDir({ "keys/w1": KEY_2 });
    try {
      const fromFileA = parseConfig(live("{ file: keys/w1 }"), join(a.dir, "c.yaml"), { BASE: "https://a.example.test", MM_API_KEY: API_KEY, ADDR: ADDRESS_1 });
      // A load that fails in between (its variable is missing) leaves nothing behind.
      expect(() => parseConfig(live('"${MM_KEY}"'), join(a.dir, "c.yaml"), { BASE: "https://x.example.test", MM_API_KEY: API_KEY, ADDR: ADDRESS_1 })).toThrow(ConfigError);
      const fromFileB = parseConfig(live("{ file: keys/w1 }"), join(b.dir, "c.yaml"), { BASE: "https://b.example.test", MM_API_KEY: API_KEY, ADDR: ADDRESS_2 });
      const fromEnv = parseConfig(live('"${MM_KEY}"'), join(a.dir, "c.yaml"), { BASE: "https://c.example.test", MM_API_KEY: API_KEY, ADDR: ADDRESS_2, MM_KEY: KEY_2 });
      const seen = [fromFileA, fromFileB, fromEnv].map((c) => {
        if (c.mode !== "live") throw new Error("expected live");
        return { base: c.platform.baseUrl, address: c.wallets[0]!.address, key: c.wallets[0]!.privateKey.reveal() };
      });
      expect(seen).toEqual([
        { base: "https://a.example.test", address: ADDRESS_1, key: KEY_1 },
        { base: "https://b.example.test", address: ADDRESS_2, key: KEY_2 },
        { base: "https://c.example.test", address: ADDRESS_2, key: KEY_2 },
      ]);
      // The same text in a directory without the key file: refused, naming the path in that directory.
      const other = tempDir();
      try {
        expect(() => parseConfig(live("{ file: keys/w1 }"), join(other.dir, "c.yaml"), { BASE: "https://d.example.test", MM_API_KEY: API_KEY, ADDR: ADDRESS_1 })).toThrow(/keys\/w1/);
      } finally {
        other.cleanup();
      }
    } finally {
      a.cleanup();
      b.cleanup();
    }
  });
});
