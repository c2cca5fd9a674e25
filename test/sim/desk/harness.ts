/**
 * Test harness for the desk and portfolio routes (not a test file): a simulator on the default
 * scenario with a virtual clock, a minimal request path (route match -> platform.authorize ->
 * fault decision -> handler) and order signing with the scenario's test keys.
 */
import { expect } from "vitest";
import type { z } from "zod";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import {
  buildOrder,
  orderDigest,
  placeOrderBody,
  rngSaltSource,
  WalletSigner,
  type BuiltOrder,
  type OrderIntent,
  type OrderStruct,
  type PlaceOrderBody,
} from "../../../src/signing/index.js";
import type { UserFrame } from "../../../src/sim/bus.js";
import { orderRoutes } from "../../../src/sim/http/routes/orders.js";
import { portfolioRoutes } from "../../../src/sim/http/routes/portfolio.js";
import type { HttpMethod, RouteDef, SimResponse } from "../../../src/sim/http/types.js";
import { defaultScenarioPath, loadScenario, type Scenario, type ScenarioFault } from "../../../src/sim/platform/scenario.js";
import { Simulator, type SimulatorOptions } from "../../../src/sim/simulator.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
export const API_KEY = "pmk_sim_5e1d000000000001_DemoMarketMakerSecret00000000001";
export const u = (s: string): bigint => parseMicros(s);

export interface Harness {
  sim: Simulator;
  clock: VirtualClock;
  scenario: Scenario;
  /** Scenario wallets mm-1..3: lower-case address and signer. */
  wallets: { address: string; signer: WalletSigner; vault: string }[];
  call(method: HttpMethod, path: string, opts?: CallOptions): Promise<SimResponse>;
  /** Build + sign an order for wallet `w` (index), optionally tampering with the struct first. */
  order(w: number, o: OrderSpec): Promise<{ body: PlaceOrderBody; built: BuiltOrder }>;
  frames(w: number): UserFrame[];
  /** Add a wallet (not in the scenario) by private key; returns its index. */
  addWallet(privateKey: string): number;
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string> | URLSearchParams;
  /** Wallet index (default 0) or an explicit address. */
  wallet?: number | string;
  apiKey?: string;
}

export interface OrderSpec extends Omit<OrderIntent, "price" | "quantity"> {
  symbol: string;
  price: string;
  quantity: string;
  clientOrderId?: string;
  /** Change signed fields before signing. */
  tamper?: (s: OrderStruct) => void;
  /** REST maker (default the vault). */
  maker?: string;
}

const ROUTES: RouteDef[] = [...orderRoutes, ...portfolioRoutes];

function match(method: HttpMethod, path: string): { route: RouteDef; params: Record<string, string> } | undefined {
  const segs = path.split("/").filter(Boolean);
  let best: { route: RouteDef; params: Record<string, string>; literals: number } | undefined;
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const ps = route.pattern.split("/").filter(Boolean);
    if (ps.length !== segs.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    let literals = 0;
    ps.forEach((p, i) => {
      if (p.startsWith(":")) params[p.slice(1)] = decodeURIComponent(segs[i]!);
      else if (p === segs[i]) literals++;
      else ok = false;
    });
    if (ok && (best === undefined || literals > best.literals)) best = { route, params, literals };
  }
  return best;
}

export function setup(opts: { faults?: ScenarioFault[]; sim?: Partial<SimulatorOptions>; edit?: (s: Scenario) => void } = {}): Harness {
  const clock = new VirtualClock(T0);
  const scenario = loadScenario(defaultScenarioPath());
  if (opts.faults) scenario.faults = opts.faults;
  opts.edit?.(scenario);
  const sim = new Simulator(scenario, { clock, pepper: new Uint8Array(32).fill(7), flow: false, ...opts.sim });
  const wallets = scenario.wallets.map((w) => {
    const signer = WalletSigner.fromPrivateKey(w.privateKey!);
    const address = signer.address.toLowerCase();
    return { address, signer, vault: sim.platform.wallets.vaultInfo(address, T0).vaultAddress };
  });
  const frames = new Map<string, UserFrame[]>();
  for (const w of wallets) {
    const list: UserFrame[] = [];
    frames.set(w.address, list);
    sim.bus.subscribe(w.address, (f) => list.push(f));
  }
  const salts = rngSaltSource(new Rng(99));
  let requestNo = 0;

  const call = async (method: HttpMethod, path: string, o: CallOptions = {}): Promise<SimResponse> => {
    const hit = match(method, path);
    if (hit === undefined) throw new Error(`no route ${method} ${path}`);
    const wallet = typeof o.wallet === "string" ? o.wallet : wallets[o.wallet ?? 0]!.address;
    const auth = hit.route.auth;
    if (auth === "public") throw new Error("harness only serves authenticated routes");
    const a = sim.platform.authorize({
      apiKeyHeader: o.apiKey ?? API_KEY,
      userWalletHeader: wallet,
      ip: "127.0.0.1",
      requiredScopes: auth.scopes,
      walletRequired: auth.walletRequired ?? true,
    });
    if (!a.ok) return { status: a.status, body: { status: a.status, error: { code: a.code, message: a.message } } };
    const fault = sim.platform.faults.decide(`${method} ${path}`, clock.now());
    const query = o.query instanceof URLSearchParams ? o.query : new URLSearchParams(o.query ?? {});
    requestNo++;
    return hit.route.handler(
      { method, path, query, headers: {}, body: o.body, ip: "127.0.0.1", params: hit.params },
      { sim, nowMs: clock.now(), requestId: `r${requestNo}`, traceId: `t${requestNo}`, auth: a, ...(fault ? { fault } : {}) },
    );
  };

  const order = async (w: number, o: OrderSpec): Promise<{ body: PlaceOrderBody; built: BuiltOrder }> => {
    const m = sim.market(o.symbol);
    if (m === undefined) throw new Error(`no market ${o.symbol}`);
    const s = sim.platform.settings;
    const { symbol: _s, price, quantity, clientOrderId, tamper, maker, ...intent } = o;
    const frozen = buildOrder({
      contracts: { chainId: s.chainId, domain: s.domain, exchange: s.contracts.exchange },
      market: { symbol: m.symbol, outcomeTokenIds: m.outcomeTokenIds, feeTakerBps: m.feeTakerBps, negRiskEligible: m.negRiskEligible },
      defaultFeeRateBps: s.defaultFeeTakerBps,
      intent: { ...intent, price: u(price), quantity: u(quantity) },
      wallet: wallets[w]!.signer.address,
      vault: wallets[w]!.vault,
      saltSource: salts,
    });
    // buildOrder's result is frozen: tests tamper with (and send) a copy of it.
    const built = { ...frozen, struct: { ...frozen.struct } };
    if (tamper) {
      tamper(built.struct);
      built.orderHash = orderDigest(built.struct, built.domain);
    }
    const signature = await wallets[w]!.signer.signDigest(built.orderHash);
    const body = placeOrderBody(built, {
      signature,
      ...(clientOrderId !== undefined ? { clientOrderId } : {}),
      ...(maker !== undefined ? { maker } : {}),
    });
    return { body, built };
  };

  const addWallet = (privateKey: string): number => {
    const signer = WalletSigner.fromPrivateKey(privateKey);
    const address = signer.address.toLowerCase();
    wallets.push({ address, signer, vault: sim.platform.wallets.vaultInfo(address, T0).vaultAddress });
    const list: UserFrame[] = [];
    frames.set(address, list);
    sim.bus.subscribe(address, (f) => list.push(f));
    return wallets.length - 1;
  };

  return { sim, clock, scenario, wallets, call, order, frames: (w) => frames.get(wallets[w]!.address)!, addWallet };
}

/** Parse with a wire schema and fail the test naming the problem. */
export function parses<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) expect.fail(`response does not parse: ${JSON.stringify(r.error.issues.slice(0, 3))}\n${JSON.stringify(value)}`);
  return r.data;
}

/** The error code of an envelope or a placement reject. */
export function codeOf(body: unknown): string | undefined {
  const b = body as { code?: unknown; error?: { code?: unknown } };
  if (typeof b.error?.code === "string") return b.error.code;
  return typeof b.code === "string" ? b.code : undefined;
}
