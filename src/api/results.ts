/**
 * Result shapes shared by the endpoint groups. Reads resolve to `Ok<T>` or throw an ApiError;
 * writes that the platform can refuse as business answer with `Ok<T> | Rejected` (a refusal is a
 * result, not an exception). Placement and cancels have their own richer unions (placement.ts,
 * cancels.ts).
 */
import { z } from "zod";
import type { HandlingClass } from "../wire/index.js";
import type { ApiError } from "./errors.js";
import type { ResponseMeta } from "./meta.js";

export interface Ok<T> {
  readonly ok: true;
  readonly data: T;
  readonly meta: ResponseMeta;
}

/** A definite refusal answered by the platform (2xx with a `code`, or a non-auth 4xx). */
export interface Rejected {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
  readonly details: Record<string, unknown> | undefined;
  readonly handling: HandlingClass;
  /** HTTP status of the answer. */
  readonly status: number;
  /** The same refusal as an ApiError, for callers that prefer to throw it. */
  readonly error: ApiError;
  readonly meta: ResponseMeta;
}

export type WriteResult<T> = Ok<T> | Rejected;

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request and any wait between attempts. */
  signal?: AbortSignal;
}

/** A JSON object whose shape the spec does not show: passed through as is. */
export type UnknownRecord = Record<string, unknown>;
export const unknownRecord: z.ZodType<UnknownRecord> = z.record(z.string(), z.unknown());
