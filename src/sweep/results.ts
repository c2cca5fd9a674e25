/**
 * DIR/results.jsonl: one PointResult per line, appended as each run finishes. Reading keeps every
 * whole line and ignores a torn last one (a sweep killed while writing), which openResults cuts
 * off before anything is appended after it. Merging shard directories fails on one point id with
 * two different results.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, truncateSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Decimal } from "decimal.js";
import Table from "cli-table3";
import type { PointResult } from "./run-point.js";

export const RESULTS_FILE = "results.jsonl";

export interface ReadResults {
  results: PointResult[];
  /** Bytes of whole lines (a torn tail starts here). */
  wholeBytes: number;
  tornTail: boolean;
}

function isResult(v: unknown): v is PointResult {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Partial<PointResult>;
  return typeof r.id === "string" && typeof r.index === "number" && typeof r.seed === "number" && typeof r.metrics === "object" && typeof r.objective === "object";
}

/** The results in DIR (none when the file is absent). A bad line other than the last is an error. */
export function readResults(dir: string): ReadResults {
  const file = join(dir, RESULTS_FILE);
  if (!existsSync(file)) return { results: [], wholeBytes: 0, tornTail: false };
  const buf = readFileSync(file);
  const lastNl = buf.lastIndexOf(0x0a);
  const wholeBytes = lastNl + 1;
  const text = buf.subarray(0, wholeBytes).toString("utf8");
  const results: PointResult[] = [];
  const lines = text.split("\n");
  lines.pop(); // after the last newline
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not a JSON line (only a torn last line is skipped)`);
    }
    if (!isResult(v)) throw new Error(`${file}:${i + 1}: not a sweep result (id, index, seed, metrics, objective)`);
    results.push(v);
  });
  return { results, wholeBytes, tornTail: wholeBytes < buf.length };
}

/** Appends results to DIR/results.jsonl, one whole line per write. */
export class ResultsWriter {
  private readonly fd: number;
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, RESULTS_FILE);
    // A torn tail (killed mid-write) is cut off so the next line starts on its own.
    if (existsSync(file)) {
      const { wholeBytes } = readResults(dir);
      if (statSync(file).size > wholeBytes) truncateSync(file, wholeBytes);
    }
    this.fd = openSync(file, "a");
  }
  append(r: PointResult): void {
    writeSync(this.fd, JSON.stringify(r) + "\n");
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** What identifies a result (its wall time left out): two runs of a point must agree on it. */
export function resultKey(r: PointResult): string {
  return JSON.stringify({ id: r.id, index: r.index, seed: r.seed, params: r.params, metrics: r.metrics, objective: r.objective });
}

/** Results of several directories as one set; throws on one id with different results. */
export function mergeResults(dirs: readonly string[]): PointResult[] {
  const byId = new Map<string, { r: PointResult; dir: string }>();
  const conflicts: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`no such directory: ${dir}`);
    if (!existsSync(join(dir, RESULTS_FILE))) throw new Error(`${dir}: no ${RESULTS_FILE}`);
    for (const r of readResults(dir).results) {
      const had = byId.get(r.id);
      if (had === undefined) byId.set(r.id, { r, dir });
      else if (resultKey(had.r) !== resultKey(r)) conflicts.push(`point ${r.id} (#${r.index}): ${had.dir} and ${dir} differ`);
    }
  }
  if (conflicts.length > 0) throw new MergeConflictError(conflicts);
  return [...byId.values()].map((v) => v.r).sort((a, b) => a.index - b.index);
}

export class MergeConflictError extends Error {
  override readonly name = "MergeConflictError";
  constructor(readonly conflicts: string[]) {
    super(`${conflicts.length} point(s) with different results:\n${conflicts.map((c) => `  ${c}`).join("\n")}`);
  }
}

/** Best first by the objective (a missing value last), ties by index. */
export function rank(results: readonly PointResult[]): PointResult[] {
  return [...results].sort((a, b) => {
    const va = a.objective.value;
    const vb = b.objective.value;
    if (va === null || vb === null) return va === vb ? a.index - b.index : va === null ? 1 : -1;
    return new Decimal(vb).cmp(new Decimal(va)) || a.index - b.index;
  });
}

/** The ranking as a text table (the top `limit`). */
export function rankingTable(results: readonly PointResult[], limit = 20): string {
  const ranked = rank(results).slice(0, limit);
  if (ranked.length === 0) return "no results\n";
  const keys = [...new Set(ranked.flatMap((r) => Object.keys(r.params)))];
  const objective = ranked[0]!.objective.name;
  const table = new Table({
    head: ["#", "point", ...keys.map(shortKey), "seed", ...(objective === "pnl" ? [] : [objective]), "pnl", "max dd", "fills"],
    style: { head: [], border: [] },
    chars: { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  " },
  });
  ranked.forEach((r, i) => {
    table.push([String(i + 1), r.id, ...keys.map((k) => (r.params[k] === undefined ? "" : String(r.params[k]))), String(r.seed), ...(objective === "pnl" ? [] : [r.objective.value ?? "n/a"]), r.metrics.pnl, r.metrics.maxDrawdown, String(r.metrics.fills)]);
  });
  return `${table.toString().split("\n").map((l) => l.trimEnd()).join("\n")}\n`;
}

/** strategy.params.halfSpreadTicks -> halfSpreadTicks; risk.maxOrderSize -> risk.maxOrderSize. */
export function shortKey(k: string): string {
  return k.startsWith("strategy.params.") ? k.slice("strategy.params.".length) : k;
}
