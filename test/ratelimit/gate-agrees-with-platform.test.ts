/**
 * The client gate and the platform's fixed windows, driven on one VirtualClock under a saturating load:
 * the gate must never draw a 429 and must still use (almost) all of each wallet's place budget.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { FixedWindowLimiter, decisionHeaders } from "../../src/ratelimit/fixed-window.js";
import { RateGate, type AcquireRequest } from "../../src/ratelimit/gate.js";
import { bucketsFor } from "../../src/ratelimit/table.js";

const T0 = Date.UTC(2026, 0, 1);
const WALLETS = [1, 2, 3].map((i) => `0x${String(i).repeat(40)}`);

interface Outcome {
  refused: { bucket: string; path: string; at: number }[];
  placesByWallet: Map<string, number>;
  totalByPath: Map<string, number>;
}

async function saturate(opts: {
  margin: number;
  rateLimitPerMin: number;
  latencyMs: (rng: Rng) => number;
  seconds: number;
}): Promise<Outcome> {
  const clock = new VirtualClock(T0 + 137); // start off a boundary
  const rng = new Rng(7);
  const gate = new RateGate({ clock, safetyMargin: opts.margin, rateLimitPerMin: opts.rateLimitPerMin });
  const platform = new FixedWindowLimiter(clock);
  const stopAt = T0 + opts.seconds * 1000;
  const out: Outcome = { refused: [], placesByWallet: new Map(), totalByPath: new Map() };

  const mix: [string, string][] = [
    ["POST", "/api/orders/place"],
    ["POST", "/api/orders/place"],
    ["POST", "/api/orders/place"],
    ["POST", "/api/orders/cancel"],
    ["GET", "/api/orders/open"],
  ];

  const worker = async (wallet: string, id: number): Promise<void> => {
    let n = id;
    while (clock.now() < stopAt) {
      const [method, path] = mix[n++ % mix.length]!;
      const req: AcquireRequest = { method, path, wallet };
      const adm = await gate.acquire(req);
      if (clock.now() >= stopAt) return;
      const latency = opts.latencyMs(rng);
      if (latency > 0) await clock.sleep(latency);
      const d = platform.check(bucketsFor(method, path), { ip: "203.0.113.9", wallet }, clock.now(), {
        rateLimitPerMin: opts.rateLimitPerMin,
      });
      if (!d.allowed) out.refused.push({ bucket: d.bucket.id, path, at: clock.now() });
      else if (path === "/api/orders/place") out.placesByWallet.set(wallet, (out.placesByWallet.get(wallet) ?? 0) + 1);
      out.totalByPath.set(path, (out.totalByPath.get(path) ?? 0) + 1);
      if (latency > 0) await clock.sleep(latency);
      gate.observe({ method, path, wallet, status: d.allowed ? 201 : 429, headers: decisionHeaders(d), sentAtMs: adm.admittedAtMs });
    }
  };

  const workers = WALLETS.flatMap((w) => Array.from({ length: 40 }, (_, i) => worker(w, i)));
  await clock.advanceTo(stopAt + 5_000);
  gate.close();
  await Promise.allSettled(workers);
  return out;
}

describe("gate against the platform's fixed windows (one VirtualClock)", () => {
  it("draws zero 429s and uses >= 95% of each wallet's place budget (no latency, no margin)", async () => {
    const o = await saturate({ margin: 0, rateLimitPerMin: 600, latencyMs: () => 0, seconds: 10 });
    expect(o.refused).toEqual([]);
    // 20 places per second per wallet; the first window is partial (started 137 ms in) but still full
    for (const w of WALLETS) expect(o.placesByWallet.get(w) ?? 0).toBeGreaterThanOrEqual(0.95 * 200);
    for (const w of WALLETS) expect(o.placesByWallet.get(w) ?? 0).toBeLessThanOrEqual(200);
    expect(o.totalByPath.get("/api/orders/cancel") ?? 0).toBeGreaterThan(0);
    expect(o.totalByPath.get("/api/orders/open") ?? 0).toBeGreaterThan(0);
  });

  it("holds with a tier and a safety margin under random network latency", async () => {
    // tier 1200/min: place 40/s; margin 0.1: 36/s; latency up to 40 ms each way
    const o = await saturate({
      margin: 0.1,
      rateLimitPerMin: 1200,
      latencyMs: (rng) => rng.int(41),
      seconds: 10,
    });
    expect(o.refused).toEqual([]);
    for (const w of WALLETS) expect(o.placesByWallet.get(w) ?? 0).toBeGreaterThanOrEqual(0.95 * 360);
  });
});
