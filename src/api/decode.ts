/**
 * Turning an exchange into a typed result: validate 2xx bodies with the wire schemas (a mismatch
 * is an ApiError of source "schema" naming every bad path), map error answers to ApiError, and
 * split writes into Ok / Rejected.
 */
import type { z } from "zod";
import type { HandlingClass } from "../wire/index.js";
import { classifyCode, safeParseQuick } from "../wire/index.js";
import { describeZodError, issuesOf } from "../core/validation.js";
import type { Answer, ApiCore, CallSpec } from "./core.js";
import { ApiError, LOCAL_CODES, errorFromAnswer, withHandling } from "./errors.js";
import type { Ok, Rejected, WriteResult } from "./results.js";

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The error an answer stands for (its envelope, or a generic one for bodies without any). */
export function answerError(spec: CallSpec, a: Answer): ApiError {
  const where = { method: spec.method, path: spec.path, attempts: a.attempts };
  if (a.error !== undefined) return errorFromAnswer(a.error, where, a.meta);
  return new ApiError({
    source: "http",
    status: a.status,
    code: `http_${a.status}`,
    message: `unexpected HTTP ${a.status}`,
    ...where,
    meta: a.meta,
    ...(a.meta.traceId !== undefined ? { traceId: a.meta.traceId } : {}),
  });
}

/** An answer whose body does not match the schema (or is not JSON). */
export function schemaError(
  core: ApiCore,
  spec: CallSpec,
  a: Answer,
  zodError: z.ZodError | undefined,
  handling: HandlingClass,
): ApiError {
  const issues = zodError !== undefined ? issuesOf(zodError) : [{ path: "(root)", message: "body is not JSON" }];
  const text = zodError !== undefined ? describeZodError(zodError) : "(root): body is not JSON";
  return new ApiError({
    source: "schema",
    status: a.status,
    code: LOCAL_CODES.invalidResponse,
    message: core.scrub(`response does not match the expected shape: ${text}`),
    method: spec.method,
    path: spec.path,
    handling,
    issues: core.scrubValue(issues),
    attempts: a.attempts,
    meta: a.meta,
    ...(a.meta.traceId !== undefined ? { traceId: a.meta.traceId } : {}),
  });
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; error: z.ZodError | undefined };

export function parseBody<S extends z.ZodType>(schema: S, a: Answer): Parsed<z.output<S>> {
  if (!a.jsonOk) return { ok: false, error: undefined };
  const r = safeParseQuick(schema, a.json);
  return r.success ? { ok: true, data: r.data } : { ok: false, error: r.error };
}

/** A read: Ok with the parsed body, or a thrown ApiError. */
export async function readCall<S extends z.ZodType>(core: ApiCore, spec: CallSpec, schema: S): Promise<Ok<z.output<S>>> {
  const ex = await core.exchange(spec);
  if (ex.kind === "no_answer") throw ex.error;
  const expected = isSuccess(ex.status) || (spec.answerStatuses?.includes(ex.status) ?? false);
  if (!expected) throw answerError(spec, ex);
  const parsed = parseBody(schema, ex);
  if (parsed.ok) return { ok: true, data: parsed.data, meta: ex.meta };
  // A 2xx that does not parse but carries a code is a business refusal (spec 7.1.4).
  if (ex.error !== undefined) throw answerError(spec, ex);
  throw schemaError(core, spec, ex, parsed.error, "fix_request");
}

/** Whether a refusal is about the key itself (nothing will work until it is fixed): thrown, never a result. */
export function isAuthRefusal(e: ApiError): boolean {
  return e.handling === "auth";
}

export function rejectedFrom(e: ApiError, meta: Rejected["meta"]): Rejected {
  return {
    ok: false,
    code: e.code,
    message: e.detail,
    details: e.details,
    handling: e.handling,
    status: e.status,
    error: e,
    meta,
  };
}

/** Is this answer a definite refusal of the request by the platform (returned, not thrown)? */
export function isDefiniteRefusal(a: Answer, e: ApiError): boolean {
  if (isSuccess(a.status)) return true;
  return a.status >= 400 && a.status < 500 && a.status !== 429 && !isAuthRefusal(e);
}

/**
 * A write without a richer result type (vault deploy). 2xx parses or is a business refusal;
 * non-auth 4xx is Rejected; everything else (auth, 429 after its waits, 5xx, no answer) throws.
 * A 2xx body that neither parses nor carries a code throws a schema error whose handling says
 * the outcome is unknown.
 */
export async function writeCall<S extends z.ZodType>(core: ApiCore, spec: CallSpec, schema: S): Promise<WriteResult<z.output<S>>> {
  const ex = await core.exchange(spec);
  if (ex.kind === "no_answer") throw ex.error;
  if (isSuccess(ex.status)) {
    const parsed = parseBody(schema, ex);
    if (parsed.ok && ex.error === undefined) return { ok: true, data: parsed.data, meta: ex.meta };
    if (ex.error !== undefined) return rejectedFrom(answerError(spec, ex), ex.meta);
    throw schemaError(core, spec, ex, parsed.ok ? undefined : parsed.error, "unknown_outcome");
  }
  const e = answerError(spec, ex);
  if (isDefiniteRefusal(ex, e)) return rejectedFrom(e, ex.meta);
  // A write's 5xx (other than the nothing-recorded ones, already resent) may have taken effect.
  if (ex.status >= 500 && ex.status !== 501 && e.handling === "retry_backoff") throw withHandling(e, "unknown_outcome");
  throw e;
}

/** Handling class of a code as it arrived. */
export function handlingOf(code: string, status: number): HandlingClass {
  return classifyCode(code, status).handling;
}

/** A read where a 404 with one of `notFoundCodes` is an answer (null), not an error. */
export async function readCallOrNull<S extends z.ZodType>(
  core: ApiCore,
  spec: CallSpec,
  schema: S,
  notFoundCodes: readonly string[],
): Promise<Ok<z.output<S> | null>> {
  const ex = await core.exchange(spec);
  if (ex.kind === "no_answer") throw ex.error;
  if (ex.status === 404 && ex.error !== undefined && notFoundCodes.includes(ex.error.code)) {
    return { ok: true, data: null, meta: ex.meta };
  }
  if (!isSuccess(ex.status)) throw answerError(spec, ex);
  const parsed = parseBody(schema, ex);
  if (parsed.ok) return { ok: true, data: parsed.data, meta: ex.meta };
  if (ex.error !== undefined) throw answerError(spec, ex);
  throw schemaError(core, spec, ex, parsed.error, "fix_request");
}
