/**
 * The quick checks of src/wire/quick.ts against their schemas: on generated valid inputs and on
 * every kind of mutation of them, a quick check either says nothing (the schema decides) or
 * returns exactly the schema's output, key order included. It must also answer the common case
 * (every valid input), or it buys nothing.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { Rng } from "../../src/core/rng.js";
import { cancelBatchBody, cancelBody, orderbook, quickCheckOf, safeParseQuick } from "../../src/wire/index.js";
import { checkRequest } from "../../src/wire/index.js";

type Gen = (rng: Rng) => unknown;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)]!;
const id = (rng: Rng): string => rng.uuid();
const amount = (rng: Rng): string => pick(rng, ["0", "1", "12.5", "0.000001", "100.250000", String(rng.int(1_000_000)) + "." + String(rng.int(1_000_000)).padStart(6, "0")]);

/** Values that break a field: wrong types, empty, malformed amounts, too many decimals, negatives. */
const ODD: readonly unknown[] = [undefined, null, "", " ", 0, -1, 1.5, Number.NaN, true, [], {}, ["x"], "-1", "1.0000001", "1e3", "abc", "0x12", { a: 1 }, "1.5", "01", "2026-06-01", "2026-06-01T12:00:00", "1".repeat(79), 2 ** 53];

const VALID: Record<string, { schema: z.ZodType; gen: Gen }> = {
  cancelBody: { schema: cancelBody, gen: (rng) => ({ orderId: id(rng) }) },
  cancelBatchBody: { schema: cancelBatchBody, gen: (rng) => ({ orderIds: Array.from({ length: 1 + rng.int(100) }, () => id(rng)) }) },
  orderbook: {
    schema: orderbook,
    gen: (rng) => {
      const level = () => ({ price: pick(rng, ["0", "1", "0.5", "0.001", "0.999", "0.123400"]), quantity: amount(rng) });
      const book: Record<string, unknown> = { marketId: pick(rng, ["M1", "ARS-CHE-DRAW"]), outcome: rng.int(3) };
      const token = rng.int(3);
      if (token === 1) book["tokenId"] = null;
      if (token === 2) book["tokenId"] = pick(rng, ["0", "11", "115792089237316195423570985008687907853269984665640564039457584007913129639935"]);
      book["bids"] = Array.from({ length: rng.int(4) }, level);
      book["asks"] = Array.from({ length: rng.int(4) }, level);
      if (rng.bool()) book["updatedAt"] = pick(rng, ["2026-06-01T12:00:00.000Z", "2026-06-01T12:00:00Z", "2026-06-01T14:00:00.123+02:00"]);
      return book;
    },
  },
};

/** A structured clone with one random change somewhere inside. */
function mutate(rng: Rng, v: unknown): unknown {
  if (Array.isArray(v)) {
    const copy = v.map((x) => structuredClone(x) as unknown);
    const r = rng.int(4);
    if (r === 0 || copy.length === 0) copy.push(pick(rng, ODD));
    else if (r === 1) copy.splice(rng.int(copy.length), 1);
    else {
      const i = rng.int(copy.length);
      copy[i] = rng.bool() ? pick(rng, ODD) : mutate(rng, copy[i]);
    }
    return copy;
  }
  if (typeof v === "object" && v !== null) {
    const copy = structuredClone(v) as Record<string, unknown>;
    const keys = Object.keys(copy);
    const r = rng.int(5);
    if (r === 0 || keys.length === 0) copy[pick(rng, ["extra", "status", "code", "__proto__", "orderId", "tokenId", "updatedAt"])] = pick(rng, ODD);
    else if (r === 1) delete copy[pick(rng, keys)];
    else if (r === 2) copy[pick(rng, keys)] = pick(rng, ODD);
    else {
      const k = pick(rng, keys);
      copy[k] = mutate(rng, copy[k]);
    }
    return copy;
  }
  return pick(rng, ODD);
}

function agrees(schema: z.ZodType, input: unknown): { quick: boolean } {
  const quick = quickCheckOf(schema)!(input);
  const full = schema.safeParse(input);
  if (quick !== undefined) {
    expect(full.success, `quick accepted what the schema refuses: ${JSON.stringify(input)}`).toBe(true);
    expect(quick).toStrictEqual(full.data);
    expect(Object.keys(quick as object)).toEqual(Object.keys(full.data as object));
    expect(JSON.stringify(quick)).toBe(JSON.stringify(full.data));
  }
  const through = safeParseQuick(schema, input);
  expect(through.success).toBe(full.success);
  if (through.success) expect(through.data).toStrictEqual(full.data);
  return { quick: quick !== undefined };
}

describe("quick checks agree with their schemas", () => {
  for (const [name, { schema, gen }] of Object.entries(VALID)) {
    it(`${name}: answers every valid input, exactly as the schema`, () => {
      expect(quickCheckOf(schema)).toBeDefined();
      const rng = new Rng(11);
      for (let i = 0; i < 300; i++) expect(agrees(schema, gen(rng)).quick).toBe(true);
    });

    it(`${name}: never accepts a mutation the schema refuses, and returns the schema's output for the rest`, () => {
      const rng = new Rng(23);
      let refused = 0;
      for (let i = 0; i < 3000; i++) {
        let v = gen(rng);
        for (let k = 1 + rng.int(3); k > 0; k--) v = mutate(rng, v);
        if (!schema.safeParse(v).success) refused++;
        agrees(schema, v);
      }
      // The mutations do reach refusals (the test is not only of valid inputs).
      expect(refused).toBeGreaterThan(300);
    });
  }

  it("unknown keys of an answer are kept after the shape's keys, as the schema keeps them", () => {
    const input = JSON.parse('{"zeta":1,"asks":[{"x":true,"quantity":"2","price":"0.6"}],"bids":[],"outcome":0,"marketId":"M"}') as unknown;
    expect(quickCheckOf(orderbook)!(input)).toStrictEqual(orderbook.parse(input));
    expect(JSON.stringify(quickCheckOf(orderbook)!(input))).toBe('{"marketId":"M","outcome":0,"bids":[],"asks":[{"price":"0.6","quantity":"2","x":true}],"zeta":1}');
  });

  it("a body the quick check leaves alone still gets the schema's error", () => {
    const r = checkRequest(cancelBatchBody, { orderIds: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fields).toEqual(["orderIds"]);
    expect(checkRequest(cancelBody, { orderId: "o", extra: 1 }).ok).toBe(false);
  });

  it("the output is a copy: changing it leaves the input alone", () => {
    const input = { orderIds: ["a", "b"] };
    const out = quickCheckOf(cancelBatchBody)!(input) as { orderIds: string[] };
    out.orderIds.push("c");
    expect(input.orderIds).toEqual(["a", "b"]);
  });
});
