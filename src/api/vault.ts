/**
 * Vault writes (spec 4.8): the deployment signed-op flow (`POST /api/me/vault/deploy/sign` then
 * `/deploy/submit`), the split / merge / convert co-signatures, the splits-merges unlock and the
 * emergency exit. `vault:write` plus, where the platform asks for one, the owner's EIP-712
 * signature. Writes: never retried blindly (only 429 and "nothing recorded" answers are resent).
 *
 * `deploySign` / `deploySubmit` pass bodies and answers through as JSON records (shapes not
 * shown); `deploy(signer)` runs the whole flow with the shapes chosen in docs/spec-gaps.md,
 * recomputing the digest from the typed data rather than trusting the server's. The split / merge /
 * convert calls and the unlock use the shapes of src/wire/vault-ops.ts (ours, docs/spec-gaps.md).
 */
import type { PlatformContracts, VaultDeployment, VaultDeploySign, VaultEmergency, VaultOpBody, VaultOperation } from "../wire/index.js";
import { vaultDeployment, vaultDeploySign, vaultEmergency, vaultOperation } from "../wire/index.js";
import { formatMicros, parseMicros } from "../core/money.js";
import type { Hex } from "../signing/types.js";
import { vaultOperationDigest, type VaultOpKind } from "../signing/vault-ops.js";
import { vaultDeployDigest, vaultDomain } from "../signing/withdrawal.js";
import type { ApiCore, CallSpec } from "./core.js";
import { writeCall } from "./decode.js";
import { ApiError } from "./errors.js";
import { path } from "./query.js";
import type { CallOptions, UnknownRecord, WriteResult } from "./results.js";
import { unknownRecord } from "./results.js";
import type { DigestSigner } from "./withdrawals.js";

export interface VaultOpIntent {
  kind: VaultOpKind;
  vault: string;
  marketId: string;
  /** Decimal string or micros. */
  amount: string | bigint;
  nonce: bigint;
  /** Unix seconds after which the platform refuses the signature. */
  deadline: bigint;
}

/** Build and sign a split / merge / convert body (the vault owner's EIP-712 `VaultOperation`). */
export async function signVaultOperation(signer: DigestSigner, contracts: Pick<PlatformContracts, "chainId" | "domain">, intent: VaultOpIntent): Promise<VaultOpBody> {
  const amount = typeof intent.amount === "bigint" ? intent.amount : parseMicros(intent.amount);
  const digest = vaultOperationDigest(vaultDomain(contracts, intent.vault), {
    vault: intent.vault as Hex,
    kind: intent.kind,
    marketId: intent.marketId,
    amount,
    nonce: intent.nonce,
    deadline: intent.deadline,
  });
  const signature = await signer.signDigest(digest);
  return { vault: intent.vault, marketId: intent.marketId, amount: formatMicros(amount), nonce: intent.nonce.toString(), deadline: intent.deadline.toString(), signature };
}

export class VaultApi {
  constructor(
    private readonly core: ApiCore,
    readonly wallet: string | undefined,
  ) {}

  private writeSpec(p: string, body: UnknownRecord | VaultOpBody | undefined, opts?: CallOptions): CallSpec {
    return {
      method: "POST",
      path: p,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      wallet: this.wallet,
      auth: true,
      policy: "write",
      ...(opts?.signal ? { signal: opts.signal } : {}),
    };
  }

  deploySign(body: UnknownRecord = {}, opts?: CallOptions): Promise<WriteResult<UnknownRecord>> {
    return writeCall(this.core, this.writeSpec("/api/me/vault/deploy/sign", body, opts), unknownRecord);
  }

  deploySubmit(body: UnknownRecord, opts?: CallOptions): Promise<WriteResult<UnknownRecord>> {
    return writeCall(this.core, this.writeSpec("/api/me/vault/deploy/submit", body, opts), unknownRecord);
  }

  /**
   * The whole deployment: sign step, the owner's signature over the typed data it returns (the
   * digest recomputed here; a `typedData.message.owner` that is not `signer` is refused before
   * signing), submit step. A refusal of either step comes back as `Rejected`.
   */
  async deploy(signer: DigestSigner, opts?: CallOptions): Promise<WriteResult<VaultDeployment> | WriteResult<VaultDeploySign>> {
    const signed = await writeCall(this.core, this.writeSpec("/api/me/vault/deploy/sign", {}, opts), vaultDeploySign);
    if (!signed.ok) return signed;
    const t = signed.data.typedData;
    const m = t.message;
    const d = t.domain;
    const where = { method: "POST" as const, path: "/api/me/vault/deploy/sign" };
    const refuse = (message: string): never => {
      throw new ApiError({ source: "local", status: 0, code: "invalid_response", message, ...where, handling: "fix_request", attempts: 0 });
    };
    if (t.primaryType !== "VaultDeploy") refuse(`deploy/sign answered primaryType ${t.primaryType}, expected VaultDeploy`);
    if (typeof m.owner !== "string" || m.owner.toLowerCase() !== signer.address.toLowerCase()) refuse("deploy/sign typed data names another owner than this signer");
    let digest: Hex;
    try {
      digest = vaultDeployDigest(
        { name: String(d.name), version: String(d.version), chainId: BigInt(String(d.chainId)), verifyingContract: String(d.verifyingContract) as Hex },
        { owner: String(m.owner) as Hex, vault: String(m.vault) as Hex, nonce: BigInt(String(m.nonce)), deadline: BigInt(String(m.deadline)) },
      );
    } catch (e) {
      return refuse(`deploy/sign typed data cannot be hashed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (digest.toLowerCase() !== signed.data.digest.toLowerCase()) refuse("deploy/sign digest does not match its typed data");
    const signature = await signer.signDigest(digest);
    const body = { nonce: signed.data.nonce, deadline: signed.data.deadline, signature };
    return writeCall(this.core, this.writeSpec("/api/me/vault/deploy/submit", body, opts), vaultDeployment);
  }

  /**
   * `POST /api/vault/split-signature`: lock `amount` of collateral now; one YES and one NO share per
   * unit once the chain transaction confirms (body and answer: ours, docs/spec-gaps.md). Build the
   * body with `signVaultOperation`. `shard_owner_unavailable` (nothing recorded) is resent by the
   * write policy; a repeat with the same nonce answers the same operation.
   */
  splitSignature(body: VaultOpBody, opts?: CallOptions): Promise<WriteResult<VaultOperation>> {
    return writeCall(this.core, this.writeSpec("/api/vault/split-signature", body, opts), vaultOperation);
  }

  /** `POST /api/vault/merge-signature`: lock `amount` YES and NO shares now; `amount` collateral once confirmed. */
  mergeSignature(body: VaultOpBody, opts?: CallOptions): Promise<WriteResult<VaultOperation>> {
    return writeCall(this.core, this.writeSpec("/api/vault/merge-signature", body, opts), vaultOperation);
  }

  /** `POST /api/vault/convert-signature` (neg-risk): lock `amount` NO shares of a market; YES of every other market of its event once confirmed. */
  convertSignature(body: VaultOpBody, opts?: CallOptions): Promise<WriteResult<VaultOperation>> {
    return writeCall(this.core, this.writeSpec("/api/vault/convert-signature", body, opts), vaultOperation);
  }

  /** `POST /api/me/splits-merges/{opId}/unlock`: recover the off-chain lock of an operation whose tx never confirmed (answer: the operation, `unlocked`). */
  unlock(opId: string, opts?: CallOptions): Promise<WriteResult<VaultOperation>> {
    return writeCall(this.core, this.writeSpec(path`/api/me/splits-merges/${opId}/unlock`, undefined, opts), vaultOperation);
  }

  /** `POST /api/me/vault/emergency`: cancel every open order and pending withdrawal, freeze new ones. */
  emergency(opts?: CallOptions): Promise<WriteResult<VaultEmergency>> {
    return writeCall(this.core, this.writeSpec("/api/me/vault/emergency", {}, opts), vaultEmergency);
  }
}
