/**
 * Public and partner reads whose shapes the spec does not show (docs/spec-gaps.md, 4.9 search,
 * geo, activity, challenges, partner feeds, 4.3 crypto-series windows): the documented envelopes
 * parse with loose rows, and a missing or mistyped envelope key is refused by name.
 */
import { describe, expect, it } from "vitest";
import {
  activityPage,
  challengesPage,
  complianceGeo,
  cryptoSeriesWindows,
  mmKpis,
  partnerTradesPage,
  reconciliationSnapshot,
  searchAll,
  searchEventsPage,
  searchMatchesPage,
  searchUsersPage,
} from "../../src/wire/public-reads.js";
import { OTHER_WALLET, T0, VAULT, WALLET, exampleEvent } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt } from "./helpers.js";

describe("search", () => {
  it("every kind at once: events typed, matches and users loose rows", () => {
    const value = { events: [exampleEvent()], matches: [{ id: "m1", anything: [1, 2] }], users: [{ username: "quantfox" }], total: 3 };
    expect(expectValid(searchAll, value).total).toBe(3);
    expectInvalidAt(searchAll, { ...value, users: undefined }, "users");
    expectInvalidAt(searchAll, { ...value, total: -1 }, "total");
  });

  it("an event row is checked as an event", () => {
    expectInvalidAt(searchAll, { events: [exampleEvent({ openMarketCount: "1" as never })], matches: [], users: [], total: 1 }, "events[0].openMarketCount");
    expectInvalidAt(searchEventsPage, { events: [{ slug: "x" }], total: 1 }, "events[0].id");
  });

  it("one key on each sub-route, with the total", () => {
    expectValid(searchEventsPage, { events: [], total: 0 });
    expectValid(searchMatchesPage, { matches: [{ id: "m1" }], total: 1 });
    expectValid(searchUsersPage, { users: [], total: 0 });
    expectInvalidAt(searchMatchesPage, { matches: ["m1"], total: 1 }, "matches[0]");
    expectInvalidAt(searchUsersPage, { users: [] }, "total");
  });
});

describe("compliance and crypto series", () => {
  it("geo {blocked, country, region}, the place keys present, possibly null", () => {
    expectValid(complianceGeo, { blocked: false, country: "DE", region: null });
    expectInvalidAt(complianceGeo, { blocked: "no", country: null, region: null }, "blocked");
    expectInvalidAt(complianceGeo, { blocked: true, country: "US" }, "region");
  });

  it("crypto-series windows {windows, hasMore?, total?}", () => {
    expectValid(cryptoSeriesWindows, { windows: [{ symbol: "BTC-UPDOWN-15M-20261120-1800" }] });
    expectValid(cryptoSeriesWindows, { windows: [], hasMore: false, total: 96 });
    expectInvalidAt(cryptoSeriesWindows, { windows: [], total: 1.5 }, "total");
    expectInvalidAt(cryptoSeriesWindows, { windows: [], hasMore: "no" }, "hasMore");
  });
});

describe("activity and challenges", () => {
  it("activity: rows with a type; walletAddress null when only the vault is known", () => {
    expectValid(activityPage, { walletAddress: WALLET, vaultAddress: VAULT, activity: [{ type: "trade", price: "0.55" }], nextCursor: null });
    expectValid(activityPage, { walletAddress: null, vaultAddress: VAULT, activity: [], nextCursor: "c" });
    expectInvalidAt(activityPage, { walletAddress: WALLET, vaultAddress: VAULT, activity: [{ price: "0.55" }], nextCursor: null }, "activity[0].type");
    expect(issueAt(activityPage, { walletAddress: null, vaultAddress: "0x3f", activity: [], nextCursor: null }, "vaultAddress")).toBe("expected a 0x-prefixed 20-byte hex address");
  });

  it("challenges {challenges, nextCursor}", () => {
    expectValid(challengesPage, { challenges: [{ id: "c1" }], nextCursor: null });
    expectInvalidAt(challengesPage, { challenges: [] }, "nextCursor");
  });
});

describe("partner feeds", () => {
  it("trades: rows with an id and a wallet (either case)", () => {
    expectValid(partnerTradesPage, { partnerId: "p1", trades: [{ id: "t1", walletAddress: OTHER_WALLET, price: "0.55" }], nextCursor: null });
    expectInvalidAt(partnerTradesPage, { partnerId: "p1", trades: [{ id: "t1", walletAddress: "w1" }], nextCursor: null }, "trades[0].walletAddress");
    expectInvalidAt(partnerTradesPage, { trades: [], nextCursor: null }, "partnerId");
  });

  it("mm-kpis {partnerId, asOf, wallets}", () => {
    expectValid(mmKpis, { partnerId: "p1", asOf: T0, wallets: [{ walletAddress: WALLET, uptime: "0.99" }] });
    expectInvalidAt(mmKpis, { partnerId: "p1", asOf: "today", wallets: [] }, "asOf");
    expectInvalidAt(mmKpis, { partnerId: "p1", asOf: T0, wallets: [{}] }, "wallets[0].walletAddress");
  });

  it("reconciliation snapshot: each wallet with its vault", () => {
    expectValid(reconciliationSnapshot, { partnerId: "p1", snapshotAt: T0, wallets: [{ walletAddress: WALLET, vaultAddress: VAULT, collateral: "1000" }] });
    expectInvalidAt(reconciliationSnapshot, { partnerId: "p1", snapshotAt: T0, wallets: [{ walletAddress: WALLET }] }, "wallets[0].vaultAddress");
  });
});
