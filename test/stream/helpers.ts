import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import type { UserStreamEvents, UserStreamOptions } from "../../src/stream/index.js";
import { UserStream } from "../../src/stream/index.js";
import { ORDER_ID, SYMBOL, WALLET, YES_TOKEN } from "../wire/fixtures.js";
import { FakeConnector } from "./fake-socket.js";

export { WALLET };
/** Shaped like a real key (spec 5.1 / docs/spec-gaps.md) so the shape scrubber would also catch it. */
export const API_KEY = "pmk_sim_0123456789abcdef_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
export const SEED = 42;
export const T0 = Date.UTC(2026, 0, 1);

export type Recorded = { [K in keyof UserStreamEvents]: { name: K; payload: UserStreamEvents[K] } }[keyof UserStreamEvents];

const EVENT_NAMES: (keyof UserStreamEvents)[] = [
  "connected",
  "subscribed",
  "frame",
  "unknown_frame",
  "invalid_frame",
  "disconnected",
  "reconnecting",
  "error",
  "wallet_mismatch",
];

export interface Harness {
  stream: UserStream;
  clock: VirtualClock;
  connector: FakeConnector;
  events: Recorded[];
  of<K extends keyof UserStreamEvents>(name: K): UserStreamEvents[K][];
  names(): string[];
}

export function harness(overrides: Partial<UserStreamOptions> = {}): Harness {
  const clock = new VirtualClock(T0);
  const connector = new FakeConnector();
  const stream = new UserStream({
    connector,
    apiKey: API_KEY,
    wallet: WALLET,
    clock,
    rng: new Rng(SEED),
    ...overrides,
  });
  const events: Recorded[] = [];
  for (const name of EVENT_NAMES) {
    stream.on(name, (payload) => events.push({ name, payload } as Recorded));
  }
  return {
    stream,
    clock,
    connector,
    events,
    of: <K extends keyof UserStreamEvents>(name: K) =>
      events.filter((e) => e.name === name).map((e) => e.payload as UserStreamEvents[K]),
    names: () => events.map((e) => e.name),
  };
}

/** Open the latest socket and confirm its subscription. */
export function openAndSubscribe(h: Harness, serverTs = T0): void {
  const s = h.connector.last;
  s.open();
  s.push({ type: "subscribed", channel: "user_orders", serverTs });
}

const base = (type: string, serverTs: number) => ({
  type,
  channel: "user_orders",
  serverTs,
  walletAddress: WALLET,
  orderId: ORDER_ID,
  clientOrderId: "mm1-abc-000001",
  marketId: SYMBOL,
});

export function orderPlaced(serverTs: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...base("order_placed", serverTs),
    tokenId: YES_TOKEN,
    outcome: 0,
    side: "BUY",
    price: "0.55",
    originalQuantity: "10",
    remainingQty: "10",
    status: "OPEN",
    ...overrides,
  };
}

export function userFill(serverTs: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...base("user_fill", serverTs),
    tradeId: "trd_1",
    tokenId: YES_TOKEN,
    outcome: 0,
    side: "BUY",
    price: "0.55",
    quantity: "4",
    fee: "0",
    role: "maker",
    orderStatus: "PARTIAL",
    filledQty: "4",
    remainingQty: "6",
    ...overrides,
  };
}

export function orderEnded(type: "order_cancelled" | "order_expired", serverTs: number): Record<string, unknown> {
  return {
    ...base(type, serverTs),
    originalQuantity: "10",
    remainingQty: "6",
    status: type === "order_expired" ? "EXPIRED" : "CANCELLED",
  };
}
