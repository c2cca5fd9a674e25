/**
 * `mm sweep FILE --out DIR [--workers N] [--shard i/N]` and `mm sweep merge DIR... --out DIR`
 * (src/sweep, docs/backtest.md "Sweeps"). Exit: 0 done; 1 a run failed, or merge found one point
 * with two different results; 2 bad flags or sweep file (nothing run).
 */
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { SingleBar } from "cli-progress";
import { formatDuration } from "../backtest/duration.js";
import { loadSweep, SweepSpecError } from "../sweep/spec.js";
import { runSweep, type Shard, type SweepProgress } from "../sweep/sweep.js";
import { workerModule, type WorkerModule } from "../sweep/loader.js";
import { readResults, mergeResults, MergeConflictError, rankingTable, ResultsWriter, RESULTS_FILE } from "../sweep/results.js";
import { sweepHtml } from "../sweep/html.js";
import { existingRunReports, writeRunReports, type RunReportsProgress } from "../sweep/run-reports.js";
import { SweepPool } from "../sweep/pool.js";
import type { PointResult } from "../sweep/run-point.js";
import { parseFlags, stringFlag, usageError } from "./args.js";

export const USAGE = `Usage: mm sweep FILE --out DIR [--workers N] [--shard I/N] [--reports N] [--x KEY] [--y KEY]
       mm sweep merge DIR... --out DIR [--x KEY] [--y KEY]

Run a parameter sweep (grid or random search over strategy params and risk limits, declared in
FILE) with the fast backtest engine on a pool of worker threads. Each finished point is appended
to DIR/results.jsonl (keyed by a hash of its parameters and seed); run it again with the same DIR
and it runs only the points not there yet. At the end: a ranking by the objective and DIR/sweep.html
(a heatmap over two parameters and the top runs, the best ones linked to their own HTML reports).

Options:
  --out DIR       where results.jsonl and sweep.html go (created if needed)
  --workers N     worker threads, 1..256 (default: the machine's cores). In a source checkout
                  they load the compiled dist/ when it is newer than every source, else the
                  sources through tsx (slower to start: npm run build first); the first line says which
  --shard I/N     run only the points whose index mod N is I (0 <= I < N): one of N machines or
                  Kubernetes pods; combine the shards' DIRs with mm sweep merge
  --reports N     write the HTML backtest report of the N best runs to DIR/runs/<point>.html and
                  link them from sweep.html (each run again from its seed on the same worker
                  threads after the sweep: default 3, 0 = none)
  --x KEY, --y KEY  the heatmap's parameters (default: the first two swept)
  -h, --help      this text

merge: the results of several DIRs as one ranking and sweep.html in --out (linking the run reports
the shards wrote); fails (exit 1) when one point has different results in two of them.
`;

export interface SweepIo {
  stdout: (t: string) => void;
  stderr: (t: string) => void;
  stderrTty?: boolean;
  /** Tests: stop after this many new runs. */
  limit?: number;
}

const processIo: SweepIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), stderrTty: process.stderr.isTTY === true };

function parseShard(v: string): Shard | string {
  const m = /^(\d{1,5})\/(\d{1,5})$/.exec(v);
  if (m === null) return `expected I/N, e.g. 0/4 (got ${JSON.stringify(v)})`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index >= count) return `expected 0 <= I < N (got ${v})`;
  return { index, count };
}

function progressPrinter(io: SweepIo): { update: (p: SweepProgress) => void; stop: () => void } {
  const bestText = (b: PointResult | undefined): string => (b === undefined ? "none yet" : `${b.objective.name} ${b.objective.value ?? "n/a"} (${b.id})`);
  if (io.stderrTty === true) {
    const bar = new SingleBar({ format: "sweep [{bar}] {value}/{total} runs | {left} left | best {best}", hideCursor: true });
    let started = false;
    return {
      update: (p) => {
        const payload = { left: p.remainingMs === undefined ? "?" : formatDuration(Math.round(p.remainingMs / 1000) * 1000 || 0), best: bestText(p.best) };
        if (!started) {
          bar.start(p.total, p.done, payload);
          started = true;
        } else bar.update(p.done, payload);
      },
      stop: () => bar.stop(),
    };
  }
  return {
    update: (p) => {
      const left = p.done === p.total ? "nothing" : p.remainingMs === undefined ? "?" : formatDuration(Math.max(1000, Math.round(p.remainingMs / 1000) * 1000));
      io.stderr(`sweep: ${p.done}/${p.total} runs done${p.skipped > 0 ? ` (${p.skipped} from before)` : ""}, ${left} left, best ${bestText(p.best)}\n`);
    },
    stop: () => undefined,
  };
}

function finish(results: PointResult[], out: string, title: string, x: string | undefined, y: string | undefined, io: SweepIo, links?: ReadonlyMap<string, string>): void {
  io.stdout(rankingTable(results));
  const file = join(out, "sweep.html");
  writeFileSync(file, sweepHtml(results, { title, ...(x !== undefined ? { x } : {}), ...(y !== undefined ? { y } : {}), ...(links !== undefined ? { links } : {}) }));
  io.stdout(`results: ${join(out, RESULTS_FILE)}\nhtml report: ${file}\n`);
  if (links !== undefined && links.size > 0) io.stdout(`run reports: ${[...links.values()].map((l) => join(out, l)).join(", ")}\n`);
}

/** Progress of the reports' re-runs: a bar on a terminal, else a line per report. */
function reportsPrinter(io: SweepIo): { update: (p: RunReportsProgress) => void; stop: () => void } {
  if (io.stderrTty === true) {
    const bar = new SingleBar({ format: "reports [{bar}] {value}/{total} re-runs", hideCursor: true });
    let started = false;
    return {
      update: (p) => {
        if (!started) {
          bar.start(p.total, p.done);
          started = true;
        } else bar.update(p.done);
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  return {
    update: (p) => io.stderr(`sweep: report ${p.done}/${p.total} ${p.written !== undefined ? `written, ${p.written}` : `of ${p.id} not written`}\n`),
    stop: () => undefined,
  };
}

/** How the worker threads load the code, for the start line. */
function loaderText(w: WorkerModule): string {
  return w.kind === "dist" ? `loading the compiled dist/ (${w.why})` : `loading the TypeScript sources through tsx (${w.why})`;
}

const SPECS = { out: { type: "string" }, workers: { type: "string" }, shard: { type: "string" }, reports: { type: "string" }, x: { type: "string" }, y: { type: "string" } } as const;

/** Default of --reports: the best runs worth a look without costing much (each is one more run). */
const DEFAULT_REPORTS = 3;

export async function sweepCommand(argv: string[], io: SweepIo = processIo): Promise<number> {
  const merging = argv[0] === "merge";
  const parsed = parseFlags(merging ? argv.slice(1) : argv, SPECS, { maxPositionals: merging ? 1000 : 1 });
  if (typeof parsed === "string") {
    io.stderr(usageError("sweep", parsed, USAGE));
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const out = stringFlag(parsed, "out");
  if (out === undefined) {
    io.stderr(usageError("sweep", "--out DIR is required", USAGE));
    return 2;
  }
  const x = stringFlag(parsed, "x");
  const y = stringFlag(parsed, "y");
  if (merging) {
    if (parsed.positionals.length === 0) {
      io.stderr(usageError("sweep", "merge: give at least one DIR", USAGE));
      return 2;
    }
    for (const f of ["workers", "shard", "reports"]) if (parsed.values.has(f)) {
      io.stderr(usageError("sweep", `merge: --${f} is for running a sweep`, USAGE));
      return 2;
    }
    try {
      const results = mergeResults(parsed.positionals);
      // The merged set as one results.jsonl (a rerun of merge into the same DIR adds nothing new).
      const have = new Set(readResults(out).results.map((r) => r.id));
      const w = new ResultsWriter(out);
      try {
        for (const r of results) if (!have.has(r.id)) w.append(r);
      } finally {
        w.close();
      }
      io.stderr(`mm sweep merge: ${results.length} point(s) from ${parsed.positionals.length} dir(s)\n`);
      finish(results, out, `sweep (merged from ${parsed.positionals.length} dirs)`, x, y, io, existingRunReports(results, parsed.positionals, out));
      return 0;
    } catch (e) {
      io.stderr(`mm sweep merge: ${e instanceof MergeConflictError ? e.message : e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  }
  const file = parsed.positionals[0];
  if (file === undefined) {
    io.stderr(usageError("sweep", "give the sweep FILE", USAGE));
    return 2;
  }
  let workers: number | undefined;
  const w = stringFlag(parsed, "workers");
  if (w !== undefined) {
    if (!/^\d{1,3}$/.test(w) || Number(w) < 1 || Number(w) > 256) {
      io.stderr(usageError("sweep", `--workers: expected a whole number in 1..256 (got ${JSON.stringify(w)})`, USAGE));
      return 2;
    }
    workers = Number(w);
  }
  let reports = DEFAULT_REPORTS;
  const rp = stringFlag(parsed, "reports");
  if (rp !== undefined) {
    if (!/^\d{1,3}$/.test(rp) || Number(rp) > 100) {
      io.stderr(usageError("sweep", `--reports: expected a whole number in 0..100 (got ${JSON.stringify(rp)})`, USAGE));
      return 2;
    }
    reports = Number(rp);
  }
  let shard: Shard | undefined;
  const s = stringFlag(parsed, "shard");
  if (s !== undefined) {
    const p = parseShard(s);
    if (typeof p === "string") {
      io.stderr(usageError("sweep", `--shard: ${p}`, USAGE));
      return 2;
    }
    shard = p;
  }
  let sweep;
  try {
    sweep = loadSweep(file);
  } catch (e) {
    if (e instanceof SweepSpecError) {
      io.stderr(`mm sweep: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const keys = Object.keys(sweep.points[0]?.params ?? {});
  for (const [flag, k] of [["--x", x], ["--y", y]] as const) if (k !== undefined && !keys.includes(k)) {
    io.stderr(usageError("sweep", `${flag}: ${JSON.stringify(k)} is not a swept key (${keys.join(", ")})`, USAGE));
    return 2;
  }
  const worker = workerModule();
  io.stderr(`mm sweep: ${sweep.points.length} point(s)${shard !== undefined ? `, shard ${shard.index}/${shard.count}` : ""}, objective ${sweep.spec.objective}, ${workers ?? "all cores as"} worker(s) ${loaderText(worker)}\n`);
  const progress = progressPrinter(io);
  // One pool for the sweep and then the reports' re-runs: the same started, warmed-up workers.
  const pool = new SweepPool(worker, workers ?? Math.max(1, availableParallelism()));
  try {
    const outcome = await runSweep(sweep, {
      out,
      ...(shard !== undefined ? { shard } : {}),
      ...(io.limit !== undefined ? { limit: io.limit } : {}),
      pool,
      onProgress: (p) => progress.update(p),
    }).finally(() => progress.stop());
    io.stderr(`mm sweep: ran ${outcome.ran}, skipped ${outcome.skipped} already in ${join(out, RESULTS_FILE)}${outcome.left > 0 ? `, ${outcome.left} left (run again to finish)` : ""}\n`);
    const rp = reportsPrinter(io);
    const runs = await writeRunReports(sweep.tasks, outcome.results, out, reports, { pool, onProgress: (p) => rp.update(p) }).finally(() => rp.stop());
    for (const f of runs.failed) io.stderr(`mm sweep: the report of ${f.id} could not be written (its re-run failed: ${f.error}); its result stands\n`);
    if (runs.mismatched.length > 0) io.stderr(`mm sweep: the re-run of ${runs.mismatched.join(", ")} gave other figures than its result (not reproducible: please report); no report linked for it\n`);
    finish(outcome.results, out, `sweep ${file}${shard !== undefined ? ` (shard ${shard.index}/${shard.count})` : ""}`, x, y, io, runs.links);
    return 0;
  } catch (e) {
    io.stderr(`mm sweep: run failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    await pool.destroy();
  }
}
