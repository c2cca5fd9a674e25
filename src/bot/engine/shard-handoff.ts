/**
 * The shard hand-off rule: a wallet is never quoted by two replicas at once.
 *
 * When the replica count changes, rendezvous hashing (src/config/shard-section.ts) moves some
 * wallets to a new owner while the old owner may still run with the old count (a StatefulSet
 * rolls its pods one at a time). Replicas run under `<instance.id>-s<index>`, so every order names
 * the replica that placed it. A replica that owns a wallet first looks at it: when the wallet holds
 * open orders of a predecessor (another replica of the same base id, or the base id itself: the
 * daemon before sharding) or such an order was recorded within `quietMs`, the wallet is held: not
 * started (no stream, no adoption, no quoting) while the rest of the replica runs, and looked at
 * again every `pollMs` until both are false. The old owner ends its orders itself when it stops
 * (its shutdown cancels everything on its wallets); `quietMs` covers its last sends still landing
 * (the late-recording window) and a live old owner between a cancel and its replacement.
 * Orders of our own id from an earlier session are not a predecessor's: the instance fence adopts
 * them as after any restart (src/bot/guards/instance-fence.ts).
 *
 * A held wallet does not hold the replica's start-up or readiness back: a rolling update waits for
 * each new pod to be ready before it stops the next old one, which is what ends the wait.
 *
 * With `shard.lease` the wallet's Kubernetes Lease comes first (src/bot/guards/wallet-lease.ts):
 * a wallet whose lease another replica holds is held the same way (same log line, looked at again
 * every `pollMs`) until the lease is released or expires; then the order look above still applies
 * (the old owner's last orders may still be ending). A lease request that fails holds the wallet
 * too (the API server down at start-up: nothing is quoted until it answers).
 *
 * A wallet whose lease was lost while running (stopped, its orders cancelled: src/bot/engine/
 * shard-lease.ts) goes through `rejoin` once that stop has ended: it is held again, the lease is
 * asked for with a backoff (REJOIN_FIRST_MS doubling to REJOIN_MAX_MS while it is refused or the
 * API server does not answer), then the order look above, every `pollMs`, until the previous
 * owner's orders are gone; then the daemon starts the wallet as at start-up.
 */
import type { WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import { createdAtMsOf } from "../guards/instance-fence.js";
import { parseClientOrderId } from "../orders/ids.js";
import { notRecordedWindowMs } from "../orders/order-tracker.js";
import { errorText } from "./errors.js";
import type { WalletLeases } from "../guards/wallet-lease.js";

export interface HandoffOptions {
  /** This replica's instance id, `<base>-s<index>`. */
  instanceId: string;
  /** The configured instance.id the replicas share. */
  base: string;
  /** A predecessor's order recorded this recently holds the wallet even when none is open. */
  quietMs: number;
  /** A held wallet is looked at again this often. */
  pollMs: number;
  clock: Clock;
  log: Logger;
  /** Per-wallet Leases (shard.lease); absent: the order look alone. */
  leases?: WalletLeases | undefined;
}

/** True for an order of another replica of `base` (or of `base` itself, unsharded). */
export function isPredecessorOrder(clientOrderId: string | null | undefined, base: string, own: string): boolean {
  if (clientOrderId === null || clientOrderId === undefined) return false;
  const instance = parseClientOrderId(clientOrderId)?.instance;
  if (instance === undefined || instance === own) return false;
  return instance === base || (instance.startsWith(`${base}-s`) && /^\d+$/.test(instance.slice(base.length + 2)));
}

export interface HandoffLook {
  /** A predecessor's orders open on the wallet. */
  open: number;
  /** A predecessor's orders recorded within quietMs (newest history page). */
  recent: number;
}

/** One look at a wallet: its open orders and its newest order history page. */
export async function lookAtWallet(api: WalletClient, o: Pick<HandoffOptions, "instanceId" | "base" | "quietMs" | "clock">, signal?: AbortSignal): Promise<HandoffLook> {
  const opts = signal !== undefined ? { signal } : undefined;
  let open = 0;
  let serverTimeMs: number | undefined;
  for await (const page of api.orders.openPages({ limit: 500 }, opts)) {
    serverTimeMs ??= page.meta.serverTime;
    for (const r of page.data.orders) if (isPredecessorOrder(r.clientOrderId, o.base, o.instanceId)) open += 1;
  }
  const hist = await api.orders.historyPage({ limit: 200 }, opts);
  const now = serverTimeMs ?? hist.meta.serverTime ?? o.clock.now();
  let recent = 0;
  for (const r of hist.data.orders) {
    if (!isPredecessorOrder(r.clientOrderId, o.base, o.instanceId)) continue;
    const at = createdAtMsOf(r.createdAt);
    if (at === undefined || at >= now - o.quietMs) recent += 1;
  }
  return { open, recent };
}

/** A held wallet: `until` resolves when its previous owner's orders have ended. */
export interface HeldWallet {
  until: Promise<void>;
}

export class ShardHandoff {
  /** Wallets held right now (lower-cased address -> since, local ms). */
  private readonly holding = new Map<string, number>();

  constructor(readonly o: HandoffOptions) {}

  /** Wallets waiting for their previous owner (status, tests). */
  held(): string[] {
    return [...this.holding.keys()];
  }

  /**
   * The first look. Undefined: the wallet is free, start it now. Otherwise the wallet is held and
   * the promise resolves once the predecessor's orders are gone (it rejects only when `signal`
   * aborts). A look that fails counts as held (and is tried again).
   */
  async prepare(wallet: string, api: WalletClient, signal: AbortSignal): Promise<HeldWallet | undefined> {
    const lease = await this.takeLease(wallet, signal);
    if (lease !== true) {
      this.holding.set(wallet, this.o.clock.now());
      this.o.log.warn(
        { wallet, instance: this.o.instanceId, lease: this.o.leases?.nameOf(wallet), leaseHolder: lease.holder ?? null, why: lease.reason },
        "shard hand-off: the wallet's lease is held by another replica; not quoting it until it is released or expires",
      );
      return { until: this.waitClear(wallet, api, signal) };
    }
    const first = await this.look(wallet, api, signal);
    if (first !== undefined && first.open === 0 && first.recent === 0) return undefined;
    this.holding.set(wallet, this.o.clock.now());
    this.o.log.warn(
      { wallet, instance: this.o.instanceId, predecessorOpen: first?.open ?? null, predecessorRecent: first?.recent ?? null },
      "shard hand-off: the wallet holds orders of its previous owner; not quoting it until they have ended",
    );
    // Wrapped: an async function returning a bare promise would wait for it.
    return { until: this.waitClear(wallet, api, signal) };
  }

  /** True while the wallet is held (not started yet): a lease lost meanwhile is simply taken again. */
  isHolding(wallet: string): boolean {
    return this.holding.has(wallet);
  }

  /**
   * After a lost lease (the wallet stopped): resolves once the lease is ours again and no
   * predecessor's order is open or recent, so the wallet may start again; rejects only when
   * `signal` aborts. The wallet counts as held meanwhile (isHolding: a lease lost again is taken
   * again here, not a second stop).
   */
  async rejoin(wallet: string, api: WalletClient, signal: AbortSignal): Promise<void> {
    const since = this.o.clock.now();
    this.holding.set(wallet, since);
    let delay = REJOIN_FIRST_MS;
    let refused: { holder: string | undefined; reason: string } | undefined;
    try {
      for (;;) {
        await this.o.clock.sleep(delay, signal);
        const lease = await this.takeLease(wallet, signal);
        if (lease !== true) {
          if (refused === undefined || refused.holder !== lease.holder) {
            this.o.log.warn({ wallet, lease: this.o.leases?.nameOf(wallet), leaseHolder: lease.holder ?? null, why: lease.reason }, "shard hand-off: the lost lease is not ours again yet; the wallet stays stopped");
          }
          refused = lease;
          delay = Math.min(delay * 2, REJOIN_MAX_MS);
          continue;
        }
        delay = this.o.pollMs;
        const l = await this.look(wallet, api, signal);
        if (l !== undefined && l.open === 0 && l.recent === 0) break;
      }
    } finally {
      this.holding.delete(wallet);
    }
    this.o.log.info({ wallet, lease: this.o.leases?.nameOf(wallet), waitedMs: this.o.clock.now() - since }, "shard hand-off: the lost lease is ours again and no other replica's order is open or recent; starting the wallet again");
  }

  private async waitClear(wallet: string, api: WalletClient, signal: AbortSignal): Promise<void> {
    const since = this.holding.get(wallet) ?? this.o.clock.now();
    let leaseWasHeld = false;
    try {
      for (;;) {
        await this.o.clock.sleep(this.o.pollMs, signal);
        const lease = await this.takeLease(wallet, signal);
        if (lease !== true) {
          leaseWasHeld = true;
          continue;
        }
        if (leaseWasHeld) {
          leaseWasHeld = false;
          this.o.log.info({ wallet, lease: this.o.leases?.nameOf(wallet), waitedMs: this.o.clock.now() - since }, "shard hand-off: the wallet's lease is ours; looking at its orders");
        }
        const l = await this.look(wallet, api, signal);
        if (l !== undefined && l.open === 0 && l.recent === 0) break;
      }
    } finally {
      this.holding.delete(wallet);
    }
    this.o.log.info({ wallet, waitedMs: this.o.clock.now() - since }, "shard hand-off: the previous owner's orders have ended; starting the wallet");
  }

  /** True: the wallet's lease is ours (or leases are off). Otherwise who holds it, or why it is not known. */
  private async takeLease(wallet: string, signal: AbortSignal): Promise<true | { holder: string | undefined; reason: string }> {
    const leases = this.o.leases;
    if (leases === undefined || leases.holds(wallet)) return true;
    try {
      const r = await leases.acquire(wallet);
      if (signal.aborted) throw signal.reason;
      if (r.acquired) {
        if (r.takenFrom !== undefined) this.o.log.warn({ wallet, lease: leases.nameOf(wallet), from: r.takenFrom }, "shard hand-off: took over an expired lease");
        return true;
      }
      return { holder: r.holder, reason: r.reason };
    } catch (e) {
      if (signal.aborted) throw e;
      this.o.log.warn({ wallet, lease: leases.nameOf(wallet), api: leases.o.api.describe, err: errorText(e) }, "shard hand-off: lease request failed; the wallet stays held");
      return { holder: undefined, reason: `lease request failed: ${errorText(e)}` };
    }
  }

  private async look(wallet: string, api: WalletClient, signal: AbortSignal): Promise<HandoffLook | undefined> {
    try {
      return await lookAtWallet(api, this.o, signal);
    } catch (e) {
      if (signal.aborted) throw e;
      this.o.log.warn({ wallet, err: errorText(e) }, "shard hand-off: look failed; the wallet stays held");
      return undefined;
    }
  }
}

/** How long a held wallet waits between looks. */
export const HANDOFF_POLL_MS = 2_000;

/** A lost lease is asked for again this long after the wallet's stop ended, then after twice as long each time, up to REJOIN_MAX_MS. */
export const REJOIN_FIRST_MS = 1_000;
export const REJOIN_MAX_MS = 8_000;

/** The base instance id of a sharded replica's `<base>-s<index>`. */
export function shardBase(id: string, index: number): string {
  const suffix = `-s${index}`;
  return id.endsWith(suffix) ? id.slice(0, -suffix.length) : id;
}

/** A sharded replica's start-up hold, the way back of a wallet whose lease was lost, and the hand-off behind them (isHolding). */
export interface ShardStart {
  hold: (wallet: string, signal: AbortSignal) => Promise<HeldWallet | undefined>;
  rejoin: (wallet: string, signal: AbortSignal) => Promise<void>;
  handoff: ShardHandoff;
}

/**
 * The start-up hold of a sharded replica (config already through applyShard): for each wallet,
 * undefined to start it now or a promise of the moment its predecessor is gone. Unsharded: none.
 */
export function shardHold(
  config: { shard?: { index: number; count: number } | undefined; instance: { id: string }; wallets: readonly { address: string }[]; platform: { requestTimeoutMs: number } },
  forWallet: (address: string) => WalletClient,
  clock: Clock,
  log: Logger,
  leases?: WalletLeases,
): ShardStart | undefined {
  const shard = config.shard;
  if (shard === undefined) return undefined;
  const id = config.instance.id;
  const handoff = new ShardHandoff({
    instanceId: id,
    base: shardBase(id, shard.index),
    quietMs: notRecordedWindowMs(config.platform.requestTimeoutMs),
    pollMs: HANDOFF_POLL_MS,
    clock,
    log: log.child({ component: "handoff" }),
    leases,
  });
  const address = (wallet: string): string => config.wallets.find((w) => w.address.toLowerCase() === wallet)?.address ?? wallet;
  return {
    hold: (wallet, signal) => handoff.prepare(wallet, forWallet(address(wallet)), signal),
    rejoin: (wallet, signal) => handoff.rejoin(wallet, forWallet(address(wallet)), signal),
    handoff,
  };
}
