/**
 * Docker fixes of issue 15: the documented `docker run -p 9464:9464` works with configs/live.example.yaml
 * (the image's MM_METRICS_HOST overrides the template's loopback host), one key-file rule said the same
 * way in README, template, Dockerfile and compose (mode 600, owned by uid 1000, which the config loader
 * enforces), and private files kept out of git and out of the image's build context.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadConfig } from "../../src/config/index.js";
import { LIVE_ENV } from "../config/fixtures.js";

const KEY_RULE = "chmod 700 keys && chmod 600 keys/*.key && sudo chown -R 1000 keys";
const DOCKERFILE = readFileSync("Dockerfile", "utf8");
const README = readFileSync("README.md", "utf8");

/** The ENV lines of the Dockerfile's last stage (the image). */
function imageEnv(): Record<string, string> {
  const runtime = DOCKERFILE.slice(DOCKERFILE.lastIndexOf("\nFROM "));
  return Object.fromEntries([...runtime.matchAll(/^ENV (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** What README's `cp configs/live.example.yaml my-live.yaml` and the key rule make, in a temporary directory. */
function operatorDir(keyMode: number): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-docker-"));
  cleanup = () => rmSync(dir, { recursive: true, force: true });
  copyFileSync("configs/live.example.yaml", join(dir, "my-live.yaml"));
  mkdirSync(join(dir, "keys"), { mode: 0o700 });
  writeFileSync(join(dir, "keys", "wallet-2.key"), `0x${"22".repeat(32)}\n`);
  chmodSync(join(dir, "keys", "wallet-2.key"), keyMode);
  return dir;
}

describe("the image with configs/live.example.yaml", () => {
  it("listens on 0.0.0.0:9464 through the image's environment, where the template alone says loopback", () => {
    const env = imageEnv();
    expect(env["MM_METRICS_HOST"]).toBe("0.0.0.0");
    const dir = operatorDir(0o600);
    const inImage = loadConfig(join(dir, "my-live.yaml"), { ...LIVE_ENV, ...env });
    expect(inImage.metrics).toMatchObject({ host: "0.0.0.0", port: 9464 });
    expect(DOCKERFILE).toMatch(new RegExp(`^EXPOSE ${inImage.metrics.port}$`, "m"));
    expect(loadConfig(join(dir, "my-live.yaml"), { ...LIVE_ENV }).metrics.host).toBe("127.0.0.1");
  });

  it("runs the compose service's demo on the address Prometheus scrapes", () => {
    const mm = (parseYaml(readFileSync("docker-compose.yaml", "utf8")) as { services: { mm: { environment: Record<string, string> } } }).services.mm;
    const config = loadConfig("configs/demo.yaml", { ...imageEnv(), ...mm.environment });
    expect(config.mode).toBe("simulator");
    expect(config.metrics).toMatchObject({ host: "0.0.0.0", port: 9464 });
  });

  it.skipIf(process.platform === "win32")("accepts a key file made by the rule (600) and refuses one open to its group (640)", () => {
    const ok = operatorDir(0o600);
    expect(loadConfig(join(ok, "my-live.yaml"), { ...LIVE_ENV }).wallets[1]!.privateKey.origin).toBe("file keys/wallet-2.key");
    cleanup?.();
    const open = operatorDir(0o640);
    expect(() => loadConfig(join(open, "my-live.yaml"), { ...LIVE_ENV })).toThrow(/keys\/wallet-2\.key has mode 0640, open to group/);
  });
});

describe("one key-file rule", () => {
  it("is written the same way in README, the template, the Dockerfile and docker-compose.yaml", () => {
    for (const file of ["README.md", "configs/live.example.yaml", "Dockerfile", "docker-compose.yaml"]) {
      expect(readFileSync(file, "utf8"), file).toContain(KEY_RULE);
    }
    expect(DOCKERFILE).toMatch(/^USER node$/m); // node is uid 1000 in the node images
    // No second story: no group-readable mode, no --user alternative.
    const dockerSection = README.slice(README.indexOf("### Docker\n"), README.indexOf("### Docker Compose"));
    expect(dockerSection).toContain(KEY_RULE);
    for (const [where, text] of [
      ["README.md, Docker", dockerSection],
      ["configs/live.example.yaml", readFileSync("configs/live.example.yaml", "utf8")],
      ["Dockerfile", DOCKERFILE],
    ]) {
      expect(text, where).not.toMatch(/chmod [46][4-7]0|--user/);
    }
    expect(README).not.toContain("metrics.host: 0.0.0.0"); // the image's MM_METRICS_HOST does it now
  });
});

describe("private files", () => {
  const PRIVATE = ["keys/wallet-2.key", "keys/", "my-live.yaml", "my-demo.yaml", "secrets/alertmanager/telegram-bot-token"];

  it("are git-ignored", () => {
    const r = spawnSync("git", ["check-ignore", "--no-index", ...PRIVATE], { encoding: "utf8" });
    if (r.error !== undefined || r.status === 128) {
      // Not a git checkout (an exported tarball): read the rules themselves.
      const rules = readFileSync(".gitignore", "utf8").split("\n");
      for (const rule of ["keys/", "my-*.yaml", "secrets/"]) expect(rules).toContain(rule);
      return;
    }
    expect(r.stdout.trim().split("\n").sort()).toEqual([...PRIVATE].sort());
    // ...and the shipped configs are not.
    expect(spawnSync("git", ["check-ignore", "--no-index", "-q", "configs/live.example.yaml"]).status).toBe(1);
  });

  it("stay out of the image's build context", () => {
    const rules = readFileSync(".dockerignore", "utf8").split("\n");
    for (const rule of ["keys", "secrets", "my-*.yaml", "**/*.key", ".env"]) expect(rules, rule).toContain(rule);
  });
});
