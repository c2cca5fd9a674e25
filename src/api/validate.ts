/** Client-side checks of request bodies with the wire's request schemas, before anything is sent. */
import type { z } from "zod";
import { describeIssues } from "../core/validation.js";
import type { RequestCheck } from "../wire/index.js";
import { checkPlaceBody, checkRequest, isVouched } from "../wire/index.js";
import type { ApiCore, CallSpec } from "./core.js";
import { ApiError } from "./errors.js";

/**
 * The local refusal: every field path carries `prefix` (a batch entry's `orders[2].`), in the
 * message as in `details.fields` and `issues`, and none of it holds the API key (a body's unknown
 * key name is echoed back in all three).
 */
function fail(core: ApiCore, spec: Pick<CallSpec, "method" | "path">, check: Extract<RequestCheck<unknown>, { ok: false }>, prefix = ""): ApiError {
  const issues = check.issues.map((i) => ({ path: core.scrub(prefix + i.path), message: core.scrub(i.message) }));
  return new ApiError({
    source: "local",
    status: 0,
    code: check.code,
    message: `request refused before sending: ${prefix === "" ? core.scrub(check.message) : describeIssues(issues)}`,
    method: spec.method,
    path: spec.path,
    handling: "fix_request",
    details: { fields: check.fields.map((f) => core.scrub(prefix + f)) },
    issues,
    attempts: 0,
  });
}

/** Throws a local ApiError (code from the spec's catalogue, e.g. `invalid_amounts`) on a bad place body. */
export function assertPlaceBody(core: ApiCore, spec: Pick<CallSpec, "method" | "path">, body: unknown, prefix = ""): void {
  if (!core.validateRequests || isVouched(body)) return;
  const check = checkPlaceBody(body);
  if (!check.ok) throw fail(core, spec, check, prefix);
}

export function assertBody(core: ApiCore, spec: Pick<CallSpec, "method" | "path">, schema: z.ZodType, body: unknown): void {
  if (!core.validateRequests) return;
  const check = checkRequest(schema, body);
  if (!check.ok) throw fail(core, spec, check);
}

const WALLET_RE = /^0x[0-9a-fA-F]{40}$/;

/** `X-User-Wallet` must be 0x + 40 hex (spec 5.3); checked once when a wallet view is made. */
export function assertWallet(wallet: string): void {
  if (!WALLET_RE.test(wallet)) throw new RangeError(`not a wallet address: ${JSON.stringify(wallet.slice(0, 64))}`);
}
