/**
 * A saturating placement load (not a test file; also used by bench/rate-gate.bench.ts): several
 * wallets, each with more concurrent placers than its place bucket admits per second, placing
 * real signed orders through the client for a number of 1 s windows, with or without a RateGate.
 */
import { RateGate } from "../../../src/ratelimit/index.js";
import type { World } from "./world.js";

export interface LoadOptions {
  /** Wallet indexes of the scenario. */
  wallets: readonly number[];
  /** Whole 1 s windows to run, from a window boundary. */
  windows: number;
  /** Concurrent placers per wallet. Default 30 (the bucket admits 20/s). */
  workersPerWallet?: number;
  /** Pace with a RateGate (its safety margin), or send blindly and let the platform answer 429. */
  gate: { safetyMargin: number } | false;
}

export interface LoadResult {
  /** Orders accepted per wallet address, inside the measured windows. */
  accepted: Map<string, number>;
  /** 429 answers seen by the client (every retry counted). */
  rateLimited: number;
  /** Placements that ended in an error (a 429 still answered after the client's waits). */
  failed: number;
  /** The place bucket's limit per window (spec 8.2 at tier 600). */
  limitPerWindow: number;
}

const SYMBOLS = ["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE", "EPL-WINNER"];

export async function saturatePlaces(w: World, opts: LoadOptions): Promise<LoadResult> {
  const start = w.clock.now();
  if (start % 1000 !== 0) throw new Error("saturatePlaces: start on a window boundary");
  const stopAt = start + opts.windows * 1000;
  const gate = opts.gate === false ? undefined : new RateGate({ clock: w.clock, safetyMargin: opts.gate.safetyMargin });
  const client = w.client(gate ? { gate } : {});
  const logFrom = w.transport.log.length;
  let stopped = false;
  // At the end, close the gate: placers waiting for a window give up instead of sending.
  w.clock.setTimeout(() => {
    stopped = true;
    gate?.close();
  }, stopAt - start);

  let n = 0;
  let failed = 0;
  const placer = async (walletIndex: number): Promise<void> => {
    const me = client.forWallet(w.wallets[walletIndex]!.address);
    while (!stopped) {
      const i = n++;
      const { body } = await w.order(walletIndex, {
        symbol: SYMBOLS[i % SYMBOLS.length]!,
        price: (0.01 + (i % 25) / 100).toFixed(2),
        quantity: "1",
        clientOrderId: `load-${walletIndex}-${i}`,
      });
      try {
        const out = await me.orders.place(body);
        if (out.outcome !== "accepted") failed++;
      } catch {
        if (!stopped) failed++;
      }
    }
  };
  const workers = opts.wallets.flatMap((wi) => Array.from({ length: opts.workersPerWallet ?? 30 }, () => placer(wi)));
  await w.drive(Promise.all(workers));

  const accepted = new Map<string, number>(opts.wallets.map((wi) => [w.wallets[wi]!.address, 0]));
  let rateLimited = 0;
  for (const e of w.transport.log.slice(logFrom)) {
    if (e.method !== "POST" || e.path !== "/api/orders/place") continue;
    if (e.status === 429) rateLimited++;
    if (e.status === 201 && e.code === undefined && e.at < stopAt && e.wallet !== undefined) {
      accepted.set(e.wallet, (accepted.get(e.wallet) ?? 0) + 1);
    }
  }
  return { accepted, rateLimited, failed, limitPerWindow: 20 };
}
