/**
 * The scrape-time vocabulary (src/metrics/scrape-sources.ts): the `kind` label values of
 * mm_tracker_anomalies_total are the six docs/metrics.md lists, each read from an order-tracker
 * counter that exists (so a renamed counter cannot leave a kind reading nothing).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emptyCounters } from "../../src/bot/orders/order-tracker-types.js";
import { TRACKER_ANOMALY_KINDS } from "../../src/metrics/scrape-sources.js";

describe("TRACKER_ANOMALY_KINDS", () => {
  it("maps each kind to its tracker counter", () => {
    expect(TRACKER_ANOMALY_KINDS).toEqual({
      resurrected: "resurrected",
      unreadable_trades: "unreadableTrades",
      not_found_too_soon: "notFoundTooSoon",
      impossible: "impossible",
      conflict: "conflict",
      overfill: "overfill",
    });
  });

  it("reads counters every tracker has, each a different one", () => {
    const counters = emptyCounters();
    const fields = Object.values(TRACKER_ANOMALY_KINDS);
    for (const f of fields) expect(counters, f).toHaveProperty(f, 0);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it("are the kinds of docs/metrics.md's table, snake_case label values", () => {
    const doc = readFileSync(new URL("../../docs/metrics.md", import.meta.url), "utf8");
    const table = doc.slice(doc.indexOf("| `kind` | Counted when | What the daemon does |"));
    const documented: string[] = [];
    for (const line of table.split("\n").slice(2)) {
      const m = /^\| `([a-z_]+)` \|/.exec(line);
      if (m === null) break;
      documented.push(m[1]!);
    }
    expect(Object.keys(TRACKER_ANOMALY_KINDS).sort()).toEqual(documented.sort());
    for (const k of Object.keys(TRACKER_ANOMALY_KINDS)) expect(k).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
