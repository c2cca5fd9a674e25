/**
 * The daemon's status snapshot and the one-line summary the demo prints every few seconds.
 */
import { ONE, formatFixed, type Micros } from "../../core/money.js";
import type { FillLedger } from "../fills/fill-ledger.js";
import type { Inventory, Marks } from "../fills/inventory.js";
import type { MarketDataSource } from "../market/market-data.js";
import { midOf } from "../quote/quote-cycle.js";
import type { MarketRegistry } from "../market/market-registry.js";
import type { EngineView } from "../risk/risk-hook.js";
import type { WalletRunner } from "./wallet-runner.js";
import type { WalletStatus } from "./wallet-types.js";

export interface PnlFigures {
  realised: Micros;
  unrealised: Micros;
  fees: Micros;
  net: Micros;
}

export interface DaemonStatus {
  at: number;
  running: boolean;
  markets: { selected: number; quoted: number };
  wallets: WalletStatus[];
  openOrders: number;
  unknownOrders: number;
  fills: number;
  /** Non-zero positions across wallets. */
  positions: number;
  /** Shares held across those positions (sum of |qty|, micro-shares). */
  sharesHeld: Micros;
  pnl: PnlFigures;
  halts: readonly string[];
}

/** Marks from the polled books: mid of each outcome's book (binary: YES mid, NO at 1 - mid). */
export function marksFrom(registry: MarketRegistry, data: MarketDataSource): Marks {
  return (marketId, outcome) => {
    const e = registry.get(marketId);
    if (e === undefined) return undefined;
    if (e.row.outcomeCount === 2) {
      const yes = midOf(data.book(marketId, 0)?.view);
      if (yes === undefined) return undefined;
      return outcome === 0 ? yes : outcome === 1 ? ONE - yes : undefined;
    }
    return midOf(data.book(marketId, outcome)?.view);
  };
}

export function pnlOf(inventory: Inventory, wallets: readonly string[], marks: Marks): PnlFigures {
  const total: PnlFigures = { realised: 0n, unrealised: 0n, fees: 0n, net: 0n };
  for (const w of wallets) {
    const p = inventory.pnl(w, marks);
    total.realised += p.realised;
    total.unrealised += p.unrealised;
    total.fees += p.fees;
    total.net += p.net;
  }
  return total;
}

function signed(v: Micros): string {
  return (v >= 0n ? "+" : "") + formatFixed(v, 2);
}

/** `HH:MM:SS` of an instant, UTC (the pretty logs' clock too). */
function timeOfDay(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/**
 * The status line `mm run` prints every few seconds, short enough for one terminal line:
 *
 *   12:40:28 | wallets 3/3 ready | markets 6/6 quoted | orders 14 | fills 2 | positions 2 (20 sh) | pnl +0.05 (fees 0.00) | halts none
 *
 * Streams, unknown orders and halts are named only when something is wrong; the PnL breakdown is
 * in /metrics and `mm status`.
 */
export function formatStatusLine(s: DaemonStatus): string {
  const ready = s.wallets.filter((w) => w.state === "ready").length;
  const streamsDown = s.wallets.length - s.wallets.filter((w) => w.streamSubscribed).length;
  const parts = [
    timeOfDay(s.at),
    `wallets ${ready}/${s.wallets.length} ready${streamsDown > 0 ? ` (${streamsDown} stream${streamsDown === 1 ? "" : "s"} down)` : ""}`,
    `markets ${s.markets.quoted}/${s.markets.selected} quoted`,
    `orders ${s.openOrders}${s.unknownOrders > 0 ? ` (${s.unknownOrders} unknown)` : ""}`,
    `fills ${s.fills}`,
    `positions ${s.positions} (${formatFixed(s.sharesHeld, 0)} sh)`,
    `pnl ${signed(s.pnl.net)} (fees ${formatFixed(s.pnl.fees, 2)})`,
    `halts ${s.halts.length === 0 ? "none" : s.halts.join("; ")}`,
  ];
  const adverse = adverseOf(s.wallets);
  if (adverse !== undefined) parts.splice(parts.length - 1, 0, adverse);
  return parts.join(" | ");
}

/** "adverse 1 widened, 1 pulled, 0 cooling" when a toxicity or jump control acts on some wallet (adverse:), else nothing. */
function adverseOf(wallets: readonly WalletStatus[]): string | undefined {
  let widen = 0;
  let pull = 0;
  let cooling = 0;
  for (const w of wallets) {
    widen += w.adverse?.widen ?? 0;
    pull += w.adverse?.pull ?? 0;
    cooling += w.adverse?.cooling ?? 0;
  }
  return widen + pull + cooling === 0 ? undefined : `adverse ${widen} widened, ${pull} pulled, ${cooling} cooling`;
}

export interface StatusParts {
  nowMs: number;
  running: boolean;
  runners: readonly { wallet: string; tracker: { liveOrders(marketId: string): readonly unknown[] }; status(): WalletStatus }[];
  registry: MarketRegistry;
  data: MarketDataSource;
  ledger: FillLedger;
  inventory: Inventory;
  halts: readonly string[];
}

export function statusOf(p: StatusParts): DaemonStatus {
  const wallets = p.runners.map((r) => r.status());
  let quoted = 0;
  for (const e of p.registry.selected()) if (p.runners.some((r) => r.tracker.liveOrders(e.row.symbol).length > 0)) quoted += 1;
  const addresses = p.runners.map((r) => r.wallet);
  let positions = 0;
  let sharesHeld = 0n;
  for (const a of addresses) {
    for (const x of p.inventory.positions(a)) {
      if (x.qty === 0n) continue;
      positions += 1;
      sharesHeld += x.qty < 0n ? -x.qty : x.qty;
    }
  }
  return {
    at: p.nowMs,
    running: p.running,
    markets: { selected: p.registry.selected().length, quoted },
    wallets,
    openOrders: wallets.reduce((n, w) => n + w.liveOrders, 0),
    unknownOrders: wallets.reduce((n, w) => n + w.unknownOrders, 0),
    fills: p.ledger.total,
    positions,
    sharesHeld,
    pnl: pnlOf(p.inventory, addresses, marksFrom(p.registry, p.data)),
    halts: p.halts,
  };
}

/** The engine's read-only view (risk hooks, the core risk), over the daemon's parts as they are at each call. */
export function engineViewOf(d: { readonly runners: readonly WalletRunner[]; readonly registry: MarketRegistry; readonly data: MarketDataSource; readonly inventory: Inventory }): EngineView {
  return {
    wallets: () => d.runners.map((r) => r.wallet),
    markets: () => d.registry.all().map((e) => e.row.symbol),
    liveOrders: (wallet, marketId) => d.runners.find((r) => r.wallet === wallet.toLowerCase())?.tracker.liveOrders(marketId) ?? [],
    positions: (wallet, marketId) => d.inventory.positions(wallet, marketId),
    pnl: (wallet) => d.inventory.pnl(wallet, marksFrom(d.registry, d.data)),
    mark: (marketId, outcome) => marksFrom(d.registry, d.data)(marketId, outcome),
    outcomeCount: (marketId) => d.registry.get(marketId)?.row.outcomeCount,
  };
}
