/**
 * The assumptions `mm conform` checks (conform/checks.ts), each run against scripted answers (the
 * run against the simulator is test/conform/conform.test.ts): the standard error envelope checked
 * field by field, the headers, the events list's caps and first-page counters, the schemas, the
 * all-VOIDED Up/Down day of spec 2.8, the key probes; each answering confirmed, contradicted with
 * what the platform did, or unobservable with why, and sending only the requests it names.
 */
import { describe, expect, it } from "vitest";
import { CHECKS, type CheckResult, type ConformContext, type Probe, type ProbeOptions } from "../../src/conform/checks.js";

const NO_SUCH = "mm-conform-no-such-slug-7f3a";

function answer(status: number, json?: unknown, headers: Record<string, string> = {}): Probe {
  return { status, headers, text: json === undefined ? "" : JSON.stringify(json), json };
}
const text = (status: number, body: string): Probe => ({ status, headers: {}, text: body, json: undefined });
const envelope = (status: number, code: string, error: Record<string, unknown> = {}, headers: Record<string, string> = {}): Probe =>
  answer(status, { status, error: { code, message: "m", ...error } }, headers);

type Route = (path: string, opts: ProbeOptions) => Probe | undefined;

/** A context answering from `route` (404 text otherwise), recording every request. */
function context(route: Route, over: Partial<ConformContext> = {}) {
  const sent: { path: string; opts: ProbeOptions }[] = [];
  const ctx: ConformContext = {
    get: (path, opts = {}) => {
      sent.push({ path, opts });
      return Promise.resolve(route(path, opts) ?? text(404, "Not Found"));
    },
    hasKey: false,
    keyPrefixEnv: undefined,
    wallet: undefined,
    memo: new Map(),
    ...over,
  };
  return { ctx, sent };
}

const check = (id: string) => {
  const c = CHECKS.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no check ${id}`);
  return c;
};
async function verdict(id: string, route: Route, over: Partial<ConformContext> = {}): Promise<CheckResult> {
  return check(id).run(context(route, over).ctx);
}
const confirmed = (detail = ""): CheckResult => ({ verdict: "confirmed", detail });
const contradicted = (detail: string): CheckResult => ({ verdict: "contradicted", detail });
const unobservable = (detail: string): CheckResult => ({ verdict: "unobservable", detail });

describe("the checks", () => {
  it("each state an assumption and its source, under an id of their own", () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
    for (const c of CHECKS) {
      expect(c.assumption.length, c.id).toBeGreaterThan(10);
      expect(c.source, c.id).toMatch(/spec|spec-gaps/);
    }
  });

  it("none throws on a platform that answers everything with a plain 404", async () => {
    for (const c of CHECKS) {
      const r = await c.run(context(() => undefined, { hasKey: true, keyPrefixEnv: "pmk_sim_" }).ctx);
      expect(["confirmed", "contradicted", "unobservable"], c.id).toContain(r.verdict);
    }
  });
});

describe("the error envelope", () => {
  const at = (p: Probe) => verdict("market-not-found", (path) => (path === `/api/markets/${NO_SUCH}` ? p : undefined));

  it("is confirmed with the status, code and message, and a trace id matching X-Trace-Id", async () => {
    expect(await at(envelope(404, "market_not_found"))).toEqual(confirmed());
    expect(await at(envelope(404, "market_not_found", { trace_id: "abc" }, { "x-trace-id": "abc" }))).toEqual(confirmed());
    expect(await at(envelope(404, "market_not_found", { trace_id: "abc" }))).toEqual(confirmed());
  });

  it("is contradicted field by field", async () => {
    expect(await at(envelope(500, "internal"))).toEqual(contradicted(`expected HTTP 404 market_not_found, got HTTP 500 {"status":500,"error":{"code":"internal","message":"m"}}`));
    expect(await at(text(404, "Not Found"))).toEqual(contradicted("expected the {status, error: {code, message}} envelope, got HTTP 404 Not Found"));
    expect(await at(answer(404, { status: 404, error: "market_not_found" }))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^expected the \{status, error/) });
    expect(await at(answer(404, { status: 400, error: { code: "market_not_found", message: "m" } }))).toEqual(contradicted("envelope status 400, HTTP 404"));
    expect(await at(envelope(404, "not_found"))).toEqual(contradicted('expected code market_not_found, got "not_found"'));
    expect(await at(envelope(404, "market_not_found", { message: 7 }))).toEqual(contradicted("error.message is not a string"));
    expect(await at(envelope(404, "market_not_found", { trace_id: "abc" }, { "x-trace-id": "xyz" }))).toEqual(contradicted("error.trace_id abc differs from X-Trace-Id xyz"));
  });

  it("quotes at most 160 characters of a body, its whitespace collapsed", async () => {
    const r = await verdict("health", () => text(503, `down\n\n   for  maintenance ${"x".repeat(300)}`));
    expect(r).toEqual(contradicted(`HTTP 503 down for maintenance ${"x".repeat(160 - "down for maintenance ".length)}`));
    expect(await verdict("health", () => answer(200, { ok: true }))).toEqual(confirmed());
  });
});

describe("headers", () => {
  const all = { "x-api-version": "2026-01-01", "x-server-time": "1767225600000", "x-request-id": "r1" };

  it("common headers: on a listing and on an error, X-Server-Time in milliseconds", async () => {
    expect(await verdict("common-headers", () => answer(200, {}, all))).toEqual(confirmed());
    const { "x-request-id": _, ...noId } = all;
    expect(await verdict("common-headers", (p) => answer(p.startsWith("/api/events/") ? 404 : 200, {}, p.startsWith("/api/events/") ? noId : all))).toEqual(
      contradicted(`missing x-request-id on /api/events/${NO_SUCH} (HTTP 404)`),
    );
    expect(await verdict("common-headers", () => answer(200, {}, { ...all, "x-server-time": "1767225600" }))).toEqual(contradicted('X-Server-Time "1767225600" is not a millisecond epoch'));
  });

  it("X-API-Version: a date, or unobservable without one", async () => {
    expect(await verdict("api-version-date", () => answer(200, {}, { "x-api-version": "2026-01-01" }))).toEqual(confirmed("2026-01-01"));
    expect(await verdict("api-version-date", () => answer(200, {}, { "x-api-version": "latest" }))).toEqual(contradicted('X-API-Version "latest"'));
    expect(await verdict("api-version-date", () => answer(200, {}))).toEqual(unobservable("no X-API-Version header"));
  });

  it("rate-limit headers: all three, the reset in delta-seconds", async () => {
    const rl = (reset?: string) => () => answer(200, {}, { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "59", ...(reset === undefined ? {} : { "x-ratelimit-reset": reset }) });
    expect(await verdict("ratelimit-headers", rl("30"))).toEqual(confirmed("limit 60, reset 30s"));
    expect(await verdict("ratelimit-headers", rl("3600"))).toEqual(confirmed("limit 60, reset 3600s"));
    expect(await verdict("ratelimit-headers", rl("1767225600"))).toEqual(contradicted('X-RateLimit-Reset "1767225600" is not delta-seconds'));
    expect(await verdict("ratelimit-headers", rl("-1"))).toEqual(contradicted('X-RateLimit-Reset "-1" is not delta-seconds'));
    expect(await verdict("ratelimit-headers", rl())).toEqual(contradicted("missing X-RateLimit-* (got limit=60, remaining=59, reset=undefined)"));
  });
});

describe("listings and their schemas", () => {
  it("the markets page: rows of the schema and a boolean hasMore", async () => {
    expect(await verdict("markets-page", () => answer(200, { markets: [], hasMore: false }))).toEqual(confirmed());
    expect(await verdict("markets-page", () => answer(200, { markets: [] }))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^hasMore: /) });
    expect(await verdict("markets-page", () => answer(200, [1]))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^\(root\): /) });
    expect(await verdict("markets-page", () => text(502, "bad gateway"))).toEqual(contradicted("HTTP 502 bad gateway"));
  });

  it("the ohlc probe uses the first market listed, once for every check, and wants details.allowed", async () => {
    const { ctx, sent } = context((p) =>
      p === "/api/markets?limit=1" ? answer(200, { markets: [{ symbol: "A B/C" }] }) : p.includes("/ohlc") ? envelope(400, "invalid_interval", { details: { allowed: ["1m"] } }) : undefined,
    );
    expect(await check("ohlc-invalid-interval").run(ctx)).toEqual(confirmed());
    expect(await check("ohlc-invalid-interval").run(ctx)).toEqual(confirmed());
    expect(sent.map((s) => s.path)).toEqual(["/api/markets?limit=1", "/api/markets/A%20B%2FC/ohlc?interval=mm-conform-bogus", "/api/markets/A%20B%2FC/ohlc?interval=mm-conform-bogus"]);
    const noDetails = (p: string) => (p === "/api/markets?limit=1" ? answer(200, { markets: [{ symbol: "S" }] }) : envelope(400, "invalid_interval"));
    expect(await verdict("ohlc-invalid-interval", noDetails)).toEqual(contradicted("error.details.allowed is not an array"));
    expect(await verdict("ohlc-invalid-interval", () => answer(200, { markets: [] }))).toEqual(unobservable("no market listed to probe"));
  });

  it("the events list is capped at 100 with X-Events-Window-Capped, limit=500 included", async () => {
    const events = (n: number, capped?: string) => () => answer(200, { events: Array.from({ length: n }, (_, i) => ({ i })) }, capped === undefined ? {} : { "x-events-window-capped": capped });
    expect(await verdict("events-window-capped", events(3, "100"))).toEqual(confirmed("3 events"));
    expect(await verdict("events-window-capped", events(101, "100"))).toEqual(contradicted("101 events in one response"));
    expect(await verdict("events-window-capped", events(3))).toEqual(contradicted("X-Events-Window-Capped undefined"));
    expect(await verdict("events-limit-over-100", events(100, "100"))).toEqual(confirmed());
    expect(await verdict("events-limit-over-100", events(100))).toEqual(contradicted("no X-Events-Window-Capped: 100 on limit=500"));
    expect(await verdict("events-limit-over-100", () => envelope(400, "invalid_limit"))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^HTTP 400 /) });
  });

  it("the first events page carries the counters, the second does not", async () => {
    const pages = (first: Record<string, unknown>, second: Record<string, unknown>) => (p: string) => (p.includes("page=1") ? answer(200, { events: [], ...first }) : answer(200, { events: [], ...second }));
    const { ctx, sent } = context(pages({ total: 5, openMarketCount: 3 }, {}));
    expect(await check("events-first-page-totals").run(ctx)).toEqual(confirmed("total 5"));
    expect(sent.map((s) => s.path)).toEqual(["/api/events?page=1&limit=1", "/api/events?page=2&limit=1"]);
    expect(await verdict("events-first-page-totals", pages({ total: 5 }, { total: 5, totalMarketCount: 9 }))).toEqual(contradicted("page 2 carries total, totalMarketCount"));
    expect(await verdict("events-first-page-totals", pages({}, {}))).toEqual(unobservable("no total on the first page (the spec allows it when not computable in time)"));
    expect(await verdict("events-first-page-totals", pages({ total: 1 }, {}))).toEqual(unobservable("total 1: too few events for a second page"));
  });

  it("bad events queries: a limit that is not digits, offset and cursor, page with a window, 21 tags", async () => {
    expect(await verdict("events-invalid-limit", () => envelope(400, "invalid_limit"))).toEqual(confirmed());
    expect(await verdict("events-invalid-limit", () => envelope(400, "invalid_limit", { details: { max: 100 } }))).toEqual(contradicted("details.max is present"));
    expect(await verdict("events-offset-refused", () => text(400, ""))).toEqual(confirmed("offset, cursor probed"));
    expect(await verdict("events-offset-refused", (p) => text(p.includes("cursor") ? 200 : 400, ""))).toEqual(contradicted("cursor: HTTP 200"));
    expect(await verdict("events-ambiguous-pagination", (p) => (p === "/api/events?from=0&to=10&page=1" ? envelope(400, "ambiguous_pagination") : undefined))).toEqual(confirmed());
    const { ctx, sent } = context(() => envelope(400, "too_many_tag"));
    expect(await check("events-too-many-values").run(ctx)).toEqual(confirmed());
    const tags = new URLSearchParams(sent[0]!.path.split("?")[1]).get("tag")!.split(",");
    expect(new Set(tags).size).toBe(21);
  });

  it("upcoming: the entries, a wide window capped, to before from refused", async () => {
    expect(await verdict("upcoming", () => answer(200, { upcoming: [] }))).toEqual(unobservable("no announcement in the default window: the entry fields cannot be seen"));
    expect(await verdict("upcoming", () => answer(200, { upcoming: [{ bogus: true }] }))).toMatchObject({ verdict: "contradicted" });
    const window = (wide: Probe) => (p: string) => (p.includes("2028-12-31") ? wide : p === "/api/upcoming?from=2027-01-02&to=2027-01-01" ? envelope(400, "invalid_request") : undefined);
    expect(await verdict("upcoming-window", window(answer(200, { upcoming: [] })))).toEqual(confirmed());
    expect(await verdict("upcoming-window", window(text(400, "window too wide")))).toEqual(contradicted("a 1095-day window: HTTP 400 window too wide"));
  });

  it("challenges: the envelope, and every row with the keys of docs/spec-gaps.md", async () => {
    const row = { id: "c1", marketId: "m", marketSymbol: "M", challenger: "0x1", proposedOutcome: 0, reason: "r", bond: "1", status: "OPEN", createdAt: "t", resolvedAt: null };
    expect(await verdict("challenges-page", () => answer(200, { challenges: [], nextCursor: null }))).toEqual(confirmed("empty page: the envelope only"));
    expect(await verdict("challenges-page", () => answer(200, { challenges: [row, row], nextCursor: null }))).toEqual(confirmed("2 rows"));
    const { bond: _, resolvedAt: __, ...short } = row;
    expect(await verdict("challenges-page", () => answer(200, { challenges: [row, short], nextCursor: null }))).toEqual(contradicted("a challenge row lacks bond, resolvedAt"));
  });

  it("tags, matches and the platform's contracts and fee configuration match their schemas", async () => {
    expect(await verdict("tags", () => answer(200, { tags: [{ slug: "s", name: "n", color: null, iconUrl: null, isFeatured: false }] }))).toEqual(confirmed());
    expect(await verdict("tags", () => answer(200, { tags: [{ slug: "s" }] }))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^tags\.0\.name: /) });
    expect(await verdict("matches-page", () => answer(200, { matches: [] }))).toEqual(confirmed());
    const a = "0x00000000000000000000000000000000000000aa";
    const contracts = { chainId: 8453, domain: { name: "Exchange", version: "1" }, exchange: { binary: a, negRisk: a }, vaultFactory: a, collateral: a };
    const platform = (c: Probe, f: Probe) => (p: string) => (p === "/api/platform/contracts" ? c : p === "/api/platform/fee-config" ? f : undefined);
    expect(await verdict("platform-contracts", platform(answer(200, contracts), answer(200, { defaultFeeTakerBps: 100, maxFeeRateBps: 1000 })))).toEqual(confirmed());
    expect(await verdict("platform-contracts", platform(answer(200, { ...contracts, chainId: 0 }), answer(200, {})))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^contracts: chainId: /) });
    expect(await verdict("platform-contracts", platform(answer(200, contracts), text(500, "boom")))).toEqual(contradicted("fee-config: HTTP 500 boom"));
  });
});

describe("the all-VOIDED Up/Down day (spec 2.8)", () => {
  const window = (voidedAt: string, closesAt: string | null, status = "VOIDED") => ({ status, lifecycle: { voidedAt }, tradingWindow: { closesAt } });
  const day = (markets: unknown[], totalMarketCount = markets.length) => ({ slug: "btc-day-3", cryptoSeries: { id: "btc" }, totalMarketCount, markets });
  const closed = (events: unknown[], detail: Probe = envelope(404, "event_not_found")) => (p: string) =>
    p === "/api/events?status=closed&page=1&limit=100" ? answer(200, { events }) : p === "/api/events/btc-day-3" ? detail : undefined;
  const voided = [window("2026-06-03T10:00:00Z", "2026-06-03T10:15:00Z"), window("2026-06-03T10:00:00Z", null)];

  it("is found on the closed list, every window voided before its end, and its detail is 404", async () => {
    expect(await verdict("updown-all-voided-day", closed([{ slug: "other" }, day(voided)]))).toEqual(confirmed());
    expect(await verdict("updown-all-voided-day", closed([day(voided)], answer(200, day(voided))))).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^expected HTTP 404 event_not_found, got HTTP 200/) });
  });

  it("is unobservable without such a day: a window voided at its end, one not voided, windows missing", async () => {
    const none = unobservable("no Up/Down day with every window voided before its end on the first closed page");
    expect(await verdict("updown-all-voided-day", closed([day([window("2026-06-03T10:15:00Z", "2026-06-03T10:15:00Z")])]))).toEqual(none);
    expect(await verdict("updown-all-voided-day", closed([day([voided[0], window("2026-06-03T10:00:00Z", null, "RESOLVED")])]))).toEqual(none);
    expect(await verdict("updown-all-voided-day", closed([day(voided, 3)]))).toEqual(none);
    expect(await verdict("updown-all-voided-day", closed([{ ...day(voided), cryptoSeries: null }]))).toEqual(none);
  });
});

describe("keys", () => {
  it("an unknown key is probed in the given key's prefix and environment, only when there is one", async () => {
    const { ctx, sent } = context(() => envelope(401, "api_key_unknown_key"), { keyPrefixEnv: "pmk_sim_" });
    expect(await check("auth-unknown-key").run(ctx)).toEqual(confirmed());
    expect(sent[0]!.opts.headers).toEqual({ "x-api-key": "pmk_sim_0mmconform0unknown0_0mmconform0secret0" });
    expect(await verdict("auth-unknown-key", () => undefined)).toEqual(unobservable("needs --api-key-file (for the key prefix and environment)"));
  });

  it("no key and a malformed key are refused on a keyed route and ignored on a public one", async () => {
    expect(await verdict("auth-required", (p, o) => (p === "/api/orders/open" && o.headers === undefined ? envelope(401, "auth_required") : undefined))).toEqual(confirmed());
    expect(await verdict("auth-bad-format", (_p, o) => (o.headers?.["x-api-key"] === "not-a-key" ? envelope(401, "api_key_bad_format") : undefined))).toEqual(confirmed());
    expect(await verdict("public-ignores-key", (p, o) => (p === "/api/markets?limit=1" && o.headers?.["x-api-key"] === "not-a-key" ? answer(200, {}) : undefined))).toEqual(confirmed());
    expect(await verdict("public-ignores-key", () => envelope(401, "api_key_bad_format"))).toMatchObject({ verdict: "contradicted" });
  });

  it("the given key is tried on the open orders, and a working key enables the parameter probe", async () => {
    const page = answer(200, { walletAddress: "0x00000000000000000000000000000000000000aa", orders: [], nextCursor: null });
    const { ctx, sent } = context((p, o) => (o.auth === true ? (p.includes("mmConformUnknown") ? envelope(400, "invalid_request") : page) : undefined), { hasKey: true });
    expect(await check("orders-open-undefined-param").run(ctx)).toEqual(unobservable("needs a working key (and --wallet for multi_wallet)"));
    expect(await check("key-accepted").run(ctx)).toEqual(confirmed());
    expect(ctx.memo.get("keyWorks")).toBe(true);
    expect(await check("orders-open-undefined-param").run(ctx)).toEqual(confirmed());
    expect(sent.map((s) => [s.path, s.opts.auth])).toEqual([
      ["/api/orders/open?limit=1", true],
      ["/api/orders/open?mmConformUnknown=1", true],
    ]);
    expect(await verdict("key-accepted", () => undefined)).toEqual(unobservable("no --api-key-file"));
    expect(await verdict("key-accepted", () => envelope(401, "api_key_user_wallet_required"), { hasKey: true })).toEqual(unobservable("multi_wallet key: give --wallet to probe the wallet reads"));
    const refused = context(() => envelope(401, "api_key_revoked"), { hasKey: true });
    expect(await check("key-accepted").run(refused.ctx)).toMatchObject({ verdict: "contradicted", detail: expect.stringMatching(/^HTTP 401 /) });
    expect(refused.ctx.memo.has("keyWorks")).toBe(false);
  });
});
