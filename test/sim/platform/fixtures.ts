/** Shared fixtures for the platform-layer tests (not a test file itself). */
import { Rng } from "../../../src/core/rng.js";
import { Authenticator } from "../../../src/sim/platform/auth.js";
import { KeyStore, type Scope } from "../../../src/sim/platform/keys.js";
import { PartnerRegistry } from "../../../src/sim/platform/partners.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
export const WALLET_A = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";
export const WALLET_B = "0x6c6af07afeb7bc9075ae06705ad9363ba15b3ce3";
export const ASSOC = "0xde453b3c26ec811941f8f41048fbd568eae93368";

export function key(keyId: string, secret = `S${keyId}`.padEnd(32, "x")): string {
  return `pmk_sim_${keyId}_${secret}`;
}

export const KEYS = {
  mm: key("00000000000000a1"),
  readOnly: key("00000000000000a2"),
  revoked: key("00000000000000a3"),
  expired: key("00000000000000a4"),
  suspended: key("00000000000000a5"),
  ip: key("00000000000000a6"),
  single: key("00000000000000a7"),
  singleNone: key("00000000000000a8"),
  assoc: key("00000000000000a9"),
  suspendedExpired: key("00000000000000aa"),
} as const;

export const DAY_ONE: Scope[] = ["orders:read", "orders:write", "portfolio:read"];

export function authSetup() {
  const partners = new PartnerRegistry();
  const keys = new KeyStore({ pepper: Buffer.alloc(32, 7), rng: new Rng(1) });
  partners.add({ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc: false }, T0);
  partners.add({ id: "single", name: "Single", kind: "single_wallet", associatedWallet: WALLET_B }, T0);
  partners.add({ id: "single-none", name: "Single none", kind: "single_wallet" }, T0);
  partners.add({ id: "assoc", name: "MM assoc", kind: "multi_wallet", associatedWallet: ASSOC }, T0);
  partners.add({ id: "susp", name: "Suspended", kind: "multi_wallet", suspended: true }, T0);
  const o = { nowMs: T0 };
  keys.register(KEYS.mm, "mm", DAY_ONE, o);
  keys.register(KEYS.readOnly, "mm", ["orders:read"], o);
  keys.register(KEYS.revoked, "mm", DAY_ONE, { ...o, revokedAtMs: T0, expiresAtMs: T0 + 1 });
  keys.register(KEYS.expired, "mm", DAY_ONE, { ...o, expiresAtMs: T0 + 60_000 });
  keys.register(KEYS.suspended, "susp", DAY_ONE, o);
  keys.register(KEYS.suspendedExpired, "susp", DAY_ONE, { ...o, expiresAtMs: T0 + 1 });
  keys.register(KEYS.ip, "mm", DAY_ONE, { ...o, ipAllowlist: ["10.0.0.0/8", "192.168.1.5", "2001:db8::1"] });
  keys.register(KEYS.single, "single", DAY_ONE, o);
  keys.register(KEYS.singleNone, "single-none", ["orders:read"], o);
  keys.register(KEYS.assoc, "assoc", DAY_ONE, o);
  return { partners, keys, auth: new Authenticator(keys, partners) };
}
