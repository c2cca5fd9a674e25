/**
 * Public and partner reads whose shapes the spec does not show (4.3 crypto-series windows, 4.9
 * search, compliance, partner feeds, activity, challenges): the choices recorded in
 * docs/spec-gaps.md. Rows the simulator has little data for stay loose records, so a real
 * platform that differs in an unshown detail still parses; the envelope keys are checked.
 */
import { z } from "zod";
import { event } from "./events.js";
import { address, isoDateTime, nextCursor, nonNegativeInt } from "./primitives.js";

const row = z.record(z.string(), z.unknown());

/** `GET /api/search`: every kind at once. */
export const searchAll = z.looseObject({
  events: z.array(event),
  matches: z.array(row),
  users: z.array(row),
  total: nonNegativeInt,
});
export type SearchAll = z.infer<typeof searchAll>;

export const searchEventsPage = z.looseObject({ events: z.array(event), total: nonNegativeInt });
export type SearchEventsPage = z.infer<typeof searchEventsPage>;
export const searchMatchesPage = z.looseObject({ matches: z.array(row), total: nonNegativeInt });
export type SearchMatchesPage = z.infer<typeof searchMatchesPage>;
export const searchUsersPage = z.looseObject({ users: z.array(row), total: nonNegativeInt });
export type SearchUsersPage = z.infer<typeof searchUsersPage>;

/** `GET /api/compliance/geo`. */
export const complianceGeo = z.looseObject({
  blocked: z.boolean(),
  country: z.string().nullable(),
  region: z.string().nullable(),
});
export type ComplianceGeo = z.infer<typeof complianceGeo>;

/** `GET /api/crypto-series/{id}/windows`: the series' window markets (rows loose), offset paged. */
export const cryptoSeriesWindows = z.looseObject({
  windows: z.array(row),
  hasMore: z.boolean().optional(),
  total: nonNegativeInt.optional(),
});
export type CryptoSeriesWindows = z.infer<typeof cryptoSeriesWindows>;

/** `GET /api/users/{address}/activity`, `/api/users/by-vault/{vault}/activity`. */
export const activityPage = z.looseObject({
  walletAddress: address.nullable(),
  vaultAddress: address,
  activity: z.array(z.looseObject({ type: z.string() })),
  nextCursor,
});
export type ActivityPage = z.infer<typeof activityPage>;

/** `GET /api/challenges`, `GET /api/markets/{symbol}/challenges`. */
export const challengesPage = z.looseObject({ challenges: z.array(row), nextCursor });
export type ChallengesPage = z.infer<typeof challengesPage>;

/** `GET /api/v1/partner/trades`: trade rows of every partner wallet, newest first. */
export const partnerTradesPage = z.looseObject({
  partnerId: z.string(),
  trades: z.array(z.looseObject({ id: z.string(), walletAddress: address })),
  nextCursor,
});
export type PartnerTradesPage = z.infer<typeof partnerTradesPage>;

/** `GET /api/v1/partner/mm-kpis`. */
export const mmKpis = z.looseObject({
  partnerId: z.string(),
  asOf: isoDateTime,
  wallets: z.array(z.looseObject({ walletAddress: address })),
});
export type MmKpis = z.infer<typeof mmKpis>;

/** `GET /api/v1/partner/reconciliation/snapshot`. */
export const reconciliationSnapshot = z.looseObject({
  partnerId: z.string(),
  snapshotAt: isoDateTime,
  wallets: z.array(z.looseObject({ walletAddress: address, vaultAddress: address })),
});
export type ReconciliationSnapshot = z.infer<typeof reconciliationSnapshot>;
