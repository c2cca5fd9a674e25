/**
 * Frames and trade rows for an orderId the tracker does not know yet (a fill that beats the
 * placement answer, or a foreign order's events), held until a placement answer or a read names
 * the id, then handed back in serverTs order. Bounded across all ids together: past the cap the
 * event that has waited longest is dropped and counted.
 */
import type { OrderFrame, TrackerCounters, TradeFact } from "./order-tracker-types.js";

export type Buffered = { kind: "frame"; frame: OrderFrame } | { kind: "trade"; fill: TradeFact };
const bufferedTs = (b: Buffered): number => (b.kind === "frame" ? b.frame.serverTs : b.fill.ts);

export class EarlyEventBuffer {
  private readonly lists = new Map<string, Buffered[]>();
  private count = 0;
  private readonly max: number;
  private readonly counters: Pick<TrackerCounters, "bufferDropped">;

  constructor(max: number, counters: Pick<TrackerCounters, "bufferDropped">) {
    this.max = max;
    this.counters = counters;
  }

  add(orderId: string, b: Buffered): void {
    let list = this.lists.get(orderId);
    if (list === undefined) this.lists.set(orderId, (list = []));
    list.push(b);
    this.count++;
    while (this.count > this.max) this.dropOldest();
  }

  /** Remove an id's events and return them oldest first; undefined when none are held. */
  take(orderId: string): Buffered[] | undefined {
    const list = this.lists.get(orderId);
    if (list === undefined) return undefined;
    this.lists.delete(orderId);
    this.count -= list.length;
    return list.slice().sort((a, b) => bufferedTs(a) - bufferedTs(b));
  }

  orderIds(): string[] {
    return [...this.lists.keys()];
  }

  /** Drop an id's events unapplied (counted as dropped); returns how many there were. */
  discard(orderId: string): number {
    const list = this.lists.get(orderId);
    if (list === undefined) return 0;
    this.lists.delete(orderId);
    this.count -= list.length;
    this.counters.bufferDropped += list.length;
    return list.length;
  }

  /** Events held, and the orderIds they wait for. */
  get size(): { events: number; ids: number } {
    return { events: this.count, ids: this.lists.size };
  }

  /** Drop the event that has waited longest (the head of the list whose head is oldest). */
  private dropOldest(): void {
    let oldestId: string | undefined;
    let oldestTs = Infinity;
    for (const [id, list] of this.lists) {
      const ts = list.length > 0 ? bufferedTs(list[0]!) : -Infinity;
      if (ts < oldestTs) [oldestId, oldestTs] = [id, ts];
    }
    if (oldestId === undefined) return;
    const list = this.lists.get(oldestId)!;
    list.shift();
    if (list.length === 0) this.lists.delete(oldestId);
    this.count--;
    this.counters.bufferDropped++;
  }
}
