import { describe, expect, it } from "vitest";
import { ERROR_CODES, HANDLING_CLASSES, classifyCode, lookupCode, type CodeHttp } from "../../src/wire/index.js";

/** Spec 7.3, copied row by row: code -> HTTP as the spec states it. */
const SPEC_7_3: [string, CodeHttp][] = [
  ["auth_required", 401],
  ["api_key_bad_format", 401],
  ["api_key_unknown_key", 401],
  ["api_key_bad_secret", 401],
  ["api_key_revoked", 401],
  ["api_key_expired", 401],
  ["api_key_suspended", 401],
  ["api_key_ip_denied", 401],
  ["api_key_no_associated_wallet", 401],
  ["api_key_user_wallet_required", 401],
  ["api_key_user_wallet_invalid", 401],
  ["api_key_scope_missing", 403],
  ["wallet_banned", 403],
  ["invalid_amounts", 400],
  ["invalid_tif", 400],
  ["bad_signature", 400],
  ["order_signed_with_floor_notional", 400],
  ["fee_too_high", 400],
  ["expired", 400],
  ["invalid_outcome", 400],
  ["maker_mismatch", 400],
  ["wallet_mismatch", 401],
  ["insufficient_funds", "envelope-200"],
  ["market_not_open", 409],
  ["idempotency_race", 500],
  ["matcher_error", "envelope-200"],
  ["vault_not_deployed", "rejection"],
  ["kyc_blocked", "rejection"],
  ["order_not_found", 404],
  ["not_cancellable", 409],
  ["forbidden", 403],
  ["invalid_amount", 400],
  ["destination_not_cleared", "envelope-200"],
  ["new_destination_edd", "envelope-200"],
  ["aml_blocked", "envelope-200"],
  ["invalid_state", 409],
  ["withdrawal_not_found", 404],
  ["match_not_found", 404],
  ["market_not_found", 404],
  ["event_not_found", 404],
  ["invalid_limit", 400],
  ["ambiguous_pagination", 400],
  ["invalid_interval", 400],
  ["invalid_request", 400],
  ["bad_request", 400],
  ["rate_limited", 429],
  ["cancel_pending", 202],
  ["cancel_unanswered", 503],
  ["shard_owner_unavailable", 503],
  ["trading_temporarily_unavailable", 503],
  ["journal_intent_not_durable", "per-entry"],
  ["lock_invariant_violation", 503],
  ["exchange_unavailable", 503],
  ["exchange_transport_error", 503],
  ["exchange_malformed_response", 503],
  ["not_implemented", 501],
];

describe("error-code catalogue (spec 7.3)", () => {
  it("lists every code of the spec table with its HTTP status", () => {
    for (const [code, http] of SPEC_7_3) {
      const info = ERROR_CODES.get(code);
      expect(info, code).toBeDefined();
      expect(info?.http, code).toBe(http);
      expect(info?.meaning.length, code).toBeGreaterThan(5);
      expect(HANDLING_CLASSES).toContain(info?.handling);
    }
  });

  it("records the secondary statuses the spec mentions", () => {
    expect(ERROR_CODES.get("wallet_banned")?.alsoHttp).toEqual(["envelope-200"]);
    expect(ERROR_CODES.get("maker_mismatch")?.alsoHttp).toEqual([401]);
    expect(ERROR_CODES.get("cancel_pending")?.alsoHttp).toEqual(["per-entry"]);
    expect(ERROR_CODES.get("order_signed_with_floor_notional")?.alsoHttp).toEqual(["rejection"]);
  });

  it("holds the codes named outside the table, and ours", () => {
    expect(ERROR_CODES.get("exchange_upstream_error")?.handling).toBe("unknown_outcome");
    expect(ERROR_CODES.get("not_found")?.http).toBe(404);
    expect(ERROR_CODES.get("post_only_would_cross")).toMatchObject({ http: "rejection", handling: "business_reject" });
    expect(ERROR_CODES.get("lock_invariant")?.http).toBe("per-entry");
  });

  it("matches too_many_<field> as a pattern", () => {
    expect(lookupCode("too_many_tag")).toMatchObject({ http: 400, handling: "fix_request" });
    expect(lookupCode("too_many_prediction_type")).toMatchObject({ http: 400 });
    expect(lookupCode("too_many_")).toBeUndefined();
  });
});

describe("classifyCode (spec 7.4)", () => {
  it("gives each code family its handling class", () => {
    const expected: [string, string][] = [
      ["invalid_amounts", "fix_request"],
      ["bad_signature", "fix_request"],
      ["api_key_revoked", "auth"],
      ["api_key_scope_missing", "auth"],
      ["insufficient_funds", "business_reject"],
      ["market_not_open", "business_reject"],
      ["rate_limited", "wait_retry_after"],
      ["shard_owner_unavailable", "resend_same"],
      ["trading_temporarily_unavailable", "resend_same"],
      ["journal_intent_not_durable", "resend_same"],
      ["exchange_unavailable", "unknown_outcome"],
      ["idempotency_race", "unknown_outcome"],
      ["cancel_pending", "unknown_outcome"],
      ["cancel_unanswered", "unknown_outcome"],
      ["vault_not_deployed", "onboarding_wait"],
      ["kyc_blocked", "onboarding_wait"],
      ["exchange_transport_error", "retry_backoff"],
      ["not_implemented", "unsupported"],
      ["too_many_team", "fix_request"],
    ];
    for (const [code, handling] of expected) {
      expect(classifyCode(code), code).toMatchObject({ code, known: true, handling });
    }
  });

  it("classes unknown codes by their HTTP status", () => {
    expect(classifyCode("brand_new_thing", 400)).toEqual({ code: "brand_new_thing", known: false, handling: "fix_request" });
    expect(classifyCode("brand_new_thing", 401).handling).toBe("auth");
    expect(classifyCode("brand_new_thing", 403).handling).toBe("auth");
    expect(classifyCode("brand_new_thing", 429).handling).toBe("wait_retry_after");
    expect(classifyCode("brand_new_thing", 200).handling).toBe("business_reject");
    expect(classifyCode("brand_new_thing", 201).handling).toBe("business_reject");
    expect(classifyCode("brand_new_thing", 202).handling).toBe("unknown_outcome");
    expect(classifyCode("brand_new_thing", 500).handling).toBe("retry_backoff");
    expect(classifyCode("brand_new_thing", 501).handling).toBe("unsupported");
    expect(classifyCode("brand_new_thing").handling).toBe("unknown_outcome");
    expect(classifyCode("http_503", 503).handling).toBe("retry_backoff");
  });

  it("a known code keeps its class whatever status it came with", () => {
    expect(classifyCode("insufficient_funds", 200).handling).toBe("business_reject");
    expect(classifyCode("wallet_banned", 200).handling).toBe("business_reject");
  });
});
