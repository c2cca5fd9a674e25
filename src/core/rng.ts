/**
 * Seeded randomness. Every random choice in the simulator, the synthetic flow, salts in
 * tests and the backtester comes from an Rng built from a seed: same seed, same stream.
 * Generator: xoshiro128** seeded through splitmix32 (fast, 2^128 period, good quality).
 */

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a of a string, for deriving child seeds from labels. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    const sm = splitmix32(this.seed);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return (this.nextU32() >>> 8) / 16777216 + (this.nextU32() >>> 11) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(n > 0)) throw new RangeError("n must be positive");
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  /** Standard normal (Box-Muller). */
  normal(mean = 0, sd = 1): number {
    let u = 0;
    while (u === 0) u = this.float();
    const v = this.float();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with the given rate (mean 1/rate): Poisson inter-arrival times. */
  exponential(rate: number): number {
    let u = 0;
    while (u === 0) u = this.float();
    return -Math.log(u) / rate;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[this.int(items.length)]!;
  }

  /** 32 random bytes as a 0x-hex string (salts, ids). */
  hex(bytes = 32): string {
    let s = "0x";
    for (let i = 0; i < bytes; i += 4) s += this.nextU32().toString(16).padStart(8, "0");
    return s.slice(0, 2 + bytes * 2);
  }

  /** A random RFC 4122 version-4 UUID string drawn from this stream. */
  uuid(): string {
    const h = this.hex(16).slice(2).split("");
    h[12] = "4";
    h[16] = "89ab"[parseInt(h[16]!, 16) & 3]!;
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
  }

  /** An independent generator derived from this seed and a label (stable across runs). */
  fork(label: string): Rng {
    return new Rng(forkSeed(this.seed, label));
  }
}

/**
 * The child seed of (parent seed, label): FNV-1a over the seed's bytes then the label, then the
 * murmur3 finalizer. Unlike `seed ^ hash(label)` it is not an involution (fork(a).fork(a) is
 * not the parent), not commutative (fork(a).fork(b) differs from fork(b).fork(a)) and does not
 * map (s, a) and (s ^ hash(a) ^ hash(b), b) to the same child.
 */
function forkSeed(seed: number, label: string): number {
  let h = 0x811c9dc5;
  for (let shift = 0; shift < 32; shift += 8) {
    h ^= (seed >>> shift) & 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
