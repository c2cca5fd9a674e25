/** `record:` in the daemon config (src/config/record-section.ts): defaults, bounds, and errors that name the key. */
import { describe, expect, it } from "vitest";
import { RECORD_KINDS } from "../../src/config/record-section.js";
import { buildConfigSchema } from "../../src/config/schema.js";
import { API_KEY, KEY_1 } from "./fixtures.js";

const schema = buildConfigSchema({ env: { MM_API_KEY: API_KEY, MM_KEY: KEY_1, REC_DIR: "/data/rec" }, baseDir: "/cfg" });
const sim = (record?: unknown) => ({ mode: "simulator", strategy: { name: "ladder" }, ...(record === undefined ? {} : { record }) });

function issues(value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

function record(value: unknown) {
  const r = schema.safeParse(sim(value));
  if (!r.success) throw new Error(issues(sim(value)).join("\n"));
  return r.data.record;
}

describe("record: section", () => {
  it("is absent unless given: nothing is recorded", () => {
    expect(record(undefined)).toBeUndefined();
  });

  it("needs only dir (relative to the config file); records everything of the quoted markets by default", () => {
    expect(record({ dir: "data/run-1" })).toEqual({ dir: "/cfg/data/run-1", rotateMb: 64, rotateMinutes: 60, include: [...RECORD_KINDS] });
    expect(record({ dir: "${REC_DIR}" })!.dir).toBe("/data/rec");
  });

  it("takes markets, rotation and what to record", () => {
    expect(record({ dir: "/d", markets: ["AAA", "BBB"], rotateMb: 0.5, rotateMinutes: 0, include: ["orders", "fills"] })).toEqual({
      dir: "/d",
      markets: ["AAA", "BBB"],
      rotateMb: 0.5,
      rotateMinutes: 0,
      include: ["orders", "fills"],
    });
  });

  it.each([
    [{}, "record.dir"],
    [{ dir: "" }, "record.dir"],
    [{ dir: "/d", markets: [] }, "record.markets: list at least one market symbol"],
    [{ dir: "/d", markets: ["A", "A"] }, "record.markets: a market symbol is listed twice"],
    [{ dir: "/d", rotateMb: 0 }, "record.rotateMb: must be above 0 MiB"],
    [{ dir: "/d", rotateMb: 70_000 }, "record.rotateMb: must be at most 65536 MiB"],
    [{ dir: "/d", rotateMinutes: 1.5 }, "record.rotateMinutes"],
    [{ dir: "/d", rotateMinutes: 1441 }, "record.rotateMinutes"],
    [{ dir: "/d", include: [] }, "record.include: list at least one of books, trades, orders, fills, latencies"],
    [{ dir: "/d", include: ["books", "books"] }, "record.include: a kind is listed twice"],
    [{ dir: "/d", include: ["keys"] }, "record.include.0"],
    [{ dir: "/d", path: "/x" }, "record"],
  ])("refuses %j, naming %s", (value, where) => {
    const found = issues(sim(value));
    expect(found.some((i) => i.startsWith(where)), found.join("\n")).toBe(true);
  });
});
