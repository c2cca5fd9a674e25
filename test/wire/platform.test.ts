/**
 * Public platform state (spec 4.9, docs/spec-gaps.md "Platform" and "Response shapes"): the
 * contract registry that builds the EIP-712 domain, fee config, freeze status, notices, health and
 * readiness parse in their documented shapes, and a bad field is refused by name.
 */
import { describe, expect, it } from "vitest";
import { KNOWN_NOTICE_SEVERITIES, feeConfig, health, notice, notices, platformContracts, platformStatus, readiness } from "../../src/wire/platform.js";
import { T0, exampleContracts } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

describe("contract registry", () => {
  it("parses chainId, domain, both exchanges, the vault factory and the collateral", () => {
    const parsed = expectValid(platformContracts, exampleContracts());
    expect(parsed.chainId).toBe(8453);
    expect(parsed.domain).toEqual({ name: "PartnerExchange", version: "1" });
  });

  it("chainId is a positive integer", () => {
    for (const bad of [0, -1, 1.5, "8453"]) expectInvalidAt(platformContracts, { ...exampleContracts(), chainId: bad }, "chainId");
  });

  it("every contract is an address, named by its path", () => {
    expect(issueAt(platformContracts, withPath(exampleContracts(), ["exchange", "binary"], "0x4bfb"), "exchange.binary")).toBe("expected a 0x-prefixed 20-byte hex address");
    expectInvalidAt(platformContracts, withPath(exampleContracts(), ["vaultFactory"], undefined, true), "vaultFactory");
    expectInvalidAt(platformContracts, withPath(exampleContracts(), ["collateral"], null), "collateral");
    expectInvalidAt(platformContracts, withPath(exampleContracts(), ["domain", "version"], 1), "domain.version");
  });
});

describe("fee config and freeze status", () => {
  it("fee config: two non-negative integers in basis points", () => {
    expectValid(feeConfig, { defaultFeeTakerBps: 100, maxFeeRateBps: 1000 });
    expect(issueAt(feeConfig, { defaultFeeTakerBps: -5, maxFeeRateBps: 1000 }, "defaultFeeTakerBps")).toBe("expected an integer >= 0");
    expectInvalidAt(feeConfig, { defaultFeeTakerBps: 100, maxFeeRateBps: "1000" }, "maxFeeRateBps");
  });

  it("status: frozen with a reason, or not frozen with reason null (present)", () => {
    expectValid(platformStatus, { frozen: true, reason: "chain reorg", updatedAt: T0 });
    expectValid(platformStatus, { frozen: false, reason: null, updatedAt: T0 });
    expectInvalidAt(platformStatus, { frozen: false, updatedAt: T0 }, "reason");
    expectInvalidAt(platformStatus, { frozen: "no", reason: null, updatedAt: T0 }, "frozen");
    expect(issueAt(platformStatus, { frozen: false, reason: null, updatedAt: 0 }, "updatedAt")).toBe("expected an ISO-8601 date-time");
  });
});

describe("notices, health, readiness", () => {
  const n = { id: "n1", severity: "warning", title: "Upgrade", message: "Matcher upgrade at 02:00 UTC", startsAt: T0, endsAt: null };

  it("a notice's severity is an open vocabulary: a new one parses", () => {
    expect([...KNOWN_NOTICE_SEVERITIES]).toEqual(["info", "warning", "critical"]);
    expectValid(notices, { notices: [n, { ...n, id: "n2", severity: "maintenance", endsAt: "2026-11-21T02:30:00.000Z" }] });
    expectInvalidAt(notice, { ...n, severity: 3 }, "severity");
  });

  it("a notice needs its start; its end is present, possibly null", () => {
    expectInvalidAt(notices, { notices: [{ ...n, startsAt: null }] }, "notices[0].startsAt");
    expectInvalidAt(notice, withPath(n, ["endsAt"], undefined, true), "endsAt");
  });

  it("health is {status}; readiness is {ready, checks?} with boolean checks", () => {
    expectValid(health, { status: "ok" });
    expectInvalidAt(health, {}, "status");
    expectValid(readiness, { ready: true });
    expectValid(readiness, { ready: false, checks: { engine: true, ws: false } });
    expectInvalidAt(readiness, { ready: false, checks: { ws: "down" } }, "checks.ws");
    expectInvalidAt(readiness, { ready: "yes" }, "ready");
  });
});
