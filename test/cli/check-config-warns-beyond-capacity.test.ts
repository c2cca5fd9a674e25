import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkConfig, type CheckConfigIo } from "../../src/cli/check-config.js";
import { MAX_WALLET_MARKETS, capacityWarning, marketsUpperBound, type CapacityInput } from "../../src/config/capacity-limit.js";

const dir = mkdtempSync(join(tmpdir(), "mm-check-capacity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function check(yaml: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, yaml);
  let stdout = "";
  let stderr = "";
  const io: CheckConfigIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} };
  const code = await checkConfig([path], io);
  return { code, stdout, stderr };
}

function simConfig(wallets: number, markets: string): string {
  const ws = Array.from({ length: wallets }, (_, i) => `  - { name: w${i} }`).join("\n");
  return `mode: simulator\nwallets:\n${ws}\nmarkets: ${markets}\nstrategy: { name: ladder }\n`;
}

const input = (wallets: number, m: Partial<CapacityInput["markets"]>, lists: (string[] | undefined)[] = []): CapacityInput => ({
  wallets: Array.from({ length: wallets }, (_, i) => ({ markets: lists[i] })),
  markets: { slugs: [], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 20, ...m },
});

describe("mm check-config: capacity", () => {
  it("warns when wallets x markets is beyond what one process was measured to hold, naming the figure; exit 0", async () => {
    const r = await check(simConfig(50, "{ maxMarkets: 100, filters: { vertical: [football] } }"));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(": OK");
    expect(r.stderr).toContain("warning: 50 wallets x 100 markets = 5000 wallet-markets");
    expect(r.stderr).toContain(`20 x 50 = ${MAX_WALLET_MARKETS} on 2 cores`);
    expect(r.stderr).toContain("instance.id");
  });

  it("says nothing within the measured figure (the defaults, and exactly at it)", async () => {
    const small = await check(simConfig(2, "{ maxMarkets: 20 }"));
    expect(small.code).toBe(0);
    expect(small.stderr).toBe("");
    const at = await check(simConfig(20, "{ maxMarkets: 50, filters: { vertical: [football] } }"));
    expect(at.stderr).toBe("");
  });

  it("counts the explicit markets when they are all the config names, markets.maxMarkets otherwise", async () => {
    // 40 wallets x 10000 allowed, but only 3 slugs named: 120, no warning.
    const named = await check(simConfig(40, "{ maxMarkets: 10000, slugs: [a, b, c] }"));
    expect(named.stderr).toBe("");
    expect(marketsUpperBound(input(40, { maxMarkets: 10_000, slugs: ["a", "b", "c"] }))).toBe(3);
    expect(marketsUpperBound(input(2, { maxMarkets: 10, slugs: ["a"] }, [["b", "c"], ["d"]]))).toBe(4);
    expect(marketsUpperBound(input(2, { maxMarkets: 2, slugs: ["a", "b", "c"] }))).toBe(2);
    // Events or filters may select up to maxMarkets.
    expect(marketsUpperBound(input(2, { maxMarkets: 300, slugs: ["a"], eventSlugs: ["e"] }))).toBe(300);
    expect(marketsUpperBound(input(2, { maxMarkets: 300 }))).toBe(300);
    expect(capacityWarning(input(11, { maxMarkets: 100 }))).toContain("11 wallets x 100 markets = 1100");
    expect(capacityWarning(input(10, { maxMarkets: 100 }))).toBeUndefined();
  });
});
