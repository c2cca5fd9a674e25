/**
 * Issue 10: a secret file (wallet key, API key, admin token) whose mode gives group or others any
 * access is refused, as ssh refuses an unprotected private key, with a `file:line: key.path:`
 * error that names the file, its mode and the fix, and never the secret. 0600 and 0400 load.
 */
import { chmodSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/index.js";
import { readKeyFile } from "../../src/config/key-file.js";
import { SigningError, WalletSigner } from "../../src/signing/index.js";
import { ADDRESS_1, ADMIN_TOKEN, API_KEY, KEY_1, LIVE_MIN_ENV, liveYaml, tempDir } from "./fixtures.js";

// Root ignores modes for reading but not for this check; only Windows skips it.
const posix = process.platform !== "win32";

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** A config dir with one key file of the given mode; the config's wallet reads it. */
function setup(mode: number, content: string = `${KEY_1}\n`) {
  const tmp = tempDir({ "keys/w1.key": content, "live.yaml": "" });
  cleanup = tmp.cleanup;
  chmodSync(tmp.path("keys/w1.key"), mode); // chmod is not masked by the umask
  const text = liveYaml().replace("${MM_WALLET_1_KEY}", "{ file: keys/w1.key }");
  return { tmp, text, config: tmp.path("live.yaml") };
}

function errorOf(text: string, file: string, env: Record<string, string> = LIVE_MIN_ENV): ConfigError {
  try {
    parseConfig(text, file, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe.runIf(posix)("a key file open to group or others is refused", () => {
  it("0644: names the file, its mode and the fix at file:line: key.path, without the key", () => {
    const { tmp, text, config } = setup(0o644);
    const error = errorOf(text, config);
    const line = text.split("\n").findIndex((l) => l.includes("keys/w1.key")) + 1;
    expect(error.message).toBe(
      `${config}:${line}: wallets[0].privateKey: key file keys/w1.key has mode 0644, open to group and others; ` +
        `a key file must be private to its owner: chmod 600 ${tmp.path("keys/w1.key")}`,
    );
    expect(error.message).not.toContain(KEY_1.slice(2));
  });

  it("0640 (group read), 0604 (others read) and 0620 (group write only) are refused too", () => {
    for (const [mode, who] of [
      [0o640, "open to group;"],
      [0o604, "open to others;"],
      [0o620, "open to group;"],
      [0o601, "open to others;"],
    ] as const) {
      const { text, config } = setup(mode);
      const message = errorOf(text, config).message;
      expect(message).toContain(`has mode 0${mode.toString(8)}, ${who}`);
      expect(message).toContain("chmod 600");
      cleanup?.();
    }
  });

  it("0600, 0400 and 0700 load (owner bits are not checked)", () => {
    for (const mode of [0o600, 0o400, 0o700]) {
      const { text, config } = setup(mode);
      const loaded = parseConfig(text, config, LIVE_MIN_ENV);
      expect(loaded.wallets[0]!.address).toBe(ADDRESS_1);
      expect(loaded.wallets[0]!.privateKey.origin).toBe("file keys/w1.key");
      cleanup?.();
    }
  });

  it("the API key and admin token files are checked the same way", () => {
    const tmp = tempDir({ "api.key": `${API_KEY}\n`, "admin.token": `${ADMIN_TOKEN}\n`, "live.yaml": "" });
    cleanup = tmp.cleanup;
    chmodSync(tmp.path("api.key"), 0o644);
    chmodSync(tmp.path("admin.token"), 0o640);
    const text = liveYaml("admin:\n  token: { file: admin.token }\n").replace("${MM_API_KEY}", "{ file: api.key }");
    const message = errorOf(text, tmp.path("live.yaml")).message;
    expect(message).toContain("platform.apiKey: key file api.key has mode 0644, open to group and others");
    expect(message).toContain("admin.token: key file admin.token has mode 0640, open to group;");
    expect(message).not.toContain(API_KEY);
    expect(message).not.toContain(ADMIN_TOKEN);
    chmodSync(tmp.path("api.key"), 0o600);
    chmodSync(tmp.path("admin.token"), 0o400);
    const loaded = parseConfig(text, tmp.path("live.yaml"), LIVE_MIN_ENV);
    expect(loaded.mode === "live" && loaded.platform.apiKey.reveal()).toBe(API_KEY);
    expect(loaded.admin.token?.reveal()).toBe(ADMIN_TOKEN);
  });

  it("a too-open file is refused before its content is checked (a bad key in it is not described)", () => {
    const { text, config } = setup(0o644, "not a key at all\n");
    const message = errorOf(text, config).message;
    expect(message).toContain("has mode 0644");
    expect(message).not.toContain("is not a 32-byte hex private key");
  });

  it("WalletSigner.fromKeyFile refuses it too, with key_file_too_open and no key in the message", () => {
    const { tmp } = setup(0o644);
    let thrown: unknown;
    try {
      WalletSigner.fromKeyFile(tmp.path("keys/w1.key"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SigningError);
    expect((thrown as SigningError).code).toBe("key_file_too_open");
    expect((thrown as SigningError).message).toContain(`chmod 600 ${tmp.path("keys/w1.key")}`);
    expect((thrown as SigningError).message).not.toContain(KEY_1.slice(2));
    chmodSync(tmp.path("keys/w1.key"), 0o600);
    expect(WalletSigner.fromKeyFile(tmp.path("keys/w1.key")).address).toBe(ADDRESS_1);
  });
});

describe("readKeyFile", () => {
  it("skips the mode check on Windows, where node reports no POSIX modes", () => {
    const { tmp } = setup(0o644);
    expect(readKeyFile(tmp.path("keys/w1.key"), "win32")).toEqual({ ok: true, content: `${KEY_1}\n` });
    if (posix) expect(readKeyFile(tmp.path("keys/w1.key"), "linux")).toEqual({ ok: false, problem: "too_open", mode: 0o644 });
  });

  it("a missing file or a directory is unreadable with its errno code", () => {
    const { tmp } = setup(0o600);
    expect(readKeyFile(tmp.path("keys/none.key"))).toEqual({ ok: false, problem: "unreadable", code: "ENOENT" });
    expect(readKeyFile(tmp.path("keys"))).toEqual({ ok: false, problem: "unreadable", code: "EISDIR" });
  });
});
