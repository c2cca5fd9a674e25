/**
 * Client-side checks before anything is sent (src/api/validate.ts): a bad place body or request
 * body becomes a local ApiError (status 0, no attempt, `fix_request`) with the spec's code for the
 * first failing field (`invalid_amounts` for price or quantity, `invalid_outcome`, else
 * `invalid_request`) and every failing field named, under a batch entry's prefix when given; the
 * API key never appears in it; vouched bodies and a client with checks off are let through; a
 * wallet header must be 0x + 40 hex.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../src/api/backoff.js";
import { CircuitBreaker } from "../../src/api/breaker.js";
import { ApiCore } from "../../src/api/core.js";
import { ApiError } from "../../src/api/errors.js";
import { NOOP_GATE } from "../../src/api/gate.js";
import { assertBody, assertPlaceBody, assertWallet } from "../../src/api/validate.js";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { cancelBatchBody, cancelBody, vouch } from "../../src/wire/index.js";
import { ORDER_ID, WALLET, examplePlaceBody } from "../wire/fixtures.js";
import { FakeTransport } from "./fake-transport.js";
import { API_KEY } from "./helpers.js";

const PLACE = { method: "POST", path: "/api/orders/place" } as const;
const BATCH = { method: "POST", path: "/api/orders/place-batch" } as const;

function core(validateRequests = true): ApiCore {
  const clock = new VirtualClock(0);
  return new ApiCore({ transport: new FakeTransport(clock), apiKey: API_KEY, clock, rng: new Rng(1), gate: NOOP_GATE, breaker: new CircuitBreaker(clock), retry: DEFAULT_RETRY, validateRequests });
}

/** The ApiError `fn` throws (fails the test when it throws nothing or something else). */
function refusal(fn: () => void): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected an ApiError");
}

describe("assertPlaceBody", () => {
  it("lets a valid place body through", () => {
    expect(() => assertPlaceBody(core(), PLACE, examplePlaceBody())).not.toThrow();
  });

  it("an off-grid price: a local invalid_amounts error naming the field, nothing sent", () => {
    const e = refusal(() => assertPlaceBody(core(), PLACE, examplePlaceBody({ price: "0.5555" })));
    expect(e).toMatchObject({ source: "local", status: 0, code: "invalid_amounts", handling: "fix_request", method: "POST", path: "/api/orders/place", attempts: 0 });
    expect(e.details).toEqual({ fields: ["price"] });
    expect(e.issues?.map((i) => i.path)).toEqual(["price"]);
    expect(e.message).toMatch(/^POST \/api\/orders\/place: invalid_amounts: request refused before sending: price: /);
  });

  it("the code is the first failing field's: invalid_outcome for a negative outcome, invalid_request for the rest", () => {
    expect(refusal(() => assertPlaceBody(core(), PLACE, examplePlaceBody({ outcome: -1 }))).code).toBe("invalid_outcome");
    expect(refusal(() => assertPlaceBody(core(), PLACE, examplePlaceBody({ side: "buy" as never }))).code).toBe("invalid_request");
    expect(refusal(() => assertPlaceBody(core(), PLACE, { ...examplePlaceBody(), nonce: 1 })).details).toEqual({ fields: ["nonce"] });
  });

  it("a batch entry's fields, issues and every path in the message carry its prefix", () => {
    const e = refusal(() => assertPlaceBody(core(), BATCH, examplePlaceBody({ price: "0.5555", quantity: "-1" }), "orders[2]."));
    expect(e.details).toEqual({ fields: ["orders[2].price", "orders[2].quantity"] });
    expect(e.issues?.map((i) => i.path)).toEqual(["orders[2].price", "orders[2].quantity"]);
    expect(e.message).toContain("request refused before sending: orders[2].price: ");
    expect(e.message).toContain("; orders[2].quantity: ");
    expect(e.message).not.toMatch(/; quantity: /);
  });

  it("never puts the API key in the message, even when the schema's message quotes it (an unknown key named like it)", () => {
    const e = refusal(() => assertPlaceBody(core(), PLACE, { ...examplePlaceBody(), [API_KEY]: 1 }));
    expect(e.message).toContain("Unrecognized key");
    expect(e.message).toContain("[REDACTED]");
    expect(e.message).not.toContain(API_KEY);
    expect(JSON.stringify(e.details)).not.toContain(API_KEY);
    expect(JSON.stringify(e.issues)).not.toContain(API_KEY);
    expect(e.details).toEqual({ fields: ["[REDACTED]"] });
    const batch = refusal(() => assertPlaceBody(core(), BATCH, { ...examplePlaceBody(), [API_KEY]: 1 }, "orders[0]."));
    expect(`${batch.message} ${JSON.stringify(batch.details)} ${JSON.stringify(batch.issues)}`).not.toContain(API_KEY);
  });

  it("lets a vouched body through unchecked, and any body when checks are off", () => {
    const bad = examplePlaceBody({ price: "0.5555" });
    expect(() => assertPlaceBody(core(), PLACE, vouch(examplePlaceBody({ price: "0.5555" })))).not.toThrow();
    expect(() => assertPlaceBody(core(false), PLACE, bad)).not.toThrow();
    expect(() => assertPlaceBody(core(), PLACE, bad)).toThrow(ApiError);
  });
});

describe("assertBody", () => {
  it("checks a body against the schema given: invalid_request naming the field", () => {
    const spec = { method: "POST", path: "/api/orders/cancel" } as const;
    expect(() => assertBody(core(), spec, cancelBody, { orderId: ORDER_ID })).not.toThrow();
    const e = refusal(() => assertBody(core(), spec, cancelBody, { orderId: "" }));
    expect(e).toMatchObject({ code: "invalid_request", status: 0, attempts: 0, path: "/api/orders/cancel" });
    expect(e.details).toEqual({ fields: ["orderId"] });
    expect(e.message).toContain("request refused before sending: orderId: ");
  });

  it("names an array element by index, and is skipped when checks are off", () => {
    const spec = { method: "POST", path: "/api/orders/cancel-batch" } as const;
    const e = refusal(() => assertBody(core(), spec, cancelBatchBody, { orderIds: [ORDER_ID, 7] }));
    expect(e.details).toEqual({ fields: ["orderIds[1]"] });
    expect(() => assertBody(core(false), spec, cancelBatchBody, { orderIds: [ORDER_ID, 7] })).not.toThrow();
  });
});

describe("assertWallet", () => {
  it("takes 0x and 40 hex digits in any case", () => {
    expect(() => assertWallet(WALLET)).not.toThrow();
    expect(() => assertWallet("0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B")).not.toThrow();
  });

  it("refuses anything else with a RangeError quoting (at most 64 characters of) the value", () => {
    expect(() => assertWallet("0x123")).toThrow(new RangeError('not a wallet address: "0x123"'));
    expect(() => assertWallet(WALLET.slice(2))).toThrow(RangeError);
    expect(() => assertWallet(`${WALLET}0`)).toThrow(RangeError);
    expect(() => assertWallet(` ${WALLET}`)).toThrow(RangeError);
    expect(() => assertWallet("x".repeat(100))).toThrow(new RangeError(`not a wallet address: "${"x".repeat(64)}"`));
  });
});
