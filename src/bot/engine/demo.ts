/**
 * The embedded simulator behind `mm run` in simulator mode (the demo): the platform simulator
 * built from the config's scenario (or the default one), served in-process through the same
 * pipeline and WebSocket hub as its HTTP server, with the daemon's wallets added to the scenario
 * so they trade at once.
 *
 * Demo choices (not platform behaviour):
 * - every config wallet the scenario does not know joins the scenario's first multi_wallet
 *   partner, already onboarded (vault deployed, limits set), funded with DEMO_COLLATERAL;
 * - the API key is that partner's first key with `orders:write`.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { VirtualClock } from "../../core/clock.js";
import { ONE } from "../../core/money.js";
import type { SimulatorModeConfig } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import { InProcessSocketConnector, InProcessTransport } from "../../sim/http/in-process.js";
import { Pipeline } from "../../sim/http/pipeline.js";
import { allRoutes } from "../../sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario, scenarioWalletAddress, type Scenario } from "../../sim/platform/scenario.js";
import { Simulator } from "../../sim/simulator.js";
import { WsHub } from "../../sim/ws/hub.js";

/** Settlement token given to each demo wallet the scenario does not fund. */
export const DEMO_COLLATERAL = 10_000n * ONE;

export interface EmbeddedSimulator {
  sim: Simulator;
  transport: InProcessTransport;
  connector: InProcessSocketConnector;
  apiKey: string;
  partnerId: string;
  stop(): void;
}

/** configs/demo.yaml of this package (found from src/ and from dist/src/). */
export function defaultDemoConfigPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, "configs", "demo.yaml");
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error("configs/demo.yaml not found");
}

/** The scenario with the daemon's wallets added (see the header). */
export function scenarioWithWallets(scenario: Scenario, wallets: readonly { name: string; address: string }[]): { scenario: Scenario; apiKey: string; partnerId: string } {
  const partner = scenario.partners.find((p) => p.kind === "multi_wallet" && p.keys.some((k) => !k.revoked && k.scopes.includes("orders:write")));
  if (partner === undefined) throw new Error("the scenario has no multi_wallet partner with an orders:write key: the daemon cannot trade");
  const key = partner.keys.find((k) => !k.revoked && k.scopes.includes("orders:write"))!;
  // A scenario wallet given by its private key alone is known by the address the key derives.
  const known = new Set(scenario.wallets.map(scenarioWalletAddress));
  const extra = wallets
    .filter((w) => !known.has(w.address.toLowerCase()))
    .map((w) => ({
      name: w.name,
      address: w.address.toLowerCase(),
      partner: partner.id,
      kyc: { approved: true, tier: 1 },
      banned: false,
      onboarded: true,
      balances: { collateral: DEMO_COLLATERAL, positions: [] },
    }));
  return { scenario: { ...scenario, wallets: [...scenario.wallets, ...extra] }, apiKey: key.key, partnerId: partner.id };
}

/**
 * `verifySignatures: false` only from a backtest with signatures off (src/backtest); `mm run` passes nothing.
 * `scenario` (instead of the config's file) and `flow: false` come from a backtest replaying a recording.
 */
export function startEmbeddedSimulator(
  config: SimulatorModeConfig,
  clock: Clock,
  logger?: Logger,
  opts: { verifySignatures?: boolean; scenario?: Scenario; flow?: boolean } = {},
): EmbeddedSimulator {
  const base = opts.scenario ?? loadScenario(config.simulator.scenario ?? defaultScenarioPath());
  const { scenario, apiKey, partnerId } = scenarioWithWallets(base, config.wallets);
  const sim = new Simulator(scenario, {
    clock,
    seed: config.simulator.seed,
    ...(opts.verifySignatures === false ? { verifySignatures: false } : {}),
    ...(opts.flow === false ? { flow: false } : {}),
  });
  const pipeline = new Pipeline({ sim, routes: allRoutes(), ...(logger ? { logger } : {}) });
  const hub = new WsHub({ sim, pipeline, ...(logger ? { logger } : {}) });
  const transport = new InProcessTransport(pipeline);
  const connector = new InProcessSocketConnector(hub, logger ? { logger } : {});
  sim.start();
  return { sim, transport, connector, apiKey, partnerId, stop: () => sim.stop() };
}

/**
 * Drive a VirtualClock from real time at `speed` simulated ms per real ms (the demo's
 * `simulator.clock: virtual`). Returns the stop function.
 */
export function driveVirtualClock(clock: VirtualClock, speed: number, real: Clock, tickMs = 50): () => void {
  let busy = false;
  const handle: TimerHandle = real.setInterval(() => {
    if (busy) return;
    busy = true;
    void clock.advance(tickMs * speed).finally(() => (busy = false));
  }, tickMs);
  return () => real.clearInterval(handle);
}
