/**
 * The split / merge / convert routes and their /sim controls (src/sim/http/routes/vault-ops.ts),
 * behind the pipeline: the wallet routes' scopes, the control listing with the config, a pending
 * operation failed by id (the desk's 404 for an unknown one), config updates of only the fields
 * given, and malformed control bodies refused with 400 naming the field. The operations
 * themselves are tested in test/sim/desk/vault-ops.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { vaultOpsDesk } from "../../../../src/sim/desk/vault-ops.js";
import { vaultOpControlRoutes, vaultOpRoutes } from "../../../../src/sim/http/routes/vault-ops.js";
import { authHeaders, json, KEYS, makePipeline, req, W1 } from "../helpers.js";

function setup() {
  const { sim, pipeline } = makePipeline([...vaultOpRoutes, ...vaultOpControlRoutes], { rateLimits: false });
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await pipeline.handle(req(method, url, { headers: { "Content-Type": "application/json", ...headers }, ...(body === undefined ? {} : { bodyText: JSON.stringify(body) }) }));
    return { status: r.status, body: json(r) };
  };
  return { sim, call };
}

const DEFAULT_CONFIG = { confirmMs: 12_000, failNext: 0, failProbability: 0 };

describe("vault operation routes", () => {
  it("requests and unlocks need vault:write, lists portfolio:read, all of them a wallet", () => {
    expect(vaultOpRoutes.map((r) => [r.method, r.pattern, r.auth === "public" ? "public" : r.auth.scopes.join("+")])).toEqual([
      ["POST", "/api/vault/split-signature", "vault:write"],
      ["POST", "/api/vault/merge-signature", "vault:write"],
      ["POST", "/api/vault/convert-signature", "vault:write"],
      ["GET", "/api/me/splits-merges", "portfolio:read"],
      ["GET", "/api/me/splits-merges/unlockable", "portfolio:read"],
      ["POST", "/api/me/splits-merges/:opId/unlock", "vault:write"],
    ]);
    for (const r of vaultOpRoutes) expect(r.auth).toMatchObject({ walletRequired: true });
    expect(vaultOpControlRoutes.map((r) => [r.method, r.pattern, r.auth])).toEqual([
      ["GET", "/sim/vault-ops", "public"],
      ["POST", "/sim/vault-ops/:opId/fail", "public"],
      ["POST", "/sim/vault-ops/config", "public"],
    ]);
  });

  it("hand the lists to the desk for the caller's wallet", async () => {
    const { sim, call } = setup();
    const desk = vaultOpsDesk(sim);
    const list = vi.spyOn(desk, "list");
    const unlockable = vi.spyOn(desk, "unlockable");
    expect((await call("GET", "/api/me/splits-merges?limit=5", undefined, authHeaders(KEYS.mm, W1))).status).toBe(200);
    expect((await call("GET", "/api/me/splits-merges/unlockable", undefined, authHeaders(KEYS.mm, W1))).status).toBe(200);
    expect((list.mock.calls[0]![0] as { wallet: string }).wallet).toBe(W1);
    expect((list.mock.calls[0]![1] as URLSearchParams).get("limit")).toBe("5");
    expect((unlockable.mock.calls[0]![0] as { wallet: string }).wallet).toBe(W1);
  });

  it("refuse a request to a key without vault:write before the desk sees it", async () => {
    const { sim, call } = setup();
    const request = vi.spyOn(vaultOpsDesk(sim), "request");
    for (const kind of ["split", "merge", "convert"]) {
      expect((await call("POST", `/api/vault/${kind}-signature`, {}, authHeaders(KEYS.mm, W1))).status, kind).toBe(403);
    }
    expect(request).not.toHaveBeenCalled();
  });
});

describe("GET /sim/vault-ops", () => {
  it("lists every operation and the config", async () => {
    const { call } = setup();
    expect(await call("GET", "/sim/vault-ops")).toEqual({ status: 200, body: { operations: [], config: DEFAULT_CONFIG } });
  });
});

describe("POST /sim/vault-ops/{opId}/fail", () => {
  it("hands the id and the reason to the desk; an unknown operation is its 404", async () => {
    const { sim, call } = setup();
    const spy = vi.spyOn(vaultOpsDesk(sim), "fail");
    const r = await call("POST", "/sim/vault-ops/op-9/fail", { reason: "reorg" });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: "not_found", details: { opId: "op-9" } });
    expect(spy).toHaveBeenCalledWith("op-9", expect.any(Number), "reorg");
    expect((await call("POST", "/sim/vault-ops/op-9/fail")).status).toBe(404);
  });

  it.each([
    [{ reason: "" }, "reason"],
    [{ reason: "x".repeat(501) }, "reason"],
    [{ reason: null }, "reason"],
    [{ cause: "x" }, "cause"],
  ])("refuses the body %j with 400 naming the field", async (body, field) => {
    const { call } = setup();
    const r = await call("POST", "/sim/vault-ops/op-1/fail", body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", details: { field } });
  });
});

describe("POST /sim/vault-ops/config", () => {
  it("changes only the fields given and answers the whole config", async () => {
    const { sim, call } = setup();
    expect(await call("POST", "/sim/vault-ops/config", { confirmMs: 0, failNext: 2 })).toEqual({ status: 200, body: { confirmMs: 0, failNext: 2, failProbability: 0 } });
    expect(await call("POST", "/sim/vault-ops/config", { failProbability: 0.25 })).toEqual({ status: 200, body: { confirmMs: 0, failNext: 2, failProbability: 0.25 } });
    expect(vaultOpsDesk(sim).config).toEqual({ confirmMs: 0, failNext: 2, failProbability: 0.25 });
    expect((await call("POST", "/sim/vault-ops/config", { confirmMs: 604_800_000, failNext: 1_000_000, failProbability: 1 })).status).toBe(200);
  });

  it.each([
    [{ confirmMs: -1 }, "confirmMs"],
    [{ confirmMs: 604_800_001 }, "confirmMs"],
    [{ confirmMs: 2.5 }, "confirmMs"],
    [{ failNext: -1 }, "failNext"],
    [{ failNext: 1_000_001 }, "failNext"],
    [{ failProbability: 1.01 }, "failProbability"],
    [{ failProbability: "0.5" }, "failProbability"],
    [{ failAll: true }, "failAll"],
  ])("refuses %j with 400 naming the field, changing nothing", async (body, field) => {
    const { call } = setup();
    const r = await call("POST", "/sim/vault-ops/config", body);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ field });
    expect((await call("GET", "/sim/vault-ops")).body.config).toEqual(DEFAULT_CONFIG);
  });
});
