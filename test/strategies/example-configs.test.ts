import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createStrategyRunner } from "../../strategies/index.js";
import { input } from "./helpers.js";

const DIR = fileURLToPath(new URL("../../configs/strategies/", import.meta.url));

describe("configs/strategies examples", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();
  it("ship one example per strategy", () => {
    expect(files).toEqual(["avellaneda-stoikov.yaml", "inventory-skew.yaml", "ladder.yaml"]);
  });
  it.each(files)("%s parses, validates and quotes", (file) => {
    const doc = parse(readFileSync(DIR + file, "utf8")) as { strategy: { name: string; params: unknown } };
    expect(doc.strategy.name).toBe(file.replace(/\.yaml$/, ""));
    const runner = createStrategyRunner(doc.strategy.name, doc.strategy.params);
    expect(runner.step(input(), undefined).quotes.length).toBeGreaterThan(0);
  });
});
