/**
 * Vault writes (spec 4.8): the deployment signed-op flow (`POST /api/me/vault/deploy/sign` then
 * `/deploy/submit`), the split / merge / convert co-signatures, the splits-merges unlock and the
 * emergency exit. `vault:write` plus, where the platform asks for one, the owner's EIP-712
 * signature. Writes: never retried blindly (only 429 and "nothing recorded" answers are resent).
 *
 * `deploySign` / `deploySubmit` and the co-signature calls pass bodies and answers through as
 * JSON records (shapes not shown); `deploy(signer)` runs the whole flow with the shapes chosen in
 * docs/spec-gaps.md, recomputing the digest from the typed data rather than trusting the server's.
 */
import type { VaultDeployment, VaultDeploySign, VaultEmergency } from "../wire/index.js";
import { vaultDeployment, vaultDeploySign, vaultEmergency } from "../wire/index.js";
import type { Hex } from "../signing/types.js";
import { vaultDeployDigest } from "../signing/withdrawal.js";
import type { ApiCore, CallSpec } from "./core.js";
import { writeCall } from "./decode.js";
import { ApiError } from "./errors.js";
import { path } from "./query.js";
import type { CallOptions, UnknownRecord, WriteResult } from "./results.js";
import { unknownRecord } from "./results.js";
import type { DigestSigner } from "./withdrawals.js";

export class VaultApi {
  constructor(
    private readonly core: ApiCore,
    readonly wallet: string | undefined,
  ) {}

  private writeSpec(p: string, body: UnknownRecord | undefined, opts?: CallOptions): CallSpec {
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

  /** `POST /api/vault/split-signature` (body and answer not shown: records). */
  splitSignature(body: UnknownRecord, opts?: CallOptions): Promise<WriteResult<UnknownRecord>> {
    return writeCall(this.core, this.writeSpec("/api/vault/split-signature", body, opts), unknownRecord);
  }

  mergeSignature(body: UnknownRecord, opts?: CallOptions): Promise<WriteResult<UnknownRecord>> {
    return writeCall(this.core, this.writeSpec("/api/vault/merge-signature", body, opts), unknownRecord);
  }

  convertSignature(body: UnknownRecord, opts?: CallOptions): Promise<WriteResult<UnknownRecord>> {
    return writeCall(this.core, this.writeSpec("/api/vault/convert-signature", body, opts), unknownRecord);
  }

  /** `POST /api/me/splits-merges/{opId}/unlock`: recover the off-chain lock of an operation whose tx never confirmed. */
  unlock(opId: string, opts?: CallOptions): Promise<WriteResult<UnknownRecord>> {
    return writeCall(this.core, this.writeSpec(path`/api/me/splits-merges/${opId}/unlock`, undefined, opts), unknownRecord);
  }

  /** `POST /api/me/vault/emergency`: cancel every open order and pending withdrawal, freeze new ones. */
  emergency(opts?: CallOptions): Promise<WriteResult<VaultEmergency>> {
    return writeCall(this.core, this.writeSpec("/api/me/vault/emergency", {}, opts), vaultEmergency);
  }
}
