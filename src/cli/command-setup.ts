/**
 * What `mm run` and `mm record` both do before they start: read the daemon config (a bad one is
 * reported as `mm check-config` reports it, exit 2) and pick the clock it asks for (a VirtualClock
 * driven from the real one at `simulator.speed` when `simulator.clock: virtual`, else the real clock).
 */
import { RealClock, VirtualClock, type Clock } from "../core/clock.js";
import { ConfigError, loadConfig, type Config } from "../config/index.js";
import { redactSecrets } from "../log/index.js";
import { driveVirtualClock } from "../bot/engine/demo.js";

/** The config, or 2 after writing its problems to `stderr`. */
export function loadCommandConfig(file: string, stderr: (text: string) => void): Config | 2 {
  try {
    return loadConfig(file);
  } catch (e) {
    if (e instanceof ConfigError) {
      stderr(`${redactSecrets(e.message)}\n${file}: invalid\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * The clock the config asks for, and the real one (for what runs in wall time whatever the
 * config, such as a status line); `stopDriver` stops a driven virtual clock (call it at exit).
 */
export function commandClock(config: Config): { clock: Clock; real: RealClock; stopDriver: (() => void) | undefined } {
  const real = new RealClock();
  if (config.mode === "simulator" && config.simulator.clock === "virtual") {
    const v = new VirtualClock(real.now());
    return { clock: v, real, stopDriver: driveVirtualClock(v, config.simulator.speed ?? 1, real) };
  }
  return { clock: real, real, stopDriver: undefined };
}
