/**
 * The daemon with its operations wiring (core risk, metrics, probes, operator HTTP server)
 * against the in-process simulator on a VirtualClock, plus what the hardening tests look at:
 *
 * - `Wire`: the daemon's transport, recording every request with its wallet (X-User-Wallet) and
 *   the markets of its place bodies, and able to answer some requests itself (a market's order
 *   book failing, a wallet's placements refused) - the daemon cannot tell it from the platform;
 * - `Streams`: the daemon's socket connector, able to cut one wallet's user stream and refuse its
 *   reconnects;
 * - `LogLines`: every JSON log line the daemon writes;
 * - the platform's own view (open orders) straight from the simulator.
 */
import type { HttpRequest, HttpResponse, SocketConnector, SocketLike, Transport } from "../../src/wire/transport.js";
import { createDaemon, type Daemon } from "../../src/bot/engine/daemon.js";
import { RecordingObserver, type EngineEvent } from "../../src/bot/observer.js";
import { parseConfig, type Config } from "../../src/config/index.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import { errorEnvelope } from "../../src/wire/errors.js";
import { API_KEY, platformOpenOrders, run, settle, startSim, walletAddress, walletKey, type SimHarness, type SimSpec } from "../integration/harness.js";

export { API_KEY, run, settle, walletAddress, walletKey };

export const ADMIN_TOKEN = "ops-admin-token-0123456789abcdef";

export interface WireEntry {
  at: number;
  method: string;
  path: string;
  wallet: string | undefined;
  /** Markets of the orders in a place / place-batch body. */
  placeMarkets: string[];
  status: number;
}

/** A point in the run: virtual time and the number of requests sent before it. */
export interface Mark {
  at: number;
  index: number;
}

export type Interceptor = (req: HttpRequest, wallet: string | undefined) => HttpResponse | undefined;

export function jsonError(status: number, code: string, message: string): HttpResponse {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(errorEnvelope(status, code, message)) };
}

export class Wire implements Transport {
  readonly log: WireEntry[] = [];
  intercept: Interceptor | undefined;

  constructor(
    private readonly inner: Transport,
    private readonly clock: { now(): number },
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    const wallet = Object.entries(req.headers).find(([k]) => k.toLowerCase() === "x-user-wallet")?.[1]?.toLowerCase();
    const entry: WireEntry = { at: this.clock.now(), method: req.method, path: req.path, wallet, placeMarkets: placeMarkets(req), status: 0 };
    this.log.push(entry);
    const res = this.intercept?.(req, wallet) ?? (await this.inner.request(req));
    entry.status = res.status;
    return res;
  }

  /**
   * Place requests (single or batch), optionally of one wallet / market, sent between two marks:
   * `from` / `to` are wire positions (a Mark: exact even when virtual time stands still) or times.
   */
  places(f: { from?: Mark | number; to?: Mark | number; wallet?: string; market?: string } = {}): WireEntry[] {
    const lo = f.from === undefined ? 0 : typeof f.from === "number" ? this.log.findIndex((e) => e.at >= (f.from as number)) : f.from.index;
    const hi = f.to === undefined ? this.log.length : typeof f.to === "number" ? this.log.findIndex((e) => e.at >= (f.to as number)) : f.to.index;
    return this.log
      .slice(lo < 0 ? this.log.length : lo, hi < 0 ? this.log.length : hi)
      .filter((e) => e.placeMarkets.length > 0 && (f.wallet === undefined || e.wallet === f.wallet) && (f.market === undefined || e.placeMarkets.includes(f.market)));
  }

  /** Now, as a position in the request log. */
  mark(): Mark {
    return { at: this.clock.now(), index: this.log.length };
  }

  requests(fromMs: number, toMs = Number.POSITIVE_INFINITY): WireEntry[] {
    return this.log.filter((e) => e.at >= fromMs && e.at < toMs);
  }
}

function placeMarkets(req: HttpRequest): string[] {
  if (req.method !== "POST" || req.body === undefined) return [];
  if (req.path === "/api/orders/place") return [(JSON.parse(req.body) as { marketId: string }).marketId];
  if (req.path === "/api/orders/place-batch") return (JSON.parse(req.body) as { orders: { marketId: string }[] }).orders.map((o) => o.marketId);
  return [];
}

/** A connector that can cut wallets' streams and refuse their reconnects. */
export class Streams implements SocketConnector {
  private readonly blocked = new Set<string>();
  private readonly open = new Map<string, SocketLike[]>();

  constructor(private readonly inner: SocketConnector) {}

  connect(path: string, headers: Record<string, string>): SocketLike {
    const wallet = (headers["X-User-Wallet"] ?? headers["x-user-wallet"] ?? "").toLowerCase();
    // A refused upgrade: the hub answers an unknown path like a server refusing the socket.
    const socket = this.inner.connect(this.blocked.has(wallet) ? "/ws/refused" : path, headers);
    const list = this.open.get(wallet) ?? [];
    list.push(socket);
    this.open.set(wallet, list);
    return socket;
  }

  /** Drop the wallet's stream and refuse reconnects until `restore`. */
  cut(wallet: string): void {
    this.blocked.add(wallet);
    // Dropped without a close handshake, like a dead network path.
    for (const s of this.open.get(wallet) ?? []) (s as SocketLike & { terminate(): void }).terminate();
  }

  restore(wallet: string): void {
    this.blocked.delete(wallet);
  }
}

export class LogLines {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  withMsg(msg: string): Record<string, unknown>[] {
    return this.lines.filter((l) => l["msg"] === msg);
  }
}

export interface OpsConfigSpec {
  wallets: number;
  slugs: string[];
  strategy?: Record<string, unknown>;
  risk?: Record<string, unknown>;
  admin?: boolean;
  processMetrics?: boolean;
}

export function opsConfig(spec: OpsConfigSpec): Config {
  const env: Record<string, string> = { MM_ADMIN_TOKEN: ADMIN_TOKEN };
  const wallets = Array.from({ length: spec.wallets }, (_, i) => {
    env[`W${i}`] = walletKey(i);
    return `  - { name: w${i}, privateKey: "\${W${i}}" }`;
  }).join("\n");
  const text = `mode: simulator
instance: { id: ops }
wallets:
${wallets}
markets: { slugs: ${JSON.stringify(spec.slugs)}, maxMarkets: 10, refreshSec: 30 }
strategy: { name: ladder, params: ${JSON.stringify({ size: "10", levels: 1, ...spec.strategy })} }
quoting: { refreshMs: 1000, priceToleranceTicks: 1, pullBeforeCloseSec: 30 }
risk: ${JSON.stringify({ staleDataSec: 10, ...spec.risk })}
metrics: { host: 127.0.0.1, port: 0, processMetrics: ${spec.processMetrics ?? false} }
${spec.admin === false ? "" : 'admin: { token: "${MM_ADMIN_TOKEN}" }'}
shutdown: { cancelDeadlineSec: 20 }
log: { level: info }
`;
  return parseConfig(text, "ops-daemon.yaml", env);
}

export interface OpsHarness {
  h: SimHarness;
  wire: Wire;
  streams: Streams;
  logs: LogLines;
  observer: RecordingObserver;
  /** Every halt raised or cleared, with the wire position at that moment. */
  halts: HaltMark[];
  daemon: Daemon;
  config: Config;
  /** Our orders resting on the platform (simulator view), of one wallet index, optionally one market. */
  openOn(walletIndex: number, market?: string): Promise<{ id: string; marketId: string }[]>;
  scrape(): Promise<string>;
  stop(): Promise<void>;
}

export async function startOps(sim: SimSpec, cfg: OpsConfigSpec, tuning: Record<string, unknown> = {}, logLevel: "info" | "debug" = "info"): Promise<OpsHarness> {
  const h = startSim(sim);
  const wire = new Wire(h.transport, h.clock);
  const streams = new Streams(h.connector);
  const logs = new LogLines();
  const observer = new RecordingObserver();
  const halts: HaltMark[] = [];
  const marker = {
    onEvent: (e: EngineEvent) => {
      if (e.type === "halt") halts.push({ action: e.action, reason: e.reason, target: e.target, at: e.at, index: wire.log.length });
    },
  };
  const config = opsConfig(cfg);
  const daemon = createDaemon(config, {
    clock: h.clock,
    rng: new Rng(123),
    transport: wire,
    connector: streams,
    apiKey: API_KEY,
    logger: createLogger({ level: logLevel, clock: h.clock }, logs),
    observer: [observer, marker],
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000, ...tuning },
  });
  await settle(h.clock, daemon.start());
  return {
    h,
    wire,
    streams,
    logs,
    observer,
    halts,
    daemon,
    config,
    openOn: async (i, market) => (await platformOpenOrders(h, walletAddress(i))).filter((o) => market === undefined || o.marketId === market),
    scrape: () => daemon.ops.metrics.scrape(),
    stop: async () => {
      await settle(h.clock, daemon.stop());
      h.sim.stop();
    },
  };
}

/** One exposition line: name, labels, value (label values may hold `}`: "/api/orders/{id}"). */
const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[^"}]|"(?:[^"\\]|\\.)*")*)\})? (\S+)$/;

function parseLine(line: string): { name: string; labels: Record<string, string>; value: number } | undefined {
  const m = LINE.exec(line);
  if (m === null) return undefined;
  const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
  return { name: m[1]!, labels, value: Number(m[3]) };
}

/** The value of the first sample of `name` carrying these labels (others ignored), or undefined. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const p = parseLine(line);
    if (p !== undefined && p.name === name && Object.entries(labels).every(([k, v]) => p.labels[k] === v)) return p.value;
  }
  return undefined;
}

/** Sum of every sample of a metric (all label sets). */
export function total(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const p = parseLine(line);
    if (p !== undefined && p.name === name) sum += p.value;
  }
  return sum;
}

/** Advance virtual time in steps until `cond` holds; returns the time it first held. */
export async function until(h: SimHarness, what: string, cond: () => boolean | Promise<boolean>, maxMs = 120_000, stepMs = 250): Promise<number> {
  for (let t = 0; t <= maxMs; t += stepMs) {
    if (await cond()) return h.clock.now();
    await h.clock.advance(stepMs);
  }
  throw new Error(`${what}: not within ${maxMs} ms of virtual time`);
}

export interface HaltMark extends Mark {
  action: "raised" | "cleared";
  reason: string;
  target: string;
}

/** When the (first) halt of this reason (and target) was raised; undefined while it was not. */
export function raisedAt(o: OpsHarness, reason: string, target?: string): HaltMark | undefined {
  return o.halts.find((e) => e.action === "raised" && e.reason === reason && (target === undefined || e.target === target));
}

/** When the last clear of this reason (and target) happened; undefined while none did. */
export function clearedAt(o: OpsHarness, reason: string, target?: string): HaltMark | undefined {
  return o.halts.filter((e) => e.action === "cleared" && e.reason === reason && (target === undefined || e.target === target)).at(-1);
}

export function raised(o: OpsHarness, reason: string, target?: string): boolean {
  return raisedAt(o, reason, target) !== undefined;
}

export function cleared(o: OpsHarness, reason: string, target?: string): boolean {
  return clearedAt(o, reason, target) !== undefined;
}

/**
 * Await a promise that needs real I/O (an HTTP exchange with the daemon's server) and possibly
 * virtual time too: real event-loop turns first, virtual time only while nothing else moves.
 */
export async function settleIo<T>(h: SimHarness, p: Promise<T>, maxTurns = 2_000): Promise<T> {
  let done = false;
  let value: T | undefined;
  let error: unknown;
  void p.then(
    (v) => {
      done = true;
      value = v;
    },
    (e: unknown) => {
      done = true;
      error = e;
    },
  );
  for (let i = 0; i < maxTurns && !done; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!done && i % 10 === 9) await h.clock.advance(50);
  }
  if (!done) throw new Error("did not settle");
  if (error !== undefined) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  return value as T;
}
