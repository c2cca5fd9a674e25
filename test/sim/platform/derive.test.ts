/** Deterministic derivations of the simulator: addresses, on-chain ids and slugs. */
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { addressFromLabel, bytes32Of, isWalletAddress, kebab, outcomeTokenId, SlugAllocator, vaultAddressOf } from "../../../src/sim/platform/derive.js";

describe("addresses and ids", () => {
  it("derive the same EIP-55 address from the same label, another from another", () => {
    const a = addressFromLabel("alice");
    expect(a).toBe(addressFromLabel("alice"));
    expect(a).toBe(getAddress(a));
    expect(isWalletAddress(a)).toBe(true);
    expect(addressFromLabel("bob")).not.toBe(a);
  });

  it("a vault address depends on the wallet, not on how its address is cased", () => {
    const w = "0x00000000000000000000000000000000000000Aa";
    expect(vaultAddressOf(w)).toBe(vaultAddressOf(w.toLowerCase()));
    expect(vaultAddressOf(w)).toBe(addressFromLabel(`vault:${w.toLowerCase()}`));
    expect(vaultAddressOf(w)).not.toBe(addressFromLabel(w.toLowerCase()));
  });

  it("bytes32 ids are 32 bytes of hex; outcome token ids are decimal and differ per outcome", () => {
    const c = bytes32Of("condition:EPL-ARS-CHE");
    expect(c).toMatch(/^0x[0-9a-f]{64}$/);
    const ids = [0, 1, 2].map((i) => outcomeTokenId(c, i));
    for (const id of ids) expect(id).toMatch(/^[1-9]\d*$/);
    expect(new Set(ids).size).toBe(3);
    expect(outcomeTokenId(c, 1)).toBe(ids[1]);
    expect(outcomeTokenId(bytes32Of("condition:other"), 1)).not.toBe(ids[1]);
  });

  it("a wallet address is 0x and 40 hex digits, any case", () => {
    expect(isWalletAddress("0x00000000000000000000000000000000000000aA")).toBe(true);
    for (const bad of ["0x123", "00000000000000000000000000000000000000000a", `0x${"g".repeat(40)}`, ` 0x${"0".repeat(40)}`]) expect(isWalletAddress(bad), bad).toBe(false);
  });
});

describe("slugs", () => {
  it("kebab-cases text: ASCII letters and digits, accents dropped, single inner hyphens", () => {
    expect(kebab("Arsenal vs. Chelsea")).toBe("arsenal-vs-chelsea");
    expect(kebab("  Atlético  Madrid!! ")).toBe("atletico-madrid");
    expect(kebab("--Über__2026--")).toBe("uber-2026");
    expect(kebab("!!!")).toBe("");
  });

  it("hands out unique slugs in a namespace: x, then x-2, x-3", () => {
    const s = new SlugAllocator();
    expect(s.take("Arsenal v Chelsea")).toBe("arsenal-v-chelsea");
    expect(s.take("arsenal v chelsea")).toBe("arsenal-v-chelsea-2");
    expect(s.take("ARSENAL-V-CHELSEA")).toBe("arsenal-v-chelsea-3");
    expect(s.take("???")).toBe("item");
    expect(s.take("", "market")).toBe("market");
    expect(s.has("arsenal-v-chelsea-2")).toBe(true);
    expect(s.has("arsenal-v-chelsea-4")).toBe(false);
  });

  it("claims an exact slug only when it is free and already kebab-case", () => {
    const s = new SlugAllocator();
    expect(s.claim("epl-winner")).toBe(true);
    expect(s.claim("epl-winner")).toBe(false);
    expect(s.claim("EPL-Winner")).toBe(false);
    expect(s.claim("")).toBe(false);
    expect(s.take("EPL winner")).toBe("epl-winner-2");
  });
});
