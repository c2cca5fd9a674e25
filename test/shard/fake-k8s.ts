/**
 * A tiny fake of the Kubernetes API server's Lease endpoints, over real HTTP, for the lease tests:
 * GET, POST and PUT of /apis/coordination.k8s.io/v1/namespaces/{ns}/leases[/{name}], with
 * resourceVersion checks (409 Conflict on a stale one, 409 AlreadyExists on a second create), a
 * bearer token check (401), Status bodies on errors, and a Date header from the test's clock. It
 * can be taken "down" (503, or the connection dropped) and can answer garbage.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LeaseApi, LeaseRecord, LeaseRead, LeaseWrite } from "../../src/bot/guards/k8s-lease-client.js";
import type { Clock } from "../../src/core/clock.js";
import { createLogger, type Logger } from "../../src/log/index.js";

/** A JSON log line as the lease tests read it. */
export interface Line {
  level: string;
  msg: string;
  [k: string]: unknown;
}

/** A logger whose lines are kept, parsed, for the assertions (stamped by `clock` when given: a virtual one). */
export function capture(level: "debug" | "info", clock?: Clock): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const log = createLogger({ level, format: "json", ...(clock === undefined ? {} : { clock }) }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { log, lines };
}

export interface StoredLease {
  apiVersion: "coordination.k8s.io/v1";
  kind: "Lease";
  metadata: { name: string; namespace: string; resourceVersion: string; labels?: Record<string, string> };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string; leaseTransitions?: number };
}

export type FakeMode = "up" | "unavailable" | "drop" | "garbage";

const PREFIX = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([a-z0-9-]+)\/leases(?:\/([^/?]+))?$/;

export class FakeK8s {
  readonly leases = new Map<string, StoredLease>();
  readonly requests: string[] = [];
  mode: FakeMode = "up";
  private rv = 100;
  private server: Server | undefined;
  url = "";

  constructor(
    /** The API server's clock (the Date header). */
    private readonly now: () => number,
    readonly token = "test-token",
  ) {}

  async listen(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server === undefined ? r() : this.server.close(() => r())));
  }

  /** A lease by name across namespaces (tests look at what replicas wrote). */
  lease(name: string, namespace = "mm"): StoredLease | undefined {
    return this.leases.get(`${namespace}/${name}`);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.sendDate = false;
    res.writeHead(status, { "content-type": "application/json", date: new Date(this.now()).toUTCString() });
    res.end(JSON.stringify(body));
  }

  private status(res: ServerResponse, code: number, reason: string, message: string): void {
    this.send(res, code, { kind: "Status", apiVersion: "v1", status: "Failure", reason, message, code });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += String(chunk);
    this.requests.push(`${req.method} ${req.url}`);
    if (this.mode === "drop") {
      req.socket.destroy();
      return;
    }
    if (this.mode === "unavailable") return this.status(res, 503, "ServiceUnavailable", "the server is currently unable to handle the request");
    if (this.mode === "garbage") return this.send(res, 200, { hello: "world" });
    if (req.headers.authorization !== `Bearer ${this.token}`) return this.status(res, 401, "Unauthorized", "Unauthorized");
    const m = PREFIX.exec(req.url ?? "");
    if (m === null) return this.status(res, 404, "NotFound", "the server could not find the requested resource");
    const ns = m[1]!;
    const name = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
    const key = (n: string): string => `${ns}/${n}`;
    if (req.method === "GET" && name !== undefined) {
      const l = this.leases.get(key(name));
      if (l === undefined) return this.status(res, 404, "NotFound", `leases.coordination.k8s.io "${name}" not found`);
      return this.send(res, 200, l);
    }
    const body = JSON.parse(text) as StoredLease;
    if (req.method === "POST" && name === undefined) {
      const n = body.metadata.name;
      if (this.leases.has(key(n))) return this.status(res, 409, "AlreadyExists", `leases.coordination.k8s.io "${n}" already exists`);
      const stored: StoredLease = { ...body, metadata: { ...body.metadata, namespace: ns, resourceVersion: String(++this.rv) } };
      this.leases.set(key(n), stored);
      return this.send(res, 201, stored);
    }
    if (req.method === "PUT" && name !== undefined) {
      const current = this.leases.get(key(name));
      if (current === undefined) return this.status(res, 404, "NotFound", `leases.coordination.k8s.io "${name}" not found`);
      if (body.metadata.resourceVersion !== current.metadata.resourceVersion) {
        return this.status(res, 409, "Conflict", `Operation cannot be fulfilled on leases.coordination.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`);
      }
      const stored: StoredLease = { ...body, metadata: { ...body.metadata, namespace: ns, resourceVersion: String(++this.rv) } };
      this.leases.set(key(name), stored);
      return this.send(res, 200, stored);
    }
    return this.status(res, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  }
}

/** A LeaseApi that remembers its requests under way, so a test on a virtual clock can wait for them. */
export class TrackedLeaseApi implements LeaseApi {
  private readonly inflight = new Set<Promise<unknown>>();
  readonly describe: string;

  constructor(private readonly inner: LeaseApi) {
    this.describe = inner.describe;
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    const done = (): void => void this.inflight.delete(p);
    p.then(done, done);
    return p;
  }

  get(name: string): Promise<LeaseRead> {
    return this.track(this.inner.get(name));
  }

  create(name: string, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    return this.track(this.inner.create(name, spec));
  }

  update(current: LeaseRecord, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    return this.track(this.inner.update(current, spec));
  }

  /** Resolves once no request is under way (a follow-up sent from an answer is waited for too). */
  async idle(): Promise<void> {
    for (;;) {
      await new Promise<void>((r) => setImmediate(r));
      if (this.inflight.size === 0) return;
      await Promise.allSettled([...this.inflight]);
    }
  }
}
