/**
 * Matching engine + ledger throughput on a mixed flow: 45% adds (resting, non-crossing), 45% cancels
 * of random live orders, 10% crossing IOC orders (about a third of a resting order in size, across
 * all four binary forms, so YES/NO transfers, mints and merges all occur). Measured with ~500
 * resting orders per price level (20 levels a side) and, as the baseline in the same run, ~5 per
 * level; ratio = ops/s at 5 / ops/s at 500 (1.0: depth costs nothing; the target is <= 1.5).
 *
 * Honesty notes. Every random choice is drawn from a seeded Rng into typed arrays before timing, so
 * the timed loop is engine calls plus a few array writes of bookkeeping (which count against the
 * engine). Crossing orders drain the book, so it is topped back up to the target depth between timed
 * batches of 1000 ops (untimed). Time is process CPU time (process.cpuUsage): the machines these run
 * on are shared and wall time mostly measures the neighbours; CPU time also counts the GC's helper
 * threads, so it is the conservative figure. Fund locks, settlement, trade rows and balance events
 * are all on, as in the simulator. Separate lines give the same 500/level flow with trade rows and
 * balance events off, and with an event sink attached (the engine then builds an order snapshot per
 * event, as the platform layer will have it do).
 *
 * Stability. Each figure is the median of five runs; the runs of the four lines are interleaved
 * (deep, shallow, no records, sink, then again) so that a burst of load from the neighbours or a
 * JIT tier-up lands on all of them alike, and each configuration is warmed up twice first. Before
 * each run (untimed) a full GC is forced when the bench can get at one, so a run is not charged for
 * the garbage of the runs and benchmarks before it; the GC work a run causes itself, including the
 * concurrent marking threads, stays in its CPU time. The per-run figures are printed on a `#` line
 * so the spread can be seen.
 */
import { VirtualClock } from "../src/core/clock.js";
import { Rng } from "../src/core/rng.js";
import type { Side } from "../src/core/amounts.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { MatchingEngine } from "../src/sim/engine/engine.js";

const LEVELS_PER_SIDE = 20;
const MID = 500;
const BATCH = 1000;
const MAKERS = 8;
/** Maker sizes 1..20 shares (with odd micros); takers draw from the first six (1..6 shares). */
const QTYS: bigint[] = Array.from({ length: 20 }, (_, i) => BigInt(i + 1) * 1_000_000n + BigInt(i * 37));
const TAKER_QTYS = 6;
const PRICES: bigint[] = Array.from({ length: 1001 }, (_, t) => BigInt(t) * 1000n);
const OP_ADD = 0;
const OP_CANCEL = 1;
const OP_CROSS = 2;

interface Flow {
  engine: MatchingEngine;
  makers: string[];
  taker: string;
  perLevel: number;
  nextId: number;
  /** Live maker orders as swap-removed slots: id string, numeric id and book level (side * 1001 + tick). */
  liveId: string[];
  liveNum: Int32Array;
  liveLevel: Int32Array;
  liveCount: number;
  slotOf: Int32Array;
  levelCount: Int32Array;
  /** The pregenerated flow. */
  op: Uint8Array;
  bits: Uint32Array;
  frac: Float64Array;
}

function newFlow(perLevel: number, ops: number, seed: number, record: boolean, sink: boolean): Flow {
  let events = 0;
  const engine = new MatchingEngine({
    clock: new VirtualClock(),
    ledger: { recordTrades: record, recordBalanceEvents: record },
    onEvent: sink ? () => void events++ : undefined,
  });
  engine.addMarket({ id: "BENCH", outcomeCount: 2, feeRateBps: 100 });
  const makers = Array.from({ length: MAKERS }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
  const taker = `0x${"f".repeat(40)}`;
  for (const w of [...makers, taker]) {
    engine.deposit(w, 10n ** 16n);
    engine.split(w, "BENCH", 10n ** 14n);
  }
  const rng = new Rng(seed);
  const op = new Uint8Array(ops);
  const bits = new Uint32Array(ops);
  const frac = new Float64Array(ops);
  for (let i = 0; i < ops; i++) {
    const u = rng.float();
    op[i] = u < 0.45 ? OP_ADD : u < 0.9 ? OP_CANCEL : OP_CROSS;
    bits[i] = rng.nextU32();
    frac[i] = rng.float();
  }
  const idSpace = ops + perLevel * LEVELS_PER_SIDE * 2 * Math.ceil(ops / BATCH) + 1;
  return {
    engine, makers, taker, perLevel, nextId: 1, liveId: [], liveNum: new Int32Array(1 << 16), liveLevel: new Int32Array(1 << 16), liveCount: 0,
    slotOf: new Int32Array(Math.min(idSpace, 50_000_000)).fill(-1), levelCount: new Int32Array(2 * 1001), op, bits, frac,
  };
}

/** A resting maker order on `side` (0 bid, 1 ask of the YES book) at `tick`; `r` supplies the choices. */
function addMaker(f: Flow, side: number, tick: number, r: number): void {
  const n = f.nextId++;
  const id = String(n);
  // A bid is BUY YES at t or SELL NO at 1-t; an ask is SELL YES at t or BUY NO at 1-t.
  const no = (r & 1) !== 0;
  const res = f.engine.place({
    orderId: id, wallet: f.makers[(r >>> 1) & 7]!, marketId: "BENCH", outcome: no ? 1 : 0,
    side: (side === 0) !== no ? "BUY" : "SELL", price: PRICES[no ? 1000 - tick : tick]!, quantity: QTYS[(r >>> 4) % 20]!,
  });
  if (res.status !== "OPEN") throw new Error(`maker order not resting: ${res.status} ${res.code}`);
  const level = side * 1001 + tick;
  const slot = f.liveCount++;
  if (slot === f.liveNum.length) {
    const num = new Int32Array(slot * 2);
    num.set(f.liveNum);
    f.liveNum = num;
    const lv = new Int32Array(slot * 2);
    lv.set(f.liveLevel);
    f.liveLevel = lv;
  }
  f.slotOf[n] = slot;
  f.liveId[slot] = id;
  f.liveNum[slot] = n;
  f.liveLevel[slot] = level;
  f.levelCount[level]!++;
}

function dropSlot(f: Flow, slot: number): void {
  const last = --f.liveCount;
  f.levelCount[f.liveLevel[slot]!]!--;
  if (slot !== last) {
    const moved = f.liveNum[last]!;
    f.liveId[slot] = f.liveId[last]!;
    f.liveNum[slot] = moved;
    f.liveLevel[slot] = f.liveLevel[last]!;
    f.slotOf[moved] = slot;
  }
}

function levelTick(side: number, i: number): number {
  return side === 0 ? MID - 1 - i : MID + 1 + i;
}

function refill(f: Flow, rng: Rng): void {
  for (let side = 0; side < 2; side++) {
    for (let i = 0; i < LEVELS_PER_SIDE; i++) {
      const t = levelTick(side, i);
      while (f.levelCount[side * 1001 + t]! < f.perLevel) addMaker(f, side, t, rng.nextU32());
    }
  }
}

function cross(f: Flow, r: number): void {
  const e = f.engine;
  const book = e.market("BENCH").books[0]!;
  const buy = (r & 1) !== 0;
  const no = (r & 2) !== 0;
  const t = buy ? book.bestAsk : book.bestBid;
  if (t <= 0 || t >= 1000) return;
  // Taking the asks: BUY YES at t or SELL NO at 1-t; taking the bids: SELL YES at t or BUY NO at 1-t.
  const side: Side = buy !== no ? "BUY" : "SELL";
  const res = e.place({
    wallet: f.taker, marketId: "BENCH", outcome: no ? 1 : 0, side, price: PRICES[no ? 1000 - t : t]!,
    quantity: QTYS[(r >>> 2) % TAKER_QTYS]!, type: "market", timeInForce: "IOC",
  });
  for (const tr of res.trades) {
    const slot = f.slotOf[Number(tr.makerOrderId)]!;
    if (slot >= 0 && slot < f.liveCount && f.liveId[slot] === tr.makerOrderId && !e.isLive(tr.makerOrderId)) dropSlot(f, slot);
  }
}

function step(f: Flow, i: number): void {
  const r = f.bits[i]!;
  switch (f.op[i]) {
    case OP_ADD: {
      const side = r & 1;
      addMaker(f, side, levelTick(side, (r >>> 1) % LEVELS_PER_SIDE), r >>> 6);
      return;
    }
    case OP_CANCEL: {
      if (f.liveCount === 0) return;
      const slot = Math.floor(f.frac[i]! * f.liveCount);
      if (!f.engine.cancel(f.liveId[slot]!).ok) throw new Error("bench cancel missed a live order");
      dropSlot(f, slot);
      return;
    }
    default:
      cross(f, r);
  }
}

/** Runs `ops` timed operations in batches, topping the book up untimed between batches; returns ops/s. */
function measure(perLevel: number, ops: number, seed: number, record: boolean, sink = false): number {
  const f = newFlow(perLevel, ops, seed, record, sink);
  const refillRng = new Rng(seed ^ 0x5eed);
  refill(f, refillRng);
  let us = 0;
  for (let done = 0; done < ops; done += BATCH) {
    const end = Math.min(ops, done + BATCH);
    const t0 = process.cpuUsage();
    for (let i = done; i < end; i++) step(f, i);
    const d = process.cpuUsage(t0);
    us += d.user + d.system;
    refill(f, refillRng);
  }
  return (ops * 1e6) / us;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** A full GC between runs (untimed); undefined when the runtime refuses to expose one. */
function fullGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
}

const ROUNDS = 5;

export async function run(): Promise<void> {
  const ops = Number(process.env.BENCH_ENGINE_OPS ?? 300_000);
  if (!Number.isInteger(ops) || ops < BATCH) throw new Error(`BENCH_ENGINE_OPS must be an integer >= ${BATCH}, got ${process.env.BENCH_ENGINE_OPS}`);
  const gc = fullGc();
  const settle = (): void => gc?.();
  if (process.env.BENCH_ENGINE_QUICK) {
    measure(500, 100_000, 1, true);
    for (const per of [500, 5]) {
      settle();
      console.log(per, Math.round(measure(per, ops, 7, true)));
    }
    settle();
    console.log("500 no records", Math.round(measure(500, ops, 7, false)));
    return;
  }
  for (let w = 0; w < 2; w++) {
    measure(500, 100_000, 1 + w, true);
    measure(5, 100_000, 3 + w, true);
    measure(500, 50_000, 5 + w, false);
    measure(500, 50_000, 7 + w, true, true);
  }
  const deep: number[] = [];
  const shallow: number[] = [];
  const noRecords: number[] = [];
  const withSink: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    settle();
    deep.push(measure(500, ops, 100 + round, true));
    settle();
    shallow.push(measure(5, ops, 200 + round, true));
    settle();
    noRecords.push(measure(500, ops, 300 + round, false));
    settle();
    withSink.push(measure(500, ops, 400 + round, true, true));
  }
  const d = median(deep);
  const sh = median(shallow);
  const k = (xs: number[]): string => xs.map((x) => `${Math.round(x / 1000)}k`).join(" ");
  console.log(`# engine runs (ops/s, ${ROUNDS} each${gc === undefined ? ", no forced GC available" : ""}): 500/level ${k(deep)} | 5/level ${k(shallow)} | no records ${k(noRecords)} | sink ${k(withSink)}`);
  console.log(`BENCH engine_mixed_ops_500_per_level ${Math.round(d)} ops/s ratio=${(sh / d).toFixed(2)}`);
  console.log(`BENCH engine_mixed_ops_5_per_level ${Math.round(sh)} ops/s`);
  console.log(`BENCH engine_mixed_ops_500_per_level_no_records ${Math.round(median(noRecords))} ops/s`);
  console.log(`BENCH engine_mixed_ops_500_per_level_with_event_sink ${Math.round(median(withSink))} ops/s`);
  await Promise.resolve();
}
