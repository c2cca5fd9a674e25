/**
 * Vault deployment, signed-op flow (spec 4.8): `POST /api/me/vault/deploy/sign` then
 * `/deploy/submit`. Shapes are not shown: bodies and answers pass through as JSON records.
 * Writes: never retried blindly (only 429 and "nothing recorded" answers are resent).
 */
import type { ApiCore, CallSpec } from "./core.js";
import { writeCall } from "./decode.js";
import type { CallOptions, UnknownRecord, WriteResult } from "./results.js";
import { unknownRecord } from "./results.js";

export class VaultApi {
  constructor(
    private readonly core: ApiCore,
    readonly wallet: string | undefined,
  ) {}

  private writeSpec(p: string, body: UnknownRecord, opts?: CallOptions): CallSpec {
    return {
      method: "POST",
      path: p,
      body: JSON.stringify(body),
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
}
