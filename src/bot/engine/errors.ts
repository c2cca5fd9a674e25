/** Small helpers for turning whatever was thrown into log fields and codes. */
import { isApiError } from "../../api/errors.js";

/** The platform (or client) code of an error; `internal_error` when it has none. */
export function codeOf(e: unknown): string {
  if (isApiError(e)) return e.code;
  if (e instanceof Error && "code" in e && typeof (e as { code: unknown }).code === "string") return (e as { code: string }).code;
  return "internal_error";
}

/**
 * What was thrown, as text for a log field. Never throws itself (it runs inside error handling): a
 * bigint is written as its digits, and a value JSON cannot write (a cycle) or that gives nothing
 * (a function, a symbol) is described by its type.
 */
export function errorText(e: unknown): string | undefined {
  if (e === undefined) return undefined;
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  try {
    const text = JSON.stringify(e, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    if (text !== undefined) return text;
  } catch {
    // a cycle, or a toJSON that throws: fall through
  }
  return Object.prototype.toString.call(e);
}
