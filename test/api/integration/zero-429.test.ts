/**
 * The rate gate against the simulator's real rate limits, over loopback HTTP: three wallets, each
 * with 30 concurrent placers (the place bucket admits 20 per second), for four 1 s windows. With
 * the gate: zero 429 answers and at least 95% of each wallet's place limit used. Without it, the
 * same load draws 429s (which shows the load saturates).
 */
import { afterEach, describe, expect, it } from "vitest";
import { saturatePlaces } from "./load.js";
import { makeWorld, type World } from "./world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

const WINDOWS = 4;

describe("saturating place load over loopback", () => {
  it("with a RateGate (5% margin): zero 429s and >= 95% of every wallet's place limit used", async () => {
    const w = await makeWorld("loopback");
    worlds.push(w);

    const r = await saturatePlaces(w, { wallets: [0, 1, 2], windows: WINDOWS, gate: { safetyMargin: 0.05 } });

    expect(r.rateLimited).toBe(0);
    expect(r.failed).toBe(0);
    for (const [wallet, n] of r.accepted) {
      const used = n / (r.limitPerWindow * WINDOWS);
      expect(used, wallet).toBeGreaterThanOrEqual(0.95);
      expect(used, wallet).toBeLessThanOrEqual(1);
    }
  });

  it("without the gate the same load is refused with 429s", async () => {
    const w = await makeWorld("in-process");
    worlds.push(w);

    const r = await saturatePlaces(w, { wallets: [0, 1, 2], windows: WINDOWS, gate: false });

    expect(r.rateLimited).toBeGreaterThan(3 * WINDOWS * 5);
  });
});
