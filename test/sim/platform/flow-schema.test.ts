/**
 * The flow's scenario sections (src/sim/platform/flow-schema.ts): defaults that leave every new
 * agent off, and bad values refused at load with the key path of the field.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/core/validation.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { flowScenarioYaml } from "../flow/helpers.js";

function parse(flow: string) {
  return parseScenario(flowScenarioYaml([{ symbol: "P", flow }]), "params.yaml").events[0]!.markets[0]!.flow;
}

function problems(flow: string): string[] {
  try {
    parse(flow);
  } catch (err) {
    if (err instanceof ValidationError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  return [];
}

const AT = "events[0].markets[0].flow";

describe("flow params", () => {
  it("default to no informed flow, no news, no noise takers and no other makers", () => {
    const f = parse("takerArrivalPerMin: 4");
    expect(f.informed).toEqual({ arrivalPerMin: 0, edge: 5_000n, sizePerCent: 20_000_000n, maxSize: 200_000_000n, reactionMs: 0 });
    expect(f.news).toEqual({ ratePerMin: 0, size: { dist: "exponential", mean: 0.03, min: 0, max: 0.2 }, headStartMs: 2_000 });
    expect(f.noise).toMatchObject({ arrivalPerMin: 0, maxSlippage: 20_000n, size: { dist: "lognormal", min: 1_000_000n, max: 100_000_000n, mean: 10_000_000n } });
    expect(f.makers).toMatchObject({ count: 0, refreshPerMin: 6, minOffset: 2_000n, maxOffset: 8_000n });
  });

  it("read every field", () => {
    const f = parse(`informed: { arrivalPerMin: 12, edge: "0.004", sizePerCent: "25", maxSize: "300", reactionMs: 250ms }
news: { ratePerMin: 0.1, size: { dist: uniform, min: 0.02, max: 0.06 }, headStartMs: 3s }
noise: { arrivalPerMin: 3, size: { dist: fixed, mean: "7" }, maxSlippage: "0.015" }
makers: { count: 3, refreshPerMin: 10, size: { dist: uniform, min: "10", max: "60" }, minOffset: "0.001", maxOffset: "0.006" }`);
    expect(f.informed).toEqual({ arrivalPerMin: 12, edge: 4_000n, sizePerCent: 25_000_000n, maxSize: 300_000_000n, reactionMs: 250 });
    expect(f.news).toEqual({ ratePerMin: 0.1, size: { dist: "uniform", mean: 0.03, min: 0.02, max: 0.06 }, headStartMs: 3_000 });
    expect(f.noise.size).toEqual({ dist: "fixed", min: 1_000_000n, max: 100_000_000n, mean: 7_000_000n });
    expect(f.makers).toEqual({ count: 3, refreshPerMin: 10, size: { dist: "uniform", min: 10_000_000n, max: 60_000_000n, mean: 40_000_000n }, minOffset: 1_000n, maxOffset: 6_000n });
  });

  it.each([
    ["informed: { arrivalPerMin: -1 }", `${AT}.informed.arrivalPerMin`],
    ['informed: { edge: "1.5" }', `${AT}.informed.edge: expected a price strictly between 0 and 1, got "1.5"`],
    ["informed: { edge: 0.005 }", `${AT}.informed.edge: a price strictly between 0 and 1: quote decimal values ("0.55"), got the number 0.005`],
    ['informed: { sizePerCent: "0" }', `${AT}.informed.sizePerCent: expected a positive decimal quantity`],
    ["informed: { reactionMs: soon }", `${AT}.informed.reactionMs: expected a duration such as 10s, 250ms or 1h30m, got "soon"`],
    ["informed: { edg: 1 }", `${AT}.informed.edg: unknown key`],
    ["news: { ratePerMin: 1, size: { min: 0.05, max: 0.01 } }", `${AT}.news.size.max: must be at least min`],
    ["news: { size: { dist: normal } }", `${AT}.news.size.dist`],
    ["news: { size: { mean: 2 } }", `${AT}.news.size.mean`],
    ["news: { headStartMs: -5 }", `${AT}.news.headStartMs`],
    ['noise: { size: { min: "10", max: "5" } }', `${AT}.noise.size.max: must be at least min`],
    ['noise: { size: { dist: fixed, mean: "500" } }', `${AT}.noise.size.mean: must be between min and max`],
    ['noise: { maxSlippage: "0" }', `${AT}.noise.maxSlippage: expected a price strictly between 0 and 1`],
    ["makers: { count: 21 }", `${AT}.makers.count`],
    ["makers: { count: 1.5 }", `${AT}.makers.count`],
    ["makers: { refreshPerMin: 0 }", `${AT}.makers.refreshPerMin`],
    ['makers: { minOffset: "0.01", maxOffset: "0.005" }', `${AT}.makers.maxOffset: must be at least minOffset`],
    ["makers: { size: { dist: poisson } }", `${AT}.makers.size.dist`],
  ])("refuse %s, naming the field", (flow, expected) => {
    const found = problems(flow);
    expect(found).toHaveLength(1);
    expect(found[0]!.startsWith(expected), found[0]).toBe(true);
  });
});
