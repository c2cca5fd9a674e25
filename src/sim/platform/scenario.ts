/**
 * Loading scenario files: YAML text -> validated Scenario. Every error names the file and the
 * key path of the bad value (`configs/scenarios/x.yaml: partners[0].keys[0].key: ...`).
 */
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { formatPath, ValidationError, type ValidationIssue } from "../../core/validation.js";
import { scenarioSchema, type Scenario } from "./scenario-schema.js";

export * from "./scenario-schema.js";

/** One issue per unknown key, with the key in the path (zod reports the enclosing object). */
function scenarioIssues(error: z.ZodError): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const i of error.issues) {
    if (i.code === "unrecognized_keys") {
      for (const k of i.keys) out.push({ path: formatPath([...i.path, k]), message: "unknown key" });
    } else out.push({ path: formatPath(i.path), message: i.message });
  }
  return out;
}

/** Parse scenario YAML; `fileName` names the source in errors. Throws ValidationError. */
export function parseScenario(text: string, fileName: string): Scenario {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ValidationError(
      fileName,
      doc.errors.map((e) => ({ path: "(yaml)", message: e.message.split("\n")[0] ?? e.message })),
    );
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  const result = scenarioSchema.safeParse(value);
  if (!result.success) throw new ValidationError(fileName, scenarioIssues(result.error));
  return result.data;
}

export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ValidationError(path, [{ path: "(file)", message: err instanceof Error ? err.message : String(err) }]);
  }
  return parseScenario(text, path);
}

/** configs/scenarios/default.yaml of this package (found from src/ and from dist/src/). */
export function defaultScenarioPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, "configs", "scenarios", "default.yaml");
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error("configs/scenarios/default.yaml not found above " + dirname(fileURLToPath(import.meta.url)));
}

/** The scenario's start in epoch ms: its ISO start, or `nowMs` for `start: now`. */
export function scenarioStartMs(s: Scenario, nowMs: number): number {
  return s.start.kind === "absolute" ? s.start.atMs : nowMs;
}
