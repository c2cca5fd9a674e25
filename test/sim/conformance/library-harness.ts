/**
 * Boots the simulator on one file of the scenario library (configs/scenarios/<name>.yaml) over
 * loopback HTTP on the virtual clock, for the conformance tests of that library (not a test file).
 */
import { join } from "node:path";
import { VirtualClock } from "../../../src/core/clock.js";
import { startSimServer, type SimServer } from "../../../src/sim/http/server.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { T0, type Json, type Reply } from "./harness.js";

export interface Library {
  url: string;
  sim: Simulator;
  clock: VirtualClock;
  send(path: string, headers?: Record<string, string>, init?: { method?: string; body?: unknown }): Promise<Reply>;
  close(): Promise<void>;
}

export function libraryPath(name: string): string {
  return join(defaultScenarioPath(), "..", `${name}.yaml`);
}

export async function bootLibrary(name: string): Promise<Library> {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(loadScenario(libraryPath(name)), { clock, flow: false, pepper: new Uint8Array(32).fill(5) });
  sim.start();
  await clock.advance(0);
  const server: SimServer = await startSimServer({ sim, routes: allRoutes(), port: 0 });
  const send = async (path: string, headers: Record<string, string> = {}, init: { method?: string; body?: unknown } = {}): Promise<Reply> => {
    const h: Record<string, string> = { ...headers };
    if (init.body !== undefined) h["content-type"] = "application/json";
    const res = await fetch(server.url + path, {
      method: init.method ?? (init.body !== undefined ? "POST" : "GET"),
      headers: h,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    let body: Json;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body, text };
  };
  return {
    url: server.url,
    sim,
    clock,
    send,
    async close() {
      await server.close();
      sim.stop();
    },
  };
}
