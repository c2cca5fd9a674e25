/**
 * `controls:` of the daemon config: off unless a block is given, each block's documented defaults,
 * price distances as exact micros on the 0.001 grid, and every bound and unknown key refused at
 * its field.
 */
import { describe, expect, it } from "vitest";
import { controlsSectionSchema } from "../../src/config/controls-section.js";

const parse = (v: unknown) => controlsSectionSchema().safeParse(v);
const value = (v: unknown) => controlsSectionSchema().parse(v);
const issues = (v: unknown): { path: string; message: string }[] => {
  const r = parse(v);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
};
const paths = (v: unknown): string[] => issues(v).map((i) => i.path);

describe("controls section", () => {
  it("absent or empty: no control is on", () => {
    expect(value(undefined)).toEqual({});
    expect(value({})).toEqual({});
  });

  it("fills each block's defaults: sizeStep 0, feeMultiple 1 and extra 0, range 0.5, sides filled, maxDistance 0.1", () => {
    expect(value({ levels: { count: 3, spacingTicks: 5 } }).levels).toEqual({ count: 3, spacingTicks: 5, sizeStep: 0n });
    expect(value({ minSpread: {} }).minSpread).toEqual({ feeMultiple: 1, extra: 0n });
    expect(value({ inventoryTarget: { fraction: 0.2 } }).inventoryTarget).toEqual({ fraction: 0.2, range: 0.5 });
    expect(value({ filledOrderDelay: { sec: 15 } }).filledOrderDelay).toEqual({ sec: 15, sides: "filled" });
    expect(value({ hangingOrders: { sec: 120 } }).hangingOrders).toEqual({ sec: 120, maxDistance: 100_000n });
  });

  it("reads the documented example with money as bigint micros", () => {
    expect(
      value({
        levels: { count: 3, spacingTicks: 5, sizeStep: "5" },
        queue: { mode: "penny", maxDistanceTicks: 3 },
        spreads: { bid: "0.01", ask: "0.02" },
        minSpread: { feeMultiple: 1, extra: "0.002" },
        inventoryTarget: { fraction: 0.2, range: 0.5, capital: "2500" },
        filledOrderDelay: { sec: 15, sides: "both" },
        hangingOrders: { sec: 120, maxDistance: "0.05" },
      }),
    ).toEqual({
      levels: { count: 3, spacingTicks: 5, sizeStep: 5_000_000n },
      queue: { mode: "penny", maxDistanceTicks: 3 },
      spreads: { bid: 10_000n, ask: 20_000n },
      minSpread: { feeMultiple: 1, extra: 2_000n },
      inventoryTarget: { fraction: 0.2, range: 0.5, capital: 2_500_000_000n },
      filledOrderDelay: { sec: 15, sides: "both" },
      hangingOrders: { sec: 120, maxDistance: 50_000n },
    });
  });

  it("spreads: one side is enough, none is refused", () => {
    expect(value({ spreads: { ask: "0.03" } }).spreads).toEqual({ ask: 30_000n });
    expect(issues({ spreads: {} })).toEqual([{ path: "spreads", message: "give bid, ask or both" }]);
  });

  it("a price distance is a multiple of 0.001 in [0, 0.5]; 0 and 0.5 are the ends", () => {
    expect(value({ spreads: { bid: "0", ask: "0.5" } }).spreads).toEqual({ bid: 0n, ask: 500_000n });
    for (const bad of ["0.0105", "0.501", "0.0001"]) {
      expect(issues({ spreads: { bid: bad } }), bad).toEqual([
        { path: "spreads.bid", message: 'expected a price distance that is a multiple of 0.001 in [0, 0.5], such as "0.01"' },
      ]);
    }
    expect(paths({ hangingOrders: { sec: 1, maxDistance: "0.6" } })).toEqual(["hangingOrders.maxDistance"]);
    expect(paths({ minSpread: { extra: "-0.001" } })).toEqual(["minSpread.extra"]);
  });

  it("money is never read from a float", () => {
    const [issue] = issues({ spreads: { bid: 0.01 } });
    expect(issue?.path).toBe("spreads.bid");
    expect(issue?.message).toContain("money is never read from a float");
  });

  it.each([
    [{ levels: { count: 0, spacingTicks: 1 } }, "levels.count"],
    [{ levels: { count: 21, spacingTicks: 1 } }, "levels.count"],
    [{ levels: { count: 2, spacingTicks: 0 } }, "levels.spacingTicks"],
    [{ levels: { count: 2, spacingTicks: 1.5 } }, "levels.spacingTicks"],
    [{ levels: { count: 2, spacingTicks: 1, sizeStep: "-1" } }, "levels.sizeStep"],
    [{ queue: { mode: "lead", maxDistanceTicks: 1 } }, "queue.mode"],
    [{ queue: { mode: "join", maxDistanceTicks: 101 } }, "queue.maxDistanceTicks"],
    [{ minSpread: { feeMultiple: -0.5 } }, "minSpread.feeMultiple"],
    [{ minSpread: { feeMultiple: 11 } }, "minSpread.feeMultiple"],
    [{ inventoryTarget: { fraction: 1.5 } }, "inventoryTarget.fraction"],
    [{ inventoryTarget: { fraction: 0, range: 0 } }, "inventoryTarget.range"],
    [{ inventoryTarget: { fraction: 0, capital: "0" } }, "inventoryTarget.capital"],
    [{ filledOrderDelay: { sec: 0 } }, "filledOrderDelay.sec"],
    [{ filledOrderDelay: { sec: 1, sides: "other" } }, "filledOrderDelay.sides"],
    [{ hangingOrders: { sec: 86_401 } }, "hangingOrders.sec"],
  ] as [Record<string, unknown>, string][])("refuses %o at its field", (v, field) => {
    expect(paths(v)).toEqual([field]);
  });

  it("a block that is missing its required keys is refused at those keys", () => {
    expect(paths({ levels: {} }).sort()).toEqual(["levels.count", "levels.spacingTicks"]);
    expect(paths({ queue: { mode: "join" } })).toEqual(["queue.maxDistanceTicks"]);
    expect(paths({ inventoryTarget: {} })).toEqual(["inventoryTarget.fraction"]);
  });

  it("refuses unknown keys at both levels", () => {
    expect(parse({ level: { count: 1, spacingTicks: 1 } }).success).toBe(false);
    expect(parse({ queue: { mode: "join", maxDistanceTicks: 1, depth: 2 } }).success).toBe(false);
    expect(parse({ spreads: { bid: "0.01", mid: "0.01" } }).success).toBe(false);
  });
});
