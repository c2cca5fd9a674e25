/**
 * The client's RateGate under a saturating place load against the simulator's real rate limits.
 *
 * Three wallets of the default scenario, 30 concurrent placers each (the place bucket admits 20/s
 * per wallet), placing real signed orders for 10 one-second windows of VIRTUAL time, in-process
 * (InProcessTransport on the simulator's pipeline, one VirtualClock for both sides: the load is
 * exact and the run deterministic). Printed:
 *
 * - `rate_gate_budget_used_<wallet>`: accepted places / (20 x windows), with the gate at a 5% margin;
 * - `rate_gate_429s`: 429 answers with the gate (should be 0);
 * - `rate_gate_429s_without_gate`: the same load without a gate (every 429 the client waited out counted),
 *   and `rate_gate_budget_used_without_gate_<wallet>` for the throughput it got.
 */
import { saturatePlaces, type LoadResult } from "../test/api/integration/load.js";
import { makeWorld } from "../test/api/integration/world.js";

const WINDOWS = 10;
const WALLETS = [0, 1, 2];

async function once(gate: { safetyMargin: number } | false): Promise<{ r: LoadResult; names: Map<string, string>; ms: number }> {
  const w = await makeWorld("in-process");
  try {
    const names = new Map(w.scenario.wallets.map((s, i) => [w.wallets[i]!.address, s.name ?? `w${i}`]));
    const t0 = performance.now();
    const r = await saturatePlaces(w, { wallets: WALLETS, windows: WINDOWS, gate });
    return { r, names, ms: performance.now() - t0 };
  } finally {
    await w.close();
  }
}

function pct(n: number, r: LoadResult): string {
  return ((100 * n) / (r.limitPerWindow * WINDOWS)).toFixed(1);
}

export async function run(): Promise<void> {
  const gated = await once({ safetyMargin: 0.05 });
  for (const [wallet, n] of gated.r.accepted) {
    console.log(`BENCH rate_gate_budget_used_${gated.names.get(wallet) ?? wallet} ${pct(n, gated.r)} %`);
  }

  const blind = await once(false);
  for (const [wallet, n] of blind.r.accepted) {
    console.log(`BENCH rate_gate_budget_used_without_gate_${blind.names.get(wallet) ?? wallet} ${pct(n, blind.r)} %`);
  }
  console.log(`BENCH rate_gate_429s_without_gate ${blind.r.rateLimited} count`);
  console.log(`BENCH rate_gate_failed_places_without_gate ${blind.r.failed} count`);
  const ratio = blind.r.rateLimited === 0 ? 0 : gated.r.rateLimited / blind.r.rateLimited;
  console.log(`BENCH rate_gate_429s ${gated.r.rateLimited} count ratio=${ratio.toFixed(3)}`);
  console.log(`BENCH rate_gate_wall_time ${gated.ms.toFixed(0)} ms`);
}
