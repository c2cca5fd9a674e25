/**
 * HTTP answers of the desk (the routes hand them back as they are), and how the fault the
 * pipeline passed in `ctx.fault` shapes them: "before" faults answer without doing anything
 * (nothing recorded), "after" faults let the write happen and then answer the error (spec 7.3:
 * `exchange_unavailable` "may have been recorded"; `idempotency_race` on place: recorded, the
 * answer lost).
 */
import { errorEnvelope } from "../../wire/errors.js";
import type { Fault } from "../platform/faults.js";
import type { PlatformFailure } from "../platform/errors.js";
import { envelopeOf } from "./format.js";

export interface DeskAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function failureAnswer(f: PlatformFailure): DeskAnswer {
  const a: DeskAnswer = { status: f.status, body: envelopeOf(f) };
  if (f.retryAfterSec !== undefined) a.headers = { "Retry-After": String(Math.ceil(f.retryAfterSec)) };
  return a;
}

export function errorAnswer(status: number, code: string, message: string, details?: Record<string, unknown>): DeskAnswer {
  return { status, body: errorEnvelope(status, code, message, details === undefined ? {} : { details }) };
}

export type FaultTiming = "before" | "after" | "cancel_pending" | "none";

/**
 * When the fault acts. `placeRoute` decides idempotency_race: on place routes the order is
 * recorded and the answer lost; elsewhere nothing happens.
 */
export function faultTiming(fault: Fault | undefined, placeRoute: boolean): FaultTiming {
  if (fault === undefined) return "none";
  switch (fault.kind) {
    case "shard_owner_unavailable":
    case "trading_temporarily_unavailable":
    case "rate_limited_burst":
      return "before";
    case "lock_invariant_violation":
    case "exchange_transport_error":
      return "before";
    case "exchange_unavailable":
    case "exchange_malformed_response":
    case "exchange_upstream_error":
      return fault.execute ? "after" : "before";
    case "cancel_unanswered":
      return placeRoute ? "none" : "cancel_pending";
    case "idempotency_race":
      return placeRoute ? "after" : "before";
    case "cancel_pending":
      return placeRoute ? "none" : "cancel_pending";
    default:
      return "none";
  }
}

/** The answer of a fault that carries one. */
export function faultAnswer(fault: Fault): DeskAnswer | undefined {
  return "http" in fault ? failureAnswer(fault.http) : undefined;
}
