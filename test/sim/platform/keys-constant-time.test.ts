// The default secret comparison is node:crypto's timingSafeEqual: spy on the module itself.
import { timingSafeEqual } from "node:crypto";
import type * as NodeCrypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { authSetup, key, KEYS, T0, WALLET_A } from "./fixtures.js";

vi.mock("node:crypto", async (importOriginal) => {
  const mod = await importOriginal<typeof NodeCrypto>();
  return { ...mod, timingSafeEqual: vi.fn(mod.timingSafeEqual) };
});

describe("constant-time secret comparison", () => {
  it("every secret check of a known key goes through crypto.timingSafeEqual on 32-byte digests", () => {
    const { auth } = authSetup();
    const spy = vi.mocked(timingSafeEqual);
    spy.mockClear();
    const ok = auth.authenticate({ apiKeyHeader: KEYS.mm, userWalletHeader: WALLET_A, requiredScopes: [], nowMs: T0 });
    const bad = auth.authenticate({ apiKeyHeader: key("00000000000000a1", "short"), userWalletHeader: WALLET_A, requiredScopes: [], nowMs: T0 });
    expect(ok.ok).toBe(true);
    expect(bad).toMatchObject({ code: "api_key_bad_secret" });
    expect(spy).toHaveBeenCalledTimes(2);
    for (const [a, b] of spy.mock.calls) {
      expect((a as Uint8Array).length).toBe(32);
      expect((b as Uint8Array).length).toBe(32);
    }
  });

  it("unknown key ids and malformed keys never reach the comparison", () => {
    const { auth } = authSetup();
    const spy = vi.mocked(timingSafeEqual);
    spy.mockClear();
    auth.authenticate({ apiKeyHeader: key("ffffffffffffffff"), requiredScopes: [], nowMs: T0 });
    auth.authenticate({ apiKeyHeader: "bad", requiredScopes: [], nowMs: T0 });
    expect(spy).not.toHaveBeenCalled();
  });
});
