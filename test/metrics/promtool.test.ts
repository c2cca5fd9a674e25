/**
 * The exposition over real HTTP passes `promtool check metrics` (lint included). promtool comes
 * from Debian's `prometheus` package; .ci/run installs it when missing. Without it these tests are
 * skipped with a notice on a developer's machine and FAIL under CI (test/deploy/tools.ts): a
 * skipped lint must not let a bad metric name through CI.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MetricsServer, riskAdminActions } from "../../src/metrics/index.js";
import { daemon, populate, promtool, PROMTOOL, type Daemon } from "./fixtures.js";


let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function served(d: Daemon): Promise<{ url: string }> {
  const server = new MetricsServer({
    host: "127.0.0.1",
    port: 0,
    metrics: d.metrics,
    probes: d.probes,
    admin: { token: d.config.admin.token, actions: riskAdminActions(d.risk, d.clock) },
  });
  const { port } = await server.start();
  cleanup.push(async () => {
    await server.close();
    d.dispose();
  });
  return { url: `http://127.0.0.1:${port}` };
}

describe.skipIf(PROMTOOL.noticeIfSkipped("promtool check metrics"))("promtool check metrics", () => {
  it("passes, with no lint warning, on /metrics of a populated daemon scraped over HTTP", async () => {
    expect(promtool(["--version"]).status).toBe(0);
    const d = daemon();
    await populate(d);
    const { url } = await served(d);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await res.text();

    // Every mm_ metric the registry declares carries at least one sample in this output.
    const declared = d.metrics.registry.getMetricsAsArray().map((x) => x.name).filter((n) => n.startsWith("mm_"));
    expect(declared.length).toBeGreaterThanOrEqual(35);
    for (const name of declared) expect(body, name).toMatch(new RegExp(`^${name}(_bucket|_sum|_count)?(\\{[^}]*\\})? `, "m"));
    expect(body).toMatch(/^process_cpu_seconds_total /m);

    const check = promtool(["check", "metrics"], body);
    expect(check.out).toBe("");
    expect(check.status).toBe(0);
  });

  it("rejects a bad exposition (the check can fail)", () => {
    const bad = "# HELP mm_bad_total x\n# TYPE mm_bad_total gauge\nmm_bad_total 1\n";
    const check = promtool(["check", "metrics"], bad);
    expect(check.status).not.toBe(0);
    expect(check.out).toContain("non-counter metrics should not have");
  });
});
