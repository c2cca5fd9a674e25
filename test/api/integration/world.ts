/**
 * The real client against the real simulator (not a test file): one scenario (the default one),
 * one VirtualClock shared by client and simulator, and two ways to connect them:
 *
 * - "loopback":   a SimServer on 127.0.0.1, port 0; FetchTransport over real HTTP, WsConnector
 *                 over a real WebSocket;
 * - "in-process": the same pipeline and WS hub behind InProcessTransport / InProcessSocketConnector.
 *
 * Virtual time with real sockets: nothing moves the clock but `drive()`, which advances it to the
 * next timer only when no request is in flight (counted by TrackingTransport) and the event loop
 * has run dry. Every wait the client makes (Retry-After, backoff, rate-gate windows) therefore
 * takes no real time, and a request never sees the clock move under it: runs are deterministic.
 */
import { createClient, type ClientOptions, type PartnerClient } from "../../../src/api/client.js";
import { FetchTransport } from "../../../src/api/fetch-transport.js";
import type { HttpRequest, HttpResponse, SocketConnector, Transport } from "../../../src/wire/transport.js";
import { flushMicrotasks, VirtualClock } from "../../../src/core/clock.js";
import { parseMicros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import { InProcessSocketConnector, InProcessTransport } from "../../../src/sim/http/in-process.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { startSimServer, type SimServer } from "../../../src/sim/http/server.js";
import type { FaultRuleInput } from "../../../src/sim/platform/faults.js";
import { defaultScenarioPath, loadScenario, type Scenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { WsHub } from "../../../src/sim/ws/hub.js";
import {
  buildOrder,
  placeOrderBody,
  rngSaltSource,
  WalletSigner,
  type BuiltOrder,
  type OrderIntent,
  type PlaceOrderBody,
  type SigningMarket,
} from "../../../src/signing/index.js";
import { WsConnector } from "../../../src/stream/ws-connector.js";
import type { PlatformContracts } from "../../../src/wire/index.js";

export type WorldKind = "loopback" | "in-process";
export const KINDS: readonly WorldKind[] = ["loopback", "in-process"];

/** A second and minute boundary, so rate-limit windows start with the run. */
export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

export interface LogEntry {
  method: string;
  path: string;
  body: string | undefined;
  wallet: string | undefined;
  /** Virtual time the request was sent. */
  at: number;
  /** 0 when no answer arrived. */
  status: number;
  code: string | undefined;
  /** Response body text ("" when no answer arrived). */
  response: string;
}

/** Counts requests in flight (for drive) and records every exchange. */
export class TrackingTransport implements Transport {
  inflight = 0;
  readonly log: LogEntry[] = [];
  private waiters: (() => void)[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly clock: VirtualClock,
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    this.inflight++;
    const entry: LogEntry = {
      method: req.method,
      path: req.path,
      body: req.body,
      wallet: req.headers["x-user-wallet"]?.toLowerCase(),
      at: this.clock.now(),
      status: 0,
      code: undefined,
      response: "",
    };
    try {
      const res = await this.inner.request(req);
      entry.status = res.status;
      entry.code = errorCodeOf(res.body);
      entry.response = res.body;
      return res;
    } finally {
      this.log.push(entry);
      this.inflight--;
      const ws = this.waiters;
      this.waiters = [];
      for (const w of ws) w();
    }
  }

  /** Resolves when the next request ends. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Entries of one method and path (query ignored). */
  calls(method: string, path: string): LogEntry[] {
    return this.log.filter((e) => e.method === method && e.path.split("?")[0] === path);
  }
}

function errorCodeOf(body: string): string | undefined {
  try {
    const j = JSON.parse(body) as { code?: unknown; error?: { code?: unknown } };
    const code = j.error?.code ?? j.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}

export interface WorldWallet {
  address: string;
  signer: WalletSigner;
  vault: string;
}

export interface OrderSpec {
  symbol: string;
  outcome?: number;
  side?: "BUY" | "SELL";
  price: string;
  quantity: string;
  postOnly?: boolean;
  clientOrderId?: string;
}

export interface WorldOptions {
  /** Default true. The cursor-walk world turns it off to create 1,000+ orders quickly. */
  verifySignatures?: boolean;
  /** FetchTransport timeout (loopback only). */
  timeoutMs?: number;
  edit?: (s: Scenario) => void;
}

export interface World {
  readonly kind: WorldKind;
  readonly clock: VirtualClock;
  readonly sim: Simulator;
  readonly scenario: Scenario;
  readonly apiKey: string;
  readonly transport: TrackingTransport;
  readonly connector: SocketConnector;
  /** The simulator's WebSocket hub (to close server-side sockets). */
  readonly hub: WsHub;
  /** Base URL of the loopback server (undefined in-process). */
  readonly baseUrl: string | undefined;
  readonly wallets: readonly WorldWallet[];
  client(opts?: Partial<ClientOptions>): PartnerClient;
  /** Run `p` to completion, moving virtual time whenever the client only waits on the clock. */
  drive<T>(p: Promise<T>, limitMs?: number): Promise<T>;
  fault(rule: FaultRuleInput): string;
  /** Build and sign an order for wallet `w` (index). */
  order(w: number, spec: OrderSpec): Promise<{ body: PlaceOrderBody; built: BuiltOrder }>;
  close(): Promise<void>;
}

export async function makeWorld(kind: WorldKind, opts: WorldOptions = {}): Promise<World> {
  const clock = new VirtualClock(T0);
  const scenario = loadScenario(defaultScenarioPath());
  opts.edit?.(scenario);
  const sim = new Simulator(scenario, {
    clock,
    pepper: new Uint8Array(32),
    flow: false,
    verifySignatures: opts.verifySignatures ?? true,
  });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const hub = new WsHub({ sim, pipeline });
  let server: SimServer | undefined;
  let inner: Transport;
  let connector: SocketConnector;
  if (kind === "loopback") {
    server = await startSimServer({ sim, pipeline, hub, host: "127.0.0.1", port: 0, closeGraceMs: 500 });
    inner = new FetchTransport({ baseUrl: server.url, clock, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}) });
    connector = new WsConnector({ baseUrl: server.url });
  } else {
    inner = new InProcessTransport(pipeline);
    connector = new InProcessSocketConnector(hub);
  }
  const transport = new TrackingTransport(inner, clock);
  // Setup reads (contracts, markets) go through their own tracker: out of the log the tests read.
  const setupTransport = new TrackingTransport(inner, clock);
  const inflight = (): number => transport.inflight + setupTransport.inflight;
  const apiKey = scenario.partners[0]!.keys[0]!.key;
  const wallets: WorldWallet[] = scenario.wallets.map((w) => {
    const signer = WalletSigner.fromPrivateKey(w.privateKey!);
    const address = signer.address.toLowerCase();
    return { address, signer, vault: sim.platform.wallets.vaultInfo(address, T0).vaultAddress };
  });
  let seed = 100;

  const drive = async <T>(p: Promise<T>, limitMs = 3_600_000): Promise<T> => {
    let done = false;
    const watched = p.finally(() => {
      done = true;
    });
    watched.catch(() => undefined);
    const stopAt = clock.now() + limitMs;
    while (!done) {
      if (inflight() > 0) {
        await Promise.race([transport.settled(), setupTransport.settled()]);
        continue;
      }
      await flushMicrotasks(2);
      if (done || inflight() > 0) continue;
      const due = clock.nextDue();
      if (due === undefined) throw new Error("drive: nothing in flight and no timer pending, but the call has not settled");
      if (due > stopAt) throw new Error(`drive: still waiting after ${limitMs} ms of virtual time`);
      await clock.advanceTo(due);
    }
    return watched;
  };

  type SigningReads = { contracts: PlatformContracts; markets: Map<string, SigningMarket>; defaultFee: number };
  let reads: Promise<SigningReads> | undefined;
  const salts = rngSaltSource(new Rng(99));
  const reader = createClient({ transport: setupTransport, apiKey, clock, rng: new Rng(1) });
  const loadReads = async (): Promise<SigningReads> => {
    const [contracts, fees, list] = await Promise.all([reader.platform.contracts(), reader.platform.feeConfig(), reader.markets.list({ limit: 500 })]);
    const markets = new Map<string, SigningMarket>(list.data.markets.map((m) => [m.symbol, m]));
    return { contracts: contracts.data, markets, defaultFee: fees.data.defaultFeeTakerBps };
  };
  // No drive() here: these reads never wait on the clock, and order() may run inside a drive.
  const signingReads = (): Promise<SigningReads> => (reads ??= loadReads());

  return {
    kind,
    clock,
    sim,
    scenario,
    apiKey,
    transport,
    connector,
    hub,
    baseUrl: server?.url,
    wallets,
    client: (o = {}) => createClient({ transport, apiKey, clock, rng: new Rng(seed++), ...o }),
    drive,
    fault: (rule) => sim.platform.faults.add(rule, clock.now()),
    async order(w, spec) {
      const r = await signingReads();
      const market = r.markets.get(spec.symbol);
      if (market === undefined) throw new Error(`no open market ${spec.symbol}`);
      const wallet = wallets[w]!;
      const intent: OrderIntent = {
        outcome: spec.outcome ?? 0,
        side: spec.side ?? "BUY",
        price: parseMicros(spec.price),
        quantity: parseMicros(spec.quantity),
        postOnly: spec.postOnly ?? true,
      };
      const built = buildOrder({ contracts: r.contracts, market, intent, wallet: wallet.address, vault: wallet.vault, saltSource: salts, defaultFeeRateBps: r.defaultFee });
      const { signature } = await wallet.signer.signOrder(built.struct, built.domain);
      return { body: placeOrderBody(built, { signature, ...(spec.clientOrderId !== undefined ? { clientOrderId: spec.clientOrderId } : {}) }), built };
    },
    async close() {
      sim.stop();
      await server?.close();
    },
  };
}

/** Orders the platform recorded for `wallet` under `clientOrderId` (read from the simulator itself). */
export function recordedWithClientId(sim: Simulator, wallet: string, clientOrderId: string): number {
  const all = sim.desk.records.historyPage(wallet.toLowerCase(), {}, undefined, Number.MAX_SAFE_INTEGER).orders;
  return all.filter((o) => o.clientOrderId === clientOrderId).length;
}
