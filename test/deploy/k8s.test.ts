/**
 * deploy/k8s renders with `kubectl kustomize` (skipped with a notice when kubectl is missing, a
 * failure under CI), and the rendered StatefulSet agrees with the image (Dockerfile) and the README:
 * command, port, probes, the config mount, the user; the shard count matches the replicas; the
 * Secret is a template; the ConfigMap's config is a valid sharded live config; the pods run under a
 * service account allowed exactly what shard.lease needs (get, create, update on leases).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { privateKeyToAddress } from "viem/accounts";
import { parseConfig } from "../../src/config/index.js";
import { applyShard, shardOf } from "../../src/config/shard-section.js";
import { underCi } from "./tools.js";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const probe = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8", timeout: 15_000 });
const haveKubectl = probe.error === undefined && probe.status === 0;
const skip = !haveKubectl && !underCi();
if (skip) console.warn("NOTICE: kubectl not found on PATH: the deploy/k8s render checks are skipped (under CI they fail)");

function render(): Obj[] {
  const r = spawnSync("kubectl", ["kustomize", "deploy/k8s"], { encoding: "utf8", timeout: 60_000 });
  if (r.error !== undefined || r.status !== 0) throw new Error(`kubectl kustomize deploy/k8s failed: ${r.error?.message ?? r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
}

/** The JSON array of a Dockerfile instruction (ENTRYPOINT, CMD). */
function dockerArray(text: string, instruction: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith(`${instruction} [`));
  if (line === undefined) throw new Error(`Dockerfile has no ${instruction} [...]`);
  return JSON.parse(line.slice(instruction.length + 1)) as string[];
}

describe.skipIf(skip)("deploy/k8s", () => {
  const docs = skip ? [] : render();
  const of = (kind: string): Obj[] => docs.filter((d) => d.kind === kind);
  const one = (kind: string): Obj => {
    const list = of(kind);
    expect(list, kind).toHaveLength(1);
    return list[0] as Obj;
  };
  const dockerfile = readFileSync("Dockerfile", "utf8");
  const readme = readFileSync("README.md", "utf8");

  it("renders every object the deployment needs", () => {
    expect(docs.map((d) => String(d.kind)).sort()).toEqual(["ConfigMap", "Namespace", "PodDisruptionBudget", "PodMonitor", "Role", "RoleBinding", "Secret", "Service", "ServiceAccount", "StatefulSet"]);
  });

  it("the StatefulSet runs the image's command on its port, with the probes the image and README use", () => {
    const sts = one("StatefulSet");
    const c = sts.spec.template.spec.containers[0];
    expect([...c.command, ...c.args]).toEqual([...dockerArray(dockerfile, "ENTRYPOINT"), ...dockerArray(dockerfile, "CMD")]);
    const exposed = Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1]);
    expect(c.ports).toEqual([{ name: "metrics", containerPort: exposed }]);
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/health/);
    expect(c.livenessProbe.httpGet).toEqual({ path: "/health", port: "metrics" });
    expect(c.readinessProbe.httpGet).toEqual({ path: "/ready", port: "metrics" });
    expect(readme).toContain(`-p ${exposed}:${exposed}`);
    expect(readme).toMatch(/`\/health` and `\/ready`|\/health, \/ready|`\/health`/);
    // The image runs as node (uid 1000), which the README names.
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(sts.spec.template.spec.securityContext.runAsUser).toBe(1000);
    expect(readme).toContain("uid 1000");
  });

  it("mounts the generated ConfigMap where the command reads its config", () => {
    const sts = one("StatefulSet");
    const spec = sts.spec.template.spec;
    const c = spec.containers[0];
    const configPath = c.args[c.args.indexOf("--config") + 1] as string;
    expect(configPath).toBe("/config/config.yaml");
    expect(readme).toContain("/config/config.yaml");
    const mount = c.volumeMounts.find((m: Obj) => configPath.startsWith(`${m.mountPath}/`));
    expect(mount).toBeDefined();
    const volume = spec.volumes.find((v: Obj) => v.name === mount.name);
    const cm = one("ConfigMap");
    expect(volume.configMap.name).toBe(cm.metadata.name);
    expect(Object.keys(cm.data)).toEqual([configPath.slice(mount.mountPath.length + 1)]);
  });

  it("shards by pod ordinal, with MM_SHARD_COUNT equal to the replicas", () => {
    const sts = one("StatefulSet");
    const env = Object.fromEntries((sts.spec.template.spec.containers[0].env as Obj[]).map((e): [string, string] => [String(e.name), String(e.value)]));
    expect(env.MM_SHARD_INDEX).toBe("ordinal");
    expect(Number(env.MM_SHARD_COUNT)).toBe(sts.spec.replicas);
    expect(env.MM_METRICS_HOST).toBe("0.0.0.0");
    expect(sts.spec.serviceName).toBe(one("Service").metadata.name);
    expect(one("Service").spec.clusterIP).toBe("None");
  });

  it("the PodMonitor, the PDB and the Service select the pods and name the metrics port", () => {
    const labels = one("StatefulSet").spec.template.metadata.labels as Record<string, string>;
    const matches = (sel: Record<string, string>): boolean => Object.entries(sel).every(([k, v]) => labels[k] === v);
    expect(matches(one("PodMonitor").spec.selector.matchLabels)).toBe(true);
    expect(one("PodMonitor").spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: "metrics", path: "/metrics" })]);
    expect(matches(one("PodDisruptionBudget").spec.selector.matchLabels)).toBe(true);
    expect(matches(one("Service").spec.selector)).toBe(true);
  });

  it("the pods run as a service account that may get, create and update leases in their namespace, and nothing else", () => {
    const spec = one("StatefulSet").spec.template.spec;
    const sa = one("ServiceAccount");
    expect(spec.serviceAccountName).toBe(sa.metadata.name);
    expect(spec.automountServiceAccountToken).toBe(true);
    const role = one("Role");
    expect(role.rules).toEqual([{ apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "create", "update"] }]);
    const binding = one("RoleBinding");
    expect(binding.roleRef).toEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: role.metadata.name });
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: sa.metadata.name, namespace: one("Namespace").metadata.name }]);
    for (const o of [sa, role, binding]) expect(o.metadata.namespace).toBe(one("Namespace").metadata.name);
  });

  it("the Secret is a template with no real secret", () => {
    const secret = one("Secret");
    for (const [k, v] of Object.entries(secret.stringData as Record<string, string>)) expect(`${k}=${v}`).toMatch(/=REPLACE-ME$|=https:\/\/[a-z.-]+\.invalid$/);
    const sts = one("StatefulSet");
    expect(sts.spec.template.spec.containers[0].envFrom).toEqual([{ secretRef: { name: secret.metadata.name } }]);
  });

  it("the ConfigMap's config is a valid live config; each pod keeps its shard of the wallets", () => {
    const text = one("ConfigMap").data["config.yaml"] as string;
    const keys = [1, 2, 3, 4].map((i) => `0x${String(i).repeat(64)}`);
    const env: Record<string, string> = { MM_BASE_URL: "https://api.example.test", MM_API_KEY: "pmk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345", MM_ADMIN_TOKEN: "admin-token-0123456789", MM_SHARD_INDEX: "ordinal", MM_SHARD_COUNT: "2" };
    keys.forEach((k, i) => (env[`MM_WALLET_${i + 1}_KEY`] = k));
    const seen: string[] = [];
    for (const pod of [0, 1]) {
      const cfg = applyShard(parseConfig(text, "config.yaml", { ...env, HOSTNAME: `mm-${pod}` }));
      expect(cfg.instance.id).toBe(`mm-prod-s${pod}`);
      expect(cfg.metrics.port).toBe(9464);
      // Per-wallet Leases on, in the pod's own namespace (the service account's), default timing.
      expect(cfg.shard?.lease).toEqual({ namespace: undefined, durationSec: 15, renewSec: 5, skewMarginSec: 2 });
      for (const w of cfg.wallets) expect(shardOf(w.address, 2)).toBe(pod);
      seen.push(...cfg.wallets.map((w) => w.address));
    }
    expect(seen.sort()).toEqual(keys.map((k) => privateKeyToAddress(k as `0x${string}`)).sort());
  });
});
