/**
 * Determinism: the daemon on a VirtualClock with a seeded Rng against the simulator with a seeded
 * scenario sends the very same requests, bodies and signatures included, at the same virtual
 * times, every run; a different daemon seed changes the run.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { daemonConfig, makeDaemon, run, settle, startSim } from "./harness.js";

async function once(seed: number): Promise<string[]> {
  const h = startSim({ wallets: 2, markets: [{ symbol: "DET-A", opensAt: "-10m", closesAt: "+1d" }, { symbol: "DET-B", opensAt: "-10m", closesAt: "+1d" }] });
  const d = makeDaemon(h, daemonConfig({ wallets: 2, slugs: ["DET-A", "DET-B"], strategy: { levels: 2 } }), { rng: new Rng(seed) });
  await settle(h.clock, d.daemon.start());
  await run(h.clock, 20_000);
  await settle(h.clock, d.daemon.stop());
  h.sim.stop();
  return h.transport.log.map((r) => `${r.at} ${r.method} ${r.path} ${r.status} ${r.body ?? ""}`);
}

describe("same seed, same run", () => {
  it("repeats every request exactly, and a different seed does not", async () => {
    const a = await once(1);
    const b = await once(1);
    expect(a.length).toBeGreaterThan(50);
    expect(b).toEqual(a);
    const c = await once(2);
    expect(c).not.toEqual(a);
  });
});
