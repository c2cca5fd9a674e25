/**
 * External checkers the tests call (promtool, amtool): present, or skipped with a visible notice
 * on a developer's machine, or a FAILURE under CI.
 *
 * - Found on PATH: the checks run.
 * - Missing and `CI` unset (a fresh clone's `npm test`): `tool.skip` is true, so the checks are
 *   skipped (`it.skipIf(tool.skip)`), and a notice naming the tool and how to install it is
 *   printed once per test file.
 * - Missing and `CI` set (`.ci/run` exports CI=true and installs the packages): `tool.skip` is
 *   false, the checks run and `tool.run` throws the install hint: the test fails, so CI can never
 *   pass without the checks.
 */
import { spawnSync } from "node:child_process";

export interface ExternalTool {
  readonly name: string;
  /** On PATH. */
  readonly available: boolean;
  /** Skip the checks that need it: missing, and not under CI. */
  readonly skip: boolean;
  /** Why it is missing and how to get it. */
  readonly hint: string;
  /** Runs it; throws the hint when it is not installed (never skips silently). */
  run(args: readonly string[], input?: string): { status: number | null; out: string };
  /** Prints the skip notice (once per test file and tool) when `skip`; returns `skip`. */
  noticeIfSkipped(what: string): boolean;
}

/** `CI` set to anything but an explicit no (GitHub, GitLab and .ci/run set `CI=true`). */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env["CI"];
  return v !== undefined && v !== "" && !/^(0|false|no)$/i.test(v);
}

const noticed = new Set<string>();

export function externalTool(name: string, debianPackage: string, env: NodeJS.ProcessEnv = process.env): ExternalTool {
  const probe = spawnSync(name, ["--version"], { encoding: "utf8", timeout: 15_000 });
  const available = (probe.error as { code?: string } | undefined)?.code !== "ENOENT" && probe.error === undefined;
  const hint = `${name} not found on PATH: install Debian's ${debianPackage} package (apt-get install -y ${debianPackage}); .ci/run does this in CI, where a missing ${name} fails the tests`;
  const skip = !available && !underCi(env);
  return {
    name,
    available,
    skip,
    hint,
    run(args, input) {
      const r = spawnSync(name, [...args], { input, encoding: "utf8", timeout: 15_000 });
      const code = (r.error as { code?: string } | undefined)?.code;
      if (code === "ENOENT") throw new Error(hint);
      if (r.error) throw r.error;
      return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim() };
    },
    noticeIfSkipped(what) {
      if (skip && !noticed.has(name)) {
        noticed.add(name);
        console.warn(`NOTICE: skipping ${what} (and this file's other ${name} checks): ${hint}`);
      }
      return skip;
    },
  };
}

export const PROMTOOL = externalTool("promtool", "prometheus");
export const AMTOOL = externalTool("amtool", "prometheus-alertmanager");
