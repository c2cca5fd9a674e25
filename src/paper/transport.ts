/**
 * `PaperTransport`: the daemon's REST seam in paper mode. Public reads (markets, books, trades,
 * events, platform info) go to the real platform's transport; every keyed route (orders, the
 * wallet's reads, vault and withdrawal routes) is answered here from the paper account and never
 * leaves the process (routes.ts). What passes through is observed on the way back:
 *
 *   GET /api/markets, /api/markets/{slug}        market rows: status, outcomes, fee, token ids
 *   GET /api/markets/{symbol}/orderbook          the book, to the exchange model (queues, orders
 *                                                the book moved through fill); the answer the daemon
 *                                                gets shows our resting paper orders in it, as the
 *                                                platform's book would
 *   GET /api/markets/{symbol}/trades             public trades (each id once; trades from before
 *                                                the run are history and fill nothing)
 *   GET /api/platform/contracts                  the EIP-712 domain, for the order hashes
 *
 * Latency: a keyed request waits the model's entry latency before the modelled exchange handles it
 * and the response latency before its answer returns (models/latency.ts, as `mm backtest --engine
 * fast`). Headers: the platform key, when one is configured, goes with the public reads; the
 * daemon's stand-in key and X-User-Wallet never leave.
 */
import type { Clock } from "../core/clock.js";
import { formatMicros, parseMicros, type Micros } from "../core/money.js";
import type { Rng } from "../core/rng.js";
import type { LatencyModel } from "../backtest/models/latency.js";
import { hashOrderStruct, orderDigest, orderDomain, type Address, type OrderStruct, type PlatformContracts } from "../signing/index.js";
import type { HttpRequest, HttpResponse, Transport } from "../wire/transport.js";
import { platformContracts } from "../wire/platform.js";
import type { PlaceBody } from "../wire/requests.js";
import { getHeader } from "../wire/errors.js";
import type { PaperAccount } from "./account.js";
import { answerPaperRoute, isPaperRoute, type RouteAnswer } from "./routes.js";

export interface PaperTransportOptions {
  /** The real platform (FetchTransport live; the simulator's transport in tests). */
  upstream: Transport;
  account: PaperAccount;
  clock: Clock;
  latency: LatencyModel;
  rng: Rng;
  /** The platform key to send with public reads; absent: none is sent. */
  apiKey?: string;
  /** Each wallet's vault address (what /api/me/vault answers). */
  vaultOf: (wallet: string) => string;
  /** Public trades created before this (epoch ms) are history: they fill nothing. Default: now at construction. */
  startMs?: number;
}

type Level = { price: string; quantity: string };

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function micros(v: unknown): Micros | undefined {
  if (typeof v !== "string") return undefined;
  try {
    return parseMicros(v);
  } catch {
    return undefined;
  }
}

export class PaperTransport implements Transport {
  private readonly o: PaperTransportOptions;
  private contracts: PlatformContracts | undefined;
  private readonly startMs: number;
  /** Requests sent to the real platform, by `METHOD /path` (no query). */
  readonly forwarded = new Map<string, number>();
  /** Keyed requests answered here, by `METHOD /path`. */
  readonly answered = new Map<string, number>();
  /** X-Request-Id of the answers made here, counted per transport (runs in one process repeat). */
  private requestCounter = 0;

  constructor(o: PaperTransportOptions) {
    this.o = o;
    this.startMs = o.startMs ?? o.clock.now();
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.path, "http://paper.invalid");
    const path = url.pathname;
    const key = `${req.method} ${path}`;
    if (isPaperRoute(path) || req.method !== "GET") {
      this.answered.set(key, (this.answered.get(key) ?? 0) + 1);
      return this.local(req, path, url.searchParams);
    }
    this.forwarded.set(key, (this.forwarded.get(key) ?? 0) + 1);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      const l = k.toLowerCase();
      if (l !== "x-api-key" && l !== "x-user-wallet") headers[k] = v;
    }
    if (this.o.apiKey !== undefined) headers["x-api-key"] = this.o.apiKey;
    const res = await this.o.upstream.request({ ...req, headers });
    if (res.status !== 200) return res;
    let body: unknown;
    try {
      body = JSON.parse(res.body) as unknown;
    } catch {
      return res;
    }
    const changed = this.observe(path, url.searchParams, body);
    return changed === undefined ? res : { ...res, body: JSON.stringify(changed) };
  }

  private async local(req: HttpRequest, path: string, q: URLSearchParams): Promise<HttpResponse> {
    const clock = this.o.clock;
    const wallet = getHeader(req.headers, "x-user-wallet")?.toLowerCase();
    let answer: RouteAnswer;
    await clock.sleep(this.o.latency.entry(clock.now(), this.o.rng));
    if (wallet === undefined || !/^0x[0-9a-f]{40}$/.test(wallet) || !this.o.account.wallets().includes(wallet)) {
      answer = { status: 403, body: { status: 403, error: { code: "wallet_not_linked", message: "X-User-Wallet is not one of the paper account's wallets" } } };
    } else {
      answer = await answerPaperRoute(
        { account: this.o.account, wallet, vaultOf: this.o.vaultOf, orderHashOf: (b) => this.orderHashOf(b), now: () => clock.now() },
        req.method,
        path,
        q,
        req.body,
        (fn) => Promise.resolve(fn()),
      );
    }
    const at = clock.now();
    await clock.sleep(this.o.latency.response(at, this.o.rng));
    return {
      status: answer.status,
      headers: { "content-type": "application/json", "x-server-time": String(at), "x-request-id": `paper-${++this.requestCounter}`, "x-api-version": "paper" },
      body: JSON.stringify(answer.body),
    };
  }

  // ---- what passes through ---------------------------------------------------------------------

  /** Observe a public answer; returns a changed body (books with our orders) or undefined. */
  private observe(path: string, q: URLSearchParams, body: unknown): unknown {
    const b = record(body);
    if (b === undefined) return undefined;
    if (path === "/api/platform/contracts") {
      const c = platformContracts.safeParse(b);
      if (c.success) this.contracts = c.data;
      return undefined;
    }
    if (path === "/api/markets") {
      if (Array.isArray(b["markets"])) for (const row of b["markets"]) this.observeRow(row);
      return undefined;
    }
    const m = /^\/api\/markets\/([^/]+)(\/orderbook|\/trades)?$/.exec(path);
    if (m === null) return undefined;
    const symbol = decodeURIComponent(m[1]!);
    if (m[2] === undefined) {
      this.observeRow(b);
      return undefined;
    }
    if (m[2] === "/trades") {
      this.observeTrades(symbol, b);
      return undefined;
    }
    return this.observeBook(symbol, Number(q.get("outcome") ?? b["outcome"] ?? 0), b);
  }

  private observeRow(row: unknown): void {
    const r = record(row);
    if (r === undefined || typeof r["symbol"] !== "string" || typeof r["status"] !== "string" || typeof r["outcomeCount"] !== "number") return;
    const count = r["outcomeCount"];
    const ids = Array.isArray(r["outcomeTokenIds"]) ? (r["outcomeTokenIds"] as unknown[]) : count === 2 ? [r["yesTokenId"], r["noTokenId"]] : [];
    this.o.account.observeMarket({
      symbol: r["symbol"],
      status: r["status"],
      outcomeCount: count,
      feeTakerBps: typeof r["feeTakerBps"] === "number" ? r["feeTakerBps"] : 0,
      negRiskEligible: r["negRiskEligible"] === true,
      ...(Array.isArray(r["outcomeLabels"]) && r["outcomeLabels"].every((l) => typeof l === "string") ? { labels: r["outcomeLabels"] } : {}),
      tokenIds: Array.from({ length: count }, (_, i) => (typeof ids[i] === "string" ? ids[i] : undefined)),
    });
  }

  private observeTrades(symbol: string, b: Record<string, unknown>): void {
    const rows = Array.isArray(b["trades"]) ? b["trades"] : [];
    const trades: { id: string; outcome: number; side: "BUY" | "SELL"; price: Micros; quantity: Micros; at: number }[] = [];
    for (const row of rows) {
      const t = record(row);
      if (t === undefined) continue;
      const price = micros(t["price"]);
      const quantity = micros(t["quantity"]);
      const at = typeof t["createdAt"] === "string" ? Date.parse(t["createdAt"]) : Number.NaN;
      const side = t["side"];
      if (typeof t["id"] !== "string" || typeof t["outcome"] !== "number" || (side !== "BUY" && side !== "SELL") || price === undefined || quantity === undefined || Number.isNaN(at)) continue;
      trades.push({ id: t["id"], outcome: t["outcome"], side, price, quantity, at });
    }
    // Oldest first: the queue models take trades in the order they happened (ties by id, so one
    // page is applied in the same order on every run).
    trades.sort((x, y) => x.at - y.at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    for (const t of trades) {
      if (t.at < this.startMs) this.o.account.skipTrade(symbol, t);
      else this.o.account.observeTrade(symbol, t);
    }
  }

  private observeBook(symbol: string, outcome: number, b: Record<string, unknown>): unknown {
    const side = (v: unknown): [Micros, Micros][] | undefined => {
      if (!Array.isArray(v)) return undefined;
      const out: [Micros, Micros][] = [];
      for (const l of v) {
        const r = record(l);
        const p = micros(r?.["price"]);
        const s = micros(r?.["quantity"]);
        if (p === undefined || s === undefined) return undefined;
        out.push([p, s]);
      }
      return out;
    };
    const bids = side(b["bids"]);
    const asks = side(b["asks"]);
    if (bids === undefined || asks === undefined || !Number.isInteger(outcome) || outcome < 0) return undefined;
    this.o.account.observeBook(symbol, outcome, bids, asks);
    return { ...b, ...this.withOurOrders(symbol, outcome, bids, asks) };
  }

  /** The book as the platform would show it: our resting paper orders added to their levels. */
  private withOurOrders(symbol: string, outcome: number, bids: [Micros, Micros][], asks: [Micros, Micros][]): { bids: Level[]; asks: Level[] } {
    const bidMap = new Map<Micros, Micros>(bids);
    const askMap = new Map<Micros, Micros>(asks);
    const add = (m: Map<Micros, Micros>, p: Micros, q: Micros): void => void m.set(p, (m.get(p) ?? 0n) + q);
    const acc = this.o.account;
    for (const o of acc.restingOn(symbol, outcome)) add(o.side === "BUY" ? bidMap : askMap, o.price, o.quantity - o.filled);
    if (acc.markets.get(symbol)?.outcomeCount === 2) {
      // The other outcome of a binary market shows on this book at the complement.
      for (const o of acc.restingOn(symbol, 1 - outcome)) add(o.side === "BUY" ? askMap : bidMap, 1_000_000n - o.price, o.quantity - o.filled);
    }
    const levels = (m: Map<Micros, Micros>, desc: boolean): Level[] =>
      [...m]
        .filter(([, q]) => q > 0n)
        .sort(([a], [c]) => (desc ? (a > c ? -1 : a < c ? 1 : 0) : a < c ? -1 : a > c ? 1 : 0))
        .map(([p, q]) => ({ price: formatMicros(p), quantity: formatMicros(q) }));
    return { bids: levels(bidMap, true), asks: levels(askMap, false) };
  }

  private orderHashOf(body: PlaceBody): string {
    const o = body.order;
    const s: OrderStruct = {
      salt: BigInt(o.salt),
      maker: o.maker.toLowerCase() as Address,
      signer: o.signer.toLowerCase() as Address,
      taker: o.taker.toLowerCase() as Address,
      tokenId: BigInt(o.tokenId),
      makerAmount: BigInt(o.makerAmount),
      takerAmount: BigInt(o.takerAmount),
      expiration: BigInt(o.expiration),
      feeRateBps: o.feeRateBps,
      side: o.side,
      signatureType: o.signatureType,
    };
    const market = body.marketId === undefined ? undefined : this.o.account.markets.get(body.marketId);
    if (this.contracts !== undefined && market !== undefined) {
      try {
        return orderDigest(s, orderDomain(this.contracts, market)).toLowerCase();
      } catch {
        // An unusable domain: the struct hash still names the order uniquely.
      }
    }
    return hashOrderStruct(s).toLowerCase();
  }
}

