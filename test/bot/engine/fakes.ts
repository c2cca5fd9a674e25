/**
 * Fakes for the engine's unit tests: a scripted Transport (routes answer by method and path, every
 * request recorded with its virtual time), a client on it, a silent logger, and wire-shaped
 * builders (order records, market rows) that pass the client's schemas.
 */
import { Writable } from "node:stream";
import { createClient, type PartnerClient } from "../../../src/api/index.js";
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from "../../../src/wire/transport.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { createLogger, type Logger } from "../../../src/log/index.js";
import type { MarketSummary, OrderRecord } from "../../../src/wire/index.js";
import { FillLedger, type Fill } from "../../../src/bot/fills/fill-ledger.js";
import { OrderTracker, type TrackerOptions } from "../../../src/bot/orders/order-tracker.js";
import { NOOP_OBSERVER } from "../../../src/bot/observer.js";
import type { SyncContext } from "../../../src/bot/engine/fill-sync.js";

export const API_KEY = "pmk_sim_0123456789abcdef_S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tAB";
export const WALLET = "0x1111111111111111111111111111111111111111";
export const VAULT = "0x2222222222222222222222222222222222222222";
export const T0 = Date.UTC(2026, 5, 1, 12);

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
  at: number;
}

export type Handler = (req: Recorded) => HttpResponse | Error | Promise<HttpResponse | Error>;

export class ScriptedTransport implements Transport {
  readonly requests: Recorded[] = [];
  private readonly routes: { method: string; match: RegExp; handler: Handler }[] = [];

  constructor(private readonly clock: VirtualClock) {}

  /** Later routes win over earlier ones (so a test can override a default). */
  on(method: string, match: RegExp, handler: Handler | HttpResponse): this {
    this.routes.unshift({ method, match, handler: typeof handler === "function" ? handler : () => handler });
    return this;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const rec: Recorded = { method: req.method, path: req.path, body: req.body === undefined ? undefined : JSON.parse(req.body), at: this.clock.now() };
    this.requests.push(rec);
    const r = this.routes.find((x) => x.method === req.method && x.match.test(req.path));
    if (r === undefined) throw new Error(`ScriptedTransport: nothing for ${req.method} ${req.path}`);
    const out = await abortable(Promise.resolve(r.handler(rec)), req.signal);
    if (out instanceof Error) throw out;
    return out;
  }

  count(method: string, match: RegExp): number {
    return this.requests.filter((r) => r.method === method && match.test(r.path)).length;
  }
}

/** As a real transport: an aborted request rejects at once (the handler may still be running). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.reject(new TransportError("request aborted", false, "aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new TransportError("request aborted", true, "aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener("abort", onAbort), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    status,
    headers: { "content-type": "application/json", "x-server-time": String(T0), ...headers },
    body: JSON.stringify(body),
  };
}

export function envelope(status: number, code: string, extra: { retryAfterSec?: number; details?: Record<string, unknown> } = {}, headers: Record<string, string> = {}): HttpResponse {
  return json(status, { status, error: { code, message: code, ...extra } }, headers);
}

export function silentLogger(): Logger {
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  return createLogger({ level: "silent" }, { write: (s: string) => sink.write(s) });
}

export interface ClientHarness {
  clock: VirtualClock;
  transport: ScriptedTransport;
  client: PartnerClient;
}

export function clientHarness(): ClientHarness {
  const clock = new VirtualClock(T0);
  const transport = new ScriptedTransport(clock);
  const client = createClient({ transport, apiKey: API_KEY, clock, rng: new Rng(5), retry: { maxAttempts: 1 } });
  return { clock, transport, client };
}

let ids = 0;

export function orderRecord(over: Partial<OrderRecord> = {}): OrderRecord {
  ids += 1;
  return {
    id: `o${ids}`,
    clientOrderId: null,
    orderHash: `0x${ids.toString(16).padStart(64, "0")}`,
    walletAddress: WALLET,
    marketId: "MKT",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    type: "limit",
    timeInForce: "GTC",
    postOnly: true,
    price: "0.5",
    originalQuantity: "10",
    filledQty: "0",
    remainingQty: "10",
    status: "OPEN",
    expiration: "0",
    createdAt: new Date(T0 - 60_000).toISOString(),
    updatedAt: new Date(T0 - 60_000).toISOString(),
    ...over,
  };
}

export function marketRow(over: Partial<MarketSummary> & { symbol: string }): MarketSummary {
  const iso = new Date(T0).toISOString();
  let n = 0;
  for (const ch of over.symbol) n = (n * 131 + ch.charCodeAt(0)) % 2 ** 47;
  const hex = n.toString(16).padStart(12, "0").slice(-12);
  return {
    id: `00000000-0000-4000-8000-${hex}`,
    eventId: "00000000-0000-4000-8000-000000000001",
    slug: over.symbol.toLowerCase(),
    title: over.symbol,
    groupItemTitle: null,
    conditionId: null,
    questionId: null,
    yesTokenId: "11",
    noTokenId: "12",
    status: "OPEN",
    currentReviewRound: 0,
    outcomeCount: 2,
    outcomeLabels: ["Yes", "No"],
    feeTakerBps: 100,
    tradingWindow: { preMarketStartsAt: null, opensAt: new Date(T0 - 3_600_000).toISOString(), closesAt: new Date(T0 + 3_600_000).toISOString() },
    kickoff: null,
    resolutionWindowHours: null,
    lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt: null },
    payoutNumerators: null,
    officialDataSource: null,
    sourceMatchId: null,
    negRiskEligible: false,
    isNewMarketType: false,
    createdAt: iso,
    updatedAt: iso,
    outcomePrices: [null, null],
    chances: ["0.5", "0.5"],
    vertical: "football",
    marketType: null,
    crypto: null,
    outcomeTokenIds: ["11", "12"],
    ...over,
  };
}

/**
 * A wallet's sync context over a fresh tracker and ledger (instance "t1", session 10 s before T0):
 * every fill applied is recorded in `applied` and added to the ledger; foreign orders go to `onForeign`.
 */
export function syncContext(h: ClientHarness, onForeign: (rec: OrderRecord) => void = () => undefined, trackerOpts: TrackerOptions = {}) {
  const tracker = new OrderTracker(WALLET, trackerOpts);
  const ledger = new FillLedger();
  const applied: Fill[] = [];
  const ctx: SyncContext = {
    wallet: WALLET,
    api: h.client.forWallet(WALLET),
    tracker,
    ledger,
    clock: h.clock,
    log: silentLogger(),
    observer: NOOP_OBSERVER,
    instanceId: "t1",
    sessionStartMs: T0 - 10_000,
    tradePullMarginMs: 1_000,
    track: (ev) => tracker.apply(ev),
    adopt: (rec, ts) => tracker.adopt(rec, ts, h.clock.now()),
    applyFill: (f) => {
      applied.push(f);
      ledger.add(f);
    },
    onForeign: (rec) => {
      onForeign(rec);
      return Promise.resolve();
    },
  };
  return { ctx, tracker, ledger, applied };
}
