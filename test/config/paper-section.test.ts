/**
 * `paper:` of the daemon config: the documented defaults, the queue model's exponent required
 * exactly by the models that take one, and every bound refused by field.
 */
import { describe, expect, it } from "vitest";
import { PAPER_QUEUE_MODELS, paperSectionSchema } from "../../src/config/paper-section.js";

const parse = (v: unknown) => paperSectionSchema().safeParse(v);
const paths = (v: unknown): string[] => {
  const r = parse(v);
  return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
};

describe("paper section", () => {
  it("defaults to seed 1, 10,000 of cash per wallet, 20 ms each way, the risk-averse queue", () => {
    expect(paperSectionSchema().parse(undefined)).toEqual({ seed: 1, startingCash: 10_000_000_000n, latency: { entryMs: 20, responseMs: 20 }, queue: { model: "risk-averse" } });
  });

  it("takes n with the power models only", () => {
    for (const model of PAPER_QUEUE_MODELS) {
      const needsN = model === "prob-power" || model === "prob-power-fraction";
      expect(parse({ queue: { model, n: 2 } }).success, `${model} with n`).toBe(needsN);
      expect(parse({ queue: { model } }).success, `${model} without n`).toBe(!needsN);
    }
    expect(paths({ queue: { model: "prob-power" } })).toEqual(["queue.n"]);
    expect(paths({ queue: { model: "prob-log", n: 3 } })).toEqual(["queue.n"]);
  });

  it.each([
    [{ seed: -1 }, "seed"],
    [{ seed: 2 ** 32 }, "seed"],
    [{ startingCash: "0" }, "startingCash"],
    [{ startingCash: "-5" }, "startingCash"],
    [{ latency: { entryMs: -1 } }, "latency.entryMs"],
    [{ latency: { responseMs: 60_001 } }, "latency.responseMs"],
    [{ queue: { model: "prob-power", n: 0 } }, "queue.n"],
    [{ queue: { model: "fifo" } }, "queue.model"],
  ] as [Record<string, unknown>, string][])("refuses %o at its field", (value, field) => {
    expect(paths(value)).toContain(field);
  });

  it("refuses unknown keys at every level", () => {
    expect(parse({ cash: "1" }).success).toBe(false);
    expect(parse({ latency: { entry: 1 } }).success).toBe(false);
    expect(parse({ queue: { model: "risk-averse", depth: 3 } }).success).toBe(false);
  });
});
