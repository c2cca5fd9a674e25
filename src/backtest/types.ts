/**
 * The backtest report: plain JSON data. Money, prices and share quantities are decimal strings
 * (formatMicros: "12.5", "-0.000123", "0"), never floats; counts are integers; fractions (quote
 * uptime) are decimal strings with four places. Everything except `timing` is a function of the
 * config, the scenario, the seed and the duration: two runs with the same inputs give the same
 * bytes (see docs/backtest.md).
 */

import type { SeriesReport } from "./series.js";
import type { ReplayStats } from "../sim/flow/replay.js";

/** Report format version: bumped when a field changes meaning. */
export const REPORT_VERSION = 3;

export interface BacktestReport {
  version: number;
  /** True when `problems` is empty: the run finished cleanly and the ledger matched the platform. */
  ok: boolean;
  /** Why the numbers should not be trusted (consistency failure, start-up or shutdown trouble). */
  problems: string[];
  /**
   * What the reader must know but does not make the numbers wrong: a check that was skipped (and
   * why), positions left out of unrealised PnL, positions valued at an old mark, halts and drift.
   */
  warnings: string[];
  run: RunFacts;
  /** How unrealised PnL was marked (stated once; per market in `markets[].mark`). */
  markMethod: string;
  markets: MarketReport[];
  wallets: WalletReport[];
  totals: TotalFigures;
  consistency: ConsistencyReport;
  /**
   * Unrealised and net PnL if every unsettled position were valued at the simulator's HIDDEN fair
   * value instead of the mark: a sensitivity figure, not a market price (no one could trade there).
   */
  atFairValue: FairValueFigures;
  events: EventFigures;
  /** Time series to the end of trading: equity, inventory, quotes, fills, markouts, days (series.ts, docs/backtest.md "Time series"). */
  series?: SeriesReport;
  /** Wall-clock figures: the only part that differs between two identical runs. */
  timing: TimingFigures;
}

export interface RunFacts {
  /** The config file as given; "(in-memory config)" when a config object was passed without a path. */
  config: string;
  /** The scenario file used (the override, the config's simulator.scenario, or the default). */
  scenario: string;
  scenarioSource: "override" | "config" | "default";
  /** Seed of the simulator's random flow and of the daemon's Rng (salts, jitter); ids are counters. */
  seed: number;
  seedSource: "override" | "config";
  instance: string;
  strategy: { name: string; params: Record<string, unknown> };
  /** The config's wallets (keys are never reported). */
  walletNames: { name: string; address: string }[];
  /** Virtual time (ISO 8601) the simulator and daemon started. */
  virtualStart: string;
  /** Virtual time trading was asked to stop: virtualStart + duration. */
  virtualEnd: string;
  /** Virtual time the daemon's shutdown finished (every order cancelled or reported left). */
  shutdownEnd: string;
  durationMs: number;
  duration: string;
  /** Virtual step of the clock driver (also the quote-uptime sampling period). */
  stepMs: number;
  /**
   * "on": orders signed (EIP-712, secp256k1) and verified by the simulator, as live. "off"
   * (`--signatures off`): neither; same matching, fills and PnL (docs/backtest.md "Signatures off").
   */
  signatures: "on" | "off";
  /** Present only when a recording was replayed (`--data`): what the replay did (src/sim/flow/replay.ts). */
  data?: ReplayFacts;
  startup: {
    /** Virtual time the daemon's start() resolved; null when it never did. */
    readyAt: string | null;
    markets: string[];
    wallets: { name: string; ready: boolean; error?: string }[];
    error?: string;
  };
  shutdown: {
    reason: string;
    exitCode: number;
    wallets: {
      name: string;
      cancelled: number;
      leftover: number;
      unresolved: number;
      /** Orders the platform did not confirm ended, one line each with why (docs/operations.md). */
      unconfirmed: string[];
      /** The last open-orders walk succeeded. */
      finalWalkOk: boolean;
      errors: string[];
      /** Open orders of the wallet on the simulator's book after shutdown (read there, not from the daemon). */
      platformOpenOrders: number;
    }[];
  };
}

/**
 * A replayed recording: the data set and what its replay did in the simulator, i.e. the replay's
 * counters (ReplayStats, whose fields say what each counts) with its share quantities as decimal
 * strings: liquidityCrossedQty, tradeQty and tradeFilledQty as liquidityCrossedShares, tradeShares
 * and tradeFilledShares.
 */
export type ReplayFacts = { dir: string } & Omit<ReplayStats, "liquidityCrossedQty" | "tradeQty" | "tradeFilledQty"> & {
  liquidityCrossedShares: string;
  tradeShares: string;
  tradeFilledShares: string;
};

export type MarkSource = "resolution" | "void" | "book_mid" | "last_trade" | "none";

export interface MarkReport {
  /** The outcomes' common source, or "mixed" when they were priced from different ones. */
  source: MarkSource | "mixed";
  sources: MarkSource[];
  prices: (string | null)[];
  /**
   * Virtual time the oldest price used describes: the settlement time; for a book mid the report
   * time when the market was still trading, else the time it stopped trading (the book has not
   * been refreshed since); for a last trade the time of that trade. null when unmarked.
   */
  asOf: string | null;
  /** virtualEnd - asOf in ms (0 when asOf is later); null when unmarked. */
  ageMs: number | null;
  /** An unsettled market's mark older than STALE_MARK_MS at the end of trading. */
  stale: boolean;
}

export interface FairValueFigures {
  note: string;
  unrealised: string;
  /** realised + unrealised at fair value - fees. */
  net: string;
  /** Held positions with neither a fair value nor a settlement (left out). */
  unmarked: number;
}

export interface MarketReport {
  marketId: string;
  outcomeCount: number;
  /** Lifecycle status on the simulator when the report was built. */
  status: string;
  mark: MarkReport;
  /** The synthetic flow's hidden fair value per outcome at the end (informational, not used for PnL). */
  fairValue: string[] | null;
  /** This market's unrealised and net PnL at `fairValue` (settled markets at their payout); see BacktestReport.atFairValue. */
  atFairValue: { unrealised: string; net: string } | null;
  /** All our wallets together on this market. */
  figures: MarketFigures;
}

export interface WalletReport {
  name: string;
  address: string;
  markets: MarketFigures[];
  totals: TotalFigures;
  /** The daemon's inventory against the simulator's books, exactly (inventory-check.ts). */
  inventoryCheck: InventoryCheck;
  /** The same PnL from the simulator's cash and positions (platform-check.ts); null when not checkable. */
  platformCheck: PlatformCheck | null;
  /** Why platformCheck is null. */
  platformCheckSkipped?: string;
}

export interface PositionDifference {
  marketId: string;
  outcome: number;
  inventory: string;
  platform: string;
}

/**
 * Zero tolerance: the cash the daemon's Inventory says the wallet moved (its PnL and fees come
 * from there) against the simulator's balance change, and every position against the simulator's.
 */
export interface InventoryCheck {
  /** Inventory.cashDelta: trades (per order, as the platform rounds), fees, payouts since the anchor. */
  inventoryCashDelta: string;
  /** The simulator's settlement-token total at the end minus before the daemon started. */
  platformCashDelta: string;
  /** inventoryCashDelta - platformCashDelta: "0" or a problem. */
  cashDifference: string;
  /** (market, outcome) pairs held on either side and compared. */
  positionsCompared: number;
  /** Pairs whose quantities differ (first 20), and the full count. */
  positionDifferences: PositionDifference[];
  positionDifferenceCount: number;
  ok: boolean;
}

export interface PlatformCheck {
  /** Settlement token on the simulator at the end minus at the start (trades, fees, payouts). */
  cashDelta: string;
  /** The simulator's final positions at the report's marks, rounded down. */
  positionsValue: string;
  /** cashDelta + positionsValue. */
  net: string;
  /** totals.pnl.net - net: rounding only when the figures are right. */
  difference: string;
  /** Largest |difference| rounding explains: one micro per fill, two per position, plus two. */
  tolerance: string;
  ok: boolean;
}

export interface FillFigures {
  count: number;
  maker: number;
  taker: number;
  unknownRole: number;
  /** Shares bought / sold (sums of fill quantities). */
  boughtShares: string;
  soldShares: string;
  /** Sum of price x quantity of the buys / sells, rounded down to the micro. */
  buyNotional: string;
  sellNotional: string;
  /** buyNotional + sellNotional. */
  volume: string;
}

export interface OrderFigures {
  /** Placements the platform accepted (order_placed events). */
  placed: number;
  /** Cancels the platform confirmed during the run (quote replacement, pulls). */
  cancelled: number;
  /** Cancels answered FILLED: the order filled before the cancel landed. */
  cancelTooLate: number;
  /** Our orders the platform cancelled itself when the market resolved or voided. */
  cancelledBySettlement: number;
  /** Placements refused, by error code. */
  rejected: Record<string, number>;
  rejectedTotal: number;
  /** Placements whose outcome was unknown when answered (resolved later by lookup). */
  unknown: number;
}

export interface PnlFigures {
  /** Fees paid (taker fees; makers pay none on this platform). */
  fees: string;
  /** Average-cost realised PnL, settlement payouts included, before fees. */
  realised: string;
  /** Held shares at the mark minus their cost basis. */
  unrealised: string;
  /** realised + unrealised - fees. */
  net: string;
  /** Positions that had no mark (their unrealised PnL is not counted). */
  unmarked: number;
}

export interface OutcomeInventory {
  outcome: number;
  /** Signed shares held at the end. */
  final: string;
  /** Largest |shares| held at any fill during the run. */
  maxAbs: string;
  /** Average cost per share of the final holding; null when flat, and in markets[] (several wallets). */
  avgCost: string | null;
}

export interface MarketFigures {
  marketId: string;
  fills: FillFigures;
  orders: OrderFigures;
  pnl: PnlFigures;
  inventory: OutcomeInventory[];
  /** Sum over outcomes of |final shares|. */
  grossFinalShares: string;
  /**
   * Share of the samples (one per step, from start-up to the end of trading, counted only while
   * the market was OPEN or PRE_MARKET on the simulator) at which we had at least one live order
   * on the market, "0.0000" to "1.0000" (rounded down); null when never sampled.
   */
  quoteUptime: string | null;
}

export interface TotalFigures {
  fills: FillFigures;
  orders: OrderFigures;
  pnl: PnlFigures;
  grossFinalShares: string;
}

export interface FillRef {
  wallet: string;
  tradeId: string;
  orderId: string;
  marketId: string;
}

export interface ConsistencyReport {
  /** True when both lists hold the same fills with the same economics. */
  ok: boolean;
  ledgerFills: number;
  platformFills: number;
  ledgerTradeIds: number;
  platformTradeIds: number;
  perWallet: { wallet: string; ledger: number; platform: number }[];
  /** On the platform, not in the daemon's ledger (first 20). */
  missing: FillRef[];
  missingCount: number;
  /** In the ledger, not on the platform (first 20). */
  extra: FillRef[];
  extraCount: number;
  /** Same fill, different economics (first 20). */
  mismatched: (FillRef & { fields: string[] })[];
  mismatchedCount: number;
  /** Keys listed more than once in either list (the ledger is keyed, so 0 unless something is broken). */
  duplicateKeys: number;
  /** Ledger fills whose maker/taker role stayed unknown (not a failure: spec 6). */
  unknownRoles: number;
}

export interface HaltKindFigures {
  /** The halt reason (daily_loss, stale_market_data, reconciliation_drift, ...). */
  reason: string;
  raised: number;
  /** Halt-milliseconds of virtual time (overlapping halts of different targets add up). */
  haltedMs: number;
  /** Still raised when trading ended. */
  openAtEnd: number;
}

export interface EventFigures {
  halts: { at: string; action: string; scope: string; target: string; reason: string }[];
  /** Per halt reason: how many raised, how long they lasted (to the end of trading when never cleared). */
  haltSummary: HaltKindFigures[];
  trackerAnomalies: number;
  drift: Record<string, number>;
  /** The daemon's Inventory counters (all wallets): fills applied, ignored as at/before the start-up anchor, corrected records. */
  inventory: { fills: number; preAnchor: number; corrected: number; repeatDeliveries: number };
  /**
   * The daemon's periodic inventory-against-platform checks (reconciliation events): how many ran,
   * how many still found a difference after a trade pull, and the drifted position / cash records.
   */
  reconciliation: { checks: number; differing: number; positions: number; cash: number };
  /** Fills the inventory saw after their market settled (an anomaly). */
  fillsAfterSettlement: number;
}

export interface TimingFigures {
  wallMs: number;
  /** Virtual milliseconds per wall millisecond (shutdown included). */
  speed: number;
  virtualHoursPerWallSecond: number;
}
