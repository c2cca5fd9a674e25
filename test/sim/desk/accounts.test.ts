/**
 * The simple wallet reads of src/sim/desk/accounts.ts: the portfolio (collateral and positions as
 * decimal strings, the lower-case vault), the fixed fee tier, auto-redeem and deposit-limit answers,
 * and the always-empty cursor list with its query checks (limit a positive integer, before an
 * ISO-8601 date-time or epoch ms, any cursor refused, other parameters ignored).
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { autoRedeem, depositLimits, emptyList, feeTier, portfolio } from "../../../src/sim/desk/accounts.js";
import { grantShares } from "../../../src/sim/desk/genesis.js";
import { simWith, T0, W1, W4 } from "../http/helpers.js";
import { u } from "./harness.js";

function world() {
  const sim = simWith(new VirtualClock(T0));
  return { sim, vault: (w: string) => sim.platform.wallets.vaultInfo(w, T0).vaultAddress.toLowerCase() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
const body = (a: { body: unknown }): any => a.body;

describe("portfolio", () => {
  it("shows collateral and positions as decimal strings, with locked shares and the average price", () => {
    const { sim, vault } = world();
    grantShares(sim.engine, W1, "TST", 0, u("10"), u("0.55"));
    sim.engine.place({ wallet: W1, marketId: "TST", outcome: 0, side: "SELL", price: u("0.9"), quantity: u("4") });
    const tokenId = sim.market("TST")!.outcomeTokenIds[0];
    const a = portfolio(sim.platform, sim.engine, W1, T0);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      walletAddress: W1,
      vaultAddress: vault(W1),
      collateral: { total: "1000", locked: "0", available: "1000" },
      positions: [{ marketId: "TST", tokenId, outcome: 0, quantity: "10", locked: "4", avgPrice: "0.55" }],
    });
    expect(body(a).vaultAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(body(a).vaultAddress).not.toBe(W1);
  });

  it("a wallet without funds has zero collateral and no positions", () => {
    const { sim, vault } = world();
    expect(portfolio(sim.platform, sim.engine, W4, T0).body).toEqual({
      walletAddress: W4,
      vaultAddress: vault(W4),
      collateral: { total: "0", locked: "0", available: "0" },
      positions: [],
    });
  });
});

describe("fixed answers", () => {
  it("fee tier: standard with a multiplier of 1", () => {
    expect(feeTier(W1)).toEqual({ status: 200, body: { walletAddress: W1, tier: "standard", takerFeeMultiplier: "1" } });
  });

  it("auto-redeem: off", () => {
    expect(autoRedeem(W1)).toEqual({ status: 200, body: { walletAddress: W1, enabled: false } });
  });

  it("deposit limits: none", () => {
    expect(depositLimits(W1)).toEqual({ status: 200, body: { walletAddress: W1, daily: null, weekly: null, monthly: null } });
  });
});

describe("emptyList", () => {
  it("answers an empty page under the key, with a null cursor when paged", () => {
    expect(emptyList(W1, "events", {})).toEqual({ status: 200, body: { walletAddress: W1, events: [], nextCursor: null } });
    expect(emptyList(W1, "sources", {}, false)).toEqual({ status: 200, body: { walletAddress: W1, sources: [] } });
  });

  it("accepts a positive limit (large values too), before as an ISO-8601 date-time or epoch ms, and ignores other parameters", () => {
    for (const q of [{ limit: "1" }, { limit: "999999999" }, { before: "2026-06-01T12:00:00Z" }, { before: "2026-06-01T12:00:00.250+02:00" }, { before: "1780315200000" }, { kind: "payout" }]) {
      expect([q, emptyList(W1, "events", q).status]).toEqual([q, 200]);
    }
  });

  it("refuses a limit that is not a positive integer, naming the field", () => {
    for (const limit of ["0", "-1", "abc", "1.5", "1234567890"]) {
      const a = emptyList(W1, "events", { limit });
      expect([limit, a.status, body(a).error.code, body(a).error.details.field]).toEqual([limit, 400, "invalid_request", "limit"]);
    }
    expect(body(emptyList(W1, "events", { limit: "0" })).error.message).toMatch(/limit >= 1/);
  });

  it("refuses any cursor: none is ever issued", () => {
    const a = emptyList(W1, "events", { cursor: "abc" });
    expect(a).toEqual({
      status: 400,
      body: { status: 400, error: { code: "invalid_request", message: "cursor is not a cursor of this endpoint", details: { fields: ["cursor"], field: "cursor" } } },
    });
  });

  it("refuses a before that is neither a date-time nor epoch ms, or is not a real date, as every list does (a bare date too)", () => {
    for (const before of ["yesterday", "2026-13-45", "12:00", "2026-06-01 12:00", "2026-06-01", "-5"]) {
      const a = emptyList(W1, "events", { before });
      expect([before, a.status, body(a).error.details.field]).toEqual([before, 400, "before"]);
    }
    expect(body(emptyList(W1, "events", { before: "x" })).error.message).toBe("before must be an ISO-8601 date-time or epoch milliseconds");
  });

  it("takes URLSearchParams as well as a record", () => {
    expect(emptyList(W1, "events", new URLSearchParams("limit=5")).status).toBe(200);
    expect(emptyList(W1, "events", new URLSearchParams("limit=0")).status).toBe(400);
  });
});
