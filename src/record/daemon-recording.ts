/**
 * Recording from inside the running daemon (`record:` in the daemon config, docs/backtest.md
 * "Recording from inside the daemon"): one data set with what the platform publishes for the
 * daemon's markets and what the daemon itself did.
 *
 * Three hooks, none threaded through the daemon's constructors:
 *
 * - `wrapTransport` (DaemonDeps.wrapTransport, beneath the daemon's client): every REST request
 *   and its answer. A placement (`/api/orders/place`, each entry of `place-batch`) or a cancel
 *   (`cancel`, each id of `cancel-batch`, `cancel-all`) is an `order` row at the time it leaves,
 *   with the fields of the request body named in docs/backtest.md and nothing else (never the
 *   signed order, the signature, a header, the API key); every request is a `latency` row when its
 *   answer (or failure: status 0) comes back: send to answer in ms, route template and class.
 * - `observer` (DaemonDeps.observer): the platform's answers as the daemon understood them
 *   (`order_placed` / `order_rejected` / `order_unknown` / `order_cancelled` -> `ack` rows) and
 *   every new fill of the fill ledger (`fill` -> `fill` rows, with role and fee).
 * - `attach(daemon)` after the daemon started: the market-data recorder (recorder.ts) over the
 *   daemon's own client, so its reads pass the daemon's rate gate and count in the same IP
 *   buckets. It takes only what the daemon's pollers leave of each bucket: its rate is the share
 *   they do not use (`1 - tuning.bookBudgetShare` / `tradeBudgetShare` of the budget), and it
 *   skips a turn unless the bucket's window still holds, beyond its own read, what the daemon's
 *   poller will take until the window ends (its rate times the time left), so the pollers that
 *   feed quoting never find the window spent by the recorder. Order requests use other buckets.
 *
 * The hooks never do I/O inline: rows are buffered and written every `flushMs` (default 100 ms)
 * by a timer on the daemon's clock, and on close. A kill loses at most that buffer and the line
 * being written; the data set stays readable (the writer's guarantees, src/data/writer.ts).
 * A write failure is logged and counted, never thrown into the daemon.
 */
import type { Daemon, DaemonDeps } from "../bot/engine/daemon.js";
import type { EngineEvent, EngineObserver } from "../bot/observer.js";
import type { Clock } from "../core/clock.js";
import { parseMicros, type Micros } from "../core/money.js";
import { getHeader } from "../wire/errors.js";
import type { Config } from "../config/index.js";
import type { RecordKind, RecordSettings } from "../config/record-section.js";
import { DataSetWriter, type NewEvent, type SealInfo } from "../data/index.js";
import type { Logger } from "../log/index.js";
import { routeTemplate } from "../metrics/index.js";
import { requestClass, type RateGate } from "../ratelimit/index.js";
import type { HttpRequest, HttpResponse, Transport } from "../wire/transport.js";
import { Recorder } from "./recorder.js";

const BOOK_PATH = "/api/markets/x/orderbook";
const TRADES_PATH = "/api/markets/x/trades";
/** Placed orders remembered for their cancels' rows (oldest forgotten first). */
const MAX_REMEMBERED = 50_000;

export interface DaemonRecordingOptions {
  settings: RecordSettings;
  config: Pick<Config, "wallets" | "platform">;
  clock: Clock;
  log: Logger;
  /** Buffered rows are written this often. Default 100 ms. */
  flushMs?: number;
}

interface Placed {
  clientOrderId: string;
  symbol: string;
  outcome: number;
  side: "BUY" | "SELL";
  price: Micros;
  quantity: Micros;
  postOnly: boolean;
}

type Daemonish = Pick<Daemon, "client" | "gate" | "registry" | "tuning">;

export class DaemonRecording {
  readonly counters = { orders: 0, acks: 0, fills: 0, latencies: 0, written: 0, writeErrors: 0, unreadableBodies: 0 };
  readonly observer: EngineObserver;
  /** The market-data recorder, once attached (undefined when books and trades are both left out). */
  recorder: Recorder | undefined;
  private readonly include: ReadonlySet<RecordKind>;
  private readonly names = new Map<string, string>();
  private readonly placed = new Map<string, Placed>();
  private buffer: NewEvent[] = [];
  private flushTimer: ReturnType<Clock["setTimeout"]> | undefined;
  private closed = false;

  private constructor(
    private readonly o: DaemonRecordingOptions,
    readonly writer: DataSetWriter,
  ) {
    this.include = new Set(o.settings.include);
    for (const w of o.config.wallets) this.names.set(w.address.toLowerCase(), w.name);
    this.observer = { onEvent: (e) => this.onEvent(e) };
  }

  /** Open (or resume) the data set of `settings.dir`; a segment a kill left unsealed is sealed first (`writer.sealed`). */
  static async open(o: DaemonRecordingOptions): Promise<DaemonRecording> {
    const s = o.settings;
    const writer = await DataSetWriter.open({ dir: s.dir, clock: o.clock, rotateBytes: Math.round(s.rotateMb * 1024 * 1024), rotateMs: s.rotateMinutes * 60_000 });
    return new DaemonRecording(o, writer);
  }

  /** What to give createDaemon (next to the caller's own observers). */
  deps(): Required<Pick<DaemonDeps, "wrapTransport">> & { observer: EngineObserver } {
    return { wrapTransport: (t) => this.wrapTransport(t), observer: this.observer };
  }

  /** The transport with every own-order request and every request's latency recorded. */
  wrapTransport(inner: Transport): Transport {
    const clock = this.o.clock;
    const orders = this.include.has("orders");
    const latencies = this.include.has("latencies");
    return {
      request: async (req: HttpRequest): Promise<HttpResponse> => {
        const sent = clock.now();
        if (orders && req.method === "POST") this.orderRows(req, sent);
        let status = 0;
        let serverTs = 0;
        try {
          const res = await inner.request(req);
          status = res.status;
          serverTs = serverTimeOf(res.headers["x-server-time"]);
          return res;
        } finally {
          if (latencies) {
            const now = clock.now();
            this.push({
              kind: "latency",
              ts: now,
              method: req.method,
              route: routeTemplate(req.path),
              routeClass: requestClass(req.method, req.path),
              status,
              latencyMs: Math.max(0, Math.round(now - sent)),
              serverTs,
            });
            this.counters.latencies += 1;
          }
        }
      },
    };
  }

  /**
   * Start recording market data over the daemon's client (call after `daemon.start()`): the
   * configured markets, or the markets the daemon quotes now.
   */
  async attach(daemon: Daemonish): Promise<void> {
    const books = this.include.has("books");
    const trades = this.include.has("trades");
    if (!books && !trades) return;
    const symbols = this.o.settings.markets ?? daemon.registry.selected().map((e) => e.row.symbol);
    if (symbols.length === 0) {
      this.o.log.warn("record: the daemon quotes no market and record.markets lists none: no market data recorded");
      return;
    }
    const margin = this.o.config.platform.rateSafetyMargin;
    // The environment's numbers (platform.rateLimits), as the daemon's own pollers take them.
    const bookPerMin = daemon.gate.table.ipPerMinute("GET", BOOK_PATH);
    const tradePerMin = daemon.gate.table.ipPerMinute("GET", TRADES_PATH);
    const bookDaemonPerMin = bookPerMin * (1 - margin) * daemon.tuning.bookBudgetShare;
    const tradeDaemonPerMin = tradePerMin * (1 - margin) * daemon.tuning.tradeBudgetShare;
    const room = roomBeyond(daemon.gate, { [BOOK_PATH]: bookDaemonPerMin, [TRADES_PATH]: tradeDaemonPerMin });
    const rec = new Recorder({
      client: daemon.client,
      room,
      clock: this.o.clock,
      sink: { append: (e) => this.push(e) },
      log: this.o.log.child({ component: "record" }),
      selection: { slugs: [], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 0, walletMarkets: symbols },
      bookBudgetPerMin: books ? Math.max(1, Math.floor(bookPerMin * (1 - margin) * (1 - daemon.tuning.bookBudgetShare))) : 0,
      tradeBudgetPerMin: trades ? Math.max(1, Math.floor(tradePerMin * (1 - margin) * (1 - daemon.tuning.tradeBudgetShare))) : 0,
    });
    try {
      await rec.start();
      this.recorder = rec;
    } catch (e) {
      rec.stop();
      this.o.log.warn({ err: e instanceof Error ? e.message : String(e), markets: symbols }, "record: market data not recorded (own orders still are)");
    }
  }

  /** Stop the market-data reads (before the daemon stops: its gate closes then). */
  stopMarketData(): void {
    this.recorder?.stop();
  }

  /** Write what is buffered, seal the hot segment, stop recording. */
  close(): SealInfo | undefined {
    this.stopMarketData();
    this.flush();
    this.closed = true;
    this.o.clock.clearTimeout(this.flushTimer);
    return this.writer.close();
  }

  /** Write what is buffered now. */
  flush(): void {
    this.o.clock.clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const rows = this.buffer;
    this.buffer = [];
    for (const e of rows) {
      try {
        this.writer.append(e);
        this.counters.written += 1;
      } catch (err) {
        this.counters.writeErrors += 1;
        if (this.counters.writeErrors === 1) this.o.log.error({ err: err instanceof Error ? err.message : String(err), dir: this.o.settings.dir }, "record: write failed (rows dropped; counted)");
      }
    }
  }

  private push(e: NewEvent): void {
    if (this.closed) return;
    this.buffer.push(e);
    if (this.flushTimer === undefined) this.flushTimer = this.o.clock.setTimeout(() => this.flush(), this.o.flushMs ?? 100);
  }

  private wallet(address: string | undefined): string {
    if (address === undefined) return "";
    return this.names.get(address.toLowerCase()) ?? address.toLowerCase();
  }

  // ---- order requests (from the request bodies) ------------------------------------------------

  private orderRows(req: HttpRequest, ts: number): void {
    const route = req.path.split("?")[0];
    if (route === undefined || !route.startsWith("/api/orders/")) return;
    const kind = route.slice("/api/orders/".length);
    if (!["place", "place-batch", "cancel", "cancel-batch", "cancel-all"].includes(kind)) return;
    const wallet = this.wallet(getHeader(req.headers, "x-user-wallet"));
    let body: unknown;
    try {
      body = JSON.parse(req.body ?? "");
    } catch {
      this.counters.unreadableBodies += 1;
      return;
    }
    const rec = asRecord(body);
    if (rec === undefined) return void (this.counters.unreadableBodies += 1);
    switch (kind) {
      case "place":
        return this.placeRow(rec, wallet, ts);
      case "place-batch":
        for (const entry of Array.isArray(rec["orders"]) ? rec["orders"] : []) this.placeRow(asRecord(entry), wallet, ts);
        return;
      case "cancel":
        return this.cancelRow(str(rec["orderId"]), "", wallet, ts);
      case "cancel-batch":
        for (const id of Array.isArray(rec["orderIds"]) ? rec["orderIds"] : []) this.cancelRow(str(id), "", wallet, ts);
        return;
      default:
        // cancel-all: every order of the wallet (in one market when it names one).
        return this.cancelRow("", str(rec["marketId"]), wallet, ts);
    }
  }

  private placeRow(b: Record<string, unknown> | undefined, wallet: string, ts: number): void {
    const side = b?.["side"];
    const price = b === undefined ? undefined : money(b["price"]);
    const quantity = b === undefined ? undefined : money(b["quantity"]);
    if (b === undefined || (side !== "BUY" && side !== "SELL") || price === undefined || quantity === undefined) {
      this.counters.unreadableBodies += 1;
      return;
    }
    const outcome = typeof b["outcome"] === "number" && Number.isInteger(b["outcome"]) && b["outcome"] >= 0 ? b["outcome"] : 0;
    this.push({
      kind: "order",
      ts,
      action: "place",
      wallet,
      symbol: str(b["marketId"]),
      outcome,
      clientOrderId: str(b["clientOrderId"]),
      orderId: "",
      side,
      price,
      quantity,
      postOnly: b["postOnly"] === true,
    });
    this.counters.orders += 1;
  }

  private cancelRow(orderId: string, market: string, wallet: string, ts: number): void {
    const p = orderId === "" ? undefined : this.placed.get(orderId);
    this.push({
      kind: "order",
      ts,
      action: "cancel",
      wallet,
      symbol: p?.symbol ?? market,
      outcome: p?.outcome ?? 0,
      clientOrderId: p?.clientOrderId ?? "",
      orderId,
      side: p?.side ?? "",
      price: p?.price ?? 0n,
      quantity: p?.quantity ?? 0n,
      postOnly: p?.postOnly ?? false,
    });
    this.counters.orders += 1;
  }

  // ---- answers and fills (from the daemon's events) --------------------------------------------

  private onEvent(e: EngineEvent): void {
    const now = this.o.clock.now();
    if (e.type === "fill") {
      if (!this.include.has("fills")) return;
      const f = e.fill;
      this.push({
        kind: "fill",
        ts: now,
        wallet: this.wallet(e.wallet),
        symbol: f.marketId,
        outcome: f.outcome,
        orderId: f.orderId,
        clientOrderId: f.clientOrderId ?? "",
        tradeId: f.tradeId,
        side: f.side,
        role: f.role,
        price: f.price,
        quantity: f.qty,
        fee: f.fee,
        tradeTs: Math.max(0, f.ts),
      });
      this.counters.fills += 1;
      return;
    }
    if (!this.include.has("orders")) return;
    const ack = (action: "place" | "cancel", wallet: string, clientOrderId: string, orderId: string, status: string, code: string): void => {
      this.push({ kind: "ack", ts: now, action, wallet: this.wallet(wallet), clientOrderId, orderId, status, code });
      this.counters.acks += 1;
    };
    switch (e.type) {
      case "order_placed":
        this.remember(e.orderId, { clientOrderId: e.clientOrderId, symbol: e.marketId, outcome: e.outcome, side: e.side, price: e.price, quantity: e.size, postOnly: e.postOnly });
        return ack("place", e.wallet, e.clientOrderId, e.orderId, e.status, "");
      case "order_rejected":
        return ack("place", e.wallet, e.clientOrderId, "", "REJECTED", e.code);
      case "order_unknown":
        return ack("place", e.wallet, e.clientOrderId, "", "UNKNOWN", e.code);
      case "order_cancelled":
        if (e.result !== "pending") this.placed.delete(e.orderId);
        return ack("cancel", e.wallet, e.clientOrderId, e.orderId, e.result, "");
      default:
        return;
    }
  }

  private remember(orderId: string, p: Placed): void {
    this.placed.set(orderId, p);
    if (this.placed.size > MAX_REMEMBERED) this.placed.delete(this.placed.keys().next().value!);
  }
}

/**
 * Room for one more recorder read of `path` in the gate's windows, beyond what the daemon's own
 * poller of that bucket (its rate per minute in `daemonPerMin`) will take before the window ends.
 */
export function roomBeyond(gate: Pick<RateGate, "remainingFor" | "stats" | "table">, daemonPerMin: Readonly<Record<string, number>>): (method: string, path: string) => number {
  return (method, path) => {
    const remaining = gate.remainingFor(method, path);
    const perMin = daemonPerMin[path] ?? 0;
    if (!Number.isFinite(remaining) || perMin <= 0) return remaining;
    const ip = gate.table.bucketsFor(method, path).filter((r) => r.scope === "ip");
    let reserve = 0;
    for (const r of ip) {
      const s = gate.stats().find((x) => x.bucket === r.id);
      const windowMs = r.windowSec * 1000;
      const left = s === undefined ? windowMs : Math.min(windowMs, Math.max(0, s.resetInMs));
      reserve = Math.max(reserve, Math.ceil((perMin * r.windowSec * left) / (60 * windowMs)));
    }
    return remaining - reserve;
  };
}

function serverTimeOf(v: string | undefined): number {
  if (v === undefined) return 0;
  const n = Number(v.trim());
  if (Number.isFinite(n) && n > 0) return n < 1e11 ? Math.round(n * 1000) : Math.round(n);
  const parsed = Date.parse(v);
  return Number.isNaN(parsed) ? 0 : parsed;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

function money(v: unknown): Micros | undefined {
  if (typeof v !== "string" && typeof v !== "number") return undefined;
  try {
    return parseMicros(String(v));
  } catch {
    return undefined;
  }
}
