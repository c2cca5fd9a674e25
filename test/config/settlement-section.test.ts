/**
 * `settlement:` of the daemon config: on by default with its documented numbers, every bound
 * refused by field, no unknown key, and a poll that would come after the deadline refused.
 */
import { describe, expect, it } from "vitest";
import { settlementSectionSchema } from "../../src/config/settlement-section.js";

const parse = (v: unknown) => settlementSectionSchema().safeParse(v);

describe("settlement section", () => {
  it("defaults to on, a one-hour payout deadline, a read a minute", () => {
    expect(settlementSectionSchema().parse(undefined)).toEqual({ enabled: true, payoutTimeoutSec: 3_600, pollIntervalSec: 60 });
    expect(settlementSectionSchema().parse({ enabled: false })).toEqual({ enabled: false, payoutTimeoutSec: 3_600, pollIntervalSec: 60 });
  });

  it.each([
    [{ payoutTimeoutSec: 9 }, "payoutTimeoutSec"],
    [{ payoutTimeoutSec: 30 * 86_400 + 1 }, "payoutTimeoutSec"],
    [{ payoutTimeoutSec: 60.5 }, "payoutTimeoutSec"],
    [{ pollIntervalSec: 4 }, "pollIntervalSec"],
    [{ pollIntervalSec: 3_601, payoutTimeoutSec: 7_200 }, "pollIntervalSec"],
    [{ enabled: "yes" }, "enabled"],
    [{ pollEverySec: 10 }, ""],
  ] as [Record<string, unknown>, string][])("refuses %o", (value, field) => {
    const r = parse(value);
    expect(r.success).toBe(false);
    if (field !== "") expect(r.error!.issues.map((i) => i.path.join("."))).toContain(field);
  });

  it("refuses a poll slower than the deadline it checks, naming the poll", () => {
    const r = parse({ payoutTimeoutSec: 30, pollIntervalSec: 60 });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(["pollIntervalSec"]);
    expect(r.error!.issues[0]!.message).toMatch(/after the deadline/);
    expect(parse({ payoutTimeoutSec: 60, pollIntervalSec: 60 }).success).toBe(true);
  });
});
