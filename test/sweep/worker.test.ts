/**
 * The worker-thread module of mm sweep's pool (sweep/worker.ts), called in this thread: its
 * default export runs a point as runPoint does, and `report` re-runs one for its page as reportRun
 * does. (The module loaded by piscina on worker threads: test/sweep/loader.test.ts.)
 */
import { describe, expect, it } from "vitest";
import run, { report } from "../../src/sweep/worker.js";
import { runPoint } from "../../src/sweep/run-point.js";
import { reportRun } from "../../src/sweep/report-run.js";
import { resultKey } from "../../src/sweep/results.js";
import { pointTask } from "./fixtures.js";

describe("the sweep worker", () => {
  it("runs a point as the in-thread run does, and its report run likewise", async () => {
    const task = pointTask(3_000);
    const [viaWorker, direct] = [await run(task), await runPoint(task)];
    expect(resultKey(viaWorker)).toBe(resultKey(direct));
    expect(viaWorker).toMatchObject({ id: task.id, index: task.index, seed: task.seed });
    expect(await report(task)).toEqual(await reportRun(task));
  }, 60_000);
});
