/**
 * The withdrawal routes and their /sim controls (src/sim/http/routes/withdrawals.ts), behind the
 * pipeline: the wallet routes' scopes, the control listing with the desk's config as decimal
 * strings, the status moves (an unknown one 404 with the allowed list), destinations and config
 * updates, and every malformed control body refused with 400 naming the field. The withdrawal
 * flow itself is tested in test/sim/desk/withdrawals.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { withdrawalDesk } from "../../../../src/sim/desk/withdrawals.js";
import { withdrawalControlRoutes, withdrawalRoutes } from "../../../../src/sim/http/routes/withdrawals.js";
import { authHeaders, json, KEYS, makePipeline, req, W1 } from "../helpers.js";

function setup() {
  const { sim, pipeline } = makePipeline([...withdrawalRoutes, ...withdrawalControlRoutes], { rateLimits: false });
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await pipeline.handle(req(method, url, { headers: { "Content-Type": "application/json", ...headers }, ...(body === undefined ? {} : { bodyText: JSON.stringify(body) }) }));
    return { status: r.status, body: json(r) };
  };
  return { sim, call };
}

const DEFAULT_CONFIG = { auto: true, eddThreshold: "10000", fee: "0", coSignMs: 10_000, broadcastMs: 5_000, confirmMs: 30_000 };

describe("withdrawal routes", () => {
  it("mutations need vault:write, reads portfolio:read, all of them a wallet", () => {
    expect(withdrawalRoutes.map((r) => [r.method, r.pattern, r.auth === "public" ? "public" : r.auth.scopes.join("+")])).toEqual([
      ["POST", "/api/withdrawals/request", "vault:write"],
      ["GET", "/api/me/withdrawals", "portfolio:read"],
      ["GET", "/api/me/withdrawals/fee", "portfolio:read"],
      ["GET", "/api/me/withdrawals/deposit-sources", "portfolio:read"],
      ["GET", "/api/me/withdrawals/:id", "portfolio:read"],
      ["POST", "/api/me/withdrawals/:id/cancel", "vault:write"],
      ["POST", "/api/me/vault/deploy/sign", "vault:write"],
      ["POST", "/api/me/vault/deploy/submit", "vault:write"],
      ["POST", "/api/me/vault/emergency", "vault:write"],
    ]);
    for (const r of withdrawalRoutes) expect(r.auth).toMatchObject({ walletRequired: true });
    expect(withdrawalControlRoutes.every((r) => r.auth === "public" && r.pattern.startsWith("/sim/withdrawals"))).toBe(true);
  });

  it("answer the desk for the caller's wallet", async () => {
    const { call } = setup();
    const r = await call("GET", "/api/me/withdrawals/wd-none", undefined, authHeaders(KEYS.mm, W1));
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: "withdrawal_not_found" });
  });
});

describe("GET /sim/withdrawals", () => {
  it("lists every record and the config, amounts as decimal strings", async () => {
    const { call } = setup();
    expect(await call("GET", "/sim/withdrawals")).toEqual({ status: 200, body: { withdrawals: [], config: DEFAULT_CONFIG } });
  });
});

describe("POST /sim/withdrawals/{id}/{move}", () => {
  it("an unknown move is 404 not_found listing the moves", async () => {
    const { call } = setup();
    const r = await call("POST", "/sim/withdrawals/wd-1/approve", {});
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({
      code: "not_found",
      message: 'no withdrawal move "approve"; moves: review, cosign, broadcast, confirm, revert, reject, fail',
      details: { allowed: ["review", "cosign", "broadcast", "confirm", "revert", "reject", "fail"] },
    });
  });

  it("hands a known move to the desk with the reason (an unknown withdrawal is the desk's 404)", async () => {
    const { sim, call } = setup();
    const spy = vi.spyOn(withdrawalDesk(sim), "move");
    const r = await call("POST", "/sim/withdrawals/wd-1/reject", { reason: "sanctions hit" });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("withdrawal_not_found");
    expect(spy).toHaveBeenCalledWith("wd-1", "reject", expect.any(Number), "sanctions hit");
    expect((await call("POST", "/sim/withdrawals/wd-1/fail")).body.error.code).toBe("withdrawal_not_found");
  });

  it.each([
    [{ reason: "" }, "reason"],
    [{ reason: "x".repeat(501) }, "reason"],
    [{ reason: 5 }, "reason"],
    [{ why: "x" }, "why"],
  ])("refuses the body %j with 400 naming the field", async (body, field) => {
    const { call } = setup();
    const r = await call("POST", "/sim/withdrawals/wd-1/fail", body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", details: { field } });
  });
});

describe("POST /sim/withdrawals/destinations", () => {
  it("sets a destination's state, for every wallet or one, and echoes it lower-cased", async () => {
    const { sim, call } = setup();
    const spy = vi.spyOn(withdrawalDesk(sim), "setDestination");
    const dest = "0xABCDEFabcdef0000000000000000000000000001";
    expect(await call("POST", "/sim/withdrawals/destinations", { destination: dest, state: "aml_blocked" })).toEqual({
      status: 200,
      body: { destination: dest.toLowerCase(), state: "aml_blocked", wallet: null },
    });
    expect((await call("POST", "/sim/withdrawals/destinations", { destination: dest, state: "cleared", wallet: W1.toUpperCase().replace("0X", "0x") })).body).toEqual({
      destination: dest.toLowerCase(),
      state: "cleared",
      wallet: W1,
    });
    expect(spy.mock.calls).toEqual([
      [dest, "aml_blocked", undefined],
      [dest, "cleared", W1.toUpperCase().replace("0X", "0x")],
    ]);
  });

  it.each([
    [{ state: "cleared" }, "destination"],
    [{ destination: "0x1234", state: "cleared" }, "destination"],
    [{ destination: "0x1111111111111111111111111111111111111111", state: "blocked" }, "state"],
    [{ destination: "0x1111111111111111111111111111111111111111", state: "new", wallet: "w1" }, "wallet"],
  ])("refuses %j with 400 naming the field", async (body, field) => {
    const { call } = setup();
    const r = await call("POST", "/sim/withdrawals/destinations", body);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ field });
  });
});

describe("POST /sim/withdrawals/config", () => {
  it("changes only the fields given and answers the whole config", async () => {
    const { sim, call } = setup();
    const r = await call("POST", "/sim/withdrawals/config", { auto: false, fee: "1.5", confirmMs: 0 });
    expect(r).toEqual({ status: 200, body: { ...DEFAULT_CONFIG, auto: false, fee: "1.5", confirmMs: 0 } });
    expect(withdrawalDesk(sim).config.fee).toBe(1_500_000n);
    const r2 = await call("POST", "/sim/withdrawals/config", { eddThreshold: "250.000001", coSignMs: 1, broadcastMs: 604_800_000 });
    expect(r2.body).toEqual({ auto: false, eddThreshold: "250.000001", fee: "1.5", coSignMs: 1, broadcastMs: 604_800_000, confirmMs: 0 });
    expect(await call("POST", "/sim/withdrawals/config", {})).toEqual({ status: 200, body: r2.body });
  });

  it.each([
    [{ fee: "-1" }, "fee"],
    [{ fee: "0.0000001" }, "fee"],
    [{ fee: 1 }, "fee"],
    [{ eddThreshold: "lots" }, "eddThreshold"],
    [{ auto: "yes" }, "auto"],
    [{ confirmMs: -1 }, "confirmMs"],
    [{ coSignMs: 1.5 }, "coSignMs"],
    [{ broadcastMs: 604_800_001 }, "broadcastMs"],
    [{ speed: 1 }, "speed"],
  ])("refuses %j with 400 naming the field, changing nothing", async (body, field) => {
    const { call } = setup();
    const r = await call("POST", "/sim/withdrawals/config", body);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ field });
    expect((await call("GET", "/sim/withdrawals")).body.config).toEqual(DEFAULT_CONFIG);
  });
});
