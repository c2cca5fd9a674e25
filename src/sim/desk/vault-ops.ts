/**
 * Split, merge and convert (spec 4.8, 7.3; shapes "not shown": ours, docs/spec-gaps.md, "Split,
 * merge and convert"), as the simulator models them:
 *
 * - A request carries the vault owner's EIP-712 `VaultOperation{vault, kind, marketId, amount,
 *   nonce, deadline}` signature (src/signing/vault-ops.ts). Checks, in order: body (400
 *   `invalid_request`, amount <= 0 `invalid_amount`), vault of the caller (401 `wallet_mismatch`),
 *   deadline (400 `expired`), signature (400 `bad_signature`), nonce (a repeat of the same signed
 *   request answers the first operation; the same nonce with other content 409 `nonce_reused`),
 *   vault emergency (409 `invalid_state`), market (404 `market_not_found`; resolved or voided:
 *   409 `invalid_state`, redeem instead; halted or closed markets are accepted: these are chain
 *   calls, not trading), convert only on a neg-risk market of an event with at least two such
 *   markets (400 `invalid_request`), then the 200-envelope refusal `insufficient_funds`.
 * - The off-chain lock is taken at once: split locks the collateral, merge `amount` shares of every
 *   outcome, convert `amount` NO shares. Orders and withdrawals cannot spend what is locked.
 * - `confirmMs` later on the simulator clock (default 12 s) the chain transaction confirms: the lock
 *   is released and the ledger effect applied (ledger split / merge, balance events `split` /
 *   `merge`); or it fails (injected: `failNext`, `failProbability`, or `fail(opId)`), the lock stays
 *   and the operation is `failed` and listed as unlockable until `POST .../{opId}/unlock` releases it.
 *   An operation whose market resolves first fails at its confirmation ("market resolved").
 * - Convert (the neg-risk adapter's convertPositions with one NO position): `n` NO of market i become
 *   `n` YES of every other market of the event and no collateral (with m NO positions the adapter
 *   also pays (m-1)n; one market per request here). The ledger keeps every market's outcome supply
 *   equal to its complete sets, so the adapter is an account of its own: it takes the NO shares,
 *   funds (k-1)n collateral (a deposit of the adapter), splits each other market and hands the YES
 *   shares over; it holds NO of every market, worth exactly what it funded at resolution.
 * - No `/ws/user` frame: the spec lists only order frames (section 6); the effect is visible in
 *   balances, positions, `/api/me/balance-events` and the operation record.
 */
import { keccak256, stringToHex } from "viem/utils";
import { formatMicros, parseMicros, type Micros } from "../../core/money.js";
import type { Rng } from "../../core/rng.js";
import type { TimerHandle } from "../../core/clock.js";
import { checkRequest, queryToObject, requestErrorEnvelope, type QueryInput } from "../../wire/requests.js";
import { vaultOpBody, type VaultOpBody, type VaultOpStatus } from "../../wire/vault-ops.js";
import { vaultOperationDigest, type VaultOpKind } from "../../signing/vault-ops.js";
import { recoverOwner, vaultDomain } from "../../signing/withdrawal.js";
import type { Hex } from "../../signing/types.js";
import { LedgerError } from "../engine/ledger.js";
import type { MarketState } from "../engine/market.js";
import { addressFromLabel, uuidOf } from "../platform/derive.js";
import type { Simulator } from "../simulator.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import type { Caller } from "./caller.js";
import { base64url, fromBase64url, legacyBeforeMs } from "./cursor.js";
import { isoOf } from "../platform/time.js";
import { withdrawalDesk } from "./withdrawals.js";
import { onePer } from "../../core/memo.js";

export const VAULT_OPS_DEFAULT_LIMIT = 50;
export const VAULT_OPS_MAX_LIMIT = 200;
export const DEFAULT_VAULT_OP_CONFIRM_MS = 12_000;
/** The neg-risk adapter's account in the simulator's ledger (convert). */
export const NEG_RISK_ADAPTER = addressFromLabel("sim:neg-risk-adapter").toLowerCase();

interface ShareLock {
  market: MarketState;
  outcome: number;
  qty: Micros;
}

interface Row {
  seq: number;
  opId: string;
  kind: VaultOpKind;
  wallet: string;
  vault: string;
  /** The engine's market id (the symbol, as `/api/me/positions` names markets). */
  marketId: string;
  /** The market as the request named it (symbol or id: what was signed). */
  marketRef: string;
  eventId: string | null;
  amount: Micros;
  nonce: string;
  deadline: string;
  status: VaultOpStatus;
  createdAtMs: number;
  updatedAtMs: number;
  confirmsAtMs: number;
  /** Decided at creation: the chain tx will not confirm. */
  willFail: boolean;
  txHash: string | null;
  reason: string | null;
  cashLock: Micros;
  shareLocks: ShareLock[];
  timer: TimerHandle | undefined;
}

export interface VaultOpsConfig {
  /** Delay from request to the chain transaction's confirmation (or failure). */
  confirmMs: number;
  /** The next N operations fail instead of confirming. */
  failNext: number;
  /** Chance that an operation fails (drawn from the simulator's seeded Rng). */
  failProbability: number;
}

const ok = (body: unknown): DeskAnswer => ({ status: 200, body });
const reject = (code: string, message: string, details: Record<string, unknown> = {}): DeskAnswer => ({ status: 200, body: { code, message, details } });

export class VaultOpsDesk {
  readonly config: VaultOpsConfig = { confirmMs: DEFAULT_VAULT_OP_CONFIRM_MS, failNext: 0, failProbability: 0 };
  private readonly rows = new Map<string, Row>();
  private readonly byNonce = new Map<string, string>();
  private readonly rng: Rng;
  private seq = 0;

  constructor(private readonly sim: Simulator) {
    this.rng = sim.rng.fork("vault-ops");
  }

  // ---- controls -------------------------------------------------------------------------

  /** Make a pending operation fail now (its lock stays; unlockable). */
  fail(opId: string, nowMs: number, reason = "chain transaction not confirmed"): DeskAnswer {
    this.settle(nowMs);
    const row = this.rows.get(opId);
    if (row === undefined) return errorAnswer(404, "not_found", `split/merge operation ${opId} is unknown`, { opId });
    if (row.status !== "pending") return errorAnswer(409, "invalid_state", `a ${row.status} operation cannot fail`, { opId, status: row.status });
    this.end(row, "failed", nowMs, reason);
    return ok(this.json(row));
  }

  /** Every operation (control listing), oldest first. */
  all(nowMs: number): Record<string, unknown>[] {
    this.settle(nowMs);
    return [...this.rows.values()].map((r) => this.json(r));
  }

  // ---- partner routes --------------------------------------------------------------------

  request(kind: VaultOpKind, raw: unknown, caller: Caller, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const parsed = checkRequest(vaultOpBody, raw ?? {}, (field) => (field === "amount" ? "invalid_amount" : undefined));
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const b = parsed.value;
    const wallet = caller.wallet;
    const vault = this.sim.platform.wallets.vaultInfo(wallet, nowMs).vaultAddress.toLowerCase();
    if (b.vault.toLowerCase() !== vault) return errorAnswer(401, "wallet_mismatch", "vault is not the authenticated wallet's vault", { vault: b.vault.toLowerCase(), expected: vault });
    if (BigInt(b.deadline) * 1000n < BigInt(nowMs)) return errorAnswer(400, "expired", "the signature's deadline has passed", { deadline: b.deadline, now: Math.floor(nowMs / 1000) });
    const amount = parseMicros(b.amount);
    const bad = this.checkSignature(kind, b, amount, wallet, vault);
    if (bad) return bad;

    const nonceKey = `${wallet}\n${b.nonce}`;
    const existing = this.byNonce.get(nonceKey);
    if (existing !== undefined) {
      const row = this.rows.get(existing)!;
      if (row.kind === kind && row.marketRef === b.marketId && row.amount === amount && row.deadline === b.deadline) return ok(this.json(row));
      return errorAnswer(409, "nonce_reused", "this nonce was used by another vault operation of this wallet", { nonce: b.nonce, opId: row.opId });
    }
    if (withdrawalDesk(this.sim).isFrozen(wallet)) return errorAnswer(409, "invalid_state", "the vault is in emergency mode: vault operations are frozen", { walletAddress: wallet });

    const cat = this.sim.platform.catalogue;
    const info = cat.market(b.marketId, true) ?? cat.marketBySymbol(b.marketId, true);
    const market = info === undefined ? undefined : this.sim.engine.markets.get(info.symbol);
    if (market === undefined || info === undefined) return errorAnswer(404, "market_not_found", `unknown market ${b.marketId}`, { marketId: b.marketId });
    if (market.phase === "resolved" || market.phase === "voided") {
      return errorAnswer(409, "invalid_state", `market ${b.marketId} is ${market.phase}: its shares are redeemed, not split, merged or converted`, { marketId: b.marketId, phase: market.phase });
    }
    let others: MarketState[] = [];
    if (kind === "convert") {
      const siblings = info.negRiskEligible && market.outcomeCount === 2 ? cat.eventMarkets(cat.eventOf(info)).filter((m) => m.negRiskEligible && m.id !== info.id) : [];
      others = siblings.map((m) => this.sim.engine.markets.get(m.symbol)).filter((m): m is MarketState => m !== undefined);
      if (others.length === 0) return errorAnswer(400, "invalid_request", `market ${b.marketId} is not a binary market of a neg-risk event with other markets: nothing to convert into`, { fields: ["marketId"], field: "marketId" });
      const done = others.find((m) => m.phase === "resolved" || m.phase === "voided");
      if (done !== undefined) return errorAnswer(409, "invalid_state", `market ${done.id} of the event is ${done.phase}`, { marketId: done.id, phase: done.phase });
    }

    const L = this.sim.engine.ledger;
    const account = L.account(wallet);
    const shareLocks: ShareLock[] = kind === "merge" ? Array.from({ length: market.outcomeCount }, (_, i) => ({ market, outcome: i, qty: amount })) : kind === "convert" ? [{ market, outcome: 1, qty: amount }] : [];
    const cashLock = kind === "split" ? amount : 0n;
    if (cashLock > 0n && L.available(account) < cashLock) {
      return reject("insufficient_funds", "the vault's available balance does not cover the split", { available: formatMicros(L.available(account)), required: formatMicros(cashLock) });
    }
    for (const sl of shareLocks) {
      const p = L.peekSlot(account, sl.market, sl.outcome);
      const free = p < 0 ? 0n : L.posQty[p]! - L.posLocked[p]!;
      if (free < sl.qty) {
        return reject("insufficient_funds", `not enough free shares to ${kind}: shares held by open SELL orders or by other operations are not free`, {
          marketId: b.marketId,
          outcome: sl.outcome,
          tokenId: sl.market.tokenIds[sl.outcome],
          free: formatMicros(free),
          required: formatMicros(sl.qty),
        });
      }
    }
    if (cashLock > 0n) L.lockOpCash(account, cashLock);
    for (const sl of shareLocks) L.lockOpShares(account, sl.market, sl.outcome, sl.qty);

    const willFail = this.config.failNext > 0 ? (this.config.failNext--, true) : this.config.failProbability > 0 && this.rng.float() < this.config.failProbability;
    const row: Row = {
      seq: ++this.seq,
      opId: uuidOf(`vault-op:${wallet}:${b.nonce}`),
      kind,
      wallet,
      vault,
      marketId: market.id,
      marketRef: b.marketId,
      eventId: info.negRiskEligible ? info.eventId : null,
      amount,
      nonce: b.nonce,
      deadline: b.deadline,
      status: "pending",
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
      confirmsAtMs: nowMs + this.config.confirmMs,
      willFail,
      txHash: keccak256(stringToHex(`sim:vault-op-tx:${wallet}:${b.nonce}`)),
      reason: null,
      cashLock,
      shareLocks,
      timer: undefined,
    };
    this.rows.set(row.opId, row);
    this.byNonce.set(nonceKey, row.opId);
    row.timer = this.sim.clock.setTimeout(() => this.settle(this.sim.clock.now()), this.config.confirmMs);
    return ok(this.json(row));
  }

  list(caller: Caller, query: QueryInput, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const q = queryToObject(query);
    const get = (k: string): string | undefined => {
      const v = q[k];
      return Array.isArray(v) ? v[0] : v;
    };
    const lim = this.limit(get("limit"));
    if (typeof lim !== "number") return lim;
    let below = Number.POSITIVE_INFINITY;
    const cursor = get("cursor");
    if (cursor !== undefined) {
      const m = /^vo:(\d+)$/.exec(fromBase64url(cursor) ?? "");
      if (m === null) return errorAnswer(400, "invalid_request", "cursor is not a cursor of this endpoint", { fields: ["cursor"], field: "cursor" });
      below = Number(m[1]);
    }
    let beforeMs = Number.POSITIVE_INFINITY;
    const before = get("before");
    if (before !== undefined) {
      const ms = legacyBeforeMs(before);
      if (ms === undefined) return errorAnswer(400, "invalid_request", "before must be an ISO-8601 date-time or epoch milliseconds", { fields: ["before"], field: "before" });
      beforeMs = ms;
    }
    const mine = [...this.rows.values()].filter((r) => r.wallet === caller.wallet && r.seq < below && r.createdAtMs < beforeMs).sort((a, b) => b.seq - a.seq);
    const page = mine.slice(0, lim);
    const last = page[page.length - 1];
    return ok({ walletAddress: caller.wallet, operations: page.map((r) => this.json(r)), nextCursor: mine.length > lim && last !== undefined ? base64url(`vo:${last.seq}`) : null });
  }

  unlockable(caller: Caller, query: QueryInput, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const raw = queryToObject(query).limit;
    const lim = this.limit(Array.isArray(raw) ? raw[0] : raw);
    if (typeof lim !== "number") return lim;
    const rows = [...this.rows.values()].filter((r) => r.wallet === caller.wallet && r.status === "failed").sort((a, b) => b.seq - a.seq);
    return ok({ walletAddress: caller.wallet, operations: rows.slice(0, lim).map((r) => this.json(r)) });
  }

  /** Release the lock of a failed operation; a repeat answers the record again; pending or confirmed: 409. */
  unlock(caller: Caller, opId: string, nowMs: number): DeskAnswer {
    this.settle(nowMs);
    const row = this.rows.get(opId);
    if (row === undefined || row.wallet !== caller.wallet) return errorAnswer(404, "not_found", `split/merge operation ${opId} is unknown for this wallet`, { opId });
    if (row.status === "unlocked") return ok(this.json(row));
    if (row.status !== "failed") {
      return errorAnswer(409, "invalid_state", `a ${row.status} operation has nothing to unlock (only failed ones do)`, { opId, status: row.status });
    }
    this.release(row);
    row.status = "unlocked";
    row.updatedAtMs = nowMs;
    return ok(this.json(row));
  }

  // ---- internals ---------------------------------------------------------------------------

  private limit(text: string | undefined): number | DeskAnswer {
    if (text === undefined) return VAULT_OPS_DEFAULT_LIMIT;
    if (!/^\d{1,9}$/.test(text) || Number(text) < 1) return errorAnswer(400, "invalid_request", "limit must be a positive integer", { fields: ["limit"], field: "limit" });
    return Math.min(Number(text), VAULT_OPS_MAX_LIMIT);
  }

  private checkSignature(kind: VaultOpKind, b: VaultOpBody, amount: Micros, wallet: string, vault: string): DeskAnswer | undefined {
    if (!this.sim.verifySignatures) return undefined;
    const s = this.sim.platform.settings;
    const digest = vaultOperationDigest(vaultDomain({ chainId: s.chainId, domain: s.domain }, vault), {
      vault: vault as Hex,
      kind,
      marketId: b.marketId,
      amount,
      nonce: BigInt(b.nonce),
      deadline: BigInt(b.deadline),
    });
    const recovered = recoverOwner(digest, b.signature);
    if (recovered !== null && recovered.toLowerCase() === wallet) return undefined;
    return errorAnswer(400, "bad_signature", `the ${kind} signature does not recover to the vault owner`, {
      recovered,
      expected_signer: wallet,
      platform_canonical_struct: { primaryType: "VaultOperation", vault, kind, marketId: b.marketId, amount: amount.toString(), nonce: b.nonce, deadline: b.deadline },
    });
  }

  private release(row: Row): void {
    const L = this.sim.engine.ledger;
    const a = L.account(row.wallet);
    if (row.cashLock > 0n) L.unlockOpCash(a, row.cashLock);
    for (const s of row.shareLocks) L.unlockOpShares(a, s.market, s.outcome, s.qty);
    row.cashLock = 0n;
    row.shareLocks = [];
  }

  private end(row: Row, to: "confirmed" | "failed", atMs: number, reason: string | null): void {
    this.sim.clock.clearTimeout(row.timer);
    row.timer = undefined;
    row.status = to;
    row.updatedAtMs = atMs;
    row.reason = reason;
    if (to === "failed") return;
    this.release(row);
    this.apply(row);
  }

  /** The chain effect of a confirmed operation (its lock already released). */
  private apply(row: Row): void {
    const engine = this.sim.engine;
    const L = engine.ledger;
    if (row.kind === "split") return engine.split(row.wallet, row.marketId, row.amount);
    if (row.kind === "merge") return engine.merge(row.wallet, row.marketId, row.amount);
    // convert: n NO of this market -> n YES of every other market of the event.
    const m = engine.market(row.marketId);
    const user = L.account(row.wallet);
    const adapter = L.account(NEG_RISK_ADAPTER);
    const cat = this.sim.platform.catalogue;
    const info = cat.marketBySymbol(row.marketId, true)!;
    const others = cat
      .eventMarkets(cat.eventOf(info))
      .filter((x) => x.negRiskEligible && x.id !== info.id)
      .map((x) => engine.markets.get(x.symbol))
      .filter((x): x is MarketState => x !== undefined);
    const p = L.peekSlot(user, m, 1);
    const cost = L.posCost[p]!;
    const held = L.posQty[p]!;
    const noCost = held === 0n ? 0n : (cost * row.amount) / held;
    L.transferShares(user, adapter, m, 1, row.amount, 0n);
    const n = BigInt(others.length);
    const fund = row.amount * n;
    if (fund > 0n) L.deposit(NEG_RISK_ADAPTER, fund);
    // The NO position's cost basis is spread over the YES shares received (price per share, micros).
    const costPrice = (noCost * 1_000_000n) / (row.amount * n);
    for (const o of others) {
      L.split(adapter, o, row.amount);
      L.transferShares(adapter, user, o, 0, row.amount, costPrice);
    }
  }

  /** Confirm or fail every pending operation due by `nowMs`, stamped with its own due time. */
  private settle(nowMs: number): void {
    for (const row of this.rows.values()) {
      if (row.status !== "pending" || row.confirmsAtMs > nowMs) continue;
      const m = this.sim.engine.markets.get(row.marketId);
      if (row.willFail) this.end(row, "failed", row.confirmsAtMs, "chain transaction not confirmed");
      else if (m === undefined || m.phase === "resolved" || m.phase === "voided") this.end(row, "failed", row.confirmsAtMs, `market ${m?.phase ?? "gone"} before the transaction confirmed`);
      else {
        try {
          this.end(row, "confirmed", row.confirmsAtMs, null);
        } catch (e) {
          if (!(e instanceof LedgerError)) throw e;
          row.status = "failed";
          row.reason = `chain transaction reverted: ${e.message}`;
        }
      }
    }
  }

  private json(r: Row): Record<string, unknown> {
    return {
      opId: r.opId,
      kind: r.kind,
      walletAddress: r.wallet,
      vaultAddress: r.vault,
      marketId: r.marketId,
      eventId: r.eventId,
      amount: formatMicros(r.amount),
      status: r.status,
      nonce: r.nonce,
      deadline: r.deadline,
      createdAt: isoOf(r.createdAtMs),
      updatedAt: isoOf(r.updatedAtMs),
      confirmsAt: r.status === "pending" ? isoOf(r.confirmsAtMs) : null,
      txHash: r.txHash,
      reason: r.reason,
      lockedCollateral: formatMicros(r.cashLock),
      lockedShares: r.shareLocks.map((s) => ({ marketId: s.market.id, outcome: s.outcome, tokenId: s.market.tokenIds[s.outcome]!, quantity: formatMicros(s.qty) })),
    };
  }
}

const desks = onePer((sim: Simulator) => new VaultOpsDesk(sim));

/** The split / merge / convert desk of a simulator (one per instance, made on first use). */
export function vaultOpsDesk(sim: Simulator): VaultOpsDesk {
  return desks(sim);
}
