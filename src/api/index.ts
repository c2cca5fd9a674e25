/** The typed REST client of the partner API. */
export { PartnerClient, WalletClient, createClient, type ClientOptions } from "./client.js";
export { ApiError, LOCAL_CODES, isApiError, type ApiErrorSource } from "./errors.js";
export type { ResponseMeta, RateLimitInfo } from "./meta.js";
export { CircuitBreaker, DEFAULT_BREAKER, type BreakerChange, type BreakerOptions, type BreakerState, type BreakerStats } from "./breaker.js";
export { DEFAULT_RETRY, backoffDelay, type RetryOptions } from "./backoff.js";
export { NOOP_GATE, type GateAnswer, type GateRequest, type RequestGate } from "./gate.js";
export { FetchTransport, DEFAULT_TIMEOUT_MS, mapFetchError, type FetchLike, type FetchTransportOptions } from "./fetch-transport.js";
export * from "../wire/transport.js";
export type { CallPolicy, SecretLike } from "./core.js";
export { RESEND_SAME_CODES } from "./core.js";
export type { CallOptions, Ok, Rejected, UnknownRecord, WriteResult } from "./results.js";
export { MarketsApi, MARKETS_MAX_LIMIT, type SeriesWindowsQuery, type MarketsListQuery, type MarketTradesQuery, type PriceHistoryQuery } from "./markets.js";
export { EventsApi, TagsApi, EVENTS_PAGE_SIZE, type EventsFilters, type EventsListQuery, type EventsWalkOptions } from "./events.js";
export { PlatformApi } from "./platform.js";
export { OrdersApi, type OpenOrdersQuery, type OrderFilters, type OrderHistoryQuery, type OrderLookupKey } from "./orders.js";
export { PortfolioApi, type CursorQuery, type TradesQuery } from "./portfolio.js";
export { VaultApi, signVaultOperation, type VaultOpIntent } from "./vault.js";
export { WithdrawalsApi, signWithdrawalRequest, type DigestSigner, type WithdrawalIntent, type WithdrawalRequestOutcome, type WithdrawalsQuery } from "./withdrawals.js";
export {
  ChallengesApi,
  ComplianceApi,
  LeaderboardApi,
  MatchesApi,
  MATCHES_MAX_LIMIT,
  PartnerFeedsApi,
  SearchApi,
  UpcomingApi,
  UsersApi,
  type CursorLimitQuery,
  type LeaderboardPeriod,
  type LeaderboardQuery,
  type OffsetQuery,
  type SearchQuery,
} from "./discovery.js";
export type {
  PlaceAccepted,
  PlaceBatchOptions,
  PlaceBatchOutcome,
  PlaceIds,
  PlaceOptions,
  PlaceOutcome,
  PlaceRejected,
  PlaceRequestBody,
  PlaceUnknown,
  WireOrder,
} from "./placement.js";
export {
  CANCEL_PENDING_CODES,
  DEFAULT_CANCEL_RETRY_SEC,
  type CancelFinal,
  type CancelManyOutcome,
  type CancelOutcome,
  type CancelUntilFinalOptions,
  type CancelUntilFinalReport,
} from "./cancels.js";
