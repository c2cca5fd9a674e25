/**
 * Live order ids -> order slots: an open-addressing hash table (linear probing, backward-shift
 * deletion, so no tombstones) over one Int32Array of (hash, slot + 1) pairs. The id strings
 * themselves stay in the order store (`ids[slot]`).
 *
 * Why not a Map<string, number>: with tens of thousands of live orders, every Map lookup walks a
 * bucket chain whose entries sit apart from the bucket and whose keys must each be read to be
 * compared, several cache misses per lookup; at 500 orders per level the Map's gets, sets and
 * deletes were about a third of the engine's time. Here a probe reads one table line (each entry
 * carries its full 32-bit hash) and, on a hash match, one `ids` element; the key string is read
 * once, to hash it. The load factor stays at or below 1/2 and the table never shrinks below its
 * initial size.
 */

/**
 * 32-bit hash of a string: FNV-1a over its UTF-16 code units, then the murmur3 finaliser. A key that
 * is not a string (an untyped caller) hashes as its String() form and still only equals itself, as
 * in a Map.
 */
export function hashId(key: string): number {
  const s = typeof key === "string" ? key : String(key);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

const MIN_CAP = 1024;

export class IdIndex {
  /** Pairs: [2i] the key's hash, [2i + 1] slot + 1 (0 = empty). */
  private t: Int32Array;
  private mask: number;
  size = 0;

  constructor(
    /** The order store's id column: the key of slot s is ids[s]. */
    private readonly ids: readonly (string | undefined)[] | { readonly [s: number]: string | undefined },
    cap = MIN_CAP,
  ) {
    let c = MIN_CAP;
    while (c < cap) c *= 2;
    this.t = new Int32Array(c * 2);
    this.mask = c - 1;
  }

  /** Slot of a live id, or -1. */
  get(id: string): number {
    return this.getHashed(id, hashId(id));
  }

  /** get(id) with its hashId(id) already known. */
  getHashed(id: string, h: number): number {
    const t = this.t;
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const v = t[2 * i + 1]!;
      if (v === 0) return -1;
      if (t[2 * i] === h && this.ids[v - 1] === id) return v - 1;
    }
  }

  has(id: string): boolean {
    return this.get(id) >= 0;
  }

  /** Index slot `s` under its id (ids[s]), which must not be present. */
  add(s: number): void {
    this.addHashed(s, hashId(this.ids[s]!));
  }

  /** add(s) with the hash of ids[s] already known (the engine keeps it with the order). */
  addHashed(s: number, h: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.resize((this.mask + 1) * 2);
    this.insert(h, s + 1);
    this.size++;
  }

  /** Remove `id` (whose slot is `s`); false when it is not indexed under that slot. */
  delete(id: string, s: number): boolean {
    return this.deleteHashed(hashId(id), s);
  }

  /** delete(id, s) with hashId(id) already known. */
  deleteHashed(h: number, s: number): boolean {
    const t = this.t;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const v = t[2 * i + 1]!;
      if (v === 0) return false;
      if (v === s + 1) break;
      i = (i + 1) & mask;
    }
    // Backward-shift deletion: pull later entries of the probe run into the hole when their home
    // position does not lie cyclically in (hole, j].
    let hole = i;
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const v = t[2 * j + 1]!;
      if (v === 0) break;
      const home = t[2 * j]! & mask;
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (stays) continue;
      t[2 * hole] = t[2 * j]!;
      t[2 * hole + 1] = v;
      hole = j;
    }
    t[2 * hole] = 0;
    t[2 * hole + 1] = 0;
    this.size--;
    if (this.size * 8 < this.mask + 1 && this.mask + 1 > MIN_CAP) this.resize((this.mask + 1) / 2);
    return true;
  }

  /** Every indexed slot, in table order. */
  *slots(): IterableIterator<number> {
    const t = this.t;
    for (let i = 1; i < t.length; i += 2) if (t[i] !== 0) yield t[i]! - 1;
  }

  private insert(h: number, v: number): void {
    const t = this.t;
    const mask = this.mask;
    let i = h & mask;
    while (t[2 * i + 1] !== 0) i = (i + 1) & mask;
    t[2 * i] = h;
    t[2 * i + 1] = v;
  }

  private resize(cap: number): void {
    const old = this.t;
    this.t = new Int32Array(cap * 2);
    this.mask = cap - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.insert(old[i]!, old[i + 1]!);
  }
}
