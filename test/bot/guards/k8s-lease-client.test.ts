/**
 * The Kubernetes Lease client (src/bot/guards/k8s-lease-client.ts) over a stand-in fetch: the
 * requests it sends (URL, method, bearer token read per request, the Lease body with MicroTimes and
 * the resourceVersion read), how it reads answers (404 none, 409 conflict, a released holder, the
 * Date header as the server's clock), its errors (the Status body's reason, the RBAC hint, a
 * failed connection with its cause, a body that is not a Lease), the lease names, the time format,
 * and the in-cluster settings read from the pod. The same client against a fake API server over
 * HTTP: wallet-lease.test.ts.
 */
import { describe, expect, it } from "vitest";
import { HttpLeaseApi, SERVICE_ACCOUNT_DIR, inClusterTarget, leaseName, microTime, parseMicroTime, type HttpLeaseApiOptions, type LeaseRecord } from "../../../src/bot/guards/k8s-lease-client.js";

const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const BASE = "https://10.96.0.1:443/apis/coordination.k8s.io/v1/namespaces/mm/leases";

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch answering from `answer`, recording each request. */
function fakeFetch(answer: (s: Sent) => { status: number; body?: unknown; date?: string | null } | Error) {
  const sent: Sent[] = [];
  const fetch = ((url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> => {
    const s: Sent = { url, method: init.method, headers: init.headers, body: init.body === undefined ? undefined : JSON.parse(init.body) };
    sent.push(s);
    const a = answer(s);
    if (a instanceof Error) return Promise.reject(a);
    const headers = new Headers();
    const date = a.date === undefined ? new Date(T0).toUTCString() : a.date;
    if (date !== null) headers.set("date", date);
    const text = a.body === undefined ? "" : typeof a.body === "string" ? a.body : JSON.stringify(a.body);
    return Promise.resolve(new Response(a.status === 204 ? null : text, { status: a.status, headers }));
  }) as unknown as HttpLeaseApiOptions["fetch"];
  return { fetch, sent };
}

function api(answer: Parameters<typeof fakeFetch>[0], token: () => string = () => "tok") {
  const f = fakeFetch(answer);
  return { api: new HttpLeaseApi({ baseUrl: "https://10.96.0.1:443/", namespace: "mm", token, timeoutMs: 1_000, fetch: f.fetch }), sent: f.sent };
}

function stored(name: string, spec: Record<string, unknown>, resourceVersion = "7") {
  return { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name, namespace: "mm", resourceVersion }, spec };
}

const WRITE = { holder: "mm-prod-s1", durationSec: 15, acquireTimeMs: T0, renewTimeMs: T0 + 5_000, transitions: 2 };

describe("HttpLeaseApi requests", () => {
  it("GET of one lease: its URL under the namespace, the bearer token, JSON accepted, no body", async () => {
    const { api: a, sent } = api(() => ({ status: 404, body: { kind: "Status", reason: "NotFound" } }));
    await a.get("mm-prod-0xab");
    expect(sent).toEqual([{ url: `${BASE}/mm-prod-0xab`, method: "GET", headers: { authorization: "Bearer tok", accept: "application/json" }, body: undefined }]);
    expect(a.describe).toBe("https://10.96.0.1:443/ namespace mm");
  });

  it("create: POST to the collection with the Lease, MicroTimes and the managed-by label", async () => {
    const { api: a, sent } = api((s) => ({ status: 201, body: { ...(s.body as object), metadata: { ...(s.body as { metadata: object }).metadata, resourceVersion: "101" } } }));
    const r = await a.create("mm-prod-0xab", WRITE);
    expect(sent[0]!.method).toBe("POST");
    expect(sent[0]!.url).toBe(BASE);
    expect(sent[0]!.headers["content-type"]).toBe("application/json");
    expect(sent[0]!.body).toEqual({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "mm-prod-0xab", namespace: "mm", labels: { "app.kubernetes.io/managed-by": "pm-market-maker" } },
      spec: { holderIdentity: "mm-prod-s1", leaseDurationSeconds: 15, acquireTime: "2026-03-01T12:00:00.000000Z", renewTime: "2026-03-01T12:00:05.000000Z", leaseTransitions: 2 },
    });
    expect(r).toEqual({ name: "mm-prod-0xab", resourceVersion: "101", holder: "mm-prod-s1", durationSec: 15, acquireTimeMs: T0, renewTimeMs: T0 + 5_000, transitions: 2 });
  });

  it("update: PUT to the lease carrying the resourceVersion read", async () => {
    const current: LeaseRecord = { name: "mm-prod-0xab", resourceVersion: "41", holder: "mm-prod-s0", durationSec: 15, acquireTimeMs: T0, renewTimeMs: T0, transitions: 1 };
    const { api: a, sent } = api(() => ({ status: 200, body: stored("mm-prod-0xab", { holderIdentity: "mm-prod-s1" }, "42") }));
    const r = await a.update(current, WRITE);
    expect(sent[0]!.method).toBe("PUT");
    expect(sent[0]!.url).toBe(`${BASE}/mm-prod-0xab`);
    expect((sent[0]!.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe("41");
    expect(r).toMatchObject({ resourceVersion: "42", holder: "mm-prod-s1" });
  });

  it("reads the token on every request (a rotated token is used at once)", async () => {
    let token = "first";
    const { api: a, sent } = api(() => ({ status: 404 }), () => token);
    await a.get("x");
    token = "second";
    await a.get("x");
    expect(sent.map((s) => s.headers.authorization)).toEqual(["Bearer first", "Bearer second"]);
  });

  it("escapes the namespace and the name in the URL", async () => {
    const f = fakeFetch(() => ({ status: 404 }));
    const a = new HttpLeaseApi({ baseUrl: "http://h", namespace: "a/b", token: () => "t", timeoutMs: 1_000, fetch: f.fetch });
    await a.get("x y");
    expect(f.sent[0]!.url).toBe("http://h/apis/coordination.k8s.io/v1/namespaces/a%2Fb/leases/x%20y");
  });
});

describe("HttpLeaseApi answers", () => {
  it("GET 404: no lease, with the server's clock from its Date header (whole seconds)", async () => {
    const { api: a } = api(() => ({ status: 404, date: "Sun, 01 Mar 2026 12:00:07 GMT" }));
    expect(await a.get("x")).toEqual({ lease: undefined, serverNowMs: T0 + 7_000 });
  });

  it("no Date header, or an unreadable one: the server's clock is not known", async () => {
    expect((await api(() => ({ status: 404, date: null })).api.get("x")).serverNowMs).toBeUndefined();
    expect((await api(() => ({ status: 404, date: "soon" })).api.get("x")).serverNowMs).toBeUndefined();
  });

  it("a released lease (holder empty) reads as nobody's; a missing spec as no times and 0 transitions", async () => {
    const released = await api(() => ({ status: 200, body: stored("x", { holderIdentity: "", leaseDurationSeconds: 1, renewTime: "2026-03-01T12:00:00.123456Z", leaseTransitions: 3 }) })).api.get("x");
    expect(released.lease).toEqual({ name: "x", resourceVersion: "7", holder: undefined, durationSec: 1, acquireTimeMs: undefined, renewTimeMs: T0 + 123, transitions: 3 });
    const bare = await api(() => ({ status: 200, body: { metadata: { name: "x", resourceVersion: "8" } } })).api.get("x");
    expect(bare.lease).toEqual({ name: "x", resourceVersion: "8", holder: undefined, durationSec: undefined, acquireTimeMs: undefined, renewTimeMs: undefined, transitions: 0 });
  });

  it("409 on create (AlreadyExists) and on update (Conflict), and 404 on update (deleted): conflict, not an error", async () => {
    const current: LeaseRecord = { name: "x", resourceVersion: "1", holder: undefined, durationSec: 15, acquireTimeMs: T0, renewTimeMs: T0, transitions: 0 };
    expect(await api(() => ({ status: 409, body: { kind: "Status", reason: "AlreadyExists" } })).api.create("x", WRITE)).toBe("conflict");
    expect(await api(() => ({ status: 409, body: { kind: "Status", reason: "Conflict" } })).api.update(current, WRITE)).toBe("conflict");
    expect(await api(() => ({ status: 404 })).api.update(current, WRITE)).toBe("conflict");
  });

  it("create answered 200 is taken like 201", async () => {
    expect(await api(() => ({ status: 200, body: stored("x", { holderIdentity: "h" }) })).api.create("x", WRITE)).toMatchObject({ holder: "h" });
  });
});

describe("HttpLeaseApi errors", () => {
  it("another status: what was asked, the status, and the Status body's reason and message", async () => {
    const { api: a } = api(() => ({ status: 500, body: { kind: "Status", reason: "InternalError", message: "etcd timeout", code: 500 } }));
    await expect(a.get("x")).rejects.toThrow("GET lease x: HTTP 500: InternalError: etcd timeout");
  });

  it("401 and 403 name the RBAC the service account needs", async () => {
    await expect(api(() => ({ status: 403, body: { kind: "Status", reason: "Forbidden", message: "no" } })).api.create("x", WRITE)).rejects.toThrow(
      "create lease x: HTTP 403: Forbidden: no (the service account needs get, create and update on leases: deploy/k8s/rbac.yaml)",
    );
  });

  it("an error that is not a Status: its text (cut at 200 characters), or that there was none", async () => {
    await expect(api(() => ({ status: 502, body: "bad gateway" })).api.get("x")).rejects.toThrow("GET lease x: HTTP 502: bad gateway");
    const long = await api(() => ({ status: 502, body: "z".repeat(500) })).api.get("x").catch((e: Error) => e.message);
    expect(long).toBe(`GET lease x: HTTP 502: ${"z".repeat(200)}`);
    await expect(api(() => ({ status: 503 })).api.get("x")).rejects.toThrow("GET lease x: HTTP 503: no Status body");
  });

  it("no answer: the method, the URL, and the cause fetch hides", async () => {
    const err = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 10.96.0.1:443") });
    const e = await api(() => err)
      .api.get("x")
      .then(
        () => new Error("answered"),
        (x: Error) => x,
      );
    expect(e.message).toBe(`GET ${BASE}/x: fetch failed: connect ECONNREFUSED 10.96.0.1:443`);
    expect(e.cause).toBe(err);
  });

  it("a 200 that is not a Lease is refused, naming what is wrong", async () => {
    await expect(api(() => ({ status: 200, body: { hello: "world" } })).api.get("x")).rejects.toThrow(/^GET lease x: the answer is not a Lease: .*metadata/);
    await expect(api(() => ({ status: 200, body: stored("x", { renewTime: "yesterday" }) })).api.get("x")).rejects.toThrow(/RFC 3339/);
    await expect(api(() => ({ status: 200, body: stored("x", { leaseTransitions: -1 }) })).api.get("x")).rejects.toThrow(/the answer is not a Lease/);
  });
});

describe("lease names and times", () => {
  it("leaseName: lower case, runs of other characters as one dash, no dash at either end", () => {
    expect(leaseName("MM.Prod", "0xABC")).toBe("mm-prod-0xabc");
    expect(leaseName("--a__b--", "--k--")).toBe("a-b-k");
  });

  it("leaseName: the prefix is cut, never the key, to fit 63 characters", () => {
    const key = "0x" + "f".repeat(40);
    const name = leaseName("p".repeat(60), key);
    expect(name).toBe(`${"p".repeat(20)}-${key}`);
    expect(name).toHaveLength(63);
    // a key that alone is too long: one character of prefix, the whole cut at 63
    expect(leaseName("abc", "k".repeat(70))).toBe(`a-${"k".repeat(61)}`);
  });

  it("microTime: six fractional digits; parseMicroTime: any digits, Z or an offset, else undefined", () => {
    expect(microTime(T0)).toBe("2026-03-01T12:00:00.000000Z");
    expect(microTime(T0 + 999)).toBe("2026-03-01T12:00:00.999000Z");
    expect(parseMicroTime("2026-03-01T12:00:00.9Z")).toBe(T0 + 900);
    expect(parseMicroTime("2026-03-01T12:00:00.123456789Z")).toBe(T0 + 123);
    expect(parseMicroTime("2026-03-01T10:00:00-02:00")).toBe(T0);
    expect(parseMicroTime("2026-03-01 12:00:00Z")).toBeUndefined();
    expect(parseMicroTime("2026-03-01T12:00:00")).toBeUndefined();
    expect(parseMicroTime("2026-13-45T12:00:00Z")).toBeUndefined();
  });
});

describe("inClusterTarget", () => {
  const files = (over: Record<string, string | undefined> = {}) => {
    const f: Record<string, string | undefined> = { [`${SERVICE_ACCOUNT_DIR}/token`]: "tok\n", [`${SERVICE_ACCOUNT_DIR}/ca.crt`]: "PEM", [`${SERVICE_ACCOUNT_DIR}/namespace`]: "mm\n", ...over };
    return (p: string): string => {
      const v = f[p];
      if (v === undefined) throw new Error(`ENOENT: ${p}`);
      return v;
    };
  };
  const env = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };

  it("reads the service account's directory by default", () => {
    const t = inClusterTarget({ env, readFile: files() });
    expect(t).toMatchObject({ baseUrl: "https://10.96.0.1:443", ca: "PEM", namespace: "mm" });
    expect(typeof t !== "string" && t.token()).toBe("tok");
  });

  it("names what is missing: the port not a number, the CA or token not mounted, an empty token", () => {
    expect(inClusterTarget({ env: { ...env, KUBERNETES_SERVICE_PORT: "https" }, readFile: files() })).toBe('KUBERNETES_SERVICE_PORT "https" is not a port number');
    expect(inClusterTarget({ env: { ...env, KUBERNETES_SERVICE_HOST: "" }, readFile: files() })).toMatch(/KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/);
    expect(inClusterTarget({ env, readFile: files({ [`${SERVICE_ACCOUNT_DIR}/token`]: undefined }) })).toMatch(/cannot read \/var\/run\/secrets\/kubernetes\.io\/serviceaccount\/token \(is a service account token mounted\? automountServiceAccountToken\): ENOENT/);
    expect(inClusterTarget({ env, readFile: files({ [`${SERVICE_ACCOUNT_DIR}/token`]: " \n" }) })).toBe(`shard.lease: ${SERVICE_ACCOUNT_DIR}/token is empty`);
  });

  it("no namespace file (or an empty one): the namespace is left to the config", () => {
    expect(inClusterTarget({ env, readFile: files({ [`${SERVICE_ACCOUNT_DIR}/namespace`]: undefined }) })).toMatchObject({ namespace: undefined });
    expect(inClusterTarget({ env, readFile: files({ [`${SERVICE_ACCOUNT_DIR}/namespace`]: "\n" }) })).toMatchObject({ namespace: undefined });
  });
});
