/**
 * Public reads beyond markets and events, and the partner feeds (src/api/discovery.ts, spec 4.1,
 * 4.4, 4.5, 4.9) through the client on a scripted transport: each method's path and query (path
 * parameters percent-encoded, unset parameters left out), who is sent (public: no key; the
 * wallet's leaderboard: key and wallet; partner feeds: key, no wallet), and the walks: matches by
 * offset until a short page, cursor pages until nextCursor is null, each row once.
 */
import { describe, expect, it } from "vitest";
import { MATCHES_MAX_LIMIT } from "../../src/api/discovery.js";
import { OTHER_WALLET, T0, VAULT, WALLET, exampleEvent, exampleLeaderboard, exampleMatch, exampleUpcoming } from "../wire/fixtures.js";
import { collect, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const matchWithId = (n: number) => exampleMatch({ id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}` });

describe("matches (4.1)", () => {
  it("list sends limit and offset only when given; get percent-encodes the slug", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { matches: [] }), json(200, { matches: [] }), json(200, exampleMatch()));
    await settle(clock, client.matches.list());
    await settle(clock, client.matches.list({ limit: 50, offset: 100 }));
    expect((await settle(clock, client.matches.get("arg/fra final"))).data.slug).toBe("fifa-wc-2026-final-arg-fra");
    expect(transport.paths()).toEqual(["GET /api/matches", "GET /api/matches?limit=50&offset=100", "GET /api/matches/arg%2Ffra%20final"]);
    expect(transport.requests.every((r) => r.headers["x-api-key"] === undefined)).toBe(true);
  });

  it("iterate steps the offset by the rows served until a short page, each match once", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { matches: [matchWithId(1), matchWithId(2)] }), json(200, { matches: [matchWithId(2), matchWithId(3)] }), json(200, { matches: [matchWithId(4)] }));
    const ids = (await settle(clock, collect(client.matches.iterate({ limit: 2 })))).map((m) => m.id.slice(-1));
    expect(ids).toEqual(["1", "2", "3", "4"]);
    expect(transport.paths()).toEqual(["GET /api/matches?limit=2&offset=0", "GET /api/matches?limit=2&offset=2", "GET /api/matches?limit=2&offset=4"]);
  });

  it("iterate asks for the largest page (500) by default and stops on an empty page", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { matches: [] }));
    expect(await settle(clock, collect(client.matches.iterate()))).toEqual([]);
    expect(MATCHES_MAX_LIMIT).toBe(500);
    expect(transport.paths()).toEqual(["GET /api/matches?limit=500&offset=0"]);
  });
});

describe("leaderboard (4.4)", () => {
  it("anonymous on the client: no key, no wallet; the query as given", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleLeaderboard({ me: null })));
    await settle(clock, client.leaderboard.page({ period: "week", sort: "volume", search: "0xab", limit: 10 }));
    expect(transport.paths()).toEqual(["GET /api/leaderboard?period=week&sort=volume&search=0xab&limit=10"]);
    expect(transport.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(transport.requests[0]!.headers["x-user-wallet"]).toBeUndefined();
  });

  it("on a wallet view: the key and the wallet are sent, so `me` is the caller's row", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleLeaderboard()));
    const r = await settle(clock, client.forWallet(WALLET).leaderboard.page());
    expect(r.data.me?.vaultAddress).toBe(VAULT);
    expect(transport.requests[0]!.headers["x-api-key"]).toBeDefined();
    expect(transport.requests[0]!.headers["x-user-wallet"]).toBe(WALLET);
  });

  it("pages follow nextCursor until null; a repeated cursor ends the walk with an error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleLeaderboard({ nextCursor: "p2" })), json(200, exampleLeaderboard({ nextCursor: null })));
    expect(await settle(clock, collect(client.leaderboard.pages({ period: "all" })))).toHaveLength(2);
    expect(transport.paths()).toEqual(["GET /api/leaderboard?period=all", "GET /api/leaderboard?period=all&cursor=p2"]);

    const loop = harness();
    loop.transport.enqueue(json(200, exampleLeaderboard({ nextCursor: "p2" })), json(200, exampleLeaderboard({ nextCursor: "p2" })));
    const error = await rejectionOf(loop.clock, collect(loop.client.leaderboard.pages()));
    expect((error as Error).message).toContain("nextCursor repeats an earlier cursor");
  });
});

describe("upcoming, search, geo (4.5, 4.9)", () => {
  it("upcoming sends from and to when given", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleUpcoming()), json(200, { upcoming: [] }));
    await settle(clock, client.upcoming.list());
    await settle(clock, client.upcoming.list({ from: "2026-07-01T00:00:00Z", to: "2026-07-31T00:00:00Z" }));
    expect(transport.paths()).toEqual(["GET /api/upcoming", "GET /api/upcoming?from=2026-07-01T00%3A00%3A00Z&to=2026-07-31T00%3A00%3A00Z"]);
  });

  it("search: the four routes with q, limit and offset", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      json(200, { events: [exampleEvent()], matches: [], users: [], total: 1 }),
      json(200, { events: [], total: 0 }),
      json(200, { matches: [], total: 0 }),
      json(200, { users: [{ username: "quantfox" }], total: 1 }),
    );
    expect((await settle(clock, client.search.all({ q: "arg fra" }))).data.total).toBe(1);
    await settle(clock, client.search.events({ q: "arg", limit: 5, offset: 10 }));
    await settle(clock, client.search.matches());
    expect((await settle(clock, client.search.users({ q: "quant" }))).data.users).toEqual([{ username: "quantfox" }]);
    expect(transport.paths()).toEqual(["GET /api/search?q=arg+fra", "GET /api/search/events?q=arg&limit=5&offset=10", "GET /api/search/matches", "GET /api/search/users?q=quant"]);
  });

  it("geo: GET /api/compliance/geo, refused when the answer lacks a key", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { blocked: false, country: "DE", region: null }), json(200, { blocked: false, country: "DE" }));
    expect((await settle(clock, client.compliance.geo())).data.country).toBe("DE");
    const error = await rejectionOf(clock, client.compliance.geo());
    expect(error).toMatchObject({ source: "schema", issues: [{ path: "region" }] });
  });
});

describe("activity and challenges (4.9)", () => {
  it("activity pages by wallet and by vault, and the walk yields every row of every page", async () => {
    const { clock, transport, client } = harness();
    const page = (rows: string[], nextCursor: string | null) => json(200, { walletAddress: WALLET, vaultAddress: VAULT, activity: rows.map((type) => ({ type })), nextCursor });
    transport.enqueue(page(["trade"], null), page([], null), page(["trade", "split"], "a2"), page(["merge"], null));
    await settle(clock, client.users.activityPage(WALLET, { limit: 5 }));
    await settle(clock, client.users.activityByVaultPage(VAULT, { cursor: "c1" }));
    const rows = await settle(clock, collect(client.users.activity(WALLET)));
    expect(rows.map((r) => r.type)).toEqual(["trade", "split", "merge"]);
    expect(transport.paths()).toEqual([
      `GET /api/users/${WALLET}/activity?limit=5`,
      `GET /api/users/by-vault/${VAULT}/activity?cursor=c1`,
      `GET /api/users/${WALLET}/activity`,
      `GET /api/users/${WALLET}/activity?cursor=a2`,
    ]);
  });

  it("activityByVault walks the vault's pages", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { walletAddress: null, vaultAddress: VAULT, activity: [{ type: "deposit" }], nextCursor: null }));
    expect(await settle(clock, collect(client.users.activityByVault(VAULT)))).toEqual([{ type: "deposit" }]);
    expect(transport.paths()).toEqual([`GET /api/users/by-vault/${VAULT}/activity`]);
  });

  it("challenges: all, and one market's, following the cursor", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { challenges: [{ id: "c1" }], nextCursor: "n" }), json(200, { challenges: [{ id: "c2" }], nextCursor: null }), json(200, { challenges: [{ id: "c3" }], nextCursor: null }));
    expect(await settle(clock, collect(client.challenges.all({ limit: 1 })))).toEqual([{ id: "c1" }, { id: "c2" }]);
    expect(await settle(clock, collect(client.challenges.ofMarket("ARG FRA")))).toEqual([{ id: "c3" }]);
    expect(transport.paths()).toEqual(["GET /api/challenges?limit=1", "GET /api/challenges?cursor=n&limit=1", "GET /api/markets/ARG%20FRA/challenges"]);
  });
});

describe("partner feeds (4.9)", () => {
  it("send the key and no wallet header", async () => {
    const { clock, transport, client } = harness({ defaultWallet: WALLET });
    transport.enqueue(
      json(200, { partnerId: "p1", asOf: T0, wallets: [{ walletAddress: WALLET }] }),
      json(200, { partnerId: "p1", snapshotAt: T0, wallets: [{ walletAddress: WALLET, vaultAddress: VAULT }] }),
    );
    await settle(clock, client.partner.mmKpis({ limit: 10 }));
    await settle(clock, client.partner.reconciliationSnapshot());
    expect(transport.paths()).toEqual(["GET /api/v1/partner/mm-kpis?limit=10", "GET /api/v1/partner/reconciliation/snapshot"]);
    for (const r of transport.requests) {
      expect(r.headers["x-api-key"]).toBeDefined();
      expect(r.headers["x-user-wallet"]).toBeUndefined();
    }
  });

  it("trades: each (trade id, wallet) once across pages, wallets compared case-blind", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      json(200, { partnerId: "p1", trades: [{ id: "t1", walletAddress: WALLET }, { id: "t1", walletAddress: OTHER_WALLET }], nextCursor: "n2" }),
      json(200, { partnerId: "p1", trades: [{ id: "t1", walletAddress: WALLET.toUpperCase().replace("0X", "0x") }, { id: "t2", walletAddress: WALLET }], nextCursor: null }),
    );
    const rows = await settle(clock, collect(client.partner.trades({ limit: 2 })));
    expect(rows.map((t) => `${t.id}@${t.walletAddress.slice(0, 6)}`)).toEqual(["t1@0x8ba1", "t1@0xAb58", "t2@0x8ba1"]);
    expect(transport.paths()).toEqual(["GET /api/v1/partner/trades?limit=2", "GET /api/v1/partner/trades?cursor=n2&limit=2"]);
  });
});
