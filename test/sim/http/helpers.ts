/** Shared fixtures for the simulator plumbing tests (not a test file itself). */
import { VirtualClock, type Clock } from "../../../src/core/clock.js";
import { Pipeline, type RawRequest, type RawResponse } from "../../../src/sim/http/pipeline.js";
import type { RouteDef } from "../../../src/sim/http/types.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { WsHub } from "../../../src/sim/ws/hub.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

export const W1 = "0x86de5549fb86499c2e7e935b175e2bb5c1fde79e";
export const W2 = "0x6c6af07afeb7bc9075ae06705ad9363ba15b3ce3";
export const W3 = "0xde453b3c26ec811941f8f41048fbd568eae93368";
export const W4 = "0x1111111111111111111111111111111111111111";

const k = (id: string): string => `pmk_sim_${id}_S${id}`.padEnd(8 + 16 + 1 + 32, "x");
export const KEYS = {
  mm: k("00000000000000a1"),
  readOnly: k("00000000000000a2"),
  revoked: k("00000000000000a3"),
  slow: k("00000000000000a4"),
  assoc: k("00000000000000a5"),
  single: k("00000000000000a6"),
} as const;

/** Three partners: mm (multi_wallet, tier 600), slow (tier 60), assoc (multi_wallet bound to W3), single (single_wallet on W2). */
export const SCENARIO = `
seed: 42
start: "2026-06-01T12:00:00Z"
platform: { env: sim, keyPrefix: pmk, apiVersion: "2026-10-09" }
partners:
  - id: mm
    name: MM
    kind: multi_wallet
    requirePerWalletKyc: false
    keys:
      - { key: ${KEYS.mm}, scopes: [orders:read, orders:write, portfolio:read] }
      - { key: ${KEYS.readOnly}, scopes: [orders:read] }
      - { key: ${KEYS.revoked}, scopes: [orders:read], revoked: true }
  - id: slow
    name: Slow
    kind: multi_wallet
    requirePerWalletKyc: false
    rateLimitPerMin: 60
    keys:
      - { key: ${KEYS.slow}, scopes: [orders:read, orders:write, portfolio:read] }
  - id: assoc
    name: Assoc
    kind: multi_wallet
    requirePerWalletKyc: false
    associatedWallet: w3
    keys:
      - { key: ${KEYS.assoc}, scopes: [orders:read, portfolio:read] }
  - id: single
    name: Single
    kind: single_wallet
    associatedWallet: w2
    keys:
      - { key: ${KEYS.single}, scopes: [orders:read, portfolio:read] }
wallets:
  - { name: w1, address: "${W1}", partner: mm, balances: { collateral: "1000" } }
  - { name: w2, address: "${W2}", partner: single, kyc: { approved: true, tier: 1 } }
  - { name: w3, address: "${W3}", partner: assoc }
  - { name: w4, address: "${W4}", partner: slow }
events:
  - title: Test event
    slug: test-event
    markets:
      - title: Will it work?
        symbol: TST
        tradingWindow: { opensAt: -1h, closesAt: +1d }
        fairValue: "0.5"
        flow: { enabled: false }
faults: []
`;

export function simWith(clock: Clock): Simulator {
  return new Simulator(parseScenario(SCENARIO, "test.yaml"), { clock, pepper: new Uint8Array(32), flow: false });
}

export function makeSim(): { sim: Simulator; clock: VirtualClock } {
  const clock = new VirtualClock(T0);
  return { sim: simWith(clock), clock };
}

export function makePipeline(routes: readonly RouteDef[], opts: { rateLimits?: boolean } = {}) {
  const { sim, clock } = makeSim();
  const pipeline = new Pipeline({ sim, routes, ...opts });
  const hub = new WsHub({ sim, pipeline });
  return { sim, clock, pipeline, hub };
}

export function req(method: string, url: string, extra: Partial<RawRequest> = {}): RawRequest {
  return { method, url, headers: {}, bodyText: "", remoteAddress: "127.0.0.1", ...extra };
}

export function authHeaders(key: string = KEYS.mm, wallet: string = W1): Record<string, string> {
  return { "X-Api-Key": key, "X-User-Wallet": wallet };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
export function json(res: RawResponse): any {
  return JSON.parse(res.bodyText);
}

/** A frame as the order desk would publish it. */
export function orderPlacedFrame(wallet: string, orderId: string, serverTs: number) {
  return {
    type: "order_placed",
    channel: "user_orders",
    serverTs,
    walletAddress: wallet,
    orderId,
    clientOrderId: null,
    marketId: "TST",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    price: "0.5",
    originalQuantity: "10",
    remainingQty: "10",
    status: "OPEN",
  };
}
