/**
 * A small client for Kubernetes Lease objects (coordination.k8s.io/v1) over the API server's
 * REST interface: GET, POST (create) and PUT (update with the resourceVersion read, so a
 * concurrent writer gets 409 Conflict and nothing is overwritten). Plain HTTPS through undici
 * with the pod's service-account token and the cluster CA, as in-cluster clients do; every
 * answer is checked with zod before it is used.
 *
 * In a pod: KUBERNETES_SERVICE_HOST / KUBERNETES_SERVICE_PORT name the API server, and
 * /var/run/secrets/kubernetes.io/serviceaccount/{token,ca.crt,namespace} hold the token (read
 * again every minute: kubelet rotates bound tokens), the CA and the pod's namespace.
 */
import { readFileSync } from "node:fs";
import { Agent, fetch as undiciFetch } from "undici";
import { z } from "zod";

export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
const TOKEN_REREAD_MS = 60_000;

/** What a lease says, read from the API server. */
export interface LeaseRecord {
  name: string;
  resourceVersion: string;
  /** Undefined or "" when nobody holds it (released). */
  holder: string | undefined;
  durationSec: number | undefined;
  acquireTimeMs: number | undefined;
  renewTimeMs: number | undefined;
  transitions: number;
}

/** The spec a holder writes. */
export interface LeaseWrite {
  holder: string;
  durationSec: number;
  acquireTimeMs: number;
  renewTimeMs: number;
  transitions: number;
}

/** A read: the lease (undefined: none of that name) and the API server's clock (its Date header). */
export interface LeaseRead {
  lease: LeaseRecord | undefined;
  serverNowMs: number | undefined;
}

export interface LeaseApi {
  /** Where the leases live, for log lines. */
  readonly describe: string;
  get(name: string): Promise<LeaseRead>;
  /** "conflict": a lease of that name exists already (409 AlreadyExists). */
  create(name: string, spec: LeaseWrite): Promise<LeaseRecord | "conflict">;
  /** "conflict": the lease changed since `current` was read (409 Conflict), or is gone (404). */
  update(current: LeaseRecord, spec: LeaseWrite): Promise<LeaseRecord | "conflict">;
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Milliseconds of a metav1.Time / MicroTime (any number of fractional digits, Z or an offset). */
export function parseMicroTime(s: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1]}.${(m[2] ?? "0").slice(0, 3).padEnd(3, "0")}${m[3]}`);
  return Number.isNaN(ms) ? undefined : ms;
}

const microTimeString = z.string().refine((s) => parseMicroTime(s) !== undefined, { error: "expected an RFC 3339 time" });

const leaseSchema = z.object({
  kind: z.literal("Lease").optional(),
  metadata: z.object({
    name: z.string().min(1),
    resourceVersion: z.string().min(1),
  }),
  spec: z
    .object({
      holderIdentity: z.string().nullish(),
      leaseDurationSeconds: z.number().int().nullish(),
      acquireTime: microTimeString.nullish(),
      renewTime: microTimeString.nullish(),
      leaseTransitions: z.number().int().min(0).nullish(),
    })
    .optional(),
});

/** The API server's error body (kind: Status). */
const statusSchema = z.object({
  kind: z.literal("Status"),
  reason: z.string().optional(),
  message: z.string().optional(),
  code: z.number().int().optional(),
});

function recordOf(body: unknown, what: string): LeaseRecord {
  const r = leaseSchema.safeParse(body);
  if (!r.success) throw new Error(`${what}: the answer is not a Lease: ${z.prettifyError(r.error).replace(/\n/g, "; ")}`);
  const spec = r.data.spec ?? {};
  const holder = spec.holderIdentity ?? undefined;
  return {
    name: r.data.metadata.name,
    resourceVersion: r.data.metadata.resourceVersion,
    holder: holder === "" ? undefined : holder,
    durationSec: spec.leaseDurationSeconds ?? undefined,
    acquireTimeMs: spec.acquireTime == null ? undefined : parseMicroTime(spec.acquireTime),
    renewTimeMs: spec.renewTime == null ? undefined : parseMicroTime(spec.renewTime),
    transitions: spec.leaseTransitions ?? 0,
  };
}

/** An error answer, described from its Status body when it has one. */
function failure(what: string, status: number, body: unknown): Error {
  const s = statusSchema.safeParse(body);
  const detail = s.success ? `${s.data.reason ?? "?"}: ${s.data.message ?? ""}` : typeof body === "string" ? body.slice(0, 200) : "no Status body";
  const hint = status === 401 || status === 403 ? " (the service account needs get, create and update on leases: deploy/k8s/rbac.yaml)" : "";
  return new Error(`${what}: HTTP ${status}: ${detail}${hint}`);
}

/** A Lease name from a prefix and a key: lower case, [a-z0-9-], at most 63 characters (a DNS-1123 label). */
export function leaseName(prefix: string, key: string): string {
  const clean = (s: string): string => s.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").replace(/^-+|-+$/g, "");
  const k = clean(key);
  const p = clean(prefix).slice(0, Math.max(1, 62 - k.length)).replace(/-+$/, "");
  return `${p}-${k}`.slice(0, 63).replace(/-+$/, "");
}

export interface HttpLeaseApiOptions {
  /** https://host:port of the API server (http:// only for tests). */
  baseUrl: string;
  namespace: string;
  /** The bearer token, read on each request (a function so a rotated token file is picked up). */
  token: () => string;
  /** PEM of the CA that signed the API server's certificate. */
  ca?: string | undefined;
  /** Per request. */
  timeoutMs: number;
  /** The fetch to use (tests); default undici's, with the CA. */
  fetch?: typeof undiciFetch;
}

export class HttpLeaseApi implements LeaseApi {
  readonly describe: string;
  private readonly fetchFn: typeof undiciFetch;
  private readonly dispatcher: Agent | undefined;

  constructor(private readonly o: HttpLeaseApiOptions) {
    this.describe = `${o.baseUrl} namespace ${o.namespace}`;
    this.dispatcher = o.ca === undefined ? undefined : new Agent({ connect: { ca: o.ca } });
    this.fetchFn = o.fetch ?? undiciFetch;
  }

  private path(name?: string): string {
    const base = `${this.o.baseUrl.replace(/\/+$/, "")}/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.o.namespace)}/leases`;
    return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
  }

  private async call(method: "GET" | "POST" | "PUT", url: string, body?: unknown): Promise<{ status: number; body: unknown; dateMs: number | undefined }> {
    let res: Awaited<ReturnType<typeof undiciFetch>>;
    let text: string;
    try {
      res = await this.fetchFn(url, {
        method,
        headers: { authorization: `Bearer ${this.o.token()}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(this.dispatcher === undefined ? {} : { dispatcher: this.dispatcher }),
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      // fetch says only "fetch failed": the cause (ECONNREFUSED, a certificate problem, the timeout) is the news.
      const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
      throw new Error(`${method} ${url}: ${e instanceof Error ? e.message : String(e)}${cause}`, { cause: e });
    }
    let parsed: unknown = text;
    try {
      parsed = text === "" ? undefined : (JSON.parse(text) as unknown);
    } catch {
      // Kept as text: described in the error.
    }
    const date = res.headers.get("date");
    const dateMs = date === null ? undefined : Date.parse(date);
    return { status: res.status, body: parsed, dateMs: dateMs === undefined || Number.isNaN(dateMs) ? undefined : dateMs };
  }

  private bodyOf(name: string, spec: LeaseWrite, resourceVersion?: string): unknown {
    return {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name, namespace: this.o.namespace, ...(resourceVersion === undefined ? {} : { resourceVersion }), labels: { "app.kubernetes.io/managed-by": "pm-market-maker" } },
      spec: {
        holderIdentity: spec.holder,
        leaseDurationSeconds: spec.durationSec,
        acquireTime: microTime(spec.acquireTimeMs),
        renewTime: microTime(spec.renewTimeMs),
        leaseTransitions: spec.transitions,
      },
    };
  }

  async get(name: string): Promise<LeaseRead> {
    const what = `GET lease ${name}`;
    const r = await this.call("GET", this.path(name));
    if (r.status === 404) return { lease: undefined, serverNowMs: r.dateMs };
    if (r.status !== 200) throw failure(what, r.status, r.body);
    return { lease: recordOf(r.body, what), serverNowMs: r.dateMs };
  }

  async create(name: string, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    const what = `create lease ${name}`;
    const r = await this.call("POST", this.path(), this.bodyOf(name, spec));
    if (r.status === 409) return "conflict";
    if (r.status !== 201 && r.status !== 200) throw failure(what, r.status, r.body);
    return recordOf(r.body, what);
  }

  async update(current: LeaseRecord, spec: LeaseWrite): Promise<LeaseRecord | "conflict"> {
    const what = `update lease ${current.name}`;
    const r = await this.call("PUT", this.path(current.name), this.bodyOf(current.name, spec, current.resourceVersion));
    if (r.status === 409 || r.status === 404) return "conflict";
    if (r.status !== 200) throw failure(what, r.status, r.body);
    return recordOf(r.body, what);
  }
}

/** Where an in-cluster client finds the API server and its credentials; a string is the problem. */
export interface InClusterSource {
  env: Record<string, string | undefined>;
  /** Reads a file of the service-account directory (default: from disk). */
  readFile?: (path: string) => string;
  dir?: string;
}

export interface InClusterTarget {
  baseUrl: string;
  token: () => string;
  ca: string;
  /** The pod's namespace (the service account's namespace file). */
  namespace: string | undefined;
}

/**
 * The API server and credentials of the pod: KUBERNETES_SERVICE_HOST/PORT and the service-account
 * files. A string names what is missing (the daemon refuses to start with it).
 */
export function inClusterTarget(src: InClusterSource): InClusterTarget | string {
  const read = src.readFile ?? ((p: string) => readFileSync(p, "utf8"));
  const dir = src.dir ?? SERVICE_ACCOUNT_DIR;
  const host = src.env["KUBERNETES_SERVICE_HOST"];
  const port = src.env["KUBERNETES_SERVICE_PORT"];
  if (host === undefined || host === "" || port === undefined || port === "") {
    return "shard.lease needs the Kubernetes API server: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not in a pod?)";
  }
  if (!/^\d{1,5}$/.test(port)) return `KUBERNETES_SERVICE_PORT ${JSON.stringify(port)} is not a port number`;
  const readOrProblem = (file: string): string | { problem: string } => {
    try {
      return read(`${dir}/${file}`);
    } catch (e) {
      return { problem: `shard.lease: cannot read ${dir}/${file} (is a service account token mounted? automountServiceAccountToken): ${e instanceof Error ? e.message : String(e)}` };
    }
  };
  const ca = readOrProblem("ca.crt");
  if (typeof ca !== "string") return ca.problem;
  const first = readOrProblem("token");
  if (typeof first !== "string") return first.problem;
  if (first.trim() === "") return `shard.lease: ${dir}/token is empty`;
  let token = first.trim();
  let readAt = Date.now();
  const tokenFn = (): string => {
    if (Date.now() - readAt < TOKEN_REREAD_MS) return token;
    readAt = Date.now();
    const again = readOrProblem("token");
    if (typeof again === "string" && again.trim() !== "") token = again.trim();
    return token;
  };
  const ns = readOrProblem("namespace");
  const namespace = typeof ns === "string" && ns.trim() !== "" ? ns.trim() : undefined;
  const h = host.includes(":") ? `[${host}]` : host;
  return { baseUrl: `https://${h}:${port}`, token: tokenFn, ca, namespace };
}
