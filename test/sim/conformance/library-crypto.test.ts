/**
 * configs/scenarios/crypto.yaml at 12:00 UTC: an Up/Down series at 15 minutes (spec 2.8:
 * cryptoSeries, one event per UTC day, totalMarketCount counting every window, the nesting rules
 * of the default list, detail and status=closed) and long-dated crypto (2.7 rule, cryptoLongSeries,
 * 2.6 rule 1: list rows keep resolutionCriteria on long-dated crypto only).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsPage, event as eventSchema } from "../../../src/wire/events.js";
import { bootLibrary, type Library } from "./library-harness.js";
import type { Json } from "./harness.js";

let lib: Library;
beforeAll(async () => {
  lib = await bootLibrary("crypto");
});
afterAll(async () => {
  await lib.close();
});

const TODAY = "btc-up-down-15m-day-0";
const YESTERDAY = "btc-up-down-15m-day-minus-1";
const OPEN_SET = ["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"];

async function ok(path: string): Promise<Json> {
  const r = await lib.send(path);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  return r.body;
}

describe("crypto.yaml: Up/Down series (2.8)", () => {
  it("no refused action; the default list nests only the day's tradeable windows, counting all 96", async () => {
    expect(lib.sim.platform.actionErrors).toEqual([]);
    const page = await ok("/api/events?vertical=crypto");
    eventsPage.parse(page);
    const today = (page.events as Json[]).find((e) => e.slug === TODAY);
    expect(today.cryptoSeries).toMatchObject({ id: "btc-up-down-15m", cadenceMinutes: 15 });
    expect(today.totalMarketCount).toBe(96);
    const statuses = (today.markets as Json[]).map((m): string => String(m.status));
    expect(statuses.length).toBeGreaterThan(0);
    for (const s of statuses) expect(OPEN_SET).toContain(s);
    expect(statuses).toContain("OPEN");
    for (const m of today.markets as Json[]) {
      expect(m.crypto).toMatchObject({ productType: "UP_DOWN_WINDOW" });
      expect(m.cryptoWindow).toMatchObject({ seriesId: "btc-up-down-15m" });
      expect(m).not.toHaveProperty("resolutionCriteria");
    }
    const open = (today.markets as Json[]).find((m) => m.status === "OPEN");
    expect(open.cryptoWindow.startsAt).toBe("2026-06-01T12:00:00.000Z");
    expect(open.cryptoWindow.endsAt).toBe("2026-06-01T12:15:00.000Z");
  });

  it("detail nests tradeable, awaiting settlement and the three latest-ending settled windows", async () => {
    await lib.clock.advance(60_000); // 12:01: the 11:45-12:00 window ended, resolves at 12:02
    const e = await ok(`/api/events/${TODAY}`);
    eventSchema.parse(e);
    const by = (s: string[]): Json[] => (e.markets as Json[]).filter((m) => s.includes(String(m.status)));
    const settled = by(["RESOLVED", "VOIDED"]);
    expect(settled).toHaveLength(3);
    expect(settled.map((m): string => String(m.cryptoWindow.endsAt)).sort()).toEqual(["2026-06-01T11:15:00.000Z", "2026-06-01T11:30:00.000Z", "2026-06-01T11:45:00.000Z"]);
    expect(by(["CLOSED"]).map((m): string => String(m.cryptoWindow.endsAt))).toEqual(["2026-06-01T12:00:00.000Z"]);
    expect(by(OPEN_SET).length).toBeGreaterThan(0);
    expect(e.totalMarketCount).toBe(96);
  });

  it("status=closed: a past day nests at most three settled windows", async () => {
    const page = await ok("/api/events?status=closed&vertical=crypto");
    const y = (page.events as Json[]).find((e) => e.slug === YESTERDAY);
    expect(y.totalMarketCount).toBe(96);
    expect(y.markets).toHaveLength(3);
    for (const m of y.markets as Json[]) expect(m.status).toBe("RESOLVED");
    expect((y.markets as Json[]).map((m): string => String(m.cryptoWindow.endsAt)).sort()).toEqual([
      "2026-05-31T23:30:00.000Z",
      "2026-05-31T23:45:00.000Z",
      "2026-06-01T00:00:00.000Z",
    ]);
  });
});

describe("crypto.yaml: GET /api/crypto-series/{id}/windows (4.3)", () => {
  const SERIES = "/api/crypto-series/btc-up-down-15m/windows";
  it("the series' listed unsettled windows, earliest opening first, paged with total and hasMore", async () => {
    const first = await ok(SERIES);
    const total = first.total as number;
    expect(total).toBeGreaterThan(2);
    expect((first.windows as Json[]).length).toBe(Math.min(total, 50));
    for (const w of first.windows as Json[]) {
      expect(w.cryptoWindow).toMatchObject({ seriesId: "btc-up-down-15m" });
      expect(["RESOLVED", "VOIDED"]).not.toContain(w.status);
    }
    const opens = (first.windows as Json[]).map((w): number => Date.parse(String(w.tradingWindow.opensAt)));
    expect([...opens].sort((a, b) => a - b)).toEqual(opens);
    const head = await ok(`${SERIES}?limit=2`);
    expect((head.windows as Json[]).length).toBe(2);
    expect(head.hasMore).toBe(true);
    const rest = await ok(`${SERIES}?offset=2&limit=500`);
    expect((rest.windows as Json[]).length).toBe(total - 2);
    expect(rest.hasMore).toBe(false);
    expect([...(head.windows as Json[]), ...(rest.windows as Json[])].map((w): string => String(w.id))).toEqual((first.windows as Json[]).map((w): string => String(w.id)));
  });

  it("state=all adds the settled windows (500 a page by default); from/to keep the windows overlapping the dates", async () => {
    const unsettled = await ok(`${SERIES}?limit=500`);
    const all = await ok(`${SERIES}?state=all`);
    expect(all.total as number).toBeGreaterThan(unsettled.total as number);
    expect((all.windows as Json[]).some((w) => w.status === "RESOLVED")).toBe(true);
    const day = await ok(`${SERIES}?state=all&from=2026-06-01T00:00:00Z&to=2026-06-01T23:59:59Z`);
    const windows = day.windows as Json[];
    expect(windows.length).toBeGreaterThan(0);
    for (const w of windows) {
      expect(Date.parse(String(w.tradingWindow.opensAt))).toBeLessThanOrEqual(Date.parse("2026-06-01T23:59:59Z"));
      expect(Date.parse(String(w.tradingWindow.closesAt))).toBeGreaterThanOrEqual(Date.parse("2026-06-01T00:00:00Z"));
    }
    expect(day.total as number).toBeLessThan(all.total as number);
  });

  it("an unknown series is 404 crypto_series_not_found", async () => {
    const r = await lib.send("/api/crypto-series/no-such-series/windows");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("crypto_series_not_found");
  });
});

describe("crypto.yaml: long-dated crypto", () => {
  it("the rule in crypto, cryptoSeries null, cryptoLongSeries set, resolutionCriteria kept on list rows", async () => {
    const page = await ok("/api/events?vertical=crypto");
    const e = (page.events as Json[]).find((x) => x.slug === "bitcoin-above-150k-by-december");
    expect(e.cryptoSeries).toBeNull();
    expect(e.cryptoLongSeries).toEqual({ id: "btc-threshold-monthly", period: "2026-12" });
    expect(e.markets[0].crypto).toEqual({ productType: "THRESHOLD_BY_DEADLINE", direction: "ABOVE", targetPrice: "150000", instrumentId: "BTC-USD" });
    expect(e.markets[0].resolutionCriteria).toContain("150000");
    expect(e.markets[0]).not.toHaveProperty("cryptoWindow");
    const plain = await ok("/api/events?vertical=crypto");
    expect((plain.events as Json[]).every((x) => x.match === null)).toBe(true);
  });
});
