/**
 * Vault deployment through the signed-op flow (spec 4.8; shapes in docs/spec-gaps.md):
 *
 *   POST /api/me/vault/deploy/sign   {}  -> 200 {walletAddress, vaultAddress, typedData, digest, nonce, deadline}
 *        the EIP-712 `VaultDeploy{owner, vault, nonce, deadline}` (src/signing/withdrawal.ts) the
 *        owner signs; a new sign step replaces the previous one. A vault already deployed (or
 *        being deployed by onboarding, spec 5.3) is 409 `invalid_state`.
 *   POST /api/me/vault/deploy/submit {nonce, deadline, signature}
 *        -> 200 {walletAddress, vaultAddress, status: DEPLOYING | DEPLOYED, txHash, deployedAt}
 *        the vault exists `vaultDeployMs` (the scenario's onboarding timing) later. No sign step
 *        or another nonce: 400 `invalid_request`; past deadline: 400 `expired`; a signature that
 *        does not recover to the wallet: 400 `bad_signature`. A repeat after success answers the
 *        same deployment.
 *
 * The sign step's deadline is 10 minutes after it. The wallet's other gates (KYC, bans) still
 * apply to trading once the vault exists.
 */
import { keccak256, stringToHex } from "viem/utils";
import { checkRequest, requestErrorEnvelope } from "../../wire/requests.js";
import { vaultDeploySubmitBody } from "../../wire/accounts.js";
import { EIP712_DOMAIN_TYPES } from "../../signing/eip712.js";
import type { Hex } from "../../signing/types.js";
import { recoverOwner, VAULT_DEPLOY_TYPES, vaultDeployDigest, vaultDomain } from "../../signing/withdrawal.js";
import type { Simulator } from "../simulator.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import type { Caller } from "./caller.js";
import { isoOf } from "../platform/time.js";
import { onePer } from "../../core/memo.js";

export const DEPLOY_SIGN_TTL_SEC = 600;

interface Pending {
  nonce: bigint;
  deadline: bigint;
  digest: Hex;
}

interface Done {
  txHash: string;
  deployedAtMs: number;
}

class VaultDeployDesk {
  private readonly pending = new Map<string, Pending>();
  private readonly done = new Map<string, Done>();
  private nonce = 0n;

  constructor(private readonly sim: Simulator) {}

  private domain(vault: string) {
    const s = this.sim.platform.settings;
    return vaultDomain({ chainId: s.chainId, domain: s.domain }, vault);
  }

  private answer(wallet: string, vault: string, d: Done, nowMs: number): DeskAnswer {
    return {
      status: 200,
      body: { walletAddress: wallet, vaultAddress: vault, status: nowMs >= d.deployedAtMs ? "DEPLOYED" : "DEPLOYING", txHash: d.txHash, deployedAt: nowMs >= d.deployedAtMs ? isoOf(d.deployedAtMs) : null },
    };
  }

  sign(caller: Caller, nowMs: number): DeskAnswer {
    const wallet = caller.wallet;
    const info = this.sim.platform.wallets.vaultInfo(wallet, nowMs);
    const vault = info.vaultAddress.toLowerCase();
    const rec = this.sim.platform.wallets.get(wallet);
    if (info.deployed || rec?.vaultDeployedAtMs != null) {
      return errorAnswer(409, "invalid_state", info.deployed ? "the vault is already deployed" : "the vault deployment is already under way", { walletAddress: wallet, vaultAddress: vault });
    }
    this.nonce += 1n;
    const nonce = this.nonce;
    const deadline = BigInt(Math.floor(nowMs / 1000) + DEPLOY_SIGN_TTL_SEC);
    const domain = this.domain(vault);
    const digest = vaultDeployDigest(domain, { owner: wallet as Hex, vault: vault as Hex, nonce, deadline });
    this.pending.set(wallet, { nonce, deadline, digest });
    return {
      status: 200,
      body: {
        walletAddress: wallet,
        vaultAddress: vault,
        typedData: {
          domain: { name: domain.name, version: domain.version, chainId: Number(domain.chainId), verifyingContract: domain.verifyingContract },
          types: { ...EIP712_DOMAIN_TYPES, ...VAULT_DEPLOY_TYPES },
          primaryType: "VaultDeploy",
          message: { owner: wallet, vault, nonce: nonce.toString(), deadline: deadline.toString() },
        },
        digest,
        nonce: nonce.toString(),
        deadline: deadline.toString(),
      },
    };
  }

  submit(raw: unknown, caller: Caller, nowMs: number): DeskAnswer {
    const parsed = checkRequest(vaultDeploySubmitBody, raw ?? {});
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const b = parsed.value;
    const wallet = caller.wallet;
    const vault = this.sim.platform.wallets.vaultInfo(wallet, nowMs).vaultAddress.toLowerCase();
    const done = this.done.get(wallet);
    if (done !== undefined) return this.answer(wallet, vault, done, nowMs);
    const p = this.pending.get(wallet);
    if (p === undefined || p.nonce !== BigInt(b.nonce) || p.deadline !== BigInt(b.deadline)) {
      return errorAnswer(400, "invalid_request", "no deploy/sign step with this nonce and deadline: call /api/me/vault/deploy/sign first", { fields: ["nonce"], field: "nonce" });
    }
    if (p.deadline * 1000n < BigInt(nowMs)) return errorAnswer(400, "expired", "the sign step's deadline has passed", { deadline: b.deadline });
    if (this.sim.verifySignatures) {
      const recovered = recoverOwner(p.digest, b.signature);
      if (recovered === null || recovered.toLowerCase() !== wallet) {
        return errorAnswer(400, "bad_signature", "the deployment signature does not recover to the vault owner", { recovered, expected_signer: wallet });
      }
    }
    const deployedAtMs = nowMs + this.sim.platform.wallets.timings.vaultDeployMs;
    if (this.sim.platform.wallets.get(wallet) === undefined) {
      // An authenticated wallet is registered by the pipeline; this only guards the registry's contract.
      return errorAnswer(404, "not_found", `unknown wallet ${wallet}`, { walletAddress: wallet });
    }
    this.sim.platform.wallets.deployVault(wallet, deployedAtMs);
    this.pending.delete(wallet);
    const d: Done = { txHash: keccak256(stringToHex(`sim:vault-deploy:${wallet}`)), deployedAtMs };
    this.done.set(wallet, d);
    return this.answer(wallet, vault, d, nowMs);
  }
}

const desks = onePer((sim: Simulator) => new VaultDeployDesk(sim));

export function vaultDeployDesk(sim: Simulator): VaultDeployDesk {
  return desks(sim);
}
