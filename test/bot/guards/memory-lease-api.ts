/**
 * An in-memory LeaseApi for unit tests of what sits on the Lease client (src/bot/guards/
 * k8s-lease-client.ts): GET / create / update with the API server's resourceVersion rules (409 on
 * a second create or a stale update, an update of a deleted lease a conflict too), the server's
 * clock from `now`, a `down` switch (every request fails as a refused connection) and the requests
 * it was asked, in order. (Over real HTTP: test/shard/fake-k8s.ts.)
 */
import type { LeaseApi, LeaseRead, LeaseRecord, LeaseWrite } from "../../../src/bot/guards/k8s-lease-client.js";

export class MemoryLeaseApi implements LeaseApi {
  readonly describe = "memory namespace mm";
  readonly leases = new Map<string, LeaseRecord>();
  /** "get x", "create x", "update x" in the order asked. */
  readonly calls: string[] = [];
  /** The server's clock at each of `calls`. */
  readonly callTimes: number[] = [];
  down = false;
  private rv = 100;

  constructor(private readonly now: () => number) {}

  /** Records the call; refused while down, else answered by `fn` (asynchronously, as over the wire). */
  private answer<T>(call: string, fn: () => T): Promise<T> {
    this.calls.push(call);
    this.callTimes.push(this.now());
    if (this.down) return Promise.reject(new Error("connect ECONNREFUSED (memory API down)"));
    return Promise.resolve().then(fn);
  }

  private record(name: string, spec: LeaseWrite): LeaseRecord {
    return { name, resourceVersion: String(++this.rv), holder: spec.holder === "" ? undefined : spec.holder, durationSec: spec.durationSec, acquireTimeMs: spec.acquireTimeMs, renewTimeMs: spec.renewTimeMs, transitions: spec.transitions };
  }

  get(name: string): Promise<LeaseRead> {
    return this.answer(`get ${name}`, () => {
      const l = this.leases.get(name);
      return { lease: l === undefined ? undefined : { ...l }, serverNowMs: this.now() };
    });
  }

  create(name: string, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    return this.answer(`create ${name}`, () => {
      if (this.leases.has(name)) return "conflict";
      const r = this.record(name, spec);
      this.leases.set(name, r);
      return { ...r };
    });
  }

  update(current: LeaseRecord, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    return this.answer(`update ${current.name}`, () => {
      const l = this.leases.get(current.name);
      if (l === undefined || l.resourceVersion !== current.resourceVersion) return "conflict";
      const r = this.record(current.name, spec);
      this.leases.set(current.name, r);
      return { ...r };
    });
  }

  /** Another replica writes the lease (a new resourceVersion): `holder` renewing it now. */
  takenBy(name: string, holder: string, durationSec = 15): void {
    this.leases.set(name, { name, resourceVersion: String(++this.rv), holder, durationSec, acquireTimeMs: this.now(), renewTimeMs: this.now(), transitions: (this.leases.get(name)?.transitions ?? 0) + 1 });
  }
}
