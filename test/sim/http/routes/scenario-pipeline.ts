/**
 * A Simulator built from scenario YAML on a VirtualClock (flow off), with some routes behind the
 * real pipeline (rate limits off), for route tests that need their own wallets, markets or
 * challenges (not a test file). The default-scenario harness is ./harness.ts.
 */
import { VirtualClock } from "../../../../src/core/clock.js";
import { Pipeline } from "../../../../src/sim/http/pipeline.js";
import type { RouteDef } from "../../../../src/sim/http/types.js";
import { parseScenario } from "../../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../../src/sim/simulator.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

export interface Answer {
  status: number;
  // Parsed JSON: tests poke at it directly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export function scenarioPipeline(yaml: string, routes: readonly RouteDef[]) {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(yaml, "route-test.yaml"), { clock, pepper: new Uint8Array(32), flow: false });
  const pipeline = new Pipeline({ sim, routes, rateLimits: false });
  const call = async (method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> => {
    const r = await pipeline.handle({ method, url, headers, bodyText: body === undefined ? "" : JSON.stringify(body), remoteAddress: "127.0.0.1" });
    return { status: r.status, body: r.bodyText === "" ? undefined : JSON.parse(r.bodyText) };
  };
  return {
    sim,
    clock,
    get: (url: string, headers?: Record<string, string>) => call("GET", url, headers),
    post: (url: string, body?: unknown, headers?: Record<string, string>) => call("POST", url, headers, body),
  };
}
