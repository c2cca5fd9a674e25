/**
 * Withdrawals of one wallet (spec 4.7, 3.2): request, list, detail, fee preview, deposit sources,
 * cancel. Reads need `portfolio:read`, the mutations `vault:write`.
 *
 * A request moves funds, so it is NEVER retried blindly (spec 7.4 rule 3): only the answers that
 * say nothing was recorded (`shard_owner_unavailable`, `trading_temporarily_unavailable`) and a
 * connection that surely never carried the request are resent, with the very same body. A
 * timeout, a dropped connection after sending, a 5xx or an unreadable 2xx is an `unknown` outcome:
 * the request may exist. Resolve it by listing the wallet's withdrawals, or by resending the SAME
 * signed body: the platform deduplicates on `nonce` and answers a repeat with the first record.
 * Never sign a new nonce for the same intent while an outcome is unknown.
 *
 * The business refusals of 7.3 (`destination_not_cleared`, `new_destination_edd`, `aml_blocked`,
 * `wallet_banned`) arrive as 200 envelopes and come back as `rejected` with their code.
 */
import { parseMicros } from "../core/money.js";
import type { Withdrawal, WithdrawalFee, DepositSources, WithdrawalRequestBody, WithdrawalsListPage } from "../wire/index.js";
import { depositSources, withdrawal, withdrawalFee, withdrawalRequestBody, withdrawalsListPage } from "../wire/index.js";
import type { Hex, PlatformContracts } from "../signing/types.js";
import { vaultDomain, withdrawalDigest } from "../signing/withdrawal.js";
import type { ApiCore, CallSpec } from "./core.js";
import { RESEND_SAME_CODES } from "./core.js";
import { answerError, isAuthRefusal, isSuccess, parseBody, readCall, schemaError, writeCall } from "./decode.js";
import { ApiError, withHandling } from "./errors.js";
import type { ResponseMeta } from "./meta.js";
import { cursorPages } from "./paging.js";
import { path, withQuery } from "./query.js";
import type { CallOptions, Ok, Rejected, WriteResult } from "./results.js";
import { rejectedFrom } from "./decode.js";

export interface WithdrawalsQuery {
  cursor?: string;
  /** Default 100, max 200. */
  limit?: number;
}

export type WithdrawalRequestOutcome =
  | { outcome: "accepted"; withdrawal: Withdrawal; meta: ResponseMeta }
  | ({ outcome: "rejected" } & Omit<Rejected, "ok">)
  | { outcome: "unknown"; nonce: string; lastError: ApiError; meta: ResponseMeta | undefined };

/** What the owner's signer must offer (WalletSigner fits). */
export interface DigestSigner {
  readonly address: string;
  signDigest(digest: Hex): Promise<Hex>;
}

export interface WithdrawalIntent {
  vault: string;
  destination: string;
  /** Human decimal amount ("12.5") or micro-units. */
  amount: string | bigint;
  /** Per-wallet unique; keep it with the intent so a resend reuses it. */
  nonce: bigint;
  /** Unix seconds after which the platform refuses the signature. */
  deadline: bigint;
}

function micros(amount: string | bigint): bigint {
  return typeof amount === "bigint" ? amount : parseMicros(amount);
}

function decimal(m: bigint): string {
  const s = m.toString().padStart(7, "0");
  const whole = s.slice(0, -6);
  const frac = s.slice(-6).replace(/0+$/, "");
  return frac === "" ? whole : `${whole}.${frac}`;
}

/** Build and sign a withdrawal request body (the vault owner's EIP-712 signature). */
export async function signWithdrawalRequest(
  signer: DigestSigner,
  contracts: Pick<PlatformContracts, "chainId" | "domain">,
  intent: WithdrawalIntent,
): Promise<WithdrawalRequestBody> {
  const amount = micros(intent.amount);
  const domain = vaultDomain(contracts, intent.vault);
  const digest = withdrawalDigest(domain, { vault: intent.vault as Hex, destination: intent.destination as Hex, amount, nonce: intent.nonce, deadline: intent.deadline });
  const signature = await signer.signDigest(digest);
  return {
    vault: intent.vault,
    destination: intent.destination,
    amount: decimal(amount),
    nonce: intent.nonce.toString(),
    deadline: intent.deadline.toString(),
    signature,
  };
}

export class WithdrawalsApi {
  constructor(
    private readonly core: ApiCore,
    readonly wallet: string | undefined,
  ) {}

  private readSpec(p: string, opts?: CallOptions): CallSpec {
    return { method: "GET", path: p, wallet: this.wallet, auth: true, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
  }

  /** `POST /api/withdrawals/request`: accepted (the record), rejected (a code) or unknown. */
  async request(body: WithdrawalRequestBody, opts?: CallOptions): Promise<WithdrawalRequestOutcome> {
    const spec: CallSpec = { method: "POST", path: "/api/withdrawals/request", wallet: this.wallet, auth: true, policy: "write", ...(opts?.signal ? { signal: opts.signal } : {}) };
    if (this.core.validateRequests) {
      const r = withdrawalRequestBody.safeParse(body);
      if (!r.success) {
        throw new ApiError({
          source: "local",
          status: 0,
          code: "invalid_request",
          message: `request refused before sending: ${r.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
          method: spec.method,
          path: spec.path,
          handling: "fix_request",
          details: { fields: r.error.issues.map((i) => i.path.join(".")) },
          attempts: 0,
        });
      }
    }
    spec.body = JSON.stringify(body);
    const ex = await this.core.exchange(spec);
    if (ex.kind === "no_answer") {
      // A connection that never carried the request: certainly not recorded.
      if (ex.error.maybeDelivered === false) throw ex.error;
      return { outcome: "unknown", nonce: body.nonce, lastError: ex.error, meta: undefined };
    }
    if (isSuccess(ex.status)) {
      const parsed = parseBody(withdrawal, ex);
      if (parsed.ok && ex.error === undefined) return { outcome: "accepted", withdrawal: parsed.data, meta: ex.meta };
      if (ex.error !== undefined) {
        const e = answerError(spec, ex);
        if (e.handling === "unknown_outcome") return { outcome: "unknown", nonce: body.nonce, lastError: e, meta: ex.meta };
        const { ok: _ok, ...rest } = rejectedFrom(e, ex.meta);
        return { outcome: "rejected", ...rest };
      }
      return { outcome: "unknown", nonce: body.nonce, lastError: schemaError(this.core, spec, ex, parsed.ok ? undefined : parsed.error, "unknown_outcome"), meta: ex.meta };
    }
    const e = answerError(spec, ex);
    if (ex.status === 429 || ex.status === 501 || isAuthRefusal(e)) throw e;
    if (ex.status >= 500 && RESEND_SAME_CODES.has(e.code)) throw e;
    if (ex.status >= 400 && ex.status < 500) {
      const { ok: _ok, ...rest } = rejectedFrom(e, ex.meta);
      return { outcome: "rejected", ...rest };
    }
    return { outcome: "unknown", nonce: body.nonce, lastError: withHandling(e, "unknown_outcome"), meta: ex.meta };
  }

  /** One page, newest first. */
  listPage(q: WithdrawalsQuery = {}, opts?: CallOptions): Promise<Ok<WithdrawalsListPage>> {
    return readCall(this.core, this.readSpec(withQuery("/api/me/withdrawals", { cursor: q.cursor, limit: q.limit }), opts), withdrawalsListPage);
  }

  /** Every withdrawal once (by id), following `nextCursor`. */
  async *list(q: WithdrawalsQuery = {}, opts?: CallOptions): AsyncGenerator<Withdrawal, void, undefined> {
    const seen = new Set<string>();
    const pages = cursorPages((cursor) => this.listPage({ ...q, cursor }, opts), { method: "GET", path: "/api/me/withdrawals" }, q.cursor);
    for await (const page of pages) {
      for (const w of page.data.withdrawals) {
        if (seen.has(w.id)) continue;
        seen.add(w.id);
        yield w;
      }
    }
  }

  /** 404 `withdrawal_not_found` for an unknown id or another wallet's (thrown). */
  get(id: string, opts?: CallOptions): Promise<Ok<Withdrawal>> {
    return readCall(this.core, this.readSpec(path`/api/me/withdrawals/${id}`, opts), withdrawal);
  }

  /** Fee preview; with `amount` the answer also carries the net amount. */
  fee(q: { amount?: string } = {}, opts?: CallOptions): Promise<Ok<WithdrawalFee>> {
    return readCall(this.core, this.readSpec(withQuery("/api/me/withdrawals/fee", { amount: q.amount }), opts), withdrawalFee);
  }

  depositSources(opts?: CallOptions): Promise<Ok<DepositSources>> {
    return readCall(this.core, this.readSpec("/api/me/withdrawals/deposit-sources", opts), depositSources);
  }

  /**
   * `POST /api/me/withdrawals/{id}/cancel` (no body): the record with status CANCELLED; 409
   * `invalid_state` after SUBMITTED and 404 `withdrawal_not_found` come back as `Rejected`.
   * Repeating a cancel is safe (the end state is the same), so it is retried like a read.
   */
  cancel(id: string, opts?: CallOptions): Promise<WriteResult<Withdrawal>> {
    const spec: CallSpec = {
      method: "POST",
      path: path`/api/me/withdrawals/${id}/cancel`,
      wallet: this.wallet,
      auth: true,
      policy: "idempotent",
      ...(opts?.signal ? { signal: opts.signal } : {}),
    };
    return writeCall(this.core, spec, withdrawal);
  }
}
