/**
 * Black-box conformance harness (not a test file): the simulator on the default scenario served
 * over real loopback HTTP and WebSocket, probed with plain `fetch` and `ws` so no assumption of
 * our client leaks into what is checked. Time is a VirtualClock moved through the /sim control
 * routes (or directly); orders are signed with src/signing and the scenario's test keys.
 */
import WebSocket from "ws";
import { expect } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import {
  buildOrder,
  placeOrderBody,
  rngSaltSource,
  WalletSigner,
  type BuiltOrder,
  type OrderIntent,
  type OrderStruct,
  type PlatformContracts,
} from "../../../src/signing/index.js";
import { startSimServer, type SimServer } from "../../../src/sim/http/server.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { defaultScenarioPath, parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";

/** 12:00 UTC, on a whole minute so fixed windows start at T0. */
export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

/** From configs/scenarios/default.yaml (test credentials written in that file). */
export const API_KEY = "pmk_sim_5e1d000000000001_DemoMarketMakerSecret00000000001";
export const WALLETS = [
  { address: "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e", privateKey: "0x040c9ba6ea32f98a659955309e06a2bff2874f8730bde3f68141c073d88a4306" },
  { address: "0x6C6af07afEB7BC9075aE06705AD9363bA15b3Ce3", privateKey: "0xf0076d468a5c8762bd5db5ae39e5ed7c1e863d5fd9e70b3eea87eec9aa6f198e" },
  { address: "0xDE453b3C26ec811941f8F41048FBd568EAe93368", privateKey: "0x4270a6a566b86636d9aa64b972cada8f8a2e3f02906159288fc150497e4324aa" },
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- probes read arbitrary JSON
export type Json = any;

export interface Reply {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
}

export interface Conformance {
  url: string;
  sim: Simulator;
  clock: VirtualClock;
  server: SimServer;
  send(path: string, opts?: SendOptions): Promise<Reply>;
  /** X-Api-Key + X-User-Wallet of scenario wallet `w`. */
  auth(w?: number, key?: string): Record<string, string>;
  /** Advance the virtual clock through the control route. */
  advance(ms: number): Promise<void>;
  /** Build and sign an order for scenario wallet `w`; returns the place body the docs describe and the built order. */
  order(w: number, spec: OrderSpec): Promise<{ body: Json; built: BuiltOrder; signature: string }>;
  /** Register another wallet by private key (not in the scenario); returns its index for auth() and order(). */
  addWallet(privateKey: string): number;
  /** The market row of a symbol, from GET /api/markets (open set) or closed=true. */
  market(symbol: string): Promise<Json>;
  close(): Promise<void>;
}

export interface OrderSpec extends Omit<OrderIntent, "price" | "quantity"> {
  symbol: string;
  price: string;
  quantity: string;
  clientOrderId?: string;
  /** Change signed fields before signing (the signature covers the changed struct). */
  tamper?: (s: OrderStruct) => void;
  /** REST maker (default the vault). */
  maker?: string;
  /** API key used to read the wallet's vault (default the scenario's key). */
  key?: string;
}

export interface BootOptions {
  flow?: boolean;
  /** Edit the default scenario as plain YAML data before it is validated. */
  edit?: (doc: Json) => void;
}

export async function boot(opts: BootOptions = {}): Promise<Conformance> {
  const clock = new VirtualClock(T0);
  const doc: Json = parse(readFileSync(defaultScenarioPath(), "utf8"));
  opts.edit?.(doc);
  const scenario = parseScenario(JSON.stringify(doc), "default.yaml (edited)");
  const sim = new Simulator(scenario, { clock, flow: opts.flow ?? false, pepper: new Uint8Array(32).fill(3) });
  sim.start();
  const server = await startSimServer({ sim, routes: allRoutes(), port: 0 });
  const url = server.url;
  const salts = rngSaltSource(new Rng(7));
  const signers = WALLETS.map((w) => WalletSigner.fromPrivateKey(w.privateKey));
  const addresses: string[] = WALLETS.map((w) => w.address);
  let contracts: PlatformContracts | undefined;
  const markets = new Map<string, Json>();
  // Vault addresses are stable per wallet: read once, so long runs of orders do not drain the
  // /api/me/* bucket (600 per minute).
  const vaults = new Map<string, string>();

  const send = async (path: string, o: SendOptions = {}): Promise<Reply> => {
    const init: RequestInit = { method: o.method ?? (o.body !== undefined || o.raw !== undefined ? "POST" : "GET"), headers: { ...o.headers } };
    if (o.raw !== undefined) init.body = o.raw;
    else if (o.body !== undefined) {
      init.body = JSON.stringify(o.body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await fetch(url + path, init);
    const text = await res.text();
    let body: Json = undefined;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body, text };
  };

  const auth = (w = 0, key = API_KEY): Record<string, string> => ({ "X-Api-Key": key, "X-User-Wallet": addresses[w]! });

  const market = async (symbol: string): Promise<Json> => {
    for (const q of ["", "?closed=true"]) {
      const r = await send(`/api/markets?limit=500${q.replace("?", "&")}`);
      const row = (r.body.markets as Json[]).find((m) => m.symbol === symbol);
      if (row) return row;
    }
    throw new Error(`no listed market ${symbol}`);
  };

  const order = async (w: number, spec: OrderSpec) => {
    contracts ??= await (async () => {
      const c = (await send("/api/platform/contracts")).body;
      const out: PlatformContracts = { chainId: c.chainId, domain: c.domain, exchange: c.exchange };
      return out;
    })();
    let m = markets.get(spec.symbol);
    if (!m) {
      m = await market(spec.symbol);
      markets.set(spec.symbol, m);
    }
    const { symbol: _s, price, quantity, clientOrderId, tamper, maker, key, ...intent } = spec;
    const signer = signers[w]!;
    let vault = vaults.get(signer.address);
    if (vault === undefined) {
      const r = await send("/api/me/vault", { headers: auth(w, key) });
      expect(r.status, r.text).toBe(200);
      vault = r.body.vaultAddress as string;
      vaults.set(signer.address, vault);
    }
    const built = buildOrder({
      contracts,
      market: m,
      intent: { ...intent, price: parseMicros(price), quantity: parseMicros(quantity) },
      wallet: signer.address,
      vault,
      saltSource: salts,
      defaultFeeRateBps: 100,
    });
    // buildOrder's result is frozen: tests tamper with (and send) a copy of it.
    const copy = { ...built, struct: { ...built.struct } };
    tamper?.(copy.struct);
    const { signature } = await signer.signOrder(copy.struct, copy.domain);
    // placeOrderBody reads built.struct, so a tampered struct is what the body carries.
    const body: Json = placeOrderBody(copy, { signature, ...(clientOrderId !== undefined ? { clientOrderId } : {}), ...(maker !== undefined ? { maker } : {}) });
    return { body, built: copy, signature };
  };

  return {
    url,
    sim,
    clock,
    server,
    send,
    auth,
    advance: async (ms) => {
      const r = await send("/sim/clock/advance", { body: { ms } });
      expect(r.status).toBe(200);
    },
    order,
    market,
    addWallet: (privateKey) => {
      const s = WalletSigner.fromPrivateKey(privateKey);
      signers.push(s);
      addresses.push(s.address);
      return signers.length - 1;
    },
    close: async () => {
      await server.close();
      sim.stop();
    },
  };
}

/** Only what the spec names in a place body (4.6): the signed order, `maker`, `clientOrderId`. */
export function specOnlyBody(body: Json): Json {
  const out: Json = { order: body.order, maker: body.maker };
  if (body.clientOrderId !== undefined) out.clientOrderId = body.clientOrderId;
  return out;
}

/** Collects a socket's JSON messages; `next()` waits for the next one (no sleeps). */
export class Inbox {
  private readonly queue: Json[] = [];
  private waiters: ((m: Json) => void)[] = [];
  constructor(ws: WebSocket) {
    ws.on("message", (data: WebSocket.RawData) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as Buffer).toString("utf8");
      const m: Json = JSON.parse(text);
      const w = this.waiters.shift();
      if (w) w(m);
      else this.queue.push(m);
    });
  }
  next(): Promise<Json> {
    const m = this.queue.shift();
    if (m !== undefined) return Promise.resolve(m);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  /** The next message whose type is `type` (others are dropped). */
  async nextOf(type: string): Promise<Json> {
    for (;;) {
      const m = await this.next();
      if (m.type === type) return m;
    }
  }
}

export function wsOpen(url: string, path: string, headers: Record<string, string>): Promise<{ ws: WebSocket; inbox: Inbox }> {
  const ws = new WebSocket(url.replace(/^http/, "ws") + path, { headers });
  const inbox = new Inbox(ws);
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, inbox }));
    ws.once("error", reject);
  });
}

/** The status and body of a refused upgrade. */
export function wsRefused(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  const ws = new WebSocket(url.replace(/^http/, "ws") + path, { headers });
  ws.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (req, res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      });
    });
    ws.once("open", () => {
      ws.terminate();
      reject(new Error("upgrade was accepted"));
    });
  });
}

/** Assert the standard error envelope of 7.1 rule 1 and the X-Trace-Id echo. */
export function expectEnvelope(r: Reply, status: number, code: string): Json {
  expect(r.status, r.text).toBe(status);
  expect(r.body.status).toBe(status);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe("string");
  expect(r.body.error.trace_id).toBe(r.headers.get("x-trace-id"));
  return r.body.error;
}

/** A scenario edit adding a multi_wallet partner with its own rate tier, one key and one wallet. */
export function addTierPartner(p: { id: string; rateLimitPerMin: number; key: string; wallet: string }): (doc: Json) => void {
  return (doc: Json) => {
    doc.partners.push({
      id: p.id,
      name: `${p.id} tier`,
      kind: "multi_wallet",
      requirePerWalletKyc: false,
      rateLimitPerMin: p.rateLimitPerMin,
      keys: [{ key: p.key, scopes: ["orders:read", "orders:write", "portfolio:read"] }],
    });
    doc.wallets.push({ name: `${p.id}-1`, address: p.wallet, partner: p.id });
  };
}

/** The X-RateLimit-* headers as numbers. */
export const rateHeaders = (h: Headers) => ({
  limit: Number(h.get("x-ratelimit-limit")),
  remaining: Number(h.get("x-ratelimit-remaining")),
  reset: Number(h.get("x-ratelimit-reset")),
});
