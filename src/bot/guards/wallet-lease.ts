/**
 * One Kubernetes Lease per wallet (`shard.lease`): the replica that quotes a wallet holds its
 * lease, so two replicas never quote one wallet even when the order-based hand-off rule
 * (src/bot/engine/shard-handoff.ts) cannot see the old owner (alive, but with no order open or
 * recent: every quote pulled by a halt).
 *
 * - Name: `<base instance id>-<wallet address>`, lower case (a DNS-1123 label); holderIdentity: the
 *   replica's instance id (`<base>-s<index>`).
 * - Acquire with optimistic concurrency: create when absent (409: someone else was first); a lease
 *   that is free (holderIdentity empty, as a release leaves it), already ours (this replica's
 *   previous process), or expired is taken by a PUT carrying the resourceVersion read (409:
 *   someone else changed it first). Expired means renewTime + leaseDurationSeconds + skewMarginSec
 *   is before the API server's clock (the Date header of the read; the local clock only when the
 *   answer has none): the replicas' clocks must agree within skewMarginSec (NTP).
 * - Renew every renewSec while held. A renewal that fails is tried again every second; when none
 *   has succeeded for leaseDurationSeconds - skewMarginSec (local clock, from the send of the last
 *   renewal that succeeded), the wallet is lost: `onLost` stops it (its orders are cancelled) before
 *   any other replica may take the lease. A renewal answered 409 is read again: still ours (a lost
 *   answer to our own write) is renewed; another holder means lost at once.
 * - Release (holderIdentity "", leaseDurationSeconds 1) on a clean stop, after the wallet's orders
 *   are ended; a stop that could not end them leaves the lease to expire instead.
 * - A lost wallet may be acquired again (the same rules: free, still ours, or expired): the daemon's
 *   re-acquire loop (ShardHandoff.rejoin) does, after the lost wallet's stop has ended.
 * - Each wallet's state (held, waiting, lost, released; the holder last read; the last successful
 *   write) is kept for /status and the metrics (`views`).
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import { leaseName, type LeaseApi, type LeaseRecord } from "./k8s-lease-client.js";

/** A renewal that failed is tried again this soon (never past the loss deadline). */
export const LEASE_RETRY_MS = 1_000;

export interface LeaseTiming {
  durationSec: number;
  renewSec: number;
  skewMarginSec: number;
}

export interface WalletLeaseOptions extends LeaseTiming {
  api: LeaseApi;
  /** holderIdentity: this replica's instance id. */
  identity: string;
  /** The lease name prefix: the instance id the replicas share. */
  prefix: string;
  clock: Clock;
  log: Logger;
  /** A held lease could not be renewed in time, or another replica took it. */
  onLost: (wallet: string, why: string) => void;
}

/**
 * held: this replica holds the lease. waiting: not held yet in this process (another replica holds
 * it, or the API server did not answer). lost: held, then given up (not renewed in time, or taken),
 * and not taken back yet. released: given up at the replica's stop (released; or left to expire when
 * the release was refused or failed, `error` says which).
 */
export const LEASE_STATES = ["held", "waiting", "lost", "released"] as const;
export type LeaseState = (typeof LEASE_STATES)[number];

/** One wallet's lease as this replica sees it (status, metrics). */
export interface LeaseView {
  /** Lower-cased address. */
  wallet: string;
  name: string;
  state: LeaseState;
  /** The holder last read from the API server (this replica's identity while held); undefined: free or not known. */
  holder: string | undefined;
  /** Local ms of the send of this replica's last successful write (acquire or renewal); undefined: never held. */
  renewedAtMs: number | undefined;
  /** Local ms at which the wallet entered `state`. */
  sinceMs: number;
  /** Times the lease was lost in this process. */
  losses: number;
  /** The last failed request's error (cleared by the next answer). */
  error: string | undefined;
}

export type AcquireOutcome = { acquired: true; takenFrom?: string | undefined } | { acquired: false; holder: string | undefined; reason: string };

interface Held {
  record: LeaseRecord;
  /** Local ms at which the last successful write was sent. */
  renewedAtMs: number;
  renewTimer?: TimerHandle | undefined;
  lostTimer?: TimerHandle | undefined;
  done: boolean;
}

export class WalletLeases {
  private readonly held = new Map<string, Held>();
  private readonly lostSet = new Set<string>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly viewOf = new Map<string, LeaseView>();

  constructor(readonly o: WalletLeaseOptions) {}

  /** The lease of a wallet (lower-cased address). */
  nameOf(wallet: string): string {
    return leaseName(this.o.prefix, wallet.toLowerCase());
  }

  holds(wallet: string): boolean {
    return this.held.has(wallet);
  }

  /** Wallets whose lease was lost and not taken back yet. */
  lost(): string[] {
    return [...this.lostSet];
  }

  /** Every wallet this replica asked a lease for, as it stands now. */
  views(): LeaseView[] {
    return [...this.viewOf.values()].map((v) => ({ ...v }));
  }

  view(wallet: string): LeaseView | undefined {
    const v = this.viewOf.get(wallet);
    return v === undefined ? undefined : { ...v };
  }

  private note(wallet: string): LeaseView {
    let v = this.viewOf.get(wallet);
    if (v === undefined) {
      v = { wallet, name: this.nameOf(wallet), state: "waiting", holder: undefined, renewedAtMs: undefined, sinceMs: this.o.clock.now(), losses: 0, error: undefined };
      this.viewOf.set(wallet, v);
    }
    return v;
  }

  private enter(v: LeaseView, state: LeaseState): void {
    if (v.state !== state) v.sinceMs = this.o.clock.now();
    v.state = state;
  }

  /** Resolves when no lease request is under way (tests, with a virtual clock). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.then(
      () => this.inflight.delete(p),
      () => this.inflight.delete(p),
    );
    return p;
  }

  /** One attempt to take the wallet's lease; throws when the API server cannot be asked. */
  acquire(wallet: string): Promise<AcquireOutcome> {
    const v = this.note(wallet);
    const p = this.doAcquire(wallet).then(
      (r) => {
        v.error = undefined;
        if (!r.acquired) {
          v.holder = r.holder;
          // Taken back at a stop's release and asked again (not in practice): waiting.
          if (v.state === "released") this.enter(v, "waiting");
        }
        return r;
      },
      (e: unknown) => {
        v.error = errorText(e);
        throw e;
      },
    );
    return this.track(p);
  }

  private async doAcquire(wallet: string): Promise<AcquireOutcome> {
    if (this.held.has(wallet)) return { acquired: true };
    const o = this.o;
    const name = this.nameOf(wallet);
    const sentAt = o.clock.now();
    const read = await o.api.get(name);
    const lease = read.lease;
    if (lease === undefined) {
      const created = await o.api.create(name, { holder: o.identity, durationSec: o.durationSec, acquireTimeMs: sentAt, renewTimeMs: sentAt, transitions: 0 });
      if (created === "conflict") return { acquired: false, holder: undefined, reason: "another replica created the lease first" };
      this.hold(wallet, created, sentAt);
      return { acquired: true };
    }
    const ours = lease.holder === o.identity;
    if (!ours && lease.holder !== undefined) {
      const now = read.serverNowMs ?? o.clock.now();
      const expiresAt = expiryOf(lease, o);
      if (expiresAt === undefined || now <= expiresAt) {
        const until = expiresAt === undefined ? "" : ` (expires at ${new Date(expiresAt).toISOString()} unless renewed)`;
        return { acquired: false, holder: lease.holder, reason: `held by ${lease.holder}${until}` };
      }
    }
    const taken = await o.api.update(lease, {
      holder: o.identity,
      durationSec: o.durationSec,
      acquireTimeMs: ours && lease.acquireTimeMs !== undefined ? lease.acquireTimeMs : sentAt,
      renewTimeMs: sentAt,
      transitions: ours ? lease.transitions : lease.transitions + 1,
    });
    if (taken === "conflict") return { acquired: false, holder: lease.holder, reason: "the lease changed while this replica took it" };
    this.hold(wallet, taken, sentAt);
    return { acquired: true, takenFrom: ours ? undefined : lease.holder };
  }

  private hold(wallet: string, record: LeaseRecord, sentAt: number): void {
    const h: Held = { record, renewedAtMs: sentAt, done: false };
    this.held.set(wallet, h);
    this.lostSet.delete(wallet);
    const v = this.note(wallet);
    this.enter(v, "held");
    v.holder = this.o.identity;
    v.renewedAtMs = sentAt;
    this.armLost(wallet, h);
    this.scheduleRenew(wallet, h, this.o.renewSec * 1000);
  }

  /** The moment a lease not renewed since `renewedAtMs` must be given up (local clock). */
  private lostAt(h: Held): number {
    return h.renewedAtMs + (this.o.durationSec - this.o.skewMarginSec) * 1000;
  }

  private armLost(wallet: string, h: Held): void {
    this.o.clock.clearTimeout(h.lostTimer);
    h.lostTimer = this.o.clock.setTimeout(() => {
      if (!h.done) this.lose(wallet, h, `not renewed since ${new Date(h.renewedAtMs).toISOString()}`);
    }, Math.max(0, this.lostAt(h) - this.o.clock.now()));
  }

  private scheduleRenew(wallet: string, h: Held, ms: number): void {
    this.o.clock.clearTimeout(h.renewTimer);
    h.renewTimer = this.o.clock.setTimeout(() => void this.track(this.renew(wallet, h)), ms);
  }

  private retry(wallet: string, h: Held): void {
    if (!h.done) this.scheduleRenew(wallet, h, Math.max(0, Math.min(LEASE_RETRY_MS, this.lostAt(h) - this.o.clock.now())));
  }

  private async renew(wallet: string, h: Held): Promise<void> {
    if (h.done) return;
    const o = this.o;
    const sentAt = o.clock.now();
    let r: LeaseRecord | "conflict";
    try {
      r = await o.api.update(h.record, { holder: o.identity, durationSec: o.durationSec, acquireTimeMs: h.record.acquireTimeMs ?? sentAt, renewTimeMs: sentAt, transitions: h.record.transitions });
    } catch (e) {
      if (h.done) return;
      this.note(wallet).error = errorText(e);
      o.log.warn({ wallet, lease: h.record.name, err: errorText(e), lostInMs: this.lostAt(h) - o.clock.now() }, "shard lease: renewal failed; trying again");
      this.retry(wallet, h);
      return;
    }
    if (h.done) return;
    if (r !== "conflict") {
      h.record = r;
      h.renewedAtMs = sentAt;
      const v = this.note(wallet);
      v.renewedAtMs = sentAt;
      v.error = undefined;
      this.armLost(wallet, h);
      this.scheduleRenew(wallet, h, o.renewSec * 1000);
      return;
    }
    // Changed under us: our own write whose answer was lost, or another replica took it.
    try {
      const again = await o.api.get(h.record.name);
      if (h.done) return;
      if (again.lease !== undefined && again.lease.holder === o.identity) {
        h.record = again.lease;
        this.retry(wallet, h);
        return;
      }
      this.lose(wallet, h, again.lease === undefined ? "the lease was deleted" : `taken by ${again.lease.holder ?? "nobody (released)"}`, again.lease?.holder);
    } catch (e) {
      if (h.done) return;
      o.log.warn({ wallet, lease: h.record.name, err: errorText(e) }, "shard lease: renewal conflict and the lease could not be read; trying again");
      this.retry(wallet, h);
    }
  }

  /** `holder`: who holds it now when known (a renewal answered 409); undefined: not known. */
  private lose(wallet: string, h: Held, why: string, holder?: string): void {
    this.finish(h);
    this.held.delete(wallet);
    this.lostSet.add(wallet);
    const v = this.note(wallet);
    this.enter(v, "lost");
    v.losses += 1;
    v.holder = holder;
    this.o.log.error({ wallet, lease: h.record.name, why }, "shard lease: lost the wallet's lease; stopping the wallet and cancelling its orders so no two replicas quote it (taken back once free, ours or expired)");
    this.o.onLost(wallet, why);
  }

  private finish(h: Held): void {
    h.done = true;
    this.o.clock.clearTimeout(h.renewTimer);
    this.o.clock.clearTimeout(h.lostTimer);
  }

  /** Give the lease back (its orders have ended): true when the API server took the release. */
  release(wallet: string): Promise<boolean> {
    return this.track(this.doRelease(wallet));
  }

  private async doRelease(wallet: string): Promise<boolean> {
    const h = this.held.get(wallet);
    if (h === undefined) return false;
    this.finish(h);
    this.held.delete(wallet);
    const now = this.o.clock.now();
    const v = this.note(wallet);
    this.enter(v, "released");
    v.holder = undefined;
    try {
      const r = await this.o.api.update(h.record, { holder: "", durationSec: 1, acquireTimeMs: now, renewTimeMs: now, transitions: h.record.transitions });
      if (r === "conflict") {
        v.error = "the lease changed before its release";
        this.o.log.warn({ wallet, lease: h.record.name }, "shard lease: the lease changed before its release; left as it is");
        return false;
      }
      this.o.log.debug({ wallet, lease: h.record.name }, "shard lease: released");
      return true;
    } catch (e) {
      v.error = errorText(e);
      this.o.log.warn({ wallet, lease: h.record.name, err: errorText(e), expiresInSec: this.o.durationSec }, "shard lease: release failed; the lease expires by itself");
      return false;
    }
  }

  /** Stop renewing every lease without releasing any (abandon; a lost process lets them expire). */
  stop(): void {
    for (const h of this.held.values()) this.finish(h);
    this.held.clear();
  }
}

/** When a lease read from the API server stops counting (renewTime + duration + skew margin); undefined: never renewed. */
export function expiryOf(lease: LeaseRecord, t: LeaseTiming): number | undefined {
  const at = lease.renewTimeMs ?? lease.acquireTimeMs;
  if (at === undefined) return undefined;
  return at + ((lease.durationSec ?? t.durationSec) + t.skewMarginSec) * 1000;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
