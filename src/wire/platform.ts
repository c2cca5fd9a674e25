/**
 * Public platform state (spec 4.9): contract registry (docs/spec-gaps.md), fee configuration,
 * freeze status, notices, health and readiness. Only the contract registry is decided in
 * docs/spec-gaps.md; the other shapes are this module's choice (see the report).
 */
import { z } from "zod";
import { address, isoDateTime, nonNegativeInt, openEnum } from "./primitives.js";

/** `GET /api/platform/contracts`: everything needed to build the EIP-712 domain. */
export const platformContracts = z.looseObject({
  chainId: z.number().int().positive(),
  domain: z.looseObject({ name: z.string(), version: z.string() }),
  exchange: z.looseObject({ binary: address, negRisk: address }),
  vaultFactory: address,
  collateral: address,
});
export type PlatformContracts = z.infer<typeof platformContracts>;

/** `GET /api/platform/fee-config`: the default used when a market's `feeTakerBps` is null. */
export const feeConfig = z.looseObject({
  defaultFeeTakerBps: nonNegativeInt,
  maxFeeRateBps: nonNegativeInt,
});
export type FeeConfig = z.infer<typeof feeConfig>;

/**
 * `GET /api/platform/status` ("freeze status"). Chosen: `{frozen, reason, updatedAt}`; while
 * `frozen` the platform refuses new orders (the simulator answers `trading_temporarily_unavailable`).
 */
export const platformStatus = z.looseObject({
  frozen: z.boolean(),
  reason: z.string().nullable(),
  updatedAt: isoDateTime,
});
export type PlatformStatus = z.infer<typeof platformStatus>;

export const KNOWN_NOTICE_SEVERITIES = ["info", "warning", "critical"] as const;

export const notice = z.looseObject({
  id: z.string(),
  severity: openEnum(KNOWN_NOTICE_SEVERITIES),
  title: z.string(),
  message: z.string(),
  startsAt: isoDateTime,
  endsAt: isoDateTime.nullable(),
});
export type Notice = z.infer<typeof notice>;

/** `GET /api/platform/notices`: currently active notices. */
export const notices = z.looseObject({ notices: z.array(notice) });
export type Notices = z.infer<typeof notices>;

/** `GET /health`: liveness only. */
export const health = z.looseObject({ status: z.string() });
export type Health = z.infer<typeof health>;

/** `GET /ready`: 200 with `ready: true`, or 503 with `ready: false` and the failing checks. */
export const readiness = z.looseObject({
  ready: z.boolean(),
  checks: z.record(z.string(), z.boolean()).optional(),
});
export type Readiness = z.infer<typeof readiness>;
