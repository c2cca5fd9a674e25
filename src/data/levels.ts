/**
 * One side of a recorded order book: prices and quantities in micro-units, best first, held as a
 * window over two BigInt64Arrays. A decoded data set shares one pair of arrays between all the
 * books of a file, so a book costs two small objects, not one per level; a bigint is made only
 * when a level is read.
 */
import type { Micros } from "../core/money.js";

export class Levels {
  constructor(
    private readonly prices: BigInt64Array,
    private readonly quantities: BigInt64Array,
    private readonly start: number,
    readonly length: number,
  ) {}

  static of(levels: readonly (readonly [Micros, Micros])[]): Levels {
    const p = new BigInt64Array(levels.length);
    const q = new BigInt64Array(levels.length);
    levels.forEach(([price, qty], i) => {
      p[i] = price;
      q[i] = qty;
    });
    return new Levels(p, q, 0, levels.length);
  }

  static readonly EMPTY = new Levels(new BigInt64Array(0), new BigInt64Array(0), 0, 0);

  price(i: number): Micros {
    return this.prices[this.start + i]!;
  }

  quantity(i: number): Micros {
    return this.quantities[this.start + i]!;
  }

  /** [price, quantity] pairs, best first (allocates: for tests and tools, not replay loops). */
  toArray(): [Micros, Micros][] {
    const out: [Micros, Micros][] = [];
    for (let i = 0; i < this.length; i++) out.push([this.price(i), this.quantity(i)]);
    return out;
  }
}
