import { describe, expect, it } from "vitest";
import { MarkoutTracker, type Markout, type OwnFill } from "../../../../src/bot/quote/adverse/markout-tracker.js";
import { markoutPerShare } from "../../../../src/backtest/markouts.js";
import { Rng } from "../../../../src/core/rng.js";

const fill = (over: Partial<OwnFill> = {}): OwnFill => ({ wallet: "w", market: "M", outcome: 0, side: "BUY", price: 500_000n, qty: 10_000_000n, role: "maker", ts: 10_000, ...over });
const brief = (ms: readonly Markout[]): [number, string, bigint][] => ms.map((m) => [m.horizonMs, m.side, m.perShare]);

describe("MarkoutTracker", () => {
  it("the backtest's markout is the tracker's definition (moved down, one definition)", () => {
    expect(markoutPerShare("BUY", 500_000n, 503_000n)).toBe(3_000n);
    expect(markoutPerShare("SELL", 500_000n, 503_000n)).toBe(-3_000n);
  });

  it.each<{ name: string; fills: OwnFill[]; mids: [number, bigint, number][]; want: [number, string, bigint][] }>([
    {
      name: "a buy is good when the mid rises, at each horizon with the mid in effect then",
      fills: [fill()],
      // mid 0.503 at 10.5 s (in effect at 11 s), 0.498 at 14 s (in effect at 15 s)
      mids: [[0, 501_000n, 9_000], [0, 503_000n, 10_500], [0, 498_000n, 14_000], [0, 490_000n, 16_000]],
      want: [[1_000, "BUY", 3_000n], [5_000, "BUY", -2_000n]],
    },
    {
      name: "a sell is good when the mid falls",
      fills: [fill({ side: "SELL", price: 520_000n })],
      mids: [[0, 515_500n, 10_200], [0, 530_000n, 11_001]],
      want: [[1_000, "SELL", 4_500n]],
    },
    {
      name: "a mid arriving exactly at t + h is the one in effect",
      fills: [fill()],
      mids: [[0, 501_000n, 10_100], [0, 507_000n, 11_000]],
      want: [[1_000, "BUY", 7_000n]],
    },
    {
      name: "another outcome's mid does not settle a fill",
      fills: [fill({ outcome: 1, price: 300_000n })],
      mids: [[0, 501_000n, 10_100], [0, 507_000n, 12_000], [1, 301_500n, 10_900], [1, 302_000n, 11_500]],
      want: [[1_000, "BUY", 1_500n]],
    },
    {
      name: "two fills, settled in due order across horizons",
      fills: [fill({ ts: 10_000 }), fill({ ts: 13_000, side: "SELL", price: 510_000n })],
      mids: [[0, 505_000n, 9_000], [0, 508_000n, 14_100], [0, 500_000n, 20_000]],
      want: [[1_000, "BUY", 5_000n], [1_000, "SELL", 5_000n], [5_000, "BUY", 8_000n], [5_000, "SELL", 2_000n]],
    },
  ])("$name", ({ fills, mids, want }) => {
    const t = new MarkoutTracker({ horizonsMs: [1_000, 5_000] });
    const events = [...fills.map((f) => ({ t: f.ts, f, m: undefined })), ...mids.map(([o, mid, at]) => ({ t: at, f: undefined, m: { o, mid } }))].sort((a, b) => a.t - b.t);
    const got: Markout[] = [];
    for (const e of events) {
      if (e.f !== undefined) got.push(...t.onFill(e.f, e.t));
      else got.push(...t.onMid("M", e.m.o, e.m.mid, e.t));
    }
    expect(brief(got)).toEqual(want);
  });

  it("advance settles with the mid still in effect; values carry size and fill time", () => {
    const t = new MarkoutTracker({ horizonsMs: [1_000] });
    t.onMid("M", 0, 502_000n, 9_000);
    t.onFill(fill({ qty: 3_500_000n }), 10_000);
    expect(t.advance(11_000)).toEqual([]); // due 11 s: not strictly before 11 s (a mid at 11 s would count)
    const [m] = t.advance(11_001);
    expect(m).toEqual({ wallet: "w", market: "M", outcome: 0, side: "BUY", role: "maker", horizonMs: 1_000, perShare: 2_000n, qty: 3_500_000n, fillTs: 10_000, mid: 502_000n });
    expect(t.stats).toMatchObject({ pending: 0, settled: 1 });
  });

  it("a fill learnt late is settled at once when no mid arrived since its due time, else counted late", () => {
    const t = new MarkoutTracker({ horizonsMs: [1_000, 5_000] });
    t.onMid("M", 0, 504_000n, 10_500);
    // learnt at 12 s: 1 s horizon (due 11 s) past, no mid since 10.5 s: measurable
    expect(brief(t.onFill(fill(), 12_000))).toEqual([[1_000, "BUY", 4_000n]]);
    const u = new MarkoutTracker({ horizonsMs: [1_000, 5_000] });
    u.onMid("M", 0, 504_000n, 10_500);
    u.onMid("M", 0, 506_000n, 11_500);
    expect(u.onFill(fill(), 12_000)).toEqual([]);
    expect(u.stats).toMatchObject({ late: 1, pending: 1 });
    expect(brief(u.onMid("M", 0, 499_000n, 15_000))).toEqual([[5_000, "BUY", -1_000n]]);
  });

  it("no mid at all: counted, nothing measured, memory freed", () => {
    const t = new MarkoutTracker({ horizonsMs: [1_000, 5_000] });
    t.onFill(fill(), 10_000);
    expect(t.advance(20_000)).toEqual([]);
    expect(t.stats).toMatchObject({ pending: 0, noMid: 2 });
  });

  it("bounded: at most maxPending entries wait, the rest are dropped and counted", () => {
    const t = new MarkoutTracker({ horizonsMs: [1_000, 5_000], maxPending: 3 });
    t.onMid("M", 0, 500_000n, 9_000);
    t.onFill(fill({ ts: 10_000 }), 10_000);
    t.onFill(fill({ ts: 10_100 }), 10_100);
    expect(t.stats).toMatchObject({ pending: 3, dropped: 1 });
    t.onMid("M", 0, 500_000n, 30_000);
    expect(t.stats).toMatchObject({ pending: 0, settled: 3, dropped: 1 });
    t.forget("M");
    expect(t.laneCount).toBe(0);
  });

  it("an entry lives at most the longest horizon: a long run keeps only that much", () => {
    const t = new MarkoutTracker();
    let maxPending = 0;
    for (let i = 0; i < 2_000; i++) {
      const now = i * 1_000;
      t.onFill(fill({ ts: now }), now);
      t.onMid("M", 0, 500_000n + BigInt(i % 7) * 1_000n, now);
      maxPending = Math.max(maxPending, t.stats.pending);
    }
    // 5 horizons; a fill per second: at most 301 + 61 + 31 + 6 + 2 entries wait
    expect(maxPending).toBeLessThanOrEqual(401);
    expect(t.stats.dropped).toBe(0);
  });

  it("agrees with a one-list reference on random runs: same markouts in the same order, same counts", () => {
    // The reference keeps every pending entry in one list sorted by (due, seq) and takes from the
    // front, the plainest reading of the contract in the file's header.
    class Reference {
      private readonly lanes = new Map<string, { mid: bigint | undefined; midAt: number; q: { due: number; seq: number; f: OwnFill; h: number }[] }>();
      private seq = 0;
      pending = 0;
      late = 0;
      noMid = 0;
      dropped = 0;
      constructor(private readonly horizons: number[], private readonly max: number) {}
      private lane(m: string, o: number) {
        const k = `${m}/${o}`;
        let l = this.lanes.get(k);
        if (l === undefined) this.lanes.set(k, (l = { mid: undefined, midAt: 0, q: [] }));
        return l;
      }
      private out(f: OwnFill, h: number, mid: bigint): Markout {
        return { wallet: f.wallet, market: f.market, outcome: f.outcome, side: f.side, role: f.role, horizonMs: h, perShare: markoutPerShare(f.side, f.price, mid), qty: f.qty, fillTs: f.ts, mid };
      }
      private settle(l: { mid: bigint | undefined; q: { due: number; f: OwnFill; h: number }[] }, now: number, incl: boolean, out: Markout[]): void {
        while (l.q.length > 0 && (l.q[0]!.due < now || (incl && l.q[0]!.due === now))) {
          const e = l.q.shift()!;
          this.pending--;
          if (l.mid === undefined) this.noMid++;
          else out.push(this.out(e.f, e.h, l.mid));
        }
      }
      onFill(f: OwnFill, now: number): Markout[] {
        const l = this.lane(f.market, f.outcome);
        const out: Markout[] = [];
        for (const h of this.horizons) {
          const due = f.ts + h;
          if (due < now) {
            if (l.mid !== undefined && l.midAt <= due) out.push(this.out(f, h, l.mid));
            else if (l.mid === undefined) this.noMid++;
            else this.late++;
            continue;
          }
          if (this.pending >= this.max) {
            this.dropped++;
            continue;
          }
          l.q.push({ due, seq: this.seq++, f, h });
          l.q.sort((a, b) => a.due - b.due || a.seq - b.seq);
          this.pending++;
        }
        if (l.q.length === 0 && l.mid === undefined) this.lanes.delete(`${f.market}/${f.outcome}`);
        return out;
      }
      onMid(m: string, o: number, mid: bigint, now: number): Markout[] {
        const l = this.lane(m, o);
        const out: Markout[] = [];
        this.settle(l, now, false, out);
        l.mid = mid;
        l.midAt = now;
        this.settle(l, now, true, out);
        return out;
      }
      advance(now: number): Markout[] {
        const out: Markout[] = [];
        for (const l of this.lanes.values()) this.settle(l, now, false, out);
        return out;
      }
      forget(m: string): void {
        for (const [k, l] of this.lanes) {
          if (!k.startsWith(`${m}/`)) continue;
          this.pending -= l.q.length;
          this.lanes.delete(k);
        }
      }
      get laneCount(): number {
        return this.lanes.size;
      }
    }
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      const horizons = [1_000, 5_000, 30_000].slice(0, 1 + rng.int(3));
      const max = rng.bool() ? 50 : 10_000;
      const t = new MarkoutTracker({ horizonsMs: horizons, maxPending: max });
      const ref = new Reference(horizons, max);
      let now = 0;
      for (let i = 0; i < 600; i++) {
        now += rng.int(3) * 500;
        const market = ["A", "B", "C"][rng.int(3)]!;
        const outcome = rng.int(2);
        const r = rng.int(10);
        if (r < 4) {
          // Fills mostly in time order, sometimes learnt late (up to 40 s back).
          const f = fill({ market, outcome, side: rng.bool() ? "BUY" : "SELL", price: BigInt(100 + rng.int(800)) * 1_000n, ts: now - (rng.int(4) === 0 ? rng.int(40_000) : 0) });
          expect(t.onFill(f, now)).toEqual(ref.onFill(f, now));
        } else if (r < 8) {
          const mid = BigInt(100 + rng.int(800)) * 1_000n;
          expect(t.onMid(market, outcome, mid, now)).toEqual(ref.onMid(market, outcome, mid, now));
        } else if (r < 9) {
          expect(t.advance(now)).toEqual(ref.advance(now));
        } else if (rng.int(10) === 0) {
          t.forget(market);
          ref.forget(market);
        }
        const s = t.stats;
        expect([s.pending, s.late, s.noMid, s.dropped, t.laneCount]).toEqual([ref.pending, ref.late, ref.noMid, ref.dropped, ref.laneCount]);
      }
    }
  });
});
