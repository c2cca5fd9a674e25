/**
 * The simulator's composition root: one object holding the platform (partners, keys, auth,
 * catalogue, lifecycle, faults), the matching engine and ledger, the user-frame bus and the
 * clock. Routes receive it as `ctx.sim`. Everything random is derived from the scenario seed,
 * everything timed runs on `clock`: same seed and inputs, same trades.
 *
 * SKELETON: the order desk (placement checks, clientOrderId dedupe, order records, frames)
 * and the synthetic flow attach here.
 */
import type { Clock } from "../core/clock.js";
import { Rng } from "../core/rng.js";
import { MatchingEngine } from "./engine/index.js";
import { UserFrameBus } from "./bus.js";
import { createSimPlatform, type SimPlatform } from "./platform/platform.js";
import type { Scenario } from "./platform/scenario.js";

export interface SimulatorOptions {
  clock: Clock;
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Verify every order's EIP-712 signature (default true; a backtest may turn it off). */
  verifySignatures?: boolean;
  /** Key-hash pepper (tests); random otherwise. */
  pepper?: Uint8Array;
  startMs?: number;
}

export class Simulator {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly platform: SimPlatform;
  readonly engine: MatchingEngine;
  readonly bus = new UserFrameBus();
  readonly verifySignatures: boolean;

  constructor(scenario: Scenario, opts: SimulatorOptions) {
    this.clock = opts.clock;
    const seeded = opts.seed === undefined ? scenario : { ...scenario, seed: opts.seed };
    this.rng = new Rng(seeded.seed);
    this.verifySignatures = opts.verifySignatures ?? true;
    this.platform = createSimPlatform(seeded, {
      clock: opts.clock,
      ...(opts.pepper ? { pepper: opts.pepper } : {}),
      ...(opts.startMs !== undefined ? { startMs: opts.startMs } : {}),
    });
    this.engine = new MatchingEngine({ clock: opts.clock });
  }
}
