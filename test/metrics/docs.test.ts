/**
 * docs/metrics.md and configs/grafana-dashboard.json stay true to the registry: every metric a
 * daemon serves is documented with its type and labels, every metric named in the docs, the
 * alert rules (configs/prometheus/alerts.yaml) or the dashboard exists, and the doc's alert table
 * lists exactly the file's alerts (the rules themselves are checked with promtool in
 * test/deploy/prometheus.test.ts).
 *
 * "Served" means the registry of a daemon built by createDaemon (configs/demo.yaml, wiring and
 * all), not a bare DaemonMetrics: a metric registered by the engine wiring alone would be on
 * /metrics too, so it has to be in the docs as well.
 */
import { readFileSync } from "node:fs";
import type { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { createDaemon } from "../../src/bot/engine/daemon.js";
import { startEmbeddedSimulator } from "../../src/bot/engine/demo.js";
import { HALT_REASONS, LIMIT_REASONS } from "../../src/bot/risk/index.js";
import { loadConfig } from "../../src/config/index.js";
import { VirtualClock } from "../../src/core/clock.js";
import { createLogger } from "../../src/log/index.js";
import { DaemonMetrics } from "../../src/metrics/index.js";

const DOC = readFileSync("docs/metrics.md", "utf8");
const ALERTS = parseYaml(readFileSync("configs/prometheus/alerts.yaml", "utf8")) as {
  groups: { rules: { alert: string; expr: string; labels: { severity: string } }[] }[];
};
const DASHBOARD = JSON.parse(readFileSync("configs/grafana-dashboard.json", "utf8")) as {
  uid: string;
  panels: Record<string, unknown>[];
  templating: { list: { type: string; query: string | { query: string } }[] };
};

type MetricInfo = { type: string; labels: string[] };

function metricsOf(registry: Registry): Map<string, MetricInfo> {
  return new Map(
    registry.getMetricsAsArray().map((m) => [m.name, { type: String(m.type), labels: (m as unknown as { labelNames: string[] }).labelNames }]),
  );
}

/** The metrics of a whole daemon (demo config, process metrics off: documented as a group). */
function servedMetrics(): Map<string, MetricInfo> {
  const loaded = loadConfig("configs/demo.yaml", {});
  if (loaded.mode !== "simulator") throw new Error("configs/demo.yaml is expected in simulator mode");
  const config = { ...loaded, metrics: { ...loaded.metrics, processMetrics: false } };
  const clock = new VirtualClock(Date.UTC(2026, 2, 1, 12));
  const sim = startEmbeddedSimulator(config, clock);
  try {
    const daemon = createDaemon(config, {
      clock,
      logger: createLogger({ level: "silent", clock }),
      transport: sim.transport,
      connector: sim.connector,
      apiKey: sim.apiKey,
    });
    daemon.gate.close();
    return metricsOf(daemon.ops.metrics.registry);
  } finally {
    sim.stop();
  }
}

const METRICS = servedMetrics();
const BARE = metricsOf(new DaemonMetrics({ clock: new VirtualClock(0), wallets: [], processMetrics: false }).registry);

/** mm_ metric names referenced by an expression (histogram series reduced to their metric). */
function referenced(expr: string): string[] {
  return [...expr.matchAll(/\bmm_[a-z0-9_]+/g)].map(([name]) => (METRICS.has(name) ? name : name.replace(/_(bucket|sum|count)$/, "")));
}

describe("docs/metrics.md", () => {
  it("checks the daemon's served metrics, which every DaemonMetrics declares", () => {
    expect(METRICS.size).toBeGreaterThanOrEqual(35);
    expect(METRICS.has("mm_tracker_anomalies_total")).toBe(true);
    // Nothing is registered outside src/metrics/registry.ts, so a bare registry (the promtool
    // and label tests use one) carries exactly what the daemon serves.
    expect([...BARE.keys()].sort()).toEqual([...METRICS.keys()].sort());
  });

  it("documents every metric with its type and labels", () => {
    for (const [name, { type, labels }] of METRICS) {
      const row = DOC.split("\n").find((l) => l.startsWith(`| \`${name}\` |`));
      expect(row, `${name} is not documented`).toBeDefined();
      const cells = row!.split("|").map((c) => c.trim());
      expect(cells[2], name).toBe(type);
      expect(cells[3], name).toBe(labels.join(", "));
    }
  });

  it("names no metric that does not exist", () => {
    for (const name of new Set(referenced(DOC))) expect(METRICS.has(name), `${name} in docs`).toBe(true);
  });

  it("lists every halt reason with its clearing rule, and every drop reason", () => {
    for (const r of HALT_REASONS) expect(DOC).toMatch(new RegExp(`^\\| \`${r}\` \\|`, "m"));
    for (const r of LIMIT_REASONS) expect(DOC).toContain(`\`${r}\``);
  });

  it("names only served metrics in the alert rules, and lists exactly the file's alerts", () => {
    const all = ALERTS.groups.flatMap((g) => g.rules);
    expect(all.length).toBeGreaterThan(15);
    for (const r of all) for (const name of referenced(r.expr)) expect(METRICS.has(name), `${r.alert}: ${name}`).toBe(true);
    // The doc no longer repeats the rules (one source of truth)...
    expect(DOC).not.toMatch(/^\s*- alert: /m);
    expect(DOC).toContain("configs/prometheus/alerts.yaml");
    // ...and its table names each alert once, with the file's severity.
    const rows = [...DOC.matchAll(/^\| `(MM[A-Za-z]+)` \| (page|warning) \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(all.map((r) => [r.alert, r.labels.severity]));
  });

});

describe("configs/grafana-dashboard.json", () => {
  const panels = DASHBOARD.panels.filter((p) => p["type"] !== "row");
  const targets = panels.flatMap((p) => p["targets"] as { expr: string; datasource: { uid: string } }[]);

  it("is a dashboard with unique panel ids, a grid position and a query on every panel", () => {
    expect(DASHBOARD.uid).toBe("mm-daemon");
    const ids = DASHBOARD.panels.map((p) => p["id"]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(panels.length).toBeGreaterThanOrEqual(25);
    for (const p of panels) {
      expect(p["gridPos"], String(p["title"])).toMatchObject({ w: expect.any(Number), h: expect.any(Number) });
      expect((p["targets"] as unknown[]).length, String(p["title"])).toBeGreaterThan(0);
    }
    for (const t of targets) expect(t.datasource.uid).toBe("${DS_PROMETHEUS}");
    // ${DS_PROMETHEUS} is the dashboard's own data-source variable (not an import-time input), so the same
    // file works imported by hand and provisioned (configs/grafana/provisioning, docker-compose.yaml).
    expect(DASHBOARD.templating.list.find((v) => v.type === "datasource")).toMatchObject({ name: "DS_PROMETHEUS", query: "prometheus" });
    expect((DASHBOARD as Record<string, unknown>)["__inputs"]).toBeUndefined();
  });

  it("queries only metrics that exist, and shows the key ones", () => {
    const queries = DASHBOARD.templating.list.flatMap((v) => (v.type === "query" && typeof v.query === "object" ? [v.query.query] : []));
    const used = new Set([...targets.map((t) => t.expr), ...queries].flatMap(referenced));
    for (const name of used) expect(METRICS.has(name), `${name} in dashboard`).toBe(true);
    for (const key of [
      "mm_ready",
      "mm_risk_halt_active",
      "mm_live_quotes",
      "mm_orders_placed_total",
      "mm_orders_rejected_total",
      "mm_fills_total",
      "mm_traded_notional_total",
      "mm_fees_paid_total",
      "mm_position_shares",
      "mm_daily_pnl",
      "mm_http_request_duration_seconds",
      "mm_rate_gate_queue_depth",
      "mm_rate_gate_wait_seconds",
      "mm_rate_limited_responses_total",
      "mm_stream_connected",
      "mm_stream_frame_lag_seconds",
      "mm_reconciliation_drift",
      "mm_orders_unknown_state",
    ]) {
      expect(used.has(key), key).toBe(true);
    }
  });
});
