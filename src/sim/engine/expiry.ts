/**
 * GTD expirations: a binary min-heap on (expiration seconds, insertion sequence) of order slots
 * with lazy deletion. An entry carries the slot's generation, so a cancelled or filled order (or a
 * slot since reused) is recognised and skipped when it surfaces. The heap is rebuilt from the live
 * entries when dead ones outnumber them, so memory stays proportional to live GTD orders.
 */
export class ExpiryHeap {
  private secs: number[] = [];
  private seqs: number[] = [];
  private slots: number[] = [];
  private gens: number[] = [];
  private seq = 0;

  get size(): number {
    return this.slots.length;
  }

  push(slot: number, gen: number, expirationSecs: number): void {
    this.secs.push(expirationSecs);
    this.seqs.push(this.seq++);
    this.slots.push(slot);
    this.gens.push(gen);
    this.up(this.slots.length - 1);
  }

  /** Expiration (unix seconds) of the top entry, or Infinity. */
  peekSecs(): number {
    return this.slots.length === 0 ? Infinity : this.secs[0]!;
  }
  peekSlot(): number {
    return this.slots[0]!;
  }
  peekGen(): number {
    return this.gens[0]!;
  }

  pop(): void {
    const n = this.slots.length;
    if (n === 0) return;
    const s = this.secs.pop()!;
    const q = this.seqs.pop()!;
    const o = this.slots.pop()!;
    const g = this.gens.pop()!;
    if (n > 1) {
      this.secs[0] = s;
      this.seqs[0] = q;
      this.slots[0] = o;
      this.gens[0] = g;
      this.down(0);
    }
  }

  /** Drop dead entries when they are the majority. */
  compactIfSparse(liveCount: number, isLive: (slot: number, gen: number) => boolean): void {
    if (this.slots.length < 64 || liveCount * 2 >= this.slots.length) return;
    const secs: number[] = [];
    const seqs: number[] = [];
    const slots: number[] = [];
    const gens: number[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      if (!isLive(this.slots[i]!, this.gens[i]!)) continue;
      secs.push(this.secs[i]!);
      seqs.push(this.seqs[i]!);
      slots.push(this.slots[i]!);
      gens.push(this.gens[i]!);
    }
    this.secs = secs;
    this.seqs = seqs;
    this.slots = slots;
    this.gens = gens;
    for (let i = (slots.length >>> 1) - 1; i >= 0; i--) this.down(i);
  }

  private less(i: number, j: number): boolean {
    const a = this.secs[i]!;
    const b = this.secs[j]!;
    return a < b || (a === b && this.seqs[i]! < this.seqs[j]!);
  }

  private swap(i: number, j: number): void {
    swapIn(this.secs, i, j);
    swapIn(this.seqs, i, j);
    swapIn(this.slots, i, j);
    swapIn(this.gens, i, j);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.slots.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && this.less(r, l) ? r : l;
      if (!this.less(c, i)) return;
      this.swap(i, c);
      i = c;
    }
  }
}

function swapIn(arr: number[], i: number, j: number): void {
  const x = arr[i]!;
  arr[i] = arr[j]!;
  arr[j] = x;
}
