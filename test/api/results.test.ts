/**
 * The result shapes shared by the endpoint groups (src/api/results.ts): `unknownRecord`, the schema
 * of answers whose shape the spec does not show, passes any JSON object through unchanged and
 * refuses anything that is not an object; a read typed with it resolves to `Ok` with that object.
 */
import { describe, expect, it } from "vitest";
import type { Ok, UnknownRecord } from "../../src/api/results.js";
import { unknownRecord } from "../../src/api/results.js";
import { json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

describe("unknownRecord", () => {
  it("passes any JSON object through unchanged, nested values and all", () => {
    const value = { total: 3, byStage: { final: 1 }, list: [1, "a", null], flag: false, none: null };
    expect(unknownRecord.parse(value)).toEqual(value);
    expect(unknownRecord.parse({})).toEqual({});
  });

  it("refuses arrays, null and primitives", () => {
    for (const bad of [[], [{ a: 1 }], null, "x", 3, true, undefined]) {
      expect(unknownRecord.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("a read typed with unknownRecord (events.stats)", () => {
  it("is Ok with the object and the answer's meta", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { total: 3, live: { football: 2 } }));
    const r: Ok<UnknownRecord> = await settle(clock, client.events.stats());
    expect(r).toMatchObject({ ok: true, data: { total: 3, live: { football: 2 } }, meta: { status: 200, attempts: 1 } });
  });

  it("an array answer is a schema error at the root", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, [1, 2]));
    const error = await rejectionOf(clock, client.events.stats());
    expect(error).toMatchObject({ source: "schema", issues: [{ path: "(root)" }] });
  });
});
