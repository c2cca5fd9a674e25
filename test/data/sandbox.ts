/**
 * A temporary directory per test for a data set, and the writers the test opened: after each test
 * they are closed (their file descriptors released) before the directory is removed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { DataSetWriter, type WriterOptions } from "../../src/data/writer.js";

/** Registers the per-test set-up and clean-up; `onDir` gets each test's fresh directory. Returns the writer opener. */
export function dataSetSandbox(prefix: string, onDir: (dir: string) => void): (o: WriterOptions) => Promise<DataSetWriter> {
  let dir = "";
  const writers: DataSetWriter[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    onDir(dir);
  });
  afterEach(() => {
    for (const w of writers.splice(0)) w.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return async (o) => {
    const w = await DataSetWriter.open(o);
    writers.push(w);
    return w;
  };
}
