/**
 * The client calls added for issue 16 (every path of the spec's endpoint list), each against the
 * simulator in-process: answers validate with the wire schemas, cursor-paged endpoints walk through
 * the shared helpers, and a withdrawal request whose answer is lost is `unknown` and not resent.
 * Matches, upcoming and challenges may answer empty until the scenario library lands.
 */
import { afterEach, describe, expect, it } from "vitest";
import { signWithdrawalRequest } from "../../src/api/index.js";
import { ApiError } from "../../src/api/errors.js";
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from "../../src/wire/transport.js";
import { makeWorld, T0, type World } from "./integration/world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

async function world(): Promise<World> {
  const w = await makeWorld("in-process");
  worlds.push(w);
  return w;
}

async function thrown(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

async function collect<T>(w: World, it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  await w.drive(
    (async () => {
      for await (const x of it) out.push(x);
    })(),
  );
  return out;
}

describe("public reads added for issue 16", () => {
  it("matches, disputable markets, crypto-series windows", async () => {
    const w = await world();
    const c = w.client();
    const matches = await w.drive(c.matches.list({ limit: 10 }));
    expect(Array.isArray(matches.data.matches)).toBe(true);
    const all = await collect(w, c.matches.iterate({ limit: 2 }));
    if (all.length > 0) expect((await w.drive(c.matches.get(all[0]!.slug))).data.id).toBe(all[0]!.id);
    expect(await thrown(w.drive(c.matches.get("no-such-match")))).toMatchObject({ status: 404, code: "match_not_found" });

    w.sim.setMarketStatus("ARS-CHE-ARS", "set_status", { status: "DISPUTED" });
    const disputable = await collect(w, c.markets.iterateDisputable({ limit: 1 }));
    expect(disputable.map((m) => m.symbol)).toContain("ARS-CHE-ARS");

    const series = await w.drive(c.markets.cryptoSeriesWindows("no-such-series", { state: "all", limit: 5 })).catch((e: unknown) => e);
    if (series instanceof ApiError) expect(series).toMatchObject({ status: 404 });
    else expect(Array.isArray((series as { data: { windows: unknown[] } }).data.windows)).toBe(true);
  });

  it("leaderboard anonymous (me null) and for a wallet (me filled); pages follow nextCursor", async () => {
    const w = await world();
    const c = w.client();
    const anon = await w.drive(c.leaderboard.page({ period: "all", limit: 1 }));
    expect(anon.data.me).toBeNull();
    expect(anon.data.total).toBeGreaterThanOrEqual(3);
    const pages = await collect(w, c.leaderboard.pages({ period: "all", limit: 1 }));
    expect(pages.flatMap((p) => p.data.entries)).toHaveLength(anon.data.total);
    const mine = await w.drive(c.forWallet(w.wallets[0]!.address).leaderboard.page({ period: "all" }));
    expect(mine.data.me?.vaultAddress.toLowerCase()).toBe(w.wallets[0]!.vault.toLowerCase());
  });

  it("upcoming, the four search routes and compliance geo", async () => {
    const w = await world();
    const c = w.client();
    expect(Array.isArray((await w.drive(c.upcoming.list({ from: new Date(T0).toISOString() }))).data.upcoming)).toBe(true);
    const all = await w.drive(c.search.all({ q: "arsenal" }));
    expect(all.data.events.length).toBeGreaterThan(0);
    expect((await w.drive(c.search.events({ q: "arsenal", limit: 1 }))).data.events).toHaveLength(1);
    expect(Array.isArray((await w.drive(c.search.matches({ q: "arsenal" }))).data.matches)).toBe(true);
    expect(Array.isArray((await w.drive(c.search.users({ q: "mm" }))).data.users)).toBe(true);
    expect((await w.drive(c.compliance.geo())).data.blocked).toBe(false);
  });

  it("user activity by wallet and by vault, walked through the cursor helper; challenges (two routes)", async () => {
    const w = await world();
    const c = w.client();
    const me = c.forWallet(w.wallets[0]!.address);
    const other = c.forWallet(w.wallets[1]!.address);
    // Two crossing trades between wallets 0 and 1.
    for (const cid of ["a", "b"]) {
      const bid = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.40", quantity: "1", clientOrderId: `bid-${cid}` });
      expect((await w.drive(me.orders.place(bid.body))).outcome).toBe("accepted");
      const ask = await w.order(1, { symbol: "ARS-CHE-ARS", side: "BUY", outcome: 1, price: "0.60", quantity: "1", postOnly: false, clientOrderId: `ask-${cid}` });
      await w.drive(other.orders.place(ask.body));
    }
    const rows = await collect(w, c.users.activity(w.wallets[0]!.address, { limit: 1 }));
    expect(rows).toHaveLength(2);
    const byVault = await collect(w, c.users.activityByVault(w.wallets[0]!.vault, { limit: 1 }));
    expect(byVault).toEqual(rows);
    expect(w.transport.calls("GET", `/api/users/${w.wallets[0]!.address}/activity`).length).toBe(rows.length);

    expect(Array.isArray((await w.drive(c.challenges.page())).data.challenges)).toBe(true);
    expect(await collect(w, c.challenges.ofMarket("ARS-CHE-ARS"))).toEqual(expect.any(Array));
    expect(await thrown(w.drive(c.challenges.marketPage("NOPE")))).toMatchObject({ status: 404, code: "market_not_found" });
  });
});

describe("partner feeds and wallet reads added for issue 16", () => {
  it("partner trades (walked), mm-kpis and the reconciliation snapshot", async () => {
    const w = await world();
    const c = w.client();
    const bid = await w.order(0, { symbol: "ARS-CHE-ARS", price: "0.40", quantity: "1" });
    await w.drive(c.forWallet(w.wallets[0]!.address).orders.place(bid.body));
    const ask = await w.order(1, { symbol: "ARS-CHE-ARS", side: "BUY", outcome: 1, price: "0.60", quantity: "1", postOnly: false });
    await w.drive(c.forWallet(w.wallets[1]!.address).orders.place(ask.body));
    const trades = await collect(w, c.partner.trades({ limit: 1 }));
    expect(trades).toHaveLength(2); // both legs belong to the partner
    expect((await w.drive(c.partner.mmKpis({ limit: 10 }))).data.wallets.length).toBe(3);
    expect((await w.drive(c.partner.reconciliationSnapshot())).data.wallets.length).toBe(3);
  });

  it("portfolio, auto-redeem, balance events, splits-merges (paged) and unlockable", async () => {
    const w = await world();
    const me = w.client().forWallet(w.wallets[0]!.address);
    expect((await w.drive(me.portfolio.portfolio())).data.collateral.total).toBe("10000");
    expect(typeof (await w.drive(me.portfolio.autoRedeem())).data.enabled).toBe("boolean");
    expect(await collect(w, me.portfolio.balanceEvents({ limit: 10 }))).toEqual(expect.any(Array));
    expect(await collect(w, me.portfolio.splitsMerges({ limit: 10 }))).toEqual(expect.any(Array));
    expect(Array.isArray((await w.drive(me.portfolio.unlockable({ limit: 10 }))).data.operations)).toBe(true);
  });

  it("vault writes: unlock of an unknown operation is a rejected 404; an unsigned split/merge/convert body is a rejected 400", async () => {
    const w = await world();
    const key = w.sim.platform.issueKey("demo-mm", ["orders:read", "orders:write", "portfolio:read", "vault:write"]).plaintext;
    const me = w.client({ apiKey: key }).forWallet(w.wallets[0]!.address);
    expect(await w.drive(me.vault.unlock("op-1"))).toMatchObject({ ok: false, status: 404 });
    // Signed flows: test/sim/desk/vault-ops.test.ts.
    const body = { vault: w.wallets[0]!.vault, marketId: "ARS-CHE-ARS", amount: "1", nonce: "1", deadline: "99999999999", signature: "0x00" };
    for (const call of [() => me.vault.splitSignature(body), () => me.vault.mergeSignature(body), () => me.vault.convertSignature(body)]) {
      expect(await w.drive(call())).toMatchObject({ ok: false, status: 400, code: "bad_signature" });
    }
  });
});

/** Passes requests to the simulator, but loses the answer of the first withdrawal request. */
class LosingTransport implements Transport {
  lost = 0;
  sent: string[] = [];
  constructor(private readonly inner: Transport) {}
  async request(req: HttpRequest): Promise<HttpResponse> {
    const res = await this.inner.request(req);
    if (req.path === "/api/withdrawals/request") {
      this.sent.push(req.body ?? "");
      if (this.lost === 0) {
        this.lost++;
        throw new TransportError("socket hang up after the request was written", true, "reset");
      }
    }
    return res;
  }
}

describe("withdrawal requests are never retried blindly (spec 7.4)", () => {
  it("an answer lost after sending is `unknown` after one attempt; resending the same signed body finds the same withdrawal", async () => {
    const w = await world();
    const key = w.sim.platform.issueKey("demo-mm", ["orders:read", "orders:write", "portfolio:read", "vault:write"]).plaintext;
    const losing = new LosingTransport(w.transport);
    const c = w.client({ apiKey: key, transport: losing });
    const me = c.forWallet(w.wallets[0]!.address);
    const contracts = (await w.drive(c.platform.contracts())).data;
    const body = await signWithdrawalRequest(w.wallets[0]!.signer, contracts, {
      vault: w.wallets[0]!.vault,
      destination: w.wallets[0]!.address,
      amount: "12.5",
      nonce: 42n,
      deadline: BigInt(Math.floor(T0 / 1000) + 600),
    });

    const first = await w.drive(me.withdrawals.request(body));
    expect(first.outcome).toBe("unknown");
    expect(first.outcome === "unknown" && first.nonce).toBe("42");
    expect(first.outcome === "unknown" && first.lastError.attempts).toBe(1);
    expect(losing.sent).toHaveLength(1);

    // It was recorded: the list shows it, and the same body answers the same record.
    const listed = await collect(w, me.withdrawals.list());
    expect(listed).toHaveLength(1);
    const again = await w.drive(me.withdrawals.request(body));
    expect(again.outcome === "accepted" && again.withdrawal.id).toBe(listed[0]!.id);
    expect(losing.sent).toEqual([losing.sent[0], losing.sent[0]]);
  });

  it("a 5xx answer to a request is `unknown`, not resent", async () => {
    const w = await world();
    const key = w.sim.platform.issueKey("demo-mm", ["orders:read", "orders:write", "portfolio:read", "vault:write"]).plaintext;
    const c = w.client({ apiKey: key });
    const me = c.forWallet(w.wallets[0]!.address);
    const contracts = (await w.drive(c.platform.contracts())).data;
    const body = await signWithdrawalRequest(w.wallets[0]!.signer, contracts, { vault: w.wallets[0]!.vault, destination: w.wallets[0]!.address, amount: "1", nonce: 1n, deadline: BigInt(Math.floor(T0 / 1000) + 600) });
    w.fault({ route: "POST /api/withdrawals/request", kind: "exchange_unavailable", nextCalls: 1 });
    const r = await w.drive(me.withdrawals.request(body));
    expect(r).toMatchObject({ outcome: "unknown", nonce: "1" });
    expect(w.transport.calls("POST", "/api/withdrawals/request")).toHaveLength(1);
  });
});
