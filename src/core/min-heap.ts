/**
 * A binary min-heap of values by a numeric key; equal keys come out in the order they went in
 * (a sequence number breaks ties), so anything scheduled on it runs deterministically.
 * Parallel arrays rather than entry objects: pushing allocates nothing once the arrays have grown.
 */
export class MinHeap<T> {
  private readonly keys: number[] = [];
  private readonly seqs: number[] = [];
  private readonly values: T[] = [];
  private seq = 0;

  get size(): number {
    return this.values.length;
  }

  /** The smallest key, or Infinity when empty. */
  peekKey(): number {
    return this.values.length === 0 ? Infinity : this.keys[0]!;
  }

  /** The value with the smallest key (undefined when empty). */
  peek(): T | undefined {
    return this.values[0];
  }

  push(key: number, value: T): void {
    this.keys.push(key);
    this.seqs.push(this.seq++);
    this.values.push(value);
    let i = this.values.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  /** Remove and return the value with the smallest key (undefined when empty). */
  pop(): T | undefined {
    const n = this.values.length;
    if (n === 0) return undefined;
    const top = this.values[0];
    const last = n - 1;
    if (last > 0) this.swap(0, last);
    this.keys.pop();
    this.seqs.pop();
    this.values.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < last && this.less(l, m)) m = l;
      if (r < last && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const ka = this.keys[a]!;
    const kb = this.keys[b]!;
    return ka < kb || (ka === kb && this.seqs[a]! < this.seqs[b]!);
  }

  private swap(a: number, b: number): void {
    const k = this.keys[a]!;
    this.keys[a] = this.keys[b]!;
    this.keys[b] = k;
    const s = this.seqs[a]!;
    this.seqs[a] = this.seqs[b]!;
    this.seqs[b] = s;
    const v = this.values[a]!;
    this.values[a] = this.values[b]!;
    this.values[b] = v;
  }
}
