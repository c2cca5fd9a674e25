/**
 * Scrape-time collectors: read the live objects (rate gate, circuit breaker, user streams, risk
 * halts, readiness, the engine's orders, positions and PnL) and set the matching metrics.
 * Counters read this way hold totals kept by their source, so they are reset and set to the
 * source's value (the source never goes back). Series whose source disappeared disappear with
 * the reset (a market no longer followed leaves no gauge behind). Live quotes, positions and
 * market halts take market labels (those markets are in use; a position of a market without one
 * sums into "other"); PnL only reads them.
 */
import type { BreakerStats } from "../api/breaker.js";
import type { Halt } from "../bot/risk/types.js";
import { HALT_REASONS } from "../bot/risk/types.js";
import { microsToNumber } from "../core/money.js";
import type { BucketStats } from "../ratelimit/gate.js";
import type { MetricSet } from "./metric-set.js";
import { TRACKER_ANOMALY_KINDS, type EngineStateSource, type StreamSource, type TrackerCountersSource } from "./scrape-sources.js";

const BREAKER_STATES = ["closed", "open", "half_open"] as const;

export function refreshScrapeMetrics(m: MetricSet): void {
  const s = m.sources;
  if (s.rateGate !== undefined) refreshRateGate(m, s.rateGate.stats());
  if (s.breaker !== undefined) refreshBreaker(m, s.breaker.stats());
  if (s.streams !== undefined) refreshStreams(m, s.streams());
  refreshHalts(m, s.halts?.halts() ?? []);
  if (s.ready !== undefined) m.ready.set(s.ready() ? 1 : 0);
  if (s.engine !== undefined) refreshEngine(m, s.engine);
  if (s.trackers !== undefined) refreshTrackers(m, s.trackers());
}

function refreshTrackers(m: MetricSet, sources: Iterable<TrackerCountersSource>): void {
  m.trackerAnomalies.reset();
  // Wallets folding into one label ("other") are summed.
  for (const s of sources) {
    const wallet = m.labels.wallet(s.wallet);
    for (const [kind, field] of Object.entries(TRACKER_ANOMALY_KINDS)) m.trackerAnomalies.inc({ wallet, kind }, s.counters[field]);
  }
}

function refreshEngine(m: MetricSet, e: EngineStateSource): void {
  for (const g of [m.liveQuotes, m.ordersUnknown, m.position, m.realisedPnl, m.unrealisedPnl, m.dailyPnl]) g.reset();
  // Gauges from state: they take labels (quoted markets first: they may take the slot of a market
  // only holding shares) but touch no counter.
  const wm = (wallet: string, market: string) => ({ wallet: m.labels.wallet(wallet), market: m.labels.market(market, false) });
  // Several values may fold into one label ("other"): they are summed.
  for (const q of e.liveQuotes()) {
    m.liveQuotes.inc({ ...wm(q.wallet, q.market), side: "buy" }, q.buy);
    m.liveQuotes.inc({ ...wm(q.wallet, q.market), side: "sell" }, q.sell);
  }
  for (const u of e.unknownOrders()) m.ordersUnknown.inc({ wallet: m.labels.wallet(u.wallet) }, u.count);
  for (const p of e.positions()) {
    const outcome = Number.isInteger(p.outcome) && p.outcome >= 0 && p.outcome < 64 ? String(p.outcome) : "other";
    m.position.inc({ ...wm(p.wallet, p.market), outcome }, microsToNumber(p.qty));
  }
  // PnL is kept for every market ever traded: it never takes a label (that would pin the label
  // of a market long gone). A market without one, released or past the cap, sums into "other",
  // so the sum over markets stays the wallet's total.
  for (const p of e.pnl()) {
    const l = { wallet: m.labels.wallet(p.wallet), market: m.labels.marketIfLabelled(p.market) };
    m.realisedPnl.inc(l, microsToNumber(p.realised));
    m.unrealisedPnl.inc(l, microsToNumber(p.unrealised));
  }
  for (const d of e.dailyPnl()) m.dailyPnl.inc({ wallet: m.labels.wallet(d.wallet) }, microsToNumber(d.pnl));
}

function subjectOf(m: MetricSet, b: BucketStats): string {
  return b.scope === "wallet" ? m.labels.wallet(b.subject) : b.scope;
}

function refreshRateGate(m: MetricSet, stats: readonly BucketStats[]): void {
  m.gateQueueDepth.reset();
  m.gateWindowUsed.reset();
  m.gateAdmitted.reset();
  m.gate429.reset();
  // Several addresses may fold into "other": counts are summed, the used ratio is the highest.
  const used = new Map<string, { labels: { bucket: string; subject: string }; ratio: number }>();
  for (const b of stats) {
    const labels = { bucket: m.labels.bucket(b.bucket), subject: subjectOf(m, b) };
    m.gateQueueDepth.inc(labels, b.queueDepth);
    m.gateAdmitted.inc(labels, b.admitted);
    m.gate429.inc(labels, b.rejected429);
    const ratio = b.blockedForMs > 0 ? 1 : Number.isFinite(b.budget) && b.budget > 0 ? Math.min(1, b.used / b.budget) : 0;
    const k = `${labels.bucket}\u0000${labels.subject}`;
    const prev = used.get(k);
    if (prev === undefined || ratio > prev.ratio) used.set(k, { labels, ratio });
  }
  for (const { labels, ratio } of used.values()) m.gateWindowUsed.set(labels, ratio);
}

function refreshBreaker(m: MetricSet, st: BreakerStats): void {
  for (const state of BREAKER_STATES) m.breakerState.set({ state }, st.state === state ? 1 : 0);
  m.breakerOpened.reset();
  m.breakerOpened.inc(st.opened);
  m.breakerRefused.reset();
  m.breakerRefused.inc(st.refused);
}

function refreshStreams(m: MetricSet, streams: Iterable<StreamSource>): void {
  m.streamConnected.reset();
  m.streamReconnects.reset();
  m.streamFrames.reset();
  m.streamFrameLag.reset();
  const now = m.clock.now();
  for (const src of streams) {
    const wallet = m.labels.wallet(src.wallet);
    const st = src.stats();
    m.streamConnected.set({ wallet }, st.connected && st.subscribed ? 1 : 0);
    m.streamReconnects.inc({ wallet }, st.reconnects);
    m.streamFrames.inc({ wallet }, st.framesReceived);
    if (st.lastServerTs !== undefined) m.streamFrameLag.set({ wallet }, Math.max(0, now - st.lastServerTs) / 1000);
  }
}

function haltTarget(m: MetricSet, h: Halt): string {
  switch (h.scope.kind) {
    case "global":
      return "all";
    case "wallet":
      return m.labels.wallet(h.scope.wallet);
    case "market":
      return m.labels.market(h.scope.market, false);
  }
}

function refreshHalts(m: MetricSet, halts: readonly Halt[]): void {
  m.haltActive.reset();
  const perReason = new Map<string, number>(HALT_REASONS.map((r) => [r, 0]));
  for (const h of halts) {
    m.haltActive.set({ scope: h.scope.kind, target: haltTarget(m, h), reason: h.reason }, 1);
    perReason.set(h.reason, (perReason.get(h.reason) ?? 0) + 1);
  }
  for (const [reason, n] of perReason) m.haltsActive.set({ reason }, n);
}
