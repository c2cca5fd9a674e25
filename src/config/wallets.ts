/**
 * Wallets: the sub-account wallets (X-User-Wallet) the daemon trades for, 1..50 of them.
 *
 * Live mode: every wallet has a private key (a Secret from `${ENV}` or a key file); `address` is
 * optional and, when given, must be the key's address (a cheap guard against a swapped key).
 *
 * Simulator mode: `privateKey` (and `address`) may be omitted. Such a wallet gets a key derived
 * from `simulator.seed` and its name, so the demo runs with no environment setup and the same
 * seed always gives the same wallets. Derived keys are refused in live mode by construction (the
 * live schema requires a key).
 */
import { getAddress, isAddress, keccak256, stringToBytes } from "viem/utils";
import type { Address } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { z } from "zod";
import { secretField, textField, type LoadContext } from "./fields.js";
import { Secret } from "../core/secret.js";

export const MAX_WALLETS = 50;

export interface WalletConfig {
  name: string;
  /** EIP-55 checksummed address of `privateKey`. */
  address: Address;
  privateKey: Secret;
  /** Markets (slugs or symbols) this wallet quotes; absent: the daemon assigns markets. */
  markets?: string[] | undefined;
}

const nameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "expected 1-32 characters of [A-Za-z0-9_-]");
const marketList = z.array(z.string().regex(/^\S+$/, "expected a market slug without spaces")).min(1);

function addressField(ctx: LoadContext): z.ZodType<Address, string> {
  return textField(ctx).transform((text, c) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text)) {
      c.addIssue({ code: "custom", message: "expected an address: 0x followed by 40 hex digits" });
      return z.NEVER;
    }
    // Mixed case claims an EIP-55 checksum: a wrong one usually means a mistyped character.
    const mixed = text !== text.toLowerCase() && text.slice(2) !== text.slice(2).toUpperCase();
    if (mixed && !isAddress(text, { strict: true })) {
      c.addIssue({ code: "custom", message: "bad EIP-55 checksum (write it all lower-case to skip the check)" });
      return z.NEVER;
    }
    return getAddress(text);
  });
}

function walletShape(ctx: LoadContext) {
  return {
    name: nameSchema,
    address: addressField(ctx).optional(),
    markets: marketList.optional(),
  };
}

/** The address of a key, checked against an `address` given beside it. */
function withAddress<T extends { address?: Address | undefined; privateKey: Secret }>(
  wallet: T,
  c: z.core.$RefinementCtx,
): Omit<T, "address"> & { address: Address } {
  const derived = privateKeyToAddress(wallet.privateKey.reveal() as `0x${string}`);
  if (wallet.address !== undefined && wallet.address !== derived) {
    c.addIssue({
      code: "custom",
      path: ["address"],
      message: `does not match privateKey (its address is ${derived})`,
    });
  }
  return { ...wallet, address: derived };
}

function checkUnique(wallets: readonly { name: string; address?: Address | undefined }[], c: z.core.$RefinementCtx): void {
  const names = new Set<string>();
  const addresses = new Set<string>();
  wallets.forEach((w, i) => {
    if (names.has(w.name)) c.addIssue({ code: "custom", path: [i, "name"], message: `duplicate wallet name ${w.name}` });
    names.add(w.name);
    if (w.address !== undefined) {
      if (addresses.has(w.address)) {
        c.addIssue({ code: "custom", path: [i, "address"], message: `duplicate wallet address ${w.address}` });
      }
      addresses.add(w.address);
    }
  });
}

export function liveWalletsSchema(ctx: LoadContext) {
  const wallet = z
    .strictObject({ ...walletShape(ctx), privateKey: secretField(ctx, "privateKey") })
    .transform((w, c): WalletConfig => withAddress(w, c));
  return z.array(wallet).min(1).max(MAX_WALLETS).superRefine(checkUnique);
}

/** A simulator-mode wallet before key derivation: the key may still be missing. */
export interface PendingWallet {
  name: string;
  address?: Address | undefined;
  privateKey?: Secret | undefined;
  markets?: string[] | undefined;
}

export function simulatorWalletsSchema(ctx: LoadContext) {
  const wallet = z
    .strictObject({ ...walletShape(ctx), privateKey: secretField(ctx, "privateKey").optional() })
    .transform((w, c): PendingWallet => {
      if (w.privateKey !== undefined) return withAddress({ ...w, privateKey: w.privateKey }, c);
      if (w.address !== undefined) {
        c.addIssue({
          code: "custom",
          path: ["address"],
          message: "an address needs its privateKey (omit both to use a key derived from simulator.seed)",
        });
      }
      return w;
    });
  return z
    .array(wallet)
    .min(1)
    .max(MAX_WALLETS)
    .superRefine(checkUnique)
    .prefault([{ name: "maker-1" }]);
}

/**
 * The simulator-only key of a wallet without one: keccak256 of a label naming the seed and the
 * wallet, re-hashed in the (astronomically unlikely) case it is not a valid secp256k1 scalar.
 */
export function simulatorWalletKey(seed: number, name: string): Secret {
  let label = `mm-sim-wallet:${seed}:${name}`;
  for (;;) {
    const key = keccak256(stringToBytes(label));
    try {
      privateKeyToAddress(key);
      return new Secret(key, `simulator.seed ${seed}`);
    } catch {
      label += "'";
    }
  }
}

/** Give every simulator-mode wallet a key and an address. */
export function finalizeSimulatorWallets(wallets: readonly PendingWallet[], seed: number): WalletConfig[] {
  return wallets.map((w) => {
    if (w.privateKey !== undefined && w.address !== undefined) {
      return { ...w, privateKey: w.privateKey, address: w.address };
    }
    const privateKey = simulatorWalletKey(seed, w.name);
    return { ...w, privateKey, address: privateKeyToAddress(privateKey.reveal() as `0x${string}`) };
  });
}
