/**
 * Spec 2.8's exception on configs/scenarios/crypto.yaml: "a day whose windows were all VOIDED
 * before ending nests all of them on the list, and its detail returns 404". The fourth day of the
 * BTC series (2026-06-03, two days after the start's) voids every window a minute after it opens.
 * While some of its windows are still ahead the day follows the ordinary rules; once the last one
 * is voided (23:46 UTC) it nests all 96 on status=closed and its detail is 404 event_not_found,
 * while the ordinary days keep their nesting. The generate block's voidedDays is validated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { ValidationError } from "../../../src/core/validation.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { nestedMarkets } from "../../../src/sim/platform/market-json.js";
import { dayAllVoidedBeforeEnd } from "../../../src/sim/platform/updown.js";
import { bootLibrary, type Library } from "./library-harness.js";
import { T0, type Json } from "./harness.js";

const VOIDED_DAY = "btc-up-down-15m-day-2";
const DAY_BEFORE = "btc-up-down-15m-day-1";
const HOUR = 3_600_000;
let lib: Library;
beforeAll(async () => {
  lib = await bootLibrary("crypto");
});
afterAll(async () => {
  await lib.close();
});

async function ok(path: string): Promise<Json> {
  const r = await lib.send(path);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  return r.body;
}

const find = (page: Json, slug: string): Json => (page.events as Json[]).find((e) => e.slug === slug);

describe("crypto.yaml: the all-VOIDED day (2.8 exception)", () => {
  it("before any of its windows is listed the day is on no list (no listed market), and its detail is 404", async () => {
    for (const q of ["/api/events?vertical=crypto", "/api/events?status=closed&vertical=crypto"]) {
      const page = await ok(q);
      expect(find(page, VOIDED_DAY), q).toBeUndefined();
      for (const e of page.events as Json[]) expect((e.markets as Json[]).length, `${q} ${String(e.slug)}`).toBeGreaterThan(0);
    }
    expect((await lib.send(`/api/events/${VOIDED_DAY}`)).status).toBe(404);
  });

  it("half-way through the day: ordinary rules (detail 200 with three settled windows, default list the tradeable ones)", async () => {
    await lib.clock.advance(48 * HOUR); // 2026-06-03T12:00Z
    expect(lib.sim.platform.actionErrors).toEqual([]);
    const detail = await ok(`/api/events/${VOIDED_DAY}`);
    const voided = (detail.markets as Json[]).filter((m) => m.status === "VOIDED");
    expect(voided).toHaveLength(3);
    expect((detail.markets as Json[]).some((m) => m.status === "OPEN" || m.status === "PRE_MARKET")).toBe(true);
    const list = await ok("/api/events?vertical=crypto");
    const day = find(list, VOIDED_DAY);
    expect(day).toBeDefined();
    for (const m of day.markets as Json[]) expect(["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"]).toContain(m.status);
  });

  it("once every window is voided: all 96 nested on status=closed, the detail 404; other days unchanged", async () => {
    await lib.clock.advance(13 * HOUR); // 2026-06-04T01:00Z
    const closed = await ok("/api/events?status=closed&vertical=crypto");
    const day = find(closed, VOIDED_DAY);
    expect(day, "the voided day is on the closed list").toBeDefined();
    expect(day.totalMarketCount).toBe(96);
    expect(day.openMarketCount).toBe(0);
    const windows = day.markets as Json[];
    expect(windows).toHaveLength(96);
    for (const w of windows) {
      expect(w.status).toBe("VOIDED");
      expect(Date.parse(String(w.lifecycle.voidedAt))).toBeLessThan(Date.parse(String(w.tradingWindow.closesAt)));
    }
    const r = await lib.send(`/api/events/${VOIDED_DAY}`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("event_not_found");
    expect(find(await ok("/api/events?vertical=crypto"), VOIDED_DAY)).toBeUndefined();

    // the day before settled normally: at most three settled windows on the list, detail served
    const before = find(closed, DAY_BEFORE);
    expect(before.markets).toHaveLength(3);
    expect((await lib.send(`/api/events/${DAY_BEFORE}`)).status).toBe(200);

    // the windows stay readable through the series route
    const series = await ok("/api/crypto-series/btc-up-down-15m/windows?state=all&from=2026-06-03T00:00:00Z&to=2026-06-03T23:59:59Z");
    const ofDay = (series.windows as Json[]).filter((w) => String(w.tradingWindow.opensAt).startsWith("2026-06-03"));
    expect(ofDay).toHaveLength(96);
    expect(ofDay.every((w) => w.status === "VOIDED")).toBe(true);
    expect(T0).toBe(Date.UTC(2026, 5, 1, 12));
  });

  it("a day with one window resolved, or voided after it ended, is no exception", () => {
    const text = 'start: "2026-06-01T12:00:00Z"\ngenerate:\n  - { kind: updown, asset: ETH, days: [-1, 1] }\n';
    const sim = new Simulator(parseScenario(text, "t.yaml"), { clock: new VirtualClock(T0), flow: false }); // not started: no scheduled action runs
    const cat = sim.platform.catalogue;
    const past = cat.eventBySlug("eth-up-down-15m-day-minus-1")!;
    const future = cat.eventBySlug("eth-up-down-15m-day-1")!;
    // yesterday's windows voided now, after they ended: not the exception
    for (const id of past.marketIds) expect(cat.transition(id, "void").ok).toBe(true);
    expect(dayAllVoidedBeforeEnd(cat, past)).toBe(false);
    expect(nestedMarkets(cat, past, "closed")).toHaveLength(3);
    // tomorrow's voided before they end, but one resolved: not the exception, until it too is voided
    const [firstId, ...rest] = future.marketIds;
    for (const id of rest) expect(cat.transition(id, "void").ok).toBe(true);
    expect(cat.transition(firstId!, "resolve", { payoutNumerators: [1, 0] }).ok).toBe(true);
    expect(dayAllVoidedBeforeEnd(cat, future)).toBe(false);
    const other = new Simulator(parseScenario(text, "t.yaml"), { clock: new VirtualClock(T0), flow: false });
    const cat2 = other.platform.catalogue;
    const future2 = cat2.eventBySlug("eth-up-down-15m-day-1")!;
    for (const id of future2.marketIds) expect(cat2.transition(id, "void").ok).toBe(true);
    expect(dayAllVoidedBeforeEnd(cat2, future2)).toBe(true);
    expect(nestedMarkets(cat2, future2, "closed")).toHaveLength(96);
    expect(nestedMarkets(cat2, future2, "list")).toHaveLength(96);
  });
});

describe("updown voidedDays validation", () => {
  it("a voided day must be one of days", () => {
    const text = "generate:\n  - { kind: updown, asset: BTC, days: [0, 1], voidedDays: [3] }\n";
    let issues: string[] = [];
    try {
      parseScenario(text, "t.yaml");
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues = err.issues.map((i) => `${i.path}: ${i.message}`);
    }
    expect(issues).toEqual(["generate[0].voidedDays[0]: day 3 is not one of days [0, 1]"]);
  });
});
