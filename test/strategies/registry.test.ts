import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/core/validation.js";
import {
  UnknownStrategyError,
  createStrategyRunner,
  getStrategy,
  parseStrategyParams,
  safeParseStrategyParams,
} from "../../strategies/index.js";
import { input, m } from "./helpers.js";

describe("strategy registry", () => {
  it("finds strategies by name", () => {
    expect(getStrategy("ladder").name).toBe("ladder");
    expect(getStrategy("avellaneda-stoikov").description).toMatch(/closesAt/);
  });

  it("an unknown name lists the known ones", () => {
    expect(() => getStrategy("ladderr")).toThrow(UnknownStrategyError);
    expect(() => getStrategy("ladderr")).toThrow('unknown strategy "ladderr"; known strategies: avellaneda-stoikov, inventory-skew, ladder');
    const r = safeParseStrategyParams("nope", {});
    expect(r.ok).toBe(false);
  });

  it("fills defaults and converts money params to micros", () => {
    expect(parseStrategyParams("ladder", undefined)).toMatchObject({ size: m("10"), levels: 1, postOnly: true, halfSpreadTicks: 2 });
    expect(parseStrategyParams("ladder", { size: 2.5, fallbackPrice: "0.45" })).toMatchObject({ size: m("2.5"), fallbackPrice: m("0.45") });
  });

  it("throws a ValidationError whose issues name each bad param", () => {
    try {
      parseStrategyParams("avellaneda-stoikov", { gamma: 0, fallbackPrice: "0.4505", levels: 1.5 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      const paths = (e as ValidationError).issues.map((i) => i.path).sort();
      expect(paths).toEqual(["fallbackPrice", "gamma", "levels"]);
      expect((e as Error).message).toMatch(/^strategy "avellaneda-stoikov" params: /);
    }
  });

  it("the runner threads the reducer state from one step to the next", () => {
    const runner = createStrategyRunner("inventory-skew", {});
    const a = runner.step(input({ nowMs: 1000 }), undefined);
    const b = runner.step(input({ nowMs: 2000 }), a.state);
    expect((a.state as { samples: unknown[] }).samples).toHaveLength(1);
    expect((b.state as { samples: unknown[] }).samples).toHaveLength(2);
    const stateless = createStrategyRunner("ladder", {}).step(input(), undefined);
    expect(stateless.state).toBeUndefined();
    expect(stateless.quotes.length).toBe(2);
  });
});
