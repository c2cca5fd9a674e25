/**
 * Withdrawals (spec 4.7, 3.2, 7.3), as the simulator models them (docs/spec-gaps.md,
 * "Withdrawals, vault flows"):
 *
 * - A request carries the vault owner's EIP-712 `Withdrawal{vault, destination, amount, nonce,
 *   deadline}` signature (src/signing/withdrawal.ts); the platform's co-signature is the
 *   CO_SIGNED step: the dual signature. `nonce` deduplicates per wallet: a repeat of the same
 *   signed request answers the first record (its current state); the same nonce with other
 *   content is 409 `nonce_reused`.
 * - Checks, in order: body (400 `invalid_request`, amount <= 0 `invalid_amount`), vault of the
 *   caller (401 `wallet_mismatch`), deadline (400 `expired`), signature (400 `bad_signature` with
 *   `details.recovered` / `expected_signer`), nonce, emergency freeze (409 `invalid_state`), then
 *   the 200-envelope business refusals: `wallet_banned` (the wallet or the destination),
 *   `aml_blocked`, a destination not cleared below the EDD threshold `destination_not_cleared`,
 *   `insufficient_funds`. A destination not cleared at or above the threshold is recorded in
 *   MLRO_REVIEW and answered 200 `new_destination_edd` with the record in `details.withdrawal`.
 * - Cleared destinations: the owner's own wallet, addresses cleared by the control route, and
 *   every destination of a CONFIRMED withdrawal.
 * - Funds leave the vault at request (amount plus fee) and come back on CANCELLED, REJECTED,
 *   REVERTED and FAILED.
 * - Status machine of 3.2 on the simulator clock: with `auto` on (default) PENDING is co-signed
 *   `coSignMs` after its last move, broadcast `broadcastMs` later, confirmed `confirmMs` later;
 *   MLRO_REVIEW waits for a control move. State is settled lazily from stored times, so a virtual
 *   clock jump lands in the right state with the right `updatedAt`. Control moves (`/sim/withdrawals/
 *   {id}/{review|cosign|broadcast|confirm|revert|reject|fail}`) work with auto on or off.
 * - Cancel: PENDING, MLRO_REVIEW, CO_SIGNED -> CANCELLED (funds back); a repeat on CANCELLED
 *   answers the record again; any other state 409 `invalid_state`; unknown or another wallet's
 *   id 404 `withdrawal_not_found`.
 */
import { keccak256, stringToHex } from "viem/utils";
import { formatMicros, parseMicros, type Micros } from "../../core/money.js";
import { checkRequest, queryToObject, requestErrorEnvelope, type QueryInput } from "../../wire/requests.js";
import { withdrawalRequestBody, type WithdrawalRequestBody } from "../../wire/accounts.js";
import type { WithdrawalStatus } from "../../wire/enums.js";
import { recoverOwner, vaultDomain, withdrawalDigest } from "../../signing/withdrawal.js";
import type { Hex } from "../../signing/types.js";
import { uuidOf } from "../platform/derive.js";
import type { Simulator } from "../simulator.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import type { Caller } from "./caller.js";
import { base64url, fromBase64url } from "./cursor.js";
import { isoOf } from "../platform/time.js";
import { onePer } from "../../core/memo.js";

export const WITHDRAWALS_DEFAULT_LIMIT = 100;
export const WITHDRAWALS_MAX_LIMIT = 200;
/** Enhanced-due-diligence threshold for a new destination (settlement token). */
export const DEFAULT_EDD_THRESHOLD: Micros = parseMicros("10000");
/** Flat fee the platform keeps per withdrawal (settlement token). */
export const DEFAULT_WITHDRAWAL_FEE: Micros = 0n;

export interface WithdrawalTimings {
  coSignMs: number;
  broadcastMs: number;
  confirmMs: number;
}
export const DEFAULT_WITHDRAWAL_TIMINGS: WithdrawalTimings = { coSignMs: 10_000, broadcastMs: 5_000, confirmMs: 30_000 };

export const WITHDRAWAL_MOVES = ["review", "cosign", "broadcast", "confirm", "revert", "reject", "fail"] as const;
export type WithdrawalMove = (typeof WITHDRAWAL_MOVES)[number];

const MOVES: Record<WithdrawalMove, { from: readonly WithdrawalStatus[]; to: WithdrawalStatus }> = {
  review: { from: ["PENDING"], to: "MLRO_REVIEW" },
  cosign: { from: ["PENDING", "MLRO_REVIEW"], to: "CO_SIGNED" },
  broadcast: { from: ["CO_SIGNED"], to: "SUBMITTED" },
  confirm: { from: ["SUBMITTED"], to: "CONFIRMED" },
  revert: { from: ["SUBMITTED"], to: "REVERTED" },
  reject: { from: ["PENDING", "MLRO_REVIEW", "CO_SIGNED"], to: "REJECTED" },
  fail: { from: ["PENDING", "MLRO_REVIEW", "CO_SIGNED", "SUBMITTED"], to: "FAILED" },
};

const CANCELLABLE: ReadonlySet<WithdrawalStatus> = new Set(["PENDING", "MLRO_REVIEW", "CO_SIGNED"]);
const REFUNDED: ReadonlySet<WithdrawalStatus> = new Set(["CANCELLED", "REJECTED", "REVERTED", "FAILED"]);

export type DestinationState = "cleared" | "aml_blocked" | "banned" | "new";

interface Row {
  seq: number;
  id: string;
  wallet: string;
  vault: string;
  destination: string;
  amount: Micros;
  fee: Micros;
  nonce: string;
  deadline: string;
  signature: string;
  status: WithdrawalStatus;
  createdAtMs: number;
  updatedAtMs: number;
  txHash: string | null;
  reason: string | null;
}

export interface WithdrawalConfig {
  auto: boolean;
  eddThreshold: Micros;
  fee: Micros;
  timings: WithdrawalTimings;
}

const ok = (body: unknown): DeskAnswer => ({ status: 200, body });

export class WithdrawalDesk {
  readonly config: WithdrawalConfig = { auto: true, eddThreshold: DEFAULT_EDD_THRESHOLD, fee: DEFAULT_WITHDRAWAL_FEE, timings: { ...DEFAULT_WITHDRAWAL_TIMINGS } };
  private readonly rows = new Map<string, Row>();
  private readonly byNonce = new Map<string, string>();
  private readonly destinations = new Map<string, DestinationState>();
  private readonly frozen = new Set<string>();
  private seq = 0;

  constructor(private readonly sim: Simulator) {}

  // ---- controls -------------------------------------------------------------------------

  /** Mark a destination for one wallet (`wallet` undefined: for every wallet). */
  setDestination(destination: string, state: DestinationState, wallet?: string): void {
    this.destinations.set(this.destKey(destination, wallet), state);
  }

  /** Freeze new withdrawals of a wallet (vault emergency). */
  freeze(wallet: string): void {
    this.frozen.add(wallet.toLowerCase());
  }

  isFrozen(wallet: string): boolean {
    return this.frozen.has(wallet.toLowerCase());
  }

  /** A control move of the 3.2 table; 404 unknown id, 409 `invalid_transition` from a wrong state. */
  move(id: string, move: WithdrawalMove, nowMs: number, reason?: string): DeskAnswer {
    this.settle(nowMs);
    const row = this.rows.get(id);
    if (row === undefined) return errorAnswer(404, "withdrawal_not_found", `withdrawal ${id} is unknown`, { id });
    const m = MOVES[move];
    if (!m.from.includes(row.status)) {
      return errorAnswer(409, "invalid_transition", `cannot ${move} a ${row.status} withdrawal`, { id, status: row.status, allowedFrom: [...m.from] });
    }
    this.apply(row, m.to, nowMs, reason ?? (m.to === "REJECTED" ? "compliance denial" : m.to === "FAILED" ? "settlement failure" : undefined));
    return ok(this.json(row));
  }

  /** Every record (control listing), oldest first. */
  all(nowMs: number): Record<string, unknown>[] {
    this.settle(nowMs);
    return [...this.rows.values()].map((r) => this.json(r));
  }

  // ---- partner routes --------------------------------------------------------------------

  request(raw: unknown, caller: Caller, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const parsed = checkRequest(withdrawalRequestBody, raw ?? {}, (field) => (field === "amount" ? "invalid_amount" : undefined));
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const b = parsed.value;
    const wallet = caller.wallet;
    const vault = this.sim.platform.wallets.vaultInfo(wallet, nowMs).vaultAddress.toLowerCase();
    if (b.vault.toLowerCase() !== vault) {
      return errorAnswer(401, "wallet_mismatch", "vault is not the authenticated wallet's vault", { vault: b.vault.toLowerCase(), expected: vault });
    }
    if (BigInt(b.deadline) * 1000n < BigInt(nowMs)) {
      return errorAnswer(400, "expired", "the signature's deadline has passed", { deadline: b.deadline, now: Math.floor(nowMs / 1000) });
    }
    const amount = parseMicros(b.amount);
    const bad = this.checkSignature(b, amount, wallet, vault);
    if (bad) return bad;

    const nonceKey = `${wallet}\n${b.nonce}`;
    const existing = this.byNonce.get(nonceKey);
    if (existing !== undefined) {
      const row = this.rows.get(existing)!;
      if (row.destination === b.destination.toLowerCase() && row.amount === amount && row.deadline === b.deadline) return ok(this.json(row));
      return errorAnswer(409, "nonce_reused", "this nonce was used by another withdrawal request of this wallet", { nonce: b.nonce, id: row.id });
    }
    if (this.isFrozen(wallet)) return errorAnswer(409, "invalid_state", "the vault is in emergency mode: withdrawals are frozen", { walletAddress: wallet });

    const destination = b.destination.toLowerCase();
    const reject = (code: string, message: string, details: Record<string, unknown> = {}): DeskAnswer => ({ status: 200, body: { code, message, details } });
    if (this.sim.platform.wallets.get(wallet)?.banned) return reject("wallet_banned", "wallet is banned", { walletAddress: wallet });
    const state = this.destinationState(destination, wallet);
    if (state === "banned") return reject("wallet_banned", "the destination is banned", { destination });
    if (state === "aml_blocked") return reject("aml_blocked", "the destination failed AML screening", { destination });
    const edd = state === "new" && amount >= this.config.eddThreshold;
    if (state === "new" && !edd) {
      return reject("destination_not_cleared", "a new destination below the enhanced-due-diligence threshold is not cleared yet", {
        destination,
        threshold: formatMicros(this.config.eddThreshold),
      });
    }
    const total = amount + this.config.fee;
    const available = this.sim.engine.balance(wallet).available;
    if (available < total) return reject("insufficient_funds", "the vault's available balance does not cover the amount and fee", { available: formatMicros(available), required: formatMicros(total) });

    this.sim.engine.withdraw(wallet, total);
    const row: Row = {
      seq: ++this.seq,
      id: uuidOf(`withdrawal:${wallet}:${b.nonce}`),
      wallet,
      vault,
      destination,
      amount,
      fee: this.config.fee,
      nonce: b.nonce,
      deadline: b.deadline,
      signature: b.signature,
      status: edd ? "MLRO_REVIEW" : "PENDING",
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
      txHash: null,
      reason: null,
    };
    this.rows.set(row.id, row);
    this.byNonce.set(nonceKey, row.id);
    if (edd) {
      return reject("new_destination_edd", "a new destination above the enhanced-due-diligence threshold: the withdrawal waits for MLRO review", {
        destination,
        threshold: formatMicros(this.config.eddThreshold),
        withdrawal: this.json(row),
      });
    }
    return ok(this.json(row));
  }

  list(caller: Caller, query: QueryInput, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const q = queryToObject(query);
    const get = (k: string): string | undefined => {
      const v = q[k];
      return Array.isArray(v) ? v[0] : v;
    };
    const limitText = get("limit");
    let limit = WITHDRAWALS_DEFAULT_LIMIT;
    if (limitText !== undefined) {
      if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1) return errorAnswer(400, "invalid_request", "limit must be a positive integer", { fields: ["limit"], field: "limit" });
      limit = Math.min(Number(limitText), WITHDRAWALS_MAX_LIMIT);
    }
    let below = Number.POSITIVE_INFINITY;
    const cursor = get("cursor");
    if (cursor !== undefined) {
      const m = /^wd:(\d{1,12})$/.exec(fromBase64url(cursor) ?? "");
      if (m === null) return errorAnswer(400, "invalid_request", "cursor is not a cursor of this endpoint", { fields: ["cursor"], field: "cursor" });
      below = Number(m[1]);
    }
    const mine = [...this.rows.values()].filter((r) => r.wallet === caller.wallet && r.seq < below).sort((a, b) => b.seq - a.seq);
    const page = mine.slice(0, limit);
    const last = page[page.length - 1];
    return ok({
      walletAddress: caller.wallet,
      withdrawals: page.map((r) => this.json(r)),
      nextCursor: mine.length > limit && last !== undefined ? base64url(`wd:${last.seq}`) : null,
    });
  }

  detail(caller: Caller, id: string, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const row = this.rows.get(id);
    if (row === undefined || row.wallet !== caller.wallet) return errorAnswer(404, "withdrawal_not_found", `withdrawal ${id} is unknown for this wallet`, { id });
    return ok(this.json(row));
  }

  cancel(caller: Caller, id: string, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const row = this.rows.get(id);
    if (row === undefined || row.wallet !== caller.wallet) return errorAnswer(404, "withdrawal_not_found", `withdrawal ${id} is unknown for this wallet`, { id });
    if (row.status === "CANCELLED") return ok(this.json(row));
    if (!CANCELLABLE.has(row.status)) {
      return errorAnswer(409, "invalid_state", `a ${row.status} withdrawal cannot be cancelled`, { id, status: row.status, cancellableIn: [...CANCELLABLE] });
    }
    this.apply(row, "CANCELLED", nowMs, "cancelled by the user");
    return ok(this.json(row));
  }

  /** Cancel every cancellable withdrawal of a wallet (vault emergency); the ids cancelled. */
  cancelAllOf(wallet: string, nowMs: number, reason: string): string[] {
    this.settle(nowMs);
    const out: string[] = [];
    for (const row of this.rows.values()) {
      if (row.wallet !== wallet || !CANCELLABLE.has(row.status)) continue;
      this.apply(row, "CANCELLED", nowMs, reason);
      out.push(row.id);
    }
    return out;
  }

  fee(caller: Caller, query: QueryInput): DeskAnswer {
    const raw = queryToObject(query).amount;
    const text = Array.isArray(raw) ? raw[0] : raw;
    const body: Record<string, unknown> = { walletAddress: caller.wallet, fee: formatMicros(this.config.fee) };
    if (text !== undefined) {
      let amount: Micros;
      try {
        amount = parseMicros(text);
      } catch {
        return errorAnswer(400, "invalid_amount", "amount must be a decimal string greater than 0", { fields: ["amount"], field: "amount" });
      }
      if (amount <= 0n) return errorAnswer(400, "invalid_amount", "amount must be greater than 0", { fields: ["amount"], field: "amount" });
      body.amount = formatMicros(amount);
      body.netAmount = formatMicros(amount);
      body.total = formatMicros(amount + this.config.fee);
    }
    return ok(body);
  }

  /** The owner's wallet is the deposit source of its vault; nothing is pinned until the security flow (not modelled) pins one. */
  depositSources(caller: Caller): DeskAnswer {
    return ok({ walletAddress: caller.wallet, sources: [caller.wallet], pinned: null });
  }

  // ---- internals ---------------------------------------------------------------------------

  private destKey(destination: string, wallet?: string): string {
    return `${wallet?.toLowerCase() ?? "*"}\n${destination.toLowerCase()}`;
  }

  private destinationState(destination: string, wallet: string): DestinationState {
    const own = this.destinations.get(this.destKey(destination, wallet)) ?? this.destinations.get(this.destKey(destination));
    if (own === "banned" || own === "aml_blocked") return own;
    if (this.sim.platform.wallets.get(destination)?.banned) return "banned";
    if (own === "cleared" || destination === wallet) return "cleared";
    for (const r of this.rows.values()) if (r.wallet === wallet && r.destination === destination && r.status === "CONFIRMED") return "cleared";
    return "new";
  }

  private checkSignature(b: WithdrawalRequestBody, amount: Micros, wallet: string, vault: string): DeskAnswer | undefined {
    if (!this.sim.verifySignatures) return undefined;
    const s = this.sim.platform.settings;
    const digest = withdrawalDigest(vaultDomain({ chainId: s.chainId, domain: s.domain }, vault), {
      vault: vault as Hex,
      destination: b.destination as Hex,
      amount,
      nonce: BigInt(b.nonce),
      deadline: BigInt(b.deadline),
    });
    const recovered = recoverOwner(digest, b.signature);
    if (recovered !== null && recovered.toLowerCase() === wallet) return undefined;
    return errorAnswer(400, "bad_signature", "the withdrawal signature does not recover to the vault owner", {
      recovered,
      expected_signer: wallet,
      platform_canonical_struct: { vault, destination: b.destination.toLowerCase(), amount: amount.toString(), nonce: b.nonce, deadline: b.deadline },
    });
  }

  private apply(row: Row, to: WithdrawalStatus, atMs: number, reason?: string): void {
    row.status = to;
    row.updatedAtMs = atMs;
    if (to === "SUBMITTED") row.txHash = keccak256(stringToHex(`sim:withdrawal-tx:${row.id}`));
    if (reason !== undefined && (to === "REJECTED" || to === "FAILED" || to === "CANCELLED" || to === "REVERTED")) row.reason = reason;
    if (REFUNDED.has(to)) this.sim.engine.deposit(row.wallet, row.amount + row.fee);
  }

  /** Apply the automatic moves due by `nowMs`, each stamped with its own due time. */
  private settle(nowMs: number): void {
    if (!this.config.auto) return;
    const t = this.config.timings;
    for (const row of this.rows.values()) {
      for (;;) {
        const step: [number, WithdrawalStatus] | undefined =
          row.status === "PENDING" ? [t.coSignMs, "CO_SIGNED"] : row.status === "CO_SIGNED" ? [t.broadcastMs, "SUBMITTED"] : row.status === "SUBMITTED" ? [t.confirmMs, "CONFIRMED"] : undefined;
        if (step === undefined) break;
        const due = row.updatedAtMs + step[0];
        if (due > nowMs) break;
        this.apply(row, step[1], due);
      }
    }
  }

  private json(r: Row): Record<string, unknown> {
    return {
      id: r.id,
      userWallet: r.wallet,
      vaultAddress: r.vault,
      amount: formatMicros(r.amount),
      fee: formatMicros(r.fee),
      destination: r.destination,
      status: r.status,
      nonce: r.nonce,
      deadline: r.deadline,
      createdAt: isoOf(r.createdAtMs),
      updatedAt: isoOf(r.updatedAtMs),
      txHash: r.txHash,
      reason: r.reason,
    };
  }
}

const desks = onePer((sim: Simulator) => new WithdrawalDesk(sim));

/** The withdrawal desk of a simulator (one per instance, made on first use). */
export function withdrawalDesk(sim: Simulator): WithdrawalDesk {
  return desks(sim);
}
