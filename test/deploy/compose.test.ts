/**
 * docker-compose.yaml, checked by its shape (no Docker engine in the tests): the four services, their
 * ports, and volumes that mount files of this repository where the configs say they are: Prometheus
 * reads prometheus.yaml + alerts.yaml and scrapes the daemon's service and port, Alertmanager reads
 * its config and the secrets its *_file fields name, Grafana gets the data source (pointing at the
 * Prometheus service) and the dashboard. And the Dockerfile the daemon's service builds: it listens
 * beyond loopback on the port everything else expects.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: string[];
  stop_grace_period?: string;
}
const compose = parseYaml(readFileSync("docker-compose.yaml", "utf8")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const S = compose.services;
const DOCKERFILE = readFileSync("Dockerfile", "utf8");

interface Mount {
  source: string;
  target: string;
  readOnly: boolean;
  named: boolean;
}
function mounts(service: Service): Mount[] {
  return (service.volumes ?? []).map((v) => {
    const [source, target, mode] = v.split(":") as [string, string, string?];
    return { source, target, readOnly: mode === "ro", named: !source.startsWith("./") };
  });
}

/** The repository file a path inside the container comes from, through the service's bind mounts. */
function hostPath(service: Service, containerPath: string): string | undefined {
  for (const m of mounts(service)) {
    if (m.named) continue;
    if (containerPath === m.target) return posix.normalize(m.source);
    if (containerPath.startsWith(`${m.target}/`)) return posix.join(m.source, containerPath.slice(m.target.length + 1));
  }
  return undefined;
}

function flag(service: Service, name: string): string | undefined {
  return service.command?.find((c) => c.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** host ip, host port, container port of "127.0.0.1:9090:9090". */
function ports(service: Service): { ip: string; host: number; container: number }[] {
  return (service.ports ?? []).map((p) => {
    const [ip, host, container] = p.split(":");
    return { ip: ip!, host: Number(host), container: Number(container) };
  });
}

describe("docker-compose.yaml", () => {
  it("brings up the daemon, Prometheus, Alertmanager and Grafana, published on loopback only", () => {
    expect(Object.keys(S).sort()).toEqual(["alertmanager", "grafana", "mm", "prometheus"]);
    expect(ports(S["mm"]!)).toEqual([{ ip: "127.0.0.1", host: 9464, container: 9464 }]);
    expect(ports(S["prometheus"]!)).toEqual([{ ip: "127.0.0.1", host: 9090, container: 9090 }]);
    expect(ports(S["alertmanager"]!)).toEqual([{ ip: "127.0.0.1", host: 9093, container: 9093 }]);
    expect(ports(S["grafana"]!)).toEqual([{ ip: "127.0.0.1", host: 3000, container: 3000 }]);
    for (const [name, s] of Object.entries(S)) {
      if (name !== "mm") expect(s.image, name).toMatch(/^[a-z/-]+:v?\d+\.\d+\.\d+$/); // pinned versions
      for (const m of mounts(s)) {
        if (m.named) expect(Object.keys(compose.volumes), `${name}: ${m.source}`).toContain(m.source);
        else expect(m.readOnly, `${name}: ${m.source} is mounted read-only`).toBe(true);
      }
    }
  });

  it("runs the daemon in demo mode from this repository's image, reachable on its metrics port", () => {
    const mm = S["mm"]!;
    expect(mm.build).toBe(".");
    expect(mm.command).toEqual(["run"]); // no --config: configs/demo.yaml, the embedded simulator
    expect(mm.environment).toMatchObject({ MM_METRICS_HOST: "0.0.0.0", MM_METRICS_PORT: "9464" });
    // SIGTERM cancels every order (shutdown.cancelDeadlineSec, default 15 s) before exiting.
    expect(Number.parseInt(mm.stop_grace_period ?? "10s", 10)).toBeGreaterThan(15);
  });

  it("gives Prometheus its config and rules, scraping the daemon's service and port, alerting Alertmanager", () => {
    const p = S["prometheus"]!;
    const configFile = hostPath(p, flag(p, "config.file")!);
    expect(configFile).toBe("configs/prometheus/prometheus.yaml");
    const config = parseYaml(readFileSync(configFile!, "utf8")) as {
      rule_files: string[];
      alerting: { alertmanagers: { static_configs: { targets: string[] }[] }[] };
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    for (const rules of config.rule_files) expect(existsSync(posix.join(posix.dirname(configFile!), rules)), rules).toBe(true);
    const [host, port] = config.scrape_configs.find((j) => j.job_name === "mm")!.static_configs[0]!.targets[0]!.split(":");
    expect(S[host!], `scrape target ${host}`).toBeDefined();
    expect(ports(S[host!]!).map((x) => x.container)).toContain(Number(port));
    expect(S[host!]!.environment?.["MM_METRICS_PORT"]).toBe(port);
    const [amHost, amPort] = config.alerting.alertmanagers[0]!.static_configs[0]!.targets[0]!.split(":");
    expect(amHost).toBe("alertmanager");
    expect(ports(S["alertmanager"]!).map((x) => x.container)).toContain(Number(amPort));
    expect(flag(p, "storage.tsdb.path")).toBe("/prometheus");
    expect(mounts(p).find((m) => m.target === "/prometheus")?.named).toBe(true);
  });

  it("gives Alertmanager its config, and its secret files through a git-ignored directory", () => {
    const a = S["alertmanager"]!;
    const configFile = hostPath(a, flag(a, "config.file")!);
    expect(configFile).toBe("configs/alertmanager/alertmanager.yaml");
    const text = readFileSync(configFile!, "utf8");
    const files = [...text.matchAll(/^\s*-?\s*\w+_file: (\S+)/gm)].map((m) => m[1]!);
    expect(files.length).toBe(2);
    for (const f of files) {
      const host = hostPath(a, f);
      expect(host, f).toMatch(/^secrets\/alertmanager\/[a-z-]+$/);
    }
    expect(readFileSync(".gitignore", "utf8")).toMatch(/^secrets\/$/m);
  });

  it("provisions Grafana's Prometheus data source and the dashboard", () => {
    const g = S["grafana"]!;
    const provisioning = hostPath(g, "/etc/grafana/provisioning");
    expect(provisioning).toBe("configs/grafana/provisioning");
    const ds = parseYaml(readFileSync(`${provisioning}/datasources/prometheus.yaml`, "utf8")) as {
      datasources: { type: string; url: string; isDefault: boolean }[];
    };
    expect(ds.datasources).toHaveLength(1);
    expect(ds.datasources[0]).toMatchObject({ type: "prometheus", url: "http://prometheus:9090", isDefault: true });
    const providers = (parseYaml(readFileSync(`${provisioning}/dashboards/mm.yaml`, "utf8")) as { providers: { type: string; options: { path: string } }[] })
      .providers;
    expect(providers).toHaveLength(1);
    const dir = providers[0]!.options.path;
    const dashboards = mounts(g).filter((m) => m.target.startsWith(`${dir}/`) && m.target.endsWith(".json"));
    expect(dashboards.map((m) => posix.normalize(m.source))).toEqual(["configs/grafana-dashboard.json"]);
    expect(statSync("configs/grafana-dashboard.json").isFile()).toBe(true);
    expect(g.environment?.["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]).toBe(dashboards[0]!.target);
  });
});

describe("Dockerfile", () => {
  it("listens beyond loopback on 9464 and probes the port the daemon listens on", () => {
    expect(DOCKERFILE).toMatch(/^ENV MM_METRICS_HOST=0\.0\.0\.0$/m);
    expect(DOCKERFILE).toMatch(/^EXPOSE 9464$/m);
    const health = /^HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])$/m.exec(DOCKERFILE)?.[1];
    expect(health).toBeDefined();
    const script = (JSON.parse(health!) as string[])[2]!;
    expect(script).toContain("process.env.MM_METRICS_PORT||9464");
    expect(script).toContain("/health");
    expect(DOCKERFILE).toMatch(/^USER node$/m); // uid 1000: the key-file rule below depends on it
  });
});
