import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { privateKeyToAddress } from "viem/accounts";

/** Well-formed but obviously fake secrets for tests. */
export const API_KEY = "pmk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345";
export const KEY_1 = `0x${"11".repeat(32)}` as const;
export const KEY_2 = `0x${"22".repeat(32)}` as const;
export const ADDRESS_1 = privateKeyToAddress(KEY_1);
export const ADDRESS_2 = privateKeyToAddress(KEY_2);
export const ADMIN_TOKEN = "admin-token-0123456789";

/** The environment configs/live.example.yaml needs. */
export const LIVE_ENV = {
  MM_BASE_URL: "https://api.example.test",
  MM_API_KEY: API_KEY,
  MM_WALLET_1_ADDRESS: ADDRESS_1,
  MM_WALLET_1_KEY: KEY_1,
  MM_ADMIN_TOKEN: ADMIN_TOKEN,
} as const;

/** A temporary directory with the given files, mode 0600 as key files must be; `cleanup` removes it. */
export function tempDir(files: Record<string, string> = {}): { dir: string; path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "mm-config-test-"));
  for (const [name, content] of Object.entries(files)) {
    const full = join(dir, name);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content, { mode: 0o600 });
  }
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A minimal valid live config (YAML text) with overridable tail sections. */
export function liveYaml(extra = ""): string {
  return `mode: live
platform:
  baseUrl: https://api.example.test
  apiKey: \${MM_API_KEY}
wallets:
  - name: w1
    privateKey: \${MM_WALLET_1_KEY}
strategy:
  name: ladder
${extra}`;
}

export const LIVE_MIN_ENV = { MM_API_KEY: API_KEY, MM_WALLET_1_KEY: KEY_1 } as const;
