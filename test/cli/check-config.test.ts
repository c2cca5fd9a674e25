import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkConfig, type CheckConfigIo } from "../../src/cli/check-config.js";
import { COMMANDS } from "../../src/cli/main.js";

const API_KEY = "pmk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const dir = mkdtempSync(join(tmpdir(), "mm-check-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CheckConfigIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env };
  const code = await checkConfig(argv, io);
  return { code, stdout, stderr };
}

const LIVE = `mode: live
platform:
  baseUrl: https://api.example.test
  apiKey: \${MM_API_KEY}
wallets:
  - name: w1
    privateKey: \${MM_WALLET_1_KEY}
strategy:
  name: ladder
`;

describe("mm check-config", () => {
  it("is wired into the mm command table", async () => {
    const load = COMMANDS["check-config"]!.load;
    expect(load).toBeDefined();
    expect(await load!()).toBe(checkConfig);
  });

  it("exits 0 with a summary on configs/demo.yaml", async () => {
    const r = await run(["configs/demo.yaml"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("configs/demo.yaml: OK");
    expect(r.stdout).toContain("mode: simulator, seed 42");
    expect(r.stdout).toContain("wallets: 3");
  });

  it("exits 0 on configs/live.example.yaml with its environment (and no secret in the output)", async () => {
    const keyDir = mkdtempSync(join(tmpdir(), "mm-live-example-"));
    try {
      // The example reads wallet-2's key from keys/wallet-2.key next to the config: copy it there.
      const { readFileSync, mkdirSync } = await import("node:fs");
      mkdirSync(join(keyDir, "keys"));
      writeFileSync(join(keyDir, "keys/wallet-2.key"), `0x${"22".repeat(32)}\n`, { mode: 0o600 });
      const path = join(keyDir, "live.yaml");
      writeFileSync(path, readFileSync("configs/live.example.yaml", "utf8"));
      const { privateKeyToAddress } = await import("viem/accounts");
      const key1 = `0x${"11".repeat(32)}` as const;
      const env = {
        MM_BASE_URL: "https://api.example.test",
        MM_API_KEY: API_KEY,
        MM_WALLET_1_KEY: key1,
        MM_WALLET_1_ADDRESS: privateKeyToAddress(key1),
        MM_ADMIN_TOKEN: "admin-token-0123456789",
      };
      const r = await run([path], env);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("mode: live, platform https://api.example.test");
      expect(r.stdout).toContain("key from env MM_API_KEY");
      expect(r.stdout).not.toContain(API_KEY);
      expect(r.stdout).not.toContain("11".repeat(32));
      expect(r.stdout).not.toContain("admin-token-0123456789");
    } finally {
      rmSync(keyDir, { recursive: true, force: true });
    }
  });

  it("exits 2 naming the key path on a wrong type", async () => {
    const path = file("wrong-type.yaml", "mode: simulator\nstrategy:\n  name: ladder\nquoting:\n  refreshMs: fast\n");
    const r = await run([path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${path}:5: quoting.refreshMs: expected number, received string`);
    expect(r.stderr).toContain(`${path}: invalid (1 problem)`);
  });

  it("exits 2 on a missing file", async () => {
    const r = await run([join(dir, "absent.yaml")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("absent.yaml: cannot read config file: no such file");
  });

  it("exits 2 on bad YAML", async () => {
    const path = file("bad.yaml", "mode: simulator\n  strategy: : x\n");
    const r = await run([path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:\d+: YAML syntax error/);
  });

  it("exits 2 naming a missing environment variable, and never prints a literal secret", async () => {
    const path = file("live.yaml", LIVE);
    const r = await run([path], { MM_API_KEY: API_KEY });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("wallets[0].privateKey: environment variable MM_WALLET_1_KEY is not set");
    const literal = file("literal.yaml", LIVE.replace("${MM_API_KEY}", API_KEY));
    const r2 = await run([literal], { MM_WALLET_1_KEY: `0x${"11".repeat(32)}` });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain("platform.apiKey: a literal secret is not allowed");
    expect(r2.stderr).not.toContain(API_KEY);
  });

  it("--help prints usage and exits 0; bad arguments exit 2", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: mm check-config FILE");
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing FILE");
    const flag = await run(["--verbose", "configs/demo.yaml"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option --verbose");
    expect((await run(["a.yaml", "b.yaml"])).code).toBe(2);
  });
});
