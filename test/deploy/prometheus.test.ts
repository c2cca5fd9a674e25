/**
 * configs/prometheus: the alert rules pass `promtool check rules` and their unit tests
 * (test/deploy/alerts.promtool-test.yaml), prometheus.yaml passes `promtool check config` (which
 * loads the rules it names), and the rules carry what Alertmanager routes on.
 * promtool missing: skipped with a notice, or FAILS under CI (test/deploy/tools.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { PROMTOOL } from "./tools.js";

const RULES_FILE = "configs/prometheus/alerts.yaml";
const CONFIG_FILE = "configs/prometheus/prometheus.yaml";

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (parseYaml(readFileSync(RULES_FILE, "utf8")) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const config = parseYaml(readFileSync(CONFIG_FILE, "utf8")) as {
  rule_files: string[];
  alerting: { alertmanagers: { static_configs: { targets: string[] }[] }[] };
  scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
};

describe("configs/prometheus/alerts.yaml", () => {
  it("has uniquely named alerts, each with a severity Alertmanager routes and a summary", () => {
    expect(rules.length).toBeGreaterThanOrEqual(27);
    const names = rules.map((r) => r.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const r of rules) {
      expect(r.alert, JSON.stringify(r)).toMatch(/^MM[A-Z][A-Za-z]+$/);
      expect(["page", "warning"], r.alert).toContain(r.labels?.["severity"]);
      expect(r.annotations?.["summary"], r.alert).toBeTruthy();
    }
    // The scrape job MMDown watches exists under that name.
    const down = rules.find((r) => r.alert === "MMDown")!;
    const job = /up\{job="([^"]+)"\}/.exec(down.expr)?.[1];
    expect(config.scrape_configs.map((s) => s.job_name)).toContain(job);
  });

  it.skipIf(PROMTOOL.noticeIfSkipped("promtool check rules"))("passes promtool check rules", () => {
    const res = PROMTOOL.run(["check", "rules", RULES_FILE]);
    expect(res.out).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(res.status).toBe(0);
  });

  it.skipIf(PROMTOOL.noticeIfSkipped("promtool test rules"))("passes its unit tests (promtool test rules)", () => {
    const res = PROMTOOL.run(["test", "rules", "test/deploy/alerts.promtool-test.yaml"]);
    expect(res.out).toContain("SUCCESS");
    expect(res.status).toBe(0);
  });

  it.skipIf(PROMTOOL.noticeIfSkipped("promtool check rules"))("the check can fail: a broken expression is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-rules-"));
    try {
      const file = join(dir, "alerts.yaml");
      writeFileSync(file, readFileSync(RULES_FILE, "utf8").replace("expr: mm_ready == 0", "expr: mm_ready == == 0"));
      const res = PROMTOOL.run(["check", "rules", file]);
      expect(res.out).toContain("MMNotReady");
      expect(res.status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("configs/prometheus/prometheus.yaml", () => {
  it("loads alerts.yaml, scrapes the daemon as job mm and sends to Alertmanager", () => {
    expect(config.rule_files).toEqual(["alerts.yaml"]);
    const mm = config.scrape_configs.find((s) => s.job_name === "mm")!;
    expect(mm.metrics_path ?? "/metrics").toBe("/metrics");
    expect(mm.static_configs.flatMap((c) => c.targets)).toEqual(["mm:9464"]);
    expect(config.alerting.alertmanagers.flatMap((a) => a.static_configs.flatMap((c) => c.targets))).toEqual(["alertmanager:9093"]);
  });

  it.skipIf(PROMTOOL.noticeIfSkipped("promtool check config"))("passes promtool check config (rules included)", () => {
    const res = PROMTOOL.run(["check", "config", CONFIG_FILE]);
    expect(res.out).toContain("is valid prometheus config file syntax");
    expect(res.out).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(res.status).toBe(0);
  });
});
