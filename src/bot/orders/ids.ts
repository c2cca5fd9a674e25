/**
 * clientOrderIds of this daemon: `<instance>-<wallet index>-<session>-<counter>`.
 *
 *   instance   config `instance.id` ([a-z0-9-]{1,16}; it may itself contain '-')
 *   wallet     the wallet's index in the config, decimal (0..49)
 *   session    one per daemon start: the start time in seconds, base36, then three base36
 *              characters drawn from the daemon's Rng. Two starts in the same second still differ
 *              (1 in 46656 to collide), so ids are unique across restarts without any storage.
 *   counter    per wallet and session, base36, from 1
 *
 * The id is parsed from the right (the last three segments never contain '-'), so an instance id
 * with hyphens is still recovered exactly: `mm-a-0-...` is never taken for instance `mm`.
 * At most 16 + 1 + 2 + 1 + 10 + 1 + 13 = 44 characters, inside the 1..64 the platform accepts.
 */
import type { Rng } from "../../core/rng.js";

const SEGMENT = /^[a-z0-9]+$/;

export interface ParsedClientOrderId {
  instance: string;
  walletIndex: number;
  session: string;
  counter: number;
}

/** A session tag: start second (base36) + 3 random base36 characters. */
export function sessionTag(startMs: number, rng: Rng): string {
  const seconds = Math.max(0, Math.floor(startMs / 1000)).toString(36);
  let rand = "";
  for (let i = 0; i < 3; i++) rand += rng.int(36).toString(36);
  return seconds + rand;
}

export function parseClientOrderId(id: string): ParsedClientOrderId | undefined {
  const parts = id.split("-");
  if (parts.length < 4) return undefined;
  const counter = parts.pop()!;
  const session = parts.pop()!;
  const wallet = parts.pop()!;
  const instance = parts.join("-");
  if (!SEGMENT.test(counter) || !SEGMENT.test(session) || !/^\d{1,2}$/.test(wallet) || instance === "") return undefined;
  const n = parseInt(counter, 36);
  if (!Number.isSafeInteger(n)) return undefined;
  return { instance, walletIndex: Number(wallet), session, counter: n };
}

/** True when `id` was made by a daemon with this instance id (any session, any wallet). */
export function isOwnClientOrderId(id: string | null | undefined, instance: string): boolean {
  if (id === null || id === undefined) return false;
  return parseClientOrderId(id)?.instance === instance;
}

/** The id factory of one wallet in one session. */
export class ClientOrderIds {
  private counter = 0;
  private readonly prefix: string;

  constructor(
    readonly instance: string,
    readonly walletIndex: number,
    readonly session: string,
  ) {
    if (!/^[a-z0-9-]{1,16}$/.test(instance)) throw new RangeError("instance id: expected 1-16 characters of [a-z0-9-]");
    if (!Number.isInteger(walletIndex) || walletIndex < 0 || walletIndex > 99) throw new RangeError("wallet index: expected 0..99");
    if (!SEGMENT.test(session)) throw new RangeError("session: expected [a-z0-9]+");
    this.prefix = `${instance}-${walletIndex}-${session}-`;
  }

  next(): string {
    this.counter += 1;
    return this.prefix + this.counter.toString(36);
  }

  /** Ids issued so far. */
  get issued(): number {
    return this.counter;
  }
}
