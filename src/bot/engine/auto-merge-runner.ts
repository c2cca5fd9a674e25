/**
 * Auto-merge, the shell (issue 14 part 2; the policy is src/bot/vault/auto-merge.ts, the config
 * src/config/auto-merge-section.ts, docs/operations.md "Auto-merge"). One per wallet, every
 * `checkIntervalSec`, one pass at a time:
 *
 *   1. The merges we have pending are looked up in `GET /api/me/splits-merges`:
 *      - confirmed: the inventory is updated from the platform's record (never guessed before it):
 *        the pair leaves as two SELL legs of `amount` at 0.5 (whole shares: cash exactly `amount`,
 *        the realised PnL of the pair exactly `amount - cost`), stamped with the record's time;
 *      - failed: `POST .../{opId}/unlock`, then the lock is released and the failure reported
 *        (warn log, mm_vault_merges_total{result="failed"}); an unlock that does not go through is
 *        tried again at the next pass, the shares staying locked meanwhile;
 *      - unlocked by someone else: released and reported as failed.
 *   2. Pairs are looked at (decideMerges) and a merge is sent for each one due: the owner's EIP-712
 *      signature, a fresh nonce; the answer's operation is pending and its shares locked in the
 *      daemon's view (MergeLocks: the quote cycle sees the position less the lock). A send whose
 *      outcome is unknown is resent with the same signed body at the next pass (the platform
 *      answers the same operation for the same nonce) before anything new is decided.
 *
 * At the first pass the wallet's pending and failed merges already on the platform (an earlier
 * run's) are adopted: pending ones locked and followed, failed ones unlocked and reported.
 */
import type { WalletClient } from "../../api/client.js";
import { ApiError } from "../../api/errors.js";
import { signVaultOperation } from "../../api/vault.js";
import type { DigestSigner } from "../../api/withdrawals.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import { formatMicros, parseMicros, type Micros } from "../../core/money.js";
import type { Logger } from "../../log/index.js";
import type { PlatformContracts, VaultOpBody, VaultOperation } from "../../wire/index.js";
import type { Inventory } from "../fills/inventory.js";
import type { EngineObserver } from "../observer.js";
import type { MergeLocks } from "../vault/auto-merge.js";
import { decideMerges, type AutoMergeParams, type MergeCandidate } from "../vault/auto-merge.js";

export interface AutoMergeRunnerOptions {
  wallet: string;
  api: Pick<WalletClient, "vault" | "portfolio">;
  signer: DigestSigner;
  /** The wallet's vault (known once the runner resolved it). */
  vault: () => string | undefined;
  contracts: () => Pick<PlatformContracts, "chainId" | "domain">;
  inventory: Inventory;
  /** Orders of the wallet live or in flight in a market. */
  liveOrders: (symbol: string) => number;
  /** Outcome count of a followed market; undefined: not followed (no merge there). */
  outcomeCount: (symbol: string) => number | undefined;
  /** Ask for a quote cycle of a market (its position changed). */
  trigger: (symbol: string) => void;
  params: AutoMergeParams & { checkIntervalSec: number };
  locks: MergeLocks;
  clock: Clock;
  log: Logger;
  observer: EngineObserver;
}

interface Pending {
  opId: string;
  marketId: string;
  amount: Micros;
}

/** Signature lifetime of a merge request. */
const DEADLINE_SEC = 300n;
const SHARE = 1_000_000n;
const HALF = 500_000n;

export class AutoMergeRunner {
  private readonly pending = new Map<string, Pending>();
  /** Sends whose outcome is unknown, by market: resent as they are. */
  private readonly resend = new Map<string, VaultOpBody>();
  private timer: TimerHandle | undefined;
  private running = false;
  private adopted = false;
  private seq = 0n;

  constructor(private readonly o: AutoMergeRunnerOptions) {}

  /** The locks the quote cycles subtract from positions. */
  get locks(): MergeLocks {
    return this.o.locks;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = this.o.clock.setInterval(() => void this.pass(), this.o.params.checkIntervalSec * 1000);
  }

  stop(): void {
    this.o.clock.clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Pending merges (opId, market, amount), for status and tests. */
  pendingMerges(): Pending[] {
    return [...this.pending.values()];
  }

  /** One pass: follow the pending merges, then start the due ones. Never throws. */
  async pass(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      if (!this.adopted) await this.adopt();
      if (this.pending.size > 0) await this.follow();
      for (const [marketId, body] of [...this.resend]) await this.send(marketId, body);
      await this.startDue();
    } catch (e) {
      this.o.log.warn({ err: e instanceof Error ? e.message : String(e) }, "auto-merge pass failed; next pass retries");
    } finally {
      this.running = false;
    }
  }

  private async adopt(): Promise<void> {
    const page = await this.o.api.portfolio.splitsMergesPage({ limit: 200 });
    for (const op of page.data.operations) {
      if (op.kind !== "merge" || (op.status !== "pending" && op.status !== "failed")) continue;
      this.track(op);
      this.o.log.info({ opId: op.opId, marketId: op.marketId, amount: op.amount, status: op.status }, "auto-merge: adopted a merge of an earlier run");
    }
    this.adopted = true;
  }

  private track(op: VaultOperation): void {
    if (this.pending.has(op.opId)) return;
    const amount = parseMicros(op.amount);
    this.pending.set(op.opId, { opId: op.opId, marketId: op.marketId, amount });
    this.o.locks.lock(this.o.wallet, op.marketId, amount);
  }

  private async follow(): Promise<void> {
    const page = await this.o.api.portfolio.splitsMergesPage({ limit: 200 });
    const byId = new Map(page.data.operations.map((op) => [op.opId, op]));
    for (const p of [...this.pending.values()]) {
      const op = byId.get(p.opId);
      if (op === undefined || op.status === "pending") continue;
      if (op.status === "confirmed") this.confirmed(p, op);
      else if (op.status === "unlocked") this.ended(p, op, "unlocked on the platform");
      else await this.unlock(p, op);
    }
  }

  private confirmed(p: Pending, op: VaultOperation): void {
    const ts = Date.parse(op.updatedAt);
    const even = p.amount % SHARE === 0n;
    for (const outcome of [0, 1]) {
      this.o.inventory.applyFill({
        tradeId: `merge:${p.opId}:${outcome}`,
        orderId: `merge:${p.opId}:${outcome}`,
        wallet: this.o.wallet,
        marketId: p.marketId,
        outcome,
        side: "SELL",
        // Whole shares: 0.5 each, cash exact. Otherwise YES at 1 and NO at 0 (the sum is what counts).
        price: even ? HALF : outcome === 0 ? SHARE : 0n,
        qty: p.amount,
        fee: 0n,
        ts,
      });
    }
    this.pending.delete(p.opId);
    this.o.locks.release(this.o.wallet, p.marketId, p.amount);
    this.o.observer.onEvent({ type: "vault_merge", wallet: this.o.wallet, marketId: p.marketId, result: "confirmed", amount: p.amount });
    this.o.log.info({ opId: p.opId, marketId: p.marketId, amount: formatMicros(p.amount) }, "auto-merge: merge confirmed, pair turned into cash");
    this.o.trigger(p.marketId);
  }

  private async unlock(p: Pending, op: VaultOperation): Promise<void> {
    const r = await this.o.api.vault.unlock(p.opId);
    if (!r.ok) {
      this.o.log.warn({ opId: p.opId, marketId: p.marketId, code: r.code }, "auto-merge: unlock of a failed merge refused; next pass retries");
      return;
    }
    this.ended(p, op, op.reason ?? "chain transaction not confirmed");
  }

  private ended(p: Pending, op: VaultOperation, reason: string): void {
    this.pending.delete(p.opId);
    this.o.locks.release(this.o.wallet, p.marketId, p.amount);
    this.o.observer.onEvent({ type: "vault_merge", wallet: this.o.wallet, marketId: p.marketId, result: "failed", amount: p.amount });
    this.o.log.warn({ opId: op.opId, marketId: p.marketId, amount: formatMicros(p.amount), reason }, "auto-merge: merge failed; shares unlocked");
    this.o.trigger(p.marketId);
  }

  private candidates(): MergeCandidate[] {
    const byMarket = new Map<string, MergeCandidate>();
    for (const s of this.o.inventory.positions(this.o.wallet)) {
      if (s.qty <= 0n || s.outcome > 1) continue;
      const outcomeCount = this.o.outcomeCount(s.marketId);
      if (outcomeCount === undefined) continue;
      let c = byMarket.get(s.marketId);
      if (c === undefined) {
        c = { marketId: s.marketId, outcomeCount, yes: 0n, no: 0n, liveOrders: this.o.liveOrders(s.marketId), pending: this.o.locks.locked(this.o.wallet, s.marketId) };
        byMarket.set(s.marketId, c);
      }
      if (s.outcome === 0) c.yes = s.qty;
      else c.no = s.qty;
    }
    return [...byMarket.values()].filter((c) => !this.resend.has(c.marketId));
  }

  private async startDue(): Promise<void> {
    const vault = this.o.vault();
    if (vault === undefined) return;
    for (const d of decideMerges(this.o.params, this.candidates())) {
      if (d.action !== "merge") continue;
      const now = this.o.clock.now();
      const body = await signVaultOperation(this.o.signer, this.o.contracts(), {
        kind: "merge",
        vault,
        marketId: d.marketId,
        amount: d.amount,
        nonce: BigInt(now) * 1000n + (this.seq++ % 1000n),
        deadline: BigInt(Math.floor(now / 1000)) + DEADLINE_SEC,
      });
      await this.send(d.marketId, body);
    }
  }

  private async send(marketId: string, body: VaultOpBody): Promise<void> {
    let r;
    try {
      r = await this.o.api.vault.mergeSignature(body);
    } catch (e) {
      this.resend.delete(marketId);
      if (e instanceof ApiError && e.handling !== "unknown_outcome") {
        // Nothing was recorded (a key without vault:write, a bad request): say so, decide afresh next pass.
        this.o.log.warn({ marketId, amount: body.amount, code: e.code, err: e.message }, "auto-merge: merge request refused");
        return;
      }
      this.resend.set(marketId, body);
      this.o.log.warn({ marketId, amount: body.amount, err: e instanceof Error ? e.message : String(e) }, "auto-merge: merge request outcome unknown; resent at the next pass");
      return;
    }
    this.resend.delete(marketId);
    if (!r.ok) {
      this.o.log.warn({ marketId, amount: body.amount, code: r.code, message: r.message }, "auto-merge: merge refused");
      return;
    }
    if (this.pending.has(r.data.opId)) return;
    this.track(r.data);
    this.o.observer.onEvent({ type: "vault_merge", wallet: this.o.wallet, marketId, result: "started", amount: parseMicros(r.data.amount) });
    this.o.log.info({ opId: r.data.opId, marketId, amount: r.data.amount }, "auto-merge: merge sent; shares locked until the platform confirms");
  }
}
