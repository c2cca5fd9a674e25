/**
 * Request bodies this package built itself from checked parts, so the client's check before
 * sending (api/validate.ts) need not run the wire schema over them again on the hot path: a place
 * body made by `placeOrderBody` from an order `buildOrder` built (and so checked) and a signature,
 * clientOrderId and maker that pass the same patterns as the schema. A vouched body is frozen, with
 * the objects inside it, so it cannot change after it was vouched for; anything else a caller
 * passes, a hand-made body included, is checked in full. test/signing/place-body-vouched.test.ts
 * holds the contract: every vouched body passes the schema.
 */
const VOUCHED = new WeakSet<object>();

/** Freeze the body (and the plain objects inside it) and remember it as built from checked parts. */
export function vouch<T extends object>(body: T): Readonly<T> {
  deepFreeze(body);
  VOUCHED.add(body);
  return body;
}

export function isVouched(body: unknown): boolean {
  return typeof body === "object" && body !== null && VOUCHED.has(body);
}

function deepFreeze(o: object): void {
  for (const v of Object.values(o)) if (typeof v === "object" && v !== null && !Object.isFrozen(v)) deepFreeze(v as object);
  Object.freeze(o);
}
