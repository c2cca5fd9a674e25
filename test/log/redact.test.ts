import { describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { isSecretKey, redactKeys, redactLogLine, redactSecrets } from "../../src/log/redact.js";

const API_KEY = "pmk_sim_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const PRIVATE_KEY = `0x${"4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"}`;

describe("redactSecrets", () => {
  it("blanks API keys wherever they sit", () => {
    for (const text of [API_KEY, `key=${API_KEY};`, `"X-Api-Key":"${API_KEY}"`, `Error: bad key ${API_KEY}\n  at x`]) {
      const out = redactSecrets(text);
      expect(out).not.toContain("AbCdEfGhIjKlMnOp");
      expect(out).toContain("[REDACTED]");
    }
  });

  it("blanks 32-byte hex private keys, with or without 0x", () => {
    expect(redactSecrets(`signer ${PRIVATE_KEY} failed`)).toBe("signer [REDACTED] failed");
    expect(redactSecrets(`k=${PRIVATE_KEY.slice(2)}`)).toBe("k=[REDACTED]");
  });

  it("blanks ?key= and &token= URL parameters", () => {
    expect(redactSecrets("wss://h/ws/user?key=abc.def-123&x=1")).toBe("wss://h/ws/user?key=[REDACTED]&x=1");
    expect(redactSecrets("https://h/p?a=1&token=xyz")).toBe("https://h/p?a=1&token=[REDACTED]");
  });

  it("blanks any value held by a Secret, whatever its shape", () => {
    const s = new Secret("odd-shaped-secret!!", "test");
    expect(redactSecrets(`leaked ${s.reveal()} here`)).toBe("leaked [REDACTED] here");
  });

  it("keeps what operators need: error codes, addresses, signatures, ids", () => {
    const keep = [
      "api_key_bad_format",
      "order_signed_with_floor_notional",
      "trading_temporarily_unavailable",
      "0x52908400098527886E0F7030069857D2E4169EE7",
      `0x${"ab".repeat(65)}`, // a 65-byte signature is not a 32-byte key
      "mm1-abc-000001",
      "123456789012345678901234567890",
      "pmk_sim_short_secret",
    ];
    for (const text of keep) expect(redactSecrets(text)).toBe(text);
  });
});

describe("redactLogLine", () => {
  it("keeps hashes and ids under *Hash / *Id keys, blanks other 32-byte hex", () => {
    const hash = `0x${"cd".repeat(32)}`;
    const line = JSON.stringify({ orderHash: hash, txHash: hash, hash, conditionId: hash, other: hash, msg: `placed ${hash}` });
    const out = JSON.parse(redactLogLine(line)) as Record<string, string>;
    expect(out.conditionId).toBe(hash);
    expect(out.orderHash).toBe(hash);
    expect(out.txHash).toBe(hash);
    expect(out.hash).toBe(hash);
    expect(out.other).toBe("[REDACTED]");
    expect(out.msg).toBe("placed [REDACTED]");
    expect(redactLogLine(JSON.stringify({ orderHash: PRIVATE_KEY.slice(2) }))).not.toContain(PRIVATE_KEY.slice(2));
  });
});

describe("redactKeys", () => {
  it("recognizes secret-named keys", () => {
    for (const k of ["apiKey", "api_key", "X-Api-Key", "x-api-key", "privateKey", "walletPrivateKey", "secret", "clientSecret", "token", "adminToken", "password", "authorization", "Cookie"]) {
      expect(isSecretKey(k)).toBe(true);
    }
    for (const k of ["tokenId", "yesTokenId", "key", "keyId", "walletAddress", "orderHash", "secretary"]) {
      expect(isSecretKey(k)).toBe(false);
    }
  });

  it("replaces values under secret keys at any depth, and Secrets anywhere", () => {
    const input = {
      a: { b: { c: { clientSecret: "x1", keep: "y" } } },
      list: [{ token: "t" }, new Secret("zzzzzzzzzz", "t")],
      n: 5n,
      apiKey: null,
    };
    expect(redactKeys(input)).toEqual({
      a: { b: { c: { clientSecret: "[REDACTED]", keep: "y" } } },
      list: [{ token: "[REDACTED]" }, "[REDACTED]"],
      n: "5",
      apiKey: null,
    });
    // the input is not modified
    expect(input.a.b.c.clientSecret).toBe("x1");
  });

  it("walks class instances' own fields, leaves errors to their serializer, cuts cycles and depth", () => {
    class Req {
      headers = { "x-api-key": "v" };
    }
    const err = new Error("e");
    const cyclic: Record<string, unknown> = { password: "p" };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { token: "deep" };
    for (let i = 0; i < 12; i++) deep = { next: deep };
    const out = redactKeys({ req: new Req(), err, cyclic, deep }) as Record<string, unknown>;
    expect(out.req).toEqual({ headers: { "x-api-key": "[REDACTED]" } });
    expect(out.err).toBe(err);
    expect(out.cyclic).toEqual({ password: "[REDACTED]", self: "[Circular]" });
    expect(JSON.stringify(out.deep)).toContain("[Truncated]");
    expect(JSON.stringify(out.deep)).not.toContain('"deep"');
  });
});
