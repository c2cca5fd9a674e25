/** docs/strategies.md documents every quoting control: its block (a section) and its metric label, in the order built. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildControls } from "../../../../src/bot/quote/controls/index.js";
import { controlsSectionSchema } from "../../../../src/config/controls-section.js";
import { m } from "../../risk/fixtures.js";

const DOC = readFileSync(new URL("../../../../docs/strategies.md", import.meta.url), "utf8");

describe("docs/strategies.md, Quoting controls", () => {
  const blocks = Object.keys(controlsSectionSchema().unwrap().shape);
  it("has a section per config block", () => {
    for (const b of blocks) expect(DOC, b).toMatch(new RegExp(`^### \`${b}\``, "m"));
  });
  it("lists every control with its metric label, in the order buildControls applies them", () => {
    const all = controlsSectionSchema().parse({
      levels: { count: 2, spacingTicks: 1 },
      queue: { mode: "join", maxDistanceTicks: 1 },
      spreads: { bid: "0.01" },
      minSpread: {},
      inventoryTarget: { fraction: 0 },
      filledOrderDelay: { sec: 1 },
      hangingOrders: { sec: 1 },
    });
    const names = buildControls({ controls: all, risk: { maxNotionalPerWallet: m("1000") } }).map((c) => c.name);
    expect(names).toHaveLength(blocks.length);
    const rows = names.map((n) => DOC.search(new RegExp(`^\\| \\d \\| \`\\w+\` \\| \`${n}\` \\|`, "m")));
    expect(rows.every((i) => i >= 0), names.join(", ")).toBe(true);
    expect([...rows].sort((a, b) => a - b)).toEqual(rows);
  });
});
