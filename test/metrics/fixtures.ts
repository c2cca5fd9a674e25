/**
 * A daemon's metrics with a sample value in every metric: real config secrets, a real rate gate
 * with a queued request and a 429, a real circuit breaker, stream stats, order-tracker counters,
 * risk halts, and every observer event.
 */
import { CircuitBreaker } from "../../src/api/breaker.js";
import { emptyCounters } from "../../src/bot/orders/order-tracker-types.js";
import { Risk } from "../../src/bot/risk/index.js";
import { parseConfig, type Config } from "../../src/config/index.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros } from "../../src/core/money.js";
import { DaemonMetrics, MetricsObserver, Probes, type StreamSource, type TrackerCountersSource } from "../../src/metrics/index.js";
import { RateGate } from "../../src/ratelimit/gate.js";
import type { UserStreamStats } from "../../src/stream/events.js";
import { ADMIN_TOKEN, API_KEY, KEY_1, liveYaml } from "../config/fixtures.js";
import { PROMTOOL } from "../deploy/tools.js";

export const T0 = Date.UTC(2026, 2, 1, 12);

export function liveConfig(withAdmin = true): Config {
  const extra = withAdmin ? "admin:\n  token: ${MM_ADMIN_TOKEN}\n" : "";
  return parseConfig(liveYaml(extra), "test-live.yaml", { MM_API_KEY: API_KEY, MM_WALLET_1_KEY: KEY_1, MM_ADMIN_TOKEN: ADMIN_TOKEN });
}

export function streamStats(over: Partial<UserStreamStats> = {}): UserStreamStats {
  return {
    connected: true,
    subscribed: true,
    reconnects: 2,
    framesReceived: 40,
    unknownFrames: 0,
    invalidFrames: 0,
    lastServerTs: T0 - 1_500,
    lastFrameAtMs: T0 - 1_400,
    ...over,
  };
}

export interface Daemon {
  clock: VirtualClock;
  config: Config;
  metrics: DaemonMetrics;
  observer: MetricsObserver;
  risk: Risk;
  probes: Probes;
  gate: RateGate;
  breaker: CircuitBreaker;
  wallet: { name: string; address: string };
  dispose: () => void;
}

export function daemon(opts: { withAdmin?: boolean; processMetrics?: boolean } = {}): Daemon {
  const clock = new VirtualClock(T0);
  const config = liveConfig(opts.withAdmin ?? true);
  const wallet = { name: config.wallets[0]!.name, address: config.wallets[0]!.address };
  const observer: { current?: MetricsObserver } = {};
  const risk = new Risk({ limits: config.risk, onChange: (c) => observer.current?.halt(c) });
  const metrics = new DaemonMetrics({
    clock,
    wallets: config.wallets,
    maxMarkets: config.markets.maxMarkets,
    processMetrics: opts.processMetrics ?? true,
    dailyLossLimit: config.risk.dailyLossLimit,
  });
  observer.current = new MetricsObserver(metrics);
  const gate = new RateGate({ clock, scheduler: "queue", onWait: (b, ms) => observer.current?.rateGateWait(b, ms) });
  const breaker = new CircuitBreaker(clock);
  const probes = new Probes({ clock, risk });
  const streams: StreamSource[] = [{ wallet: wallet.address, stats: () => streamStats() }];
  const trackers: TrackerCountersSource[] = [{ wallet: wallet.address, counters: { ...emptyCounters(), conflict: 1, notFoundTooSoon: 2 } }];
  metrics.setSources({ rateGate: gate, breaker, halts: risk, streams: () => streams, trackers: () => trackers, ready: () => probes.isReady() });
  return {
    clock,
    config,
    metrics,
    observer: observer.current,
    risk,
    probes,
    gate,
    breaker,
    wallet,
    dispose: () => gate.close(),
  };
}

/** Drive every metric to a sample value. */
export async function populate(d: Daemon): Promise<void> {
  const { observer: o, wallet, clock, gate, breaker, risk } = d;
  const w = wallet.name;
  const mk = "BTC-UP-2026";
  d.metrics.configInfo.set("0123456789abcdef");
  d.metrics.settlement.follow(() => [{ walletName: w, marketId: mk, state: "overdue", expected: 7_000_000n, received: 2_000_000n }]);
  d.metrics.lease.follow(() => [{ wallet: wallet.address, state: "lost", renewAgeSec: 14.5, losses: 1 }]);
  o.liveQuotes(w, mk, { buy: 2, sell: 2 });
  o.ordersPlaced(w, mk, 5);
  o.ordersCancelled(w, mk, 3);
  o.orderRejected(w, mk, "insufficient_funds");
  o.orderRejected(w, mk, "something_new");
  o.unknownOrders(w, 1);
  o.quotesDropped(w, mk, "position", 2);
  o.cycle(12, clock.now());
  o.quoteControlChanges("order_levels", 4);
  o.markout(w, mk, "BUY", 5_000, -2_000n);
  o.adverseState(w, mk, [{ outcome: 0, side: "BUY", level: "widen" }], true);
  o.fill({ wallet: w, market: mk, role: "maker", qty: parseMicros("10"), price: parseMicros("0.45"), fee: 0n });
  o.fill({ wallet: wallet.address, market: mk, role: "taker", qty: parseMicros("4"), price: parseMicros("0.5"), fee: parseMicros("0.04") });
  o.position(w, mk, 0, parseMicros("6"));
  o.pnl(w, mk, { realised: parseMicros("1.25"), unrealised: parseMicros("-0.5") });
  o.dailyPnl(w, parseMicros("0.75"));
  o.reconciliation(w, 0);
  o.reconciliation(w, 2);
  o.streamFrame(w, clock.now() - 80, clock.now());
  o.httpRequest({ method: "GET", path: "/api/orders/0xabc/fills?limit=5", status: 200, durationMs: 35 });
  o.httpRequest({ method: "POST", path: "/api/orders/place", status: undefined, durationMs: 10_000 });
  o.authRefusal(w, "api_key_revoked");
  o.vaultMerge(w, "started", parseMicros("20"));
  o.vaultMerge(w, "confirmed", parseMicros("20"));

  // Rate gate: the 19th place of the second waits (budget 18); a 429 is charged to the wallet bucket.
  for (let i = 0; i < 18; i++) await gate.acquire({ method: "POST", path: "/api/orders/place", wallet: wallet.address });
  const queued = gate.acquire({ method: "POST", path: "/api/orders/place", wallet: wallet.address });
  await clock.advance(1_000); // the next window admits it after a 1 s wait: a wait-time sample
  await queued;
  // A 429 without rate headers blocks every bucket of the request for Retry-After: a cancel queues.
  gate.observe({ method: "POST", path: "/api/orders/cancel", wallet: wallet.address, status: 429, headers: { "retry-after": "2" } });
  void gate.acquire({ method: "POST", path: "/api/orders/cancel", wallet: wallet.address }).catch(() => undefined);

  // Breaker: 10 failures open it, one more request is refused.
  for (let i = 0; i < 10; i++) {
    const p = breaker.tryAcquire();
    if (p.ok) breaker.record(true, p.probe);
  }
  breaker.tryAcquire();

  risk.evaluate({ marketData: [{ market: mk, lastUpdateMs: undefined }] }, clock.now());
  risk.halt({ kind: "wallet", wallet: w }, "checking", clock.now());
  d.probes.markStarted();
  d.probes.tick(clock.now());
}

/**
 * promtool, from Debian's prometheus package (test/deploy/tools.ts): without it the promtool checks are
 * skipped with a notice on a developer's machine, and FAIL under CI (.ci/run installs it).
 */
export { PROMTOOL };

/** Run promtool; throws (the test fails, never skips silently) when it is not installed. */
export function promtool(args: string[], input?: string): { status: number | null; out: string } {
  return PROMTOOL.run(args, input);
}

/**
 * `promtool check metrics` on an exposition, for tests where it is one check among others: undefined
 * (after a printed notice) when promtool is missing outside CI, so the rest of the test still runs.
 */
export function promtoolCheckMetrics(text: string): { status: number | null; out: string } | undefined {
  if (PROMTOOL.noticeIfSkipped("promtool check metrics")) return undefined;
  return PROMTOOL.run(["check", "metrics"], text);
}
