/**
 * The risk layer's plain data (src/bot/risk/types.ts): the halt reasons, most serious first and in
 * the order docs/metrics.md's halt table lists them; the scope keys and targets the halt book,
 * the logs and the metric labels use; the global scope; the tuning defaults.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_TUNING, GLOBAL, HALT_REASONS, scopeKey, scopeTarget, type HaltScope } from "../../../src/bot/risk/types.js";

describe("HALT_REASONS", () => {
  it("are the reasons of docs/metrics.md's halt table, in its order (most serious first)", () => {
    const doc = readFileSync(new URL("../../../docs/metrics.md", import.meta.url), "utf8");
    const table = doc.slice(doc.indexOf("| Reason | Scope | Raised when | Clears when |"));
    const rows: string[] = [];
    for (const line of table.split("\n").slice(2)) {
      const m = /^\| `([a-z_]+)` \|/.exec(line);
      if (m === null) break;
      rows.push(m[1]!);
    }
    expect(rows).toHaveLength(12);
    expect([...HALT_REASONS]).toEqual(rows);
  });

  it("puts the operator's stops first and the market-data halt last", () => {
    expect(HALT_REASONS[0]).toBe("kill_switch");
    expect(HALT_REASONS.indexOf("daily_loss")).toBeLessThan(HALT_REASONS.indexOf("reject_storm"));
    expect(HALT_REASONS.at(-1)).toBe("stale_market_data");
    expect(new Set(HALT_REASONS).size).toBe(HALT_REASONS.length);
  });
});

describe("scopes", () => {
  const wallet: HaltScope = { kind: "wallet", wallet: "w1" };
  const market: HaltScope = { kind: "market", market: "BTC-UP" };

  it("scopeKey: one key per scope, the kind first so a wallet and a market of one name differ", () => {
    expect(scopeKey(GLOBAL)).toBe("global");
    expect(scopeKey(wallet)).toBe("wallet:w1");
    expect(scopeKey(market)).toBe("market:BTC-UP");
    expect(scopeKey({ kind: "wallet", wallet: "x" })).not.toBe(scopeKey({ kind: "market", market: "x" }));
  });

  it("scopeTarget: the wallet or market named, all for the global scope", () => {
    expect(scopeTarget(GLOBAL)).toBe("all");
    expect(scopeTarget(wallet)).toBe("w1");
    expect(scopeTarget(market)).toBe("BTC-UP");
  });

  it("GLOBAL is the global scope", () => {
    expect(GLOBAL).toEqual({ kind: "global" });
  });
});

describe("DEFAULT_TUNING", () => {
  it("tolerates no drift, counts rejects over a minute, clears a storm after a quiet minute, explains the documented codes, drops quotes under one share", () => {
    expect(DEFAULT_TUNING).toEqual({
      driftTolerance: 0,
      rejectWindowMs: 60_000,
      rejectQuietMs: 60_000,
      explainedRejectCodes: ["post_only_would_cross", "market_not_open", "vault_not_deployed"],
      minQuoteSize: 1_000_000n,
    });
  });
});
