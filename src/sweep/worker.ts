/** The worker-thread side of mm sweep's pool (piscina): one point per task. */
import { runPoint } from "./run-point.js";
import type { PointTask } from "./spec.js";

export default function run(task: PointTask): Promise<ReturnType<typeof runPoint> extends Promise<infer R> ? R : never> {
  return runPoint(task);
}
