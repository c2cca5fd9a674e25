/**
 * docs/operations.md is the operator's runbook: every halt, every reason a shutdown report can give
 * for an order it could not confirm ended, and every halt that turns /ready false must be explained
 * there, so a new one cannot ship undocumented; and the capacity it states is the one check-config uses.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UNCONFIRMED_REASONS } from "../../src/bot/engine/shutdown.js";
import { HALT_REASONS } from "../../src/bot/risk/index.js";
import { MAX_WALLET_MARKETS, MEASURED_CAPACITY } from "../../src/config/capacity-limit.js";
import { NOT_READY_HALT_REASONS } from "../../src/metrics/index.js";

const DOC = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");

describe("docs/operations.md", () => {
  it("has a row for every halt reason", () => {
    for (const r of HALT_REASONS) expect(DOC, r).toMatch(new RegExp(`^\\| \`${r}\` \\|`, "m"));
  });

  it("explains every reason a shutdown report gives", () => {
    for (const r of UNCONFIRMED_REASONS) expect(DOC, r).toMatch(new RegExp(`^\\| \`${r}\` \\|`, "m"));
  });

  it("names every halt that makes /ready false on any scope", () => {
    const ready = DOC.slice(DOC.indexOf("## `/health` and `/ready`"), DOC.indexOf("## Halts"));
    for (const r of NOT_READY_HALT_REASONS) expect(ready, r).toContain(`\`${r}\``);
  });

  it("states the capacity mm check-config warns at", () => {
    const capacity = DOC.slice(DOC.indexOf("## Capacity"), DOC.indexOf("## One owner per instance id"));
    expect(capacity).toContain(`${MEASURED_CAPACITY.held.wallets} x ${MEASURED_CAPACITY.held.markets}`);
    expect(capacity).toContain(`at most ${MAX_WALLET_MARKETS.toLocaleString("en-US")} wallet-markets per process`);
  });
});
