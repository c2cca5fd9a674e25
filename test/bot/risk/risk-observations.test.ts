/**
 * RiskWatch (src/bot/risk/risk-observations.ts): engine events and the engine's sources turned
 * into the facade's observations. core-risk.test.ts walks the main paths (a stream going down and
 * up, queued rejects, a never-read book, the UTC-day PnL baseline); this file pins the rest of the
 * contract: wallet naming, the stream states that change nothing, the oldest of a market's books,
 * what collect hands over and copies, and position-only drift (docs/spec-gaps.md).
 */
import { describe, expect, it } from "vitest";
import { RiskWatch, type ObservationSources } from "../../../src/bot/risk/risk-observations.js";
import type { BreakerState } from "../../../src/api/breaker.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const DAY0 = Date.UTC(2026, 2, 10);
const A = "0x00000000000000000000000000000000000000Aa";
const B = "0x00000000000000000000000000000000000000bb";

interface Books {
  read: Map<string, number>;
  stale: Set<string>;
}

function sources(over: Partial<ObservationSources> = {}) {
  const books: Books = { read: new Map(), stale: new Set() };
  const pnl = new Map<string, Micros>();
  let breaker: BreakerState = "closed";
  let quoted: { symbol: string; outcomes: number[] }[] = [];
  const src: ObservationSources = {
    wallets: [{ name: "alpha", address: A.toLowerCase() }],
    breaker: () => breaker,
    quotedMarkets: () => quoted,
    data: {
      book: (s, o) => {
        const at = books.read.get(`${s}/${o}`);
        return at === undefined ? undefined : { fetchedAtMs: at };
      },
      isStale: (s, o) => books.stale.has(`${s}/${o}`),
    },
    netPnl: (w) => pnl.get(w) ?? 0n,
    ...over,
  };
  return {
    src,
    books,
    pnl,
    setBreaker: (b: BreakerState) => (breaker = b),
    setQuoted: (q: { symbol: string; outcomes: number[] }[]) => (quoted = q),
  };
}

describe("wallet names", () => {
  it("names a wallet by its configured name whatever the case of its address; an unknown one keeps its address", () => {
    const w = new RiskWatch(sources().src, () => T0);
    expect(w.nameOf(A)).toBe("alpha");
    expect(w.nameOf(A.toUpperCase().replace("0X", "0x"))).toBe("alpha");
    expect(w.nameOf(B)).toBe(B);
    w.onEvent({ type: "order_rejected", wallet: A.toUpperCase(), marketId: "M", clientOrderId: "c", code: "insufficient_balance", handling: "business_reject" });
    w.onEvent({ type: "order_rejected", wallet: B, marketId: "M", clientOrderId: "d", code: "insufficient_balance", handling: "business_reject" });
    expect(w.collect(T0).obs.rejects?.map((r) => r.wallet)).toEqual(["alpha", B]);
  });

  it("stamps a reject with the watch's clock, not the event's", () => {
    let now = T0;
    const w = new RiskWatch(sources().src, () => now);
    now = T0 + 1_234;
    w.onEvent({ type: "order_rejected", wallet: A, marketId: "M", clientOrderId: "c", code: "market_closed", handling: "business_reject" });
    expect(w.collect(T0 + 5_000).obs.rejects).toEqual([{ wallet: "alpha", market: "M", code: "market_closed", atMs: T0 + 1_234 }]);
  });
});

describe("streams", () => {
  it("a socket connected but not yet subscribed changes nothing", () => {
    const w = new RiskWatch(sources().src, () => T0);
    w.onEvent({ type: "stream_state", wallet: A, state: "connected", at: T0 });
    expect(w.collect(T0).obs.streams).toEqual([]);
    w.onEvent({ type: "stream_state", wallet: A, state: "disconnected", at: T0 + 5 });
    w.onEvent({ type: "stream_state", wallet: A, state: "connected", at: T0 + 10 });
    expect(w.collect(T0 + 20).obs.streams).toEqual([{ wallet: "alpha", connected: false, downSinceMs: T0 + 5 }]);
  });

  it("keeps the last reconciliation across a drop and a resubscribe, so stream_down clears only after a newer one", () => {
    const w = new RiskWatch(sources().src, () => T0);
    w.onEvent({ type: "stream_state", wallet: A, state: "subscribed", at: T0 });
    w.onEvent({ type: "synced", wallet: A, reason: "startup", at: T0 + 1 });
    w.onEvent({ type: "stream_state", wallet: A, state: "disconnected", at: T0 + 2 });
    expect(w.collect(T0 + 3).obs.streams).toEqual([{ wallet: "alpha", connected: false, downSinceMs: T0 + 2, reconciledAtMs: T0 + 1 }]);
    w.onEvent({ type: "stream_state", wallet: A, state: "subscribed", at: T0 + 4 });
    const [s] = w.collect(T0 + 5).obs.streams ?? [];
    expect(s).toEqual({ wallet: "alpha", connected: true, connectedSinceMs: T0 + 4, reconciledAtMs: T0 + 1 });
    // The reconciliation is older than the subscription: not yet proof that nothing was missed.
    expect(s!.reconciledAtMs! < s!.connectedSinceMs!).toBe(true);
  });

  it("a sync of a wallet whose stream was never seen starts no stream record", () => {
    const w = new RiskWatch(sources().src, () => T0);
    w.onEvent({ type: "synced", wallet: A, reason: "startup", at: T0 });
    expect(w.collect(T0).obs.streams).toEqual([]);
  });

  it("forgets the stream of a wallet stopped or abandoned, not of one starting or ready", () => {
    for (const state of ["stopped", "abandoned"] as const) {
      const w = new RiskWatch(sources().src, () => T0);
      w.onEvent({ type: "stream_state", wallet: A, state: "disconnected", at: T0 });
      w.onEvent({ type: "wallet_state", wallet: A, state });
      expect(w.collect(T0).obs.streams).toEqual([]);
    }
    const w = new RiskWatch(sources().src, () => T0);
    w.onEvent({ type: "stream_state", wallet: A, state: "disconnected", at: T0 });
    w.onEvent({ type: "wallet_state", wallet: A, state: "ready" });
    w.onEvent({ type: "wallet_state", wallet: A, state: "onboarding" });
    expect(w.collect(T0).obs.streams).toHaveLength(1);
  });

  it("hands out copies: changing a collected stream does not change the next collection", () => {
    const w = new RiskWatch(sources().src, () => T0);
    w.onEvent({ type: "stream_state", wallet: A, state: "disconnected", at: T0 });
    const first = w.collect(T0).obs.streams!;
    (first[0] as { downSinceMs?: number }).downSinceMs = 0;
    expect(w.collect(T0).obs.streams![0]!.downSinceMs).toBe(T0);
  });
});

describe("reconciliations", () => {
  it("counts drifted positions only; cash drift alone is not a drifted record (docs/spec-gaps.md)", () => {
    const w = new RiskWatch(sources().src, () => T0);
    w.onEvent({ type: "reconciliation", wallet: A, positions: 0, cash: 1, at: T0 });
    w.onEvent({ type: "reconciliation", wallet: A, positions: 3, cash: 0, at: T0 + 1 });
    expect(w.collect(T0 + 2).obs.reconciliations).toEqual([
      { wallet: "alpha", drifted: 0, atMs: T0 },
      { wallet: "alpha", drifted: 3, atMs: T0 + 1 },
    ]);
  });

  it("is pending until collected, then hands the queue over once", () => {
    const w = new RiskWatch(sources().src, () => T0);
    expect(w.pending).toBe(false);
    w.onEvent({ type: "reconciliation", wallet: A, positions: 1, cash: 0, at: T0 });
    expect(w.pending).toBe(true);
    const first = w.collect(T0).obs.reconciliations;
    expect(first).toHaveLength(1);
    expect(w.pending).toBe(false);
    expect(w.collect(T0).obs.reconciliations).toEqual([]);
    // What was handed over is not cleared under the caller's feet.
    expect(first).toHaveLength(1);
  });
});

describe("market data and breaker", () => {
  it("reports each quoted market with the read time of its oldest book, and the breaker as read at collect", () => {
    const s = sources();
    const w = new RiskWatch(s.src, () => T0);
    s.setQuoted([
      { symbol: "BIN", outcomes: [0, 1] },
      { symbol: "MULTI", outcomes: [0, 1, 2] },
    ]);
    s.books.read.set("BIN/0", T0 - 2_000).set("BIN/1", T0 - 7_000);
    s.books.read.set("MULTI/0", T0 - 1_000).set("MULTI/2", T0 - 500);
    s.setBreaker("half_open");
    const { obs, markets } = w.collect(T0);
    expect(markets).toEqual(["BIN", "MULTI"]);
    expect(obs.breaker).toBe("half_open");
    // MULTI/1 was never read but is not stale yet: the read outcomes decide.
    expect(obs.marketData).toEqual([
      { market: "BIN", lastUpdateMs: T0 - 7_000 },
      { market: "MULTI", lastUpdateMs: T0 - 1_000 },
    ]);
  });

  it("a stale book never read makes the whole market count as never updated", () => {
    const s = sources();
    const w = new RiskWatch(s.src, () => T0);
    s.setQuoted([{ symbol: "MULTI", outcomes: [0, 1, 2] }]);
    s.books.read.set("MULTI/0", T0 - 1_000);
    s.books.stale.add("MULTI/2");
    expect(w.collect(T0).obs.marketData).toEqual([{ market: "MULTI", lastUpdateMs: undefined }]);
  });

  it("a stale book that was read reports its read time", () => {
    const s = sources();
    const w = new RiskWatch(s.src, () => T0);
    s.setQuoted([{ symbol: "BIN", outcomes: [0] }]);
    s.books.read.set("BIN/0", T0 - 40_000);
    s.books.stale.add("BIN/0");
    expect(w.collect(T0).obs.marketData).toEqual([{ market: "BIN", lastUpdateMs: T0 - 40_000 }]);
  });
});

describe("daily PnL", () => {
  it("one wallet: its own figure and no total (the global loss would repeat the wallet's)", () => {
    const s = sources();
    const w = new RiskWatch(s.src, () => T0);
    s.pnl.set(A.toLowerCase(), parseMicros("-12.5"));
    expect(w.collect(T0).obs.pnl).toEqual([{ wallet: "alpha", dayStartMs: DAY0, pnl: parseMicros("-12.5") }]);
    expect(w.dailyPnl()).toEqual(new Map([["alpha", parseMicros("-12.5")]]));
  });

  it("a new UTC day counts from the net PnL seen at its first look, not from the day before", () => {
    const s = sources();
    s.pnl.set(A.toLowerCase(), parseMicros("30"));
    // Constructed late on one day, first collected on the next: the baseline is taken at the first look of the new day.
    const w = new RiskWatch(s.src, () => DAY0 - 1);
    expect(w.collect(T0).obs.pnl).toEqual([{ wallet: "alpha", dayStartMs: DAY0, pnl: 0n }]);
    s.pnl.set(A.toLowerCase(), parseMicros("25"));
    expect(w.collect(T0 + 1).obs.pnl).toEqual([{ wallet: "alpha", dayStartMs: DAY0, pnl: parseMicros("-5") }]);
  });
});
