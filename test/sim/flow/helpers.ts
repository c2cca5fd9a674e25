/**
 * Small simulators for the flow tests: a scenario of a few markets whose `flow:` sections are
 * given as YAML, on a VirtualClock, with helpers to rest orders of our own straight in the engine
 * and to read the trade log by flow role.
 */
import type { Side } from "../../../src/core/amounts.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros, SCALE, type Micros } from "../../../src/core/money.js";
import type { TradeRecord } from "../../../src/sim/engine/index.js";
import { addressFromLabel } from "../../../src/sim/platform/derive.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

export interface FlowMarketSpec {
  symbol: string;
  fairValue?: string | string[];
  outcomes?: string[];
  /** Relative to start. */
  opensAt?: string;
  preMarketStartsAt?: string;
  /** YAML of the market's `flow:` mapping, one key per line, no indentation. */
  flow: string;
}

/** A flow with nothing moving and nobody trading, to which a test adds what it needs. */
export const QUIET = `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 0 }`;

export function flowScenarioYaml(markets: readonly FlowMarketSpec[], seed = 5): string {
  const body = markets
    .map((m) => {
      const fv = m.fairValue ?? "0.5";
      const fair = Array.isArray(fv) ? `[${fv.map((v) => `"${v}"`).join(", ")}]` : `"${fv}"`;
      const flow = m.flow
        .split("\n")
        .map((l) => `          ${l}`)
        .join("\n");
      return `      - title: ${m.symbol}
        symbol: ${m.symbol}
        ${m.outcomes ? `outcomeLabels: [${m.outcomes.join(", ")}]` : ""}
        tradingWindow: { preMarketStartsAt: ${m.preMarketStartsAt ? `"${m.preMarketStartsAt}"` : "null"}, opensAt: "${m.opensAt ?? "-10m"}", closesAt: "+1d" }
        fairValue: ${fair}
        flow:
${flow}`;
    })
    .join("\n");
  return `seed: ${seed}
start: "${new Date(T0).toISOString()}"
events:
  - slug: flow-tests
    title: Flow tests
    markets:
${body}
`;
}

export interface FlowSim {
  sim: Simulator;
  clock: VirtualClock;
}

export function flowSim(markets: readonly FlowMarketSpec[], opts: { seed?: number; start?: boolean } = {}): FlowSim {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(flowScenarioYaml(markets, opts.seed), "flow-test.yaml"), { clock, pepper: new Uint8Array(32).fill(5) });
  if (opts.start !== false) sim.start();
  return { sim, clock };
}

/** Our own wallet for orders rested directly in the engine. */
export const US = addressFromLabel("flow-tests:us").toLowerCase();

export function px(text: string): Micros {
  return parseMicros(text);
}

interface OrderOpts {
  wallet?: string;
  postOnly?: boolean;
}

function placeFunded(sim: Simulator, symbol: string, outcome: number, side: Side, price: string, qty: string, opts: OrderOpts, timeInForce: "GTC" | "IOC") {
  const wallet = opts.wallet ?? US;
  const q = parseMicros(qty);
  const p = parseMicros(price);
  if (side === "BUY") sim.engine.deposit(wallet, (p * q) / SCALE + 1_000_000n);
  else {
    sim.engine.deposit(wallet, q + 1_000_000n);
    sim.engine.split(wallet, symbol, q);
  }
  return sim.engine.place({ wallet, marketId: symbol, outcome, side, price: p, quantity: q, postOnly: opts.postOnly ?? false, timeInForce });
}

/** Rest a GTC order of ours (funded first); returns the order id. */
export function rest(sim: Simulator, symbol: string, outcome: number, side: Side, price: string, qty: string, opts: OrderOpts = {}): string {
  const r = placeFunded(sim, symbol, outcome, side, price, qty, opts, "GTC");
  if (r.status !== "OPEN") throw new Error(`could not rest ${side} ${qty} @ ${price}: ${r.status} ${r.code ?? ""}`);
  return r.orderId;
}

/** An IOC order (funded first) that takes what it can; returns the quantity filled. */
export function take(sim: Simulator, symbol: string, outcome: number, side: Side, price: string, qty: string, opts: OrderOpts = {}): Micros {
  return placeFunded(sim, symbol, outcome, side, price, qty, opts, "IOC").filledQty;
}

/** The flow wallet of a role on a market (as SyntheticFlow derives it). */
export function flowWallet(symbol: string, role: string): string {
  return addressFromLabel(`sim:flow:${symbol}:${role}`).toLowerCase();
}

export function tradesOf(sim: Simulator, symbol: string): TradeRecord[] {
  return sim.engine.ledger.trades().filter((t) => t.marketId === symbol);
}

export function tradeLog(sim: Simulator): string {
  return JSON.stringify(sim.engine.ledger.trades(), (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
