/**
 * Realistic example payloads for every wire resource. Each builder returns a fresh object and
 * takes shallow overrides, so tests (here and elsewhere) can start from a valid value and
 * break exactly one field.
 */
import type {
  AcceptedPlacement,
  Balances,
  CancelManyResult,
  Event,
  EventTagSummary,
  Leaderboard,
  LeaderboardEntry,
  MarketSummary,
  Match,
  MatchEvent,
  OrderRecord,
  PlaceBodyInput,
  PlatformContracts,
  PositionsPage,
  RejectedPlacement,
  SignedOrder,
  Tag,
  TeamRef,
  Trade,
  Upcoming,
  VaultInfo,
  VaultOperation,
  Withdrawal,
} from "../../src/wire/index.js";

export const WALLET = "0x8ba1f109551bd432803012645ac136ddd64dba72";
export const VAULT = "0x3f5ce5fbfe3e9af3971dd833d26ba9b5c936f0be";
export const OTHER_WALLET = "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B";
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
export const YES_TOKEN = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
export const NO_TOKEN = "52114319501245915516055106046884209969926127482827954674443846427813813222426";
export const MARKET_ID = "5b1e0c4e-8f1a-4c3e-9d2b-7a6f5e4d3c2b";
export const EVENT_ID = "0f9c8b7a-6d5e-4f3a-8b2c-1d0e9f8a7b6c";
export const MATCH_ID = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";
export const ORDER_ID = "8d3f2a10-4b5c-4d6e-9f70-1a2b3c4d5e6f";
export const ORDER_HASH = "0x" + "ab".repeat(32);
export const SYMBOL = "FIFA26-ARG-FRA-MW";
export const T0 = "2026-11-20T18:00:00.000Z";
export const T1 = "2026-11-21T09:30:00.000Z";

export function exampleTeamRef(overrides: Partial<TeamRef> = {}): TeamRef {
  return { code: "ARG", label: "Argentina", logo: null, ...overrides };
}

export function exampleTagSummary(overrides: Partial<EventTagSummary> = {}): EventTagSummary {
  return { slug: "world-cup", name: "World Cup", color: "#0a7d3b", iconUrl: "https://cdn.example.com/wc.svg", ...overrides };
}

export function exampleTag(overrides: Partial<Tag> = {}): Tag {
  return { ...exampleTagSummary(), isFeatured: true, ...overrides };
}

export function exampleMarket(overrides: Partial<MarketSummary> = {}): MarketSummary {
  return {
    id: MARKET_ID,
    eventId: EVENT_ID,
    symbol: SYMBOL,
    slug: "argentina-vs-france-match-winner-argentina",
    title: "Will Argentina win?",
    groupItemTitle: "Argentina",
    conditionId: "0x" + "1f".repeat(32),
    questionId: "0x" + "2e".repeat(32),
    yesTokenId: YES_TOKEN,
    noTokenId: NO_TOKEN,
    status: "OPEN",
    currentReviewRound: 0,
    outcomeCount: 2,
    outcomeLabels: ["Yes", "No"],
    feeTakerBps: 100,
    tradingWindow: { preMarketStartsAt: "2026-11-01T00:00:00.000Z", opensAt: "2026-11-10T00:00:00.000Z", closesAt: T0 },
    kickoff: T0,
    resolutionWindowHours: 24,
    lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt: null },
    payoutNumerators: null,
    officialDataSource: "FIFA",
    sourceMatchId: "fifa-400128095",
    resolutionCriteria: "Resolves YES if Argentina wins in regular time or extra time.",
    negRiskEligible: false,
    isNewMarketType: false,
    createdAt: "2026-10-30T12:00:00.000Z",
    updatedAt: "2026-11-15T08:12:44.512Z",
    outcomePrices: ["0.55", "0.46"],
    chances: ["0.545", "0.455"],
    vertical: "football",
    marketType: "MATCH_WINNER_AET",
    crypto: null,
    tradable: true,
    eventSlug: "argentina-vs-france",
    homeCountry: "ARG",
    awayCountry: "FRA",
    sport: "football",
    outcomeTokenIds: [YES_TOKEN, NO_TOKEN],
    ...overrides,
  };
}

/** A crypto Up/Down window market (crypto rule + cryptoWindow set). */
export function exampleCryptoMarket(overrides: Partial<MarketSummary> = {}): MarketSummary {
  return exampleMarket({
    symbol: "BTC-UPDOWN-15M-20261120-1800",
    slug: "btc-up-or-down-nov-20-1800-utc",
    title: "Bitcoin Up or Down, Nov 20 18:00-18:15 UTC",
    groupItemTitle: null,
    outcomeLabels: ["Up", "Down"],
    vertical: "crypto",
    marketType: "CRYPTO_PRICE_EVENT",
    crypto: { productType: "UP_DOWN_WINDOW", direction: null, targetPrice: null, instrumentId: "BTC-USD" },
    cryptoWindow: { startsAt: "2026-11-20T18:00:00.000Z", endsAt: "2026-11-20T18:15:00.000Z", cadenceMinutes: 15 },
    ...overrides,
  });
}

export function exampleMatchEvent(overrides: Partial<MatchEvent> = {}): MatchEvent {
  return {
    id: EVENT_ID,
    slug: "argentina-vs-france",
    title: "Argentina vs France",
    group: null,
    stage: "final",
    teamA: exampleTeamRef(),
    teamB: exampleTeamRef({ code: "FRA", label: "France" }),
    tags: [exampleTagSummary()],
    scheduledAt: T0,
    createdAt: "2026-10-30T12:00:00.000Z",
    updatedAt: "2026-11-15T08:12:44.512Z",
    markets: [exampleMarket()],
    ...overrides,
  };
}

export function exampleMatch(overrides: Partial<Match> = {}): Match {
  return {
    id: MATCH_ID,
    slug: "fifa-wc-2026-final-arg-fra",
    title: "ARG vs FRA",
    teamA: exampleTeamRef(),
    teamB: exampleTeamRef({ code: "FRA", label: "France" }),
    group: null,
    tags: [exampleTagSummary()],
    stage: "final",
    kickoffAt: T0,
    state: "LIVE",
    scheduleStatus: "SCHEDULED",
    createdAt: "2026-10-30T12:00:00.000Z",
    updatedAt: "2026-11-15T08:12:44.512Z",
    events: [exampleMatchEvent()],
    ...overrides,
  };
}

export function exampleEvent(overrides: Partial<Event> = {}): Event {
  return {
    id: EVENT_ID,
    slug: "argentina-vs-france",
    title: "Argentina vs France",
    tags: [exampleTagSummary()],
    sport: "football",
    homeCountry: "ARG",
    awayCountry: "FRA",
    stage: "final",
    group: null,
    match: { id: MATCH_ID, slug: "fifa-wc-2026-final-arg-fra" },
    markets: [exampleMarket()],
    openMarketCount: 1,
    totalMarketCount: 1,
    cryptoSeries: null,
    cryptoLongSeries: null,
    resolutionCriteriaUrl: null,
    ...overrides,
  };
}

export function exampleWithdrawal(overrides: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: "c0ffee00-1234-4abc-8def-0123456789ab",
    userWallet: WALLET,
    amount: "250.5",
    destination: "0x1111111254eeb25477b68fb85ed929f73a960582",
    status: "SUBMITTED",
    createdAt: T0,
    updatedAt: T1,
    txHash: "0x" + "9c".repeat(32),
    ...overrides,
  };
}

export function exampleLeaderboardEntry(overrides: Partial<LeaderboardEntry> = {}): LeaderboardEntry {
  return { rank: 1, vaultAddress: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B", username: "quantfox", pnl: "1532.25", volume: "98211.5", ...overrides };
}

export function exampleLeaderboard(overrides: Partial<Leaderboard> = {}): Leaderboard {
  return {
    period: "week",
    snapshotAt: T0,
    total: 2,
    entries: [exampleLeaderboardEntry(), exampleLeaderboardEntry({ rank: 2, username: null, pnl: "-12.5", volume: "3000" })],
    nextCursor: null,
    me: { ...exampleLeaderboardEntry({ vaultAddress: VAULT, username: "mm-desk", pnl: "0", volume: "0" }), rank: null },
    ...overrides,
  };
}

export function exampleUpcoming(): Upcoming {
  return {
    upcoming: [
      {
        id: "wc-2026-final",
        title: "World Cup Final",
        description: "The final of the 2026 World Cup",
        imageUrl: "https://cdn.example.com/final.png",
        category: "football",
        startsAt: "2026-07-19T19:00:00.000Z",
        endsAt: "2026-07-19T22:00:00.000Z",
        competition: { slug: "fifa-world-cup", name: "FIFA World Cup" },
        tag: { slug: "world-cup", name: "World Cup" },
        counts: { events: 0, markets: 0 },
      },
    ],
  };
}

export function exampleTrade(overrides: Partial<Trade> = {}): Trade {
  return {
    id: "trd_000000000123",
    marketId: SYMBOL,
    tokenId: YES_TOKEN,
    outcome: 0,
    side: "BUY",
    price: "0.55",
    quantity: "10",
    fee: "0.02475",
    feeRateBps: 100,
    makerOrderId: "7c1d2e3f-0000-4000-8000-000000000001",
    takerOrderId: ORDER_ID,
    makerWallet: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B",
    takerWallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    createdAt: T0,
    ...overrides,
  };
}

export function exampleSignedOrder(overrides: Partial<SignedOrder> = {}): SignedOrder {
  return {
    salt: "184467440737095516",
    maker: VAULT,
    signer: WALLET,
    taker: ZERO_ADDRESS,
    tokenId: YES_TOKEN,
    makerAmount: "5500000",
    takerAmount: "10000000",
    expiration: "0",
    feeRateBps: 100,
    side: 0,
    signatureType: 1,
    signature: "0x" + "5a".repeat(65),
    ...overrides,
  };
}

export function examplePlaceBody(overrides: Partial<PlaceBodyInput> = {}): PlaceBodyInput {
  return {
    order: exampleSignedOrder(),
    maker: VAULT,
    clientOrderId: "mm1-abc-000001",
    marketId: SYMBOL,
    outcome: 0,
    side: "BUY",
    price: "0.55",
    quantity: "10",
    type: "limit",
    timeInForce: "GTC",
    postOnly: false,
    ...overrides,
  };
}

export function examplePlacement(overrides: Partial<AcceptedPlacement> = {}): AcceptedPlacement {
  return { orderId: ORDER_ID, status: "PARTIAL", filledQty: "4", remainingQty: "6", trades: [exampleTrade({ quantity: "4" })], ...overrides };
}

export function exampleRejectedPlacement(overrides: Partial<RejectedPlacement> = {}): RejectedPlacement {
  return {
    orderId: null,
    status: "REJECTED",
    filledQty: "0",
    remainingQty: "0",
    trades: [],
    code: "order_signed_with_floor_notional",
    message: "BUY makerAmount must be CEIL-rounded",
    details: { signedMakerAmountWei: "5499999", expectedCeilMakerAmountWei: "5500000", signedRounding: "floor", expectedRounding: "ceil" },
    ...overrides,
  };
}

export function exampleOrderRecord(overrides: Partial<OrderRecord> = {}): OrderRecord {
  return {
    id: ORDER_ID,
    clientOrderId: "mm1-abc-000001",
    orderHash: ORDER_HASH,
    walletAddress: WALLET,
    marketId: SYMBOL,
    tokenId: YES_TOKEN,
    outcome: 0,
    side: "BUY",
    type: "limit",
    timeInForce: "GTC",
    postOnly: false,
    price: "0.55",
    originalQuantity: "10",
    filledQty: "4",
    remainingQty: "6",
    status: "PARTIAL",
    expiration: "0",
    createdAt: T0,
    updatedAt: T1,
    ...overrides,
  };
}

export function exampleCancelMany(overrides: Partial<CancelManyResult> = {}): CancelManyResult {
  return {
    cancelled: [ORDER_ID],
    notCancelled: [{ orderId: "9e8d7c6b-0000-4000-8000-000000000002", code: "cancel_pending", message: "cancel recorded, no answer yet" }],
    ...overrides,
  };
}

export function exampleBalances(): Balances {
  return { walletAddress: WALLET, vaultAddress: VAULT, collateral: { total: "1000", locked: "5.5", available: "994.5" } };
}

export function examplePositions(): PositionsPage {
  return {
    walletAddress: WALLET,
    positions: [{ marketId: SYMBOL, tokenId: YES_TOKEN, outcome: 0, quantity: "4", locked: "0", avgPrice: "0.55" }],
    nextCursor: null,
  };
}

export function exampleVaultInfo(): VaultInfo {
  return { walletAddress: WALLET, vaultAddress: VAULT, deployed: true };
}

export function exampleContracts(): PlatformContracts {
  return {
    chainId: 8453,
    domain: { name: "PartnerExchange", version: "1" },
    exchange: { binary: "0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e", negRisk: "0xc5d563a36ae78145c45a50134d48a1215220f80a" },
    vaultFactory: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    collateral: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
  };
}

/** A pending split (docs/spec-gaps.md, "Split, merge and convert"): collateral locked, the chain tx not confirmed yet. */
export function exampleVaultOperation(overrides: Partial<VaultOperation> = {}): VaultOperation {
  return {
    opId: "op_000000000001",
    kind: "split",
    walletAddress: WALLET,
    vaultAddress: VAULT,
    marketId: SYMBOL,
    eventId: null,
    amount: "25",
    status: "pending",
    nonce: "7",
    deadline: "1795000000",
    createdAt: T0,
    updatedAt: T0,
    confirmsAt: "2026-11-20T18:00:12.000Z",
    txHash: null,
    reason: null,
    lockedCollateral: "25",
    lockedShares: [],
    ...overrides,
  };
}
