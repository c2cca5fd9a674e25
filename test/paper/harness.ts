/**
 * Paper mode against the in-process simulator as "the real platform": the simulator's transport
 * wrapped to count every request by path, a paper config over the demo's strategy, one
 * VirtualClock for both.
 */
import { VirtualClock } from "../../src/core/clock.js";
import { createLogger } from "../../src/log/index.js";
import { parseConfig, type Config } from "../../src/config/index.js";
import type { PaperModeConfig } from "../../src/config/load.js";
import { startEmbeddedSimulator, type EmbeddedSimulator } from "../../src/bot/engine/demo.js";
import type { ShutdownReport } from "../../src/bot/engine/daemon.js";
import { createPaperRun, type PaperRun } from "../../src/paper/run.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";

export const SIM_CONFIG = `
mode: simulator
simulator: { seed: 42, clock: virtual }
wallets: [{ name: sim-only }]
strategy: { name: ladder }
`;

export function paperYaml(extra = ""): string {
  return `
mode: paper
platform: { baseUrl: "http://sim.invalid" }
paper: { seed: 7, startingCash: "2000", latency: { entryMs: 20, responseMs: 20 } }
instance: { id: paper }
wallets: [{ name: paper-a }, { name: paper-b }]
markets: { maxMarkets: 4, refreshSec: 30 }
strategy: { name: ladder, params: {} }
quoting: { refreshMs: 1000, priceToleranceTicks: 1 }
risk: { maxOrderSize: "50", maxPositionPerMarket: "300", maxNotionalPerWallet: "1000", maxNotionalTotal: "3000", dailyLossLimit: "250" }
metrics: { port: 0 }
log: { level: silent }
${extra}`;
}

export class CountingTransport implements Transport {
  readonly paths = new Map<string, number>();
  constructor(private readonly inner: Transport) {}
  request(req: HttpRequest): Promise<HttpResponse> {
    const path = req.path.split("?")[0]!;
    this.paths.set(`${req.method} ${path}`, (this.paths.get(`${req.method} ${path}`) ?? 0) + 1);
    return this.inner.request(req);
  }
  /** Requests whose path is a keyed route (orders, the wallet's reads) or not a GET. */
  keyed(): string[] {
    return [...this.paths.keys()].filter((k) => !k.startsWith("GET ") || /^GET \/api\/(orders|me|vault|withdrawals|v1\/partner)(\/|$)/.test(k));
  }
}

export interface Harness {
  clock: VirtualClock;
  sim: EmbeddedSimulator;
  upstream: CountingTransport;
  run: PaperRun;
  config: PaperModeConfig;
}

export function paperHarness(extra = ""): Harness {
  const clock = new VirtualClock(Date.parse("2026-01-01T12:00:00Z"));
  const simConfig = parseConfig(SIM_CONFIG, "sim.yaml", {}) as Extract<Config, { mode: "simulator" }>;
  const sim = startEmbeddedSimulator(simConfig, clock, createLogger({ level: "silent" }));
  const upstream = new CountingTransport(sim.transport);
  const config = parseConfig(paperYaml(extra), "paper.yaml", {}) as PaperModeConfig;
  const run = createPaperRun({ config, clock, upstream, logger: createLogger({ level: "silent" }) });
  return { clock, sim, upstream, run, config };
}

/** Run the daemon for `ms` of virtual time, then stop it; the report after the stop. */
export async function runFor(h: Harness, ms: number): Promise<ShutdownReport> {
  const started = h.run.daemon.start();
  for (let t = 0; t < ms; t += 1000) await h.clock.advance(1000);
  await started;
  const stopped = h.run.daemon.stop("test end");
  for (let i = 0; i < 120; i++) {
    let done = false;
    void stopped.then(() => (done = true));
    await h.clock.advance(1000);
    if (done) break;
  }
  return stopped;
}
