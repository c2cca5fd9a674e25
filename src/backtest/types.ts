/**
 * The backtest report: plain JSON data. Money, prices and share quantities are decimal strings
 * (formatMicros: "12.5", "-0.000123", "0"), never floats; counts are integers; fractions (quote
 * uptime) are decimal strings with four places. Everything except `timing` is a function of the
 * config, the scenario, the seed and the duration: two runs with the same inputs give the same
 * bytes (see docs/backtest.md).
 */

/** Report format version: bumped when a field changes meaning. */
export const REPORT_VERSION = 1;

export interface BacktestReport {
  version: number;
  /** True when `problems` is empty: the run finished cleanly and the ledger matched the platform. */
  ok: boolean;
  /** Why the numbers should not be trusted (consistency failure, start-up or shutdown trouble). */
  problems: string[];
  run: RunFacts;
  /** How unrealised PnL was marked (stated once; per market in `markets[].mark`). */
  markMethod: string;
  markets: MarketReport[];
  wallets: WalletReport[];
  totals: TotalFigures;
  consistency: ConsistencyReport;
  events: EventFigures;
  /** Wall-clock figures: the only part that differs between two identical runs. */
  timing: TimingFigures;
}

export interface RunFacts {
  /** The config file as given. */
  config: string;
  /** The scenario file used (the override, the config's simulator.scenario, or the default). */
  scenario: string;
  scenarioSource: "override" | "config" | "default";
  /** Seed of the simulator (flow, ids) and of the daemon's Rng (salts, jitter). */
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
    wallets: { name: string; cancelled: number; leftover: number; unresolved: number; errors: string[] }[];
  };
}

export type MarkSource = "resolution" | "void" | "book_mid" | "last_trade" | "none";

export interface MarketReport {
  marketId: string;
  outcomeCount: number;
  /** Lifecycle status on the simulator when the report was built. */
  status: string;
  mark: { source: MarkSource; prices: (string | null)[] };
  /** The synthetic flow's hidden fair value per outcome at the end (informational, not used for PnL). */
  fairValue: string[] | null;
  /** All our wallets together on this market. */
  figures: MarketFigures;
}

export interface WalletReport {
  name: string;
  address: string;
  markets: MarketFigures[];
  totals: TotalFigures;
  /** The same PnL from the simulator's cash and positions (platform-check.ts); null when not checkable. */
  platformCheck: PlatformCheck | null;
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

export interface EventFigures {
  halts: { at: string; action: string; scope: string; target: string; reason: string }[];
  trackerAnomalies: number;
  drift: Record<string, number>;
  /** Fills the inventory saw after their market settled (an anomaly). */
  fillsAfterSettlement: number;
}

export interface TimingFigures {
  wallMs: number;
  /** Virtual milliseconds per wall millisecond (shutdown included). */
  speed: number;
  virtualHoursPerWallSecond: number;
}
