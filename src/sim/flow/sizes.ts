/**
 * Taker order sizes (scenario `flow.takerSize`): `fixed` (always `mean`), `uniform` on
 * [min, max], or `lognormal` with the given mean (sigma 0.8) cut to [min, max]. Sizes are rounded
 * to 0.01 share; always one draw per size so the stream stays aligned whatever the distribution.
 */
import type { Rng } from "../../core/rng.js";
import type { Micros } from "../../core/money.js";

export interface SizeSpec {
  dist: "fixed" | "uniform" | "lognormal";
  min: Micros;
  max: Micros;
  mean: Micros;
}

const LOT: Micros = 10_000n;
const SIGMA = 0.8;

function clamp(v: Micros, lo: Micros, hi: Micros): Micros {
  return v < lo ? lo : v > hi ? hi : v;
}

export function drawSize(rng: Rng, spec: SizeSpec): Micros {
  const lo = spec.min < spec.max ? spec.min : spec.max;
  const hi = spec.min < spec.max ? spec.max : spec.min;
  let raw: Micros;
  switch (spec.dist) {
    case "fixed":
      rng.float();
      raw = spec.mean;
      break;
    case "uniform":
      raw = lo + BigInt(Math.floor(rng.float() * Number(hi - lo + 1n)));
      break;
    case "lognormal": {
      const mean = Number(spec.mean);
      const mu = Math.log(mean) - (SIGMA * SIGMA) / 2;
      raw = BigInt(Math.round(Math.exp(mu + SIGMA * rng.normal(0, 1))));
      break;
    }
  }
  const v = clamp(((raw + LOT / 2n) / LOT) * LOT, lo, hi);
  return v > 0n ? v : LOT;
}
