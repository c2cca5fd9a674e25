/** Small helpers for turning whatever was thrown into log fields and codes. */
import { isApiError } from "../../api/index.js";

/** The platform (or client) code of an error; `internal_error` when it has none. */
export function codeOf(e: unknown): string {
  if (isApiError(e)) return e.code;
  if (e instanceof Error && "code" in e && typeof (e as { code: unknown }).code === "string") return (e as { code: string }).code;
  return "internal_error";
}

export function errorText(e: unknown): string | undefined {
  if (e === undefined) return undefined;
  if (e instanceof Error) return e.message;
  return typeof e === "string" ? e : JSON.stringify(e);
}
