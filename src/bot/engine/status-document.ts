/**
 * The document of `GET /status` (src/metrics/status-route.ts) from the daemon's parts as they are
 * now: per wallet its label, address, state, non-terminal orders, positions and PnL; the markets
 * selected (or holding one of our orders) with their phase; totals; every halt. Money as decimal
 * strings. Nothing here reads a secret: wallets are named by label and address only.
 */
import { formatMicros } from "../../core/money.js";
import type { Config } from "../../config/index.js";
import { redactSecrets } from "../../log/redact.js";
import { STATUS_VERSION, statusHalt, type StatusDocument, type StatusHalt, type StatusLease, type StatusMarket, type StatusOrder, type StatusPnl, type StatusWallet } from "../../metrics/status-route.js";
import type { LeaseView } from "../guards/wallet-lease.js";
import type { Inventory } from "../fills/inventory.js";
import type { MarketDataSource } from "../market/market-data.js";
import { marketPhase } from "../market/market-phase.js";
import type { MarketRegistry } from "../market/market-registry.js";
import { isTerminal } from "../orders/order-states.js";
import type { TrackedOrder } from "../orders/order-tracker-types.js";
import type { Halt } from "../risk/types.js";
import { marksFrom, type DaemonStatus, type PnlFigures } from "./status.js";

export interface StatusDocumentParts {
  config: Pick<Config, "instance" | "quoting">;
  nowMs: number;
  ready: boolean;
  /** The one-line status (daemon.status()): wallet states and totals. */
  status: DaemonStatus;
  runners: readonly { name: string; wallet: string; tracker: { all(): TrackedOrder[] } }[];
  registry: MarketRegistry;
  data: MarketDataSource;
  inventory: Inventory;
  /** The risk facade's halts. */
  halts: readonly Halt[];
  /** Halts of an extra risk hook, as text. */
  hookHalts: readonly string[];
  /** shard.lease: the wallet's lease (lower-cased address); absent or undefined: no lease shown. */
  lease?: ((wallet: string) => LeaseView | undefined) | undefined;
}

function leaseJson(v: LeaseView, nowMs: number): StatusLease {
  return {
    name: v.name,
    state: v.state,
    holder: v.holder ?? null,
    renewedAt: v.renewedAtMs === undefined ? null : new Date(v.renewedAtMs).toISOString(),
    renewAgeSec: v.renewedAtMs === undefined ? null : Math.max(0, nowMs - v.renewedAtMs) / 1000,
    since: new Date(v.sinceMs).toISOString(),
    losses: v.losses,
    error: v.error === undefined ? null : redactSecrets(v.error),
  };
}

function pnlJson(p: PnlFigures): StatusPnl {
  return { realised: formatMicros(p.realised), unrealised: formatMicros(p.unrealised), fees: formatMicros(p.fees), net: formatMicros(p.net) };
}

function orderJson(o: TrackedOrder): StatusOrder {
  return {
    orderId: o.orderId ?? null,
    clientOrderId: o.clientOrderId,
    market: o.marketId,
    outcome: o.outcome,
    side: o.side,
    price: formatMicros(o.price),
    size: formatMicros(o.size),
    filled: formatMicros(o.filledQty),
    state: o.state,
    createdAt: new Date(o.createdAtMs).toISOString(),
  };
}

function byMarketThenPrice(a: StatusOrder, b: StatusOrder): number {
  return a.market.localeCompare(b.market) || a.outcome - b.outcome || a.side.localeCompare(b.side) || Number(b.price) - Number(a.price);
}

export function statusDocument(p: StatusDocumentParts): StatusDocument {
  const marks = marksFrom(p.registry, p.data);
  const liveBy = new Map<string, number>();
  const wallets: StatusWallet[] = p.runners.map((r, i) => {
    const s = p.status.wallets[i];
    const orders = r.tracker
      .all()
      .filter((o) => !isTerminal(o.state))
      .map(orderJson)
      .sort(byMarketThenPrice);
    for (const o of orders) liveBy.set(o.market, (liveBy.get(o.market) ?? 0) + 1);
    const positions = p.inventory
      .positions(r.wallet)
      .filter((x) => x.qty !== 0n)
      .map((x) => ({
        market: x.marketId,
        outcome: x.outcome,
        qty: formatMicros(x.qty),
        avgCost: x.avgCost === null ? null : formatMicros(x.avgCost),
        realised: formatMicros(x.realisedPnl),
        fees: formatMicros(x.fees),
      }));
    const wallet: StatusWallet = {
      name: r.name,
      address: r.wallet,
      state: s?.state ?? "unknown",
      streamSubscribed: s?.streamSubscribed ?? false,
      markets: s?.markets ?? [],
      openOrders: orders.length,
      unknownOrders: s?.unknownOrders ?? 0,
      pnl: pnlJson(p.inventory.pnl(r.wallet, marks)),
      positions,
      orders,
    };
    const lease = p.lease?.(r.wallet);
    return lease === undefined ? wallet : { ...wallet, lease: leaseJson(lease, p.nowMs) };
  });
  const pullBeforeCloseMs = p.config.quoting.pullBeforeCloseSec * 1000;
  const markets: StatusMarket[] = p.registry
    .all()
    .filter((e) => e.selected || liveBy.has(e.row.symbol))
    .map((e) => ({
      symbol: e.row.symbol,
      status: e.row.status,
      phase: marketPhase(e.row, p.nowMs, { pullBeforeCloseMs }).phase,
      wallets: e.wallet === undefined ? [] : [p.runners[e.wallet]?.name ?? String(e.wallet)],
      openOrders: liveBy.get(e.row.symbol) ?? 0,
    }))
    .sort((a, b) => a.symbol.localeCompare(b.symbol));
  const halts: StatusHalt[] = [
    ...p.halts.map(statusHalt),
    ...p.hookHalts.map((detail) => ({ scope: "hook", target: "", reason: "risk_hook", detail: redactSecrets(detail), since: null })),
  ];
  const s = p.status;
  return {
    version: STATUS_VERSION,
    at: new Date(p.nowMs).toISOString(),
    instance: p.config.instance.id,
    running: s.running,
    ready: p.ready,
    wallets,
    markets,
    totals: {
      openOrders: wallets.reduce((n, w) => n + w.openOrders, 0),
      unknownOrders: s.unknownOrders,
      fills: s.fills,
      positions: s.positions,
      sharesHeld: formatMicros(s.sharesHeld),
      pnl: pnlJson(s.pnl),
    },
    halts,
  };
}
