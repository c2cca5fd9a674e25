/** `controls:` in the daemon config (src/config/controls-section.ts): defaults (all off), values parsed to micros, errors that name the key. */
import { describe, expect, it } from "vitest";
import { buildConfigSchema } from "../../../../src/config/schema.js";
import { buildControls } from "../../../../src/bot/quote/controls/index.js";
import { m } from "../../risk/fixtures.js";

const schema = buildConfigSchema({ env: {}, baseDir: "/cfg" });
const sim = (controls?: unknown) => ({ mode: "simulator", strategy: { name: "ladder" }, ...(controls === undefined ? {} : { controls }) });

function issues(controls: unknown): string[] {
  const r = schema.safeParse(sim(controls));
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}
function parsed(controls?: unknown) {
  const r = schema.safeParse(sim(controls));
  if (!r.success) throw new Error(issues(controls).join("\n"));
  return r.data;
}

describe("controls: section", () => {
  it("absent or empty: every control is off, and none is built", () => {
    expect(parsed().controls).toEqual({});
    expect(parsed({}).controls).toEqual({});
    expect(buildControls(parsed())).toEqual([]);
  });

  it("every control, with defaults filled in and decimals parsed to micros", () => {
    const c = parsed({
      levels: { count: 3, spacingTicks: 5 },
      queue: { mode: "penny", maxDistanceTicks: 3 },
      spreads: { bid: "0.01" },
      minSpread: {},
      inventoryTarget: { fraction: 0.2 },
      filledOrderDelay: { sec: 15 },
      hangingOrders: { sec: 120 },
    });
    expect(c.controls).toEqual({
      levels: { count: 3, spacingTicks: 5, sizeStep: 0n },
      queue: { mode: "penny", maxDistanceTicks: 3 },
      spreads: { bid: m("0.01") },
      minSpread: { feeMultiple: 1, extra: 0n },
      inventoryTarget: { fraction: 0.2, range: 0.5 },
      filledOrderDelay: { sec: 15, sides: "filled" },
      hangingOrders: { sec: 120, maxDistance: m("0.1") },
    });
    expect(buildControls(c).map((x) => x.name)).toEqual(["order_levels", "join_penny", "per_side_spreads", "fee_min_spread", "inventory_target", "filled_order_delay", "hanging_orders"]);
  });

  const bad: [string, unknown, string][] = [
    ["unknown control", { penny: {} }, 'controls: Unrecognized key: "penny"'],
    ["levels without spacing", { levels: { count: 2 } }, "controls.levels.spacingTicks: Invalid input: expected number, received undefined"],
    ["levels count 0", { levels: { count: 0, spacingTicks: 1 } }, "controls.levels.count: Too small: expected number to be >=1"],
    ["a float size step", { levels: { count: 2, spacingTicks: 1, sizeStep: 0.1 + 0.2 } }, "controls.levels.sizeStep: money is never read from a float"],
    ["queue mode", { queue: { mode: "jump", maxDistanceTicks: 1 } }, "controls.queue.mode: Invalid option"],
    ["spreads with neither side", { spreads: {} }, "controls.spreads: give bid, ask or both"],
    ["a spread off the grid", { spreads: { bid: "0.0005" } }, "controls.spreads.bid: expected a price distance that is a multiple of 0.001 in [0, 0.5]"],
    ["a spread above 0.5", { spreads: { ask: "0.6" } }, "controls.spreads.ask: expected a price distance"],
    ["fee multiple negative", { minSpread: { feeMultiple: -1 } }, "controls.minSpread.feeMultiple: Too small"],
    ["target fraction above 1", { inventoryTarget: { fraction: 1.5 } }, "controls.inventoryTarget.fraction: Too big"],
    ["target range 0", { inventoryTarget: { fraction: 0, range: 0 } }, "controls.inventoryTarget.range: Too small"],
    ["capital 0", { inventoryTarget: { fraction: 0, capital: "0" } }, "controls.inventoryTarget.capital: must be > 0"],
    ["delay sides", { filledOrderDelay: { sec: 5, sides: "other" } }, "controls.filledOrderDelay.sides: Invalid option"],
    ["delay 0 s", { filledOrderDelay: { sec: 0 } }, "controls.filledOrderDelay.sec: Too small"],
    ["hanging without sec", { hangingOrders: {} }, "controls.hangingOrders.sec: Invalid input"],
  ];
  for (const [name, value, msg] of bad) {
    it(`refuses ${name}, naming the key`, () => {
      const got = issues(value);
      expect(got.some((g) => g.startsWith(msg)), got.join("\n")).toBe(true);
    });
  }

  it("inventoryTarget capital defaults to risk.maxNotionalPerWallet", () => {
    const c = parsed({ inventoryTarget: { fraction: 0 } });
    expect(c.risk.maxNotionalPerWallet).toBe(m("1000"));
    expect(buildControls(c)).toHaveLength(1);
  });
});
