import { describe, expect, it } from "vitest";
import { feeConfig, health, notices, platformContracts, platformStatus, readiness, tagsList } from "../../../../src/wire/index.js";
import { putNotice, setFrozen, setReadyCheck } from "../../../../src/sim/http/routes/public-state.js";
import { harness, T0 } from "./harness.js";

describe("platform routes", () => {
  it("GET /health answers {status: ok}", async () => {
    const h = harness();
    const r = await h.get("/health");
    expect(r.status).toBe(200);
    expect(health.parse(r.body)).toEqual({ status: "ok" });
  });

  it("GET /ready is 200 ready, and 503 with the failing check named", async () => {
    const h = harness();
    const r = await h.get("/ready");
    expect(r.status).toBe(200);
    expect(readiness.parse(r.body)).toEqual({ ready: true, checks: { catalogue: true, engine: true } });
    setReadyCheck(h.sim, "engine", false);
    const down = await h.get("/ready");
    expect(down.status).toBe(503);
    expect(readiness.parse(down.body)).toEqual({ ready: false, checks: { catalogue: true, engine: false } });
  });

  it("GET /api/platform/contracts publishes the EIP-712 domain and lower-case addresses from settings", async () => {
    const h = harness();
    const r = await h.get("/api/platform/contracts");
    expect(r.status).toBe(200);
    const c = platformContracts.parse(r.body);
    const s = h.sim.platform.settings;
    expect(c.chainId).toBe(31337);
    expect(c.domain).toEqual({ name: "PartnerExchange", version: "1" });
    expect(c.exchange.binary).toBe(s.contracts.exchange.binary.toLowerCase());
    expect(c.exchange.negRisk).toBe(s.contracts.exchange.negRisk.toLowerCase());
    expect(c.exchange.binary).not.toBe(c.exchange.negRisk);
    expect(c.vaultFactory).toBe(s.contracts.vaultFactory.toLowerCase());
    expect(c.collateral).toBe(s.contracts.collateral.toLowerCase());
    for (const a of [c.exchange.binary, c.exchange.negRisk, c.vaultFactory, c.collateral]) expect(a).toBe(a.toLowerCase());
  });

  it("GET /api/platform/fee-config carries the default taker fee and the 1000 bps cap", async () => {
    const h = harness();
    const r = await h.get("/api/platform/fee-config");
    expect(feeConfig.parse(r.body)).toEqual({ defaultFeeTakerBps: 100, maxFeeRateBps: 1000 });
  });

  it("GET /api/platform/status follows the freeze flag", async () => {
    const h = harness();
    const r = await h.get("/api/platform/status");
    expect(platformStatus.parse(r.body)).toEqual({ frozen: false, reason: null, updatedAt: new Date(T0).toISOString() });
    await h.clock.advance(5_000);
    setFrozen(h.sim, true, "maintenance");
    const frozen = platformStatus.parse((await h.get("/api/platform/status")).body);
    expect(frozen).toEqual({ frozen: true, reason: "maintenance", updatedAt: new Date(T0 + 5_000).toISOString() });
  });

  it("GET /api/platform/notices lists only notices in force now", async () => {
    const h = harness();
    expect(notices.parse((await h.get("/api/platform/notices")).body)).toEqual({ notices: [] });
    putNotice(h.sim, { id: "n1", severity: "warning", title: "Upgrade", message: "Exchange upgrade", startsAtMs: T0, endsAtMs: T0 + 60_000 });
    putNotice(h.sim, { id: "n2", severity: "info", title: "Later", message: "Not yet", startsAtMs: T0 + 30_000, endsAtMs: null });
    const now = notices.parse((await h.get("/api/platform/notices")).body);
    expect(now.notices.map((n) => n.id)).toEqual(["n1"]);
    expect(now.notices[0]).toEqual({
      id: "n1",
      severity: "warning",
      title: "Upgrade",
      message: "Exchange upgrade",
      startsAt: new Date(T0).toISOString(),
      endsAt: new Date(T0 + 60_000).toISOString(),
    });
    await h.clock.advance(60_000);
    expect(notices.parse((await h.get("/api/platform/notices")).body).notices.map((n) => n.id)).toEqual(["n2"]);
  });

  it("GET /api/tags returns the full tag records with isFeatured", async () => {
    const h = harness();
    const r = await h.get("/api/tags");
    const t = tagsList.parse(r.body);
    expect(t.tags.map((x) => [x.slug, x.isFeatured])).toEqual([
      ["football", true],
      ["premier-league", false],
      ["la-liga", false],
    ]);
    expect(t.tags[0]).toEqual({ slug: "football", name: "Football", color: null, iconUrl: null, isFeatured: true });
  });

  it("public routes ignore an API key, even a malformed one", async () => {
    const h = harness();
    const r = await h.get("/api/platform/fee-config", { "x-api-key": "garbage" });
    expect(r.status).toBe(200);
  });
});
