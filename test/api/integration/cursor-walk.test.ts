/**
 * Walking open orders with the keyset cursor over loopback HTTP while the book changes under the
 * walk: 1,234 open orders across five markets for one wallet (placed through place-batch with the
 * rate gate), walked with `orders.open({limit: 25})` while orders are cancelled and placed between
 * pages. Every order open throughout the walk must come back exactly once, counted on the raw
 * pages (the iterator's own de-duplication would hide a platform that repeats rows).
 *
 * Orders are signed for real, but the simulator skips signature recovery (`verifySignatures:
 * false`): 1,234 recoveries would cost seconds and prove nothing here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlaceRequestBody } from "../../../src/api/placement.js";
import { RateGate } from "../../../src/ratelimit/index.js";
import type { OrdersPage } from "../../../src/wire/index.js";
import { makeWorld, T0, type World } from "./world.js";

const TOTAL = 1_234;
const PAGE = 25;
const SPOTS: { symbol: string; outcome: number }[] = [
  { symbol: "ARS-CHE-ARS", outcome: 0 },
  { symbol: "ARS-CHE-DRAW", outcome: 1 },
  { symbol: "ARS-CHE-CHE", outcome: 0 },
  { symbol: "BAR-RMA-BAR", outcome: 0 }, // pre-market: post-only orders rest
  { symbol: "EPL-WINNER", outcome: 3 },
];

let w: World;
beforeAll(async () => {
  w = await makeWorld("loopback", { verifySignatures: false });
}, 60_000);
afterAll(async () => {
  await w.close();
});

describe("open-orders cursor walk over loopback", () => {
  it("returns every order open throughout the walk exactly once, with cancels and places between pages", async () => {
    const wallet = w.wallets[0]!;
    const client = w.client({ gate: new RateGate({ clock: w.clock, safetyMargin: 0.1 }) });
    const me = client.forWallet(wallet.address);
    let seq = 0;
    const body = async (): Promise<PlaceRequestBody> => {
      const i = seq++;
      const spot = SPOTS[i % SPOTS.length]!;
      const price = (0.01 + (i % 30) / 100).toFixed(2);
      return (await w.order(0, { ...spot, price, quantity: "1", clientOrderId: `walk-${i}` })).body;
    };

    // ---- 1,234 open orders, 15 per place-batch, paced by the gate (8 batches/s)
    const initial: string[] = [];
    const bodies: PlaceRequestBody[] = [];
    for (let i = 0; i < TOTAL; i++) bodies.push(await body());
    const batches: PlaceRequestBody[][] = [];
    for (let i = 0; i < bodies.length; i += 15) batches.push(bodies.slice(i, i + 15));
    const answers = await w.drive(Promise.all(batches.map((b) => me.orders.placeBatch(b))));
    for (const a of answers) {
      if (a.outcome !== "answered") throw new Error("setup: batch outcome unknown");
      for (const e of a.entries) {
        if (e.outcome !== "accepted") throw new Error(`setup: ${e.outcome} ${e.outcome === "rejected" ? e.code : ""}`);
        initial.push(e.orderId);
      }
    }
    expect(initial).toHaveLength(TOTAL);
    expect(w.transport.log.filter((e) => e.status === 429)).toEqual([]);
    // 83 batches at 7 per window (8/s less the gate's 10% margin): 12 windows of virtual time
    expect(w.clock.now() - T0).toBe(11_000);

    // ---- the walk, mutating the book between pages
    const walkStartLog = w.transport.log.length;
    const seen: string[] = [];
    const cancelledUnseen = new Set<string>();
    const cancelledSeen = new Set<string>();
    const placedDuring = new Set<string>();
    const walk = async (): Promise<void> => {
      for await (const o of me.orders.open({ limit: PAGE })) {
        seen.push(o.id);
        if (seen.length % PAGE !== 0) continue;
        // Between pages: cancel 3 orders not reached yet (older), 2 already returned, place 4 new ones.
        const seenSet = new Set(seen);
        const unseen = initial.filter((id) => !seenSet.has(id) && !cancelledUnseen.has(id));
        const victims = [unseen[5], unseen[Math.floor(unseen.length / 2)], unseen[unseen.length - 1]].filter((x): x is string => x !== undefined);
        const old = seen.filter((id) => !cancelledSeen.has(id) && !placedDuring.has(id)).slice(0, 2);
        const r = await me.orders.cancelBatch([...new Set([...victims, ...old])]);
        if (r.status !== "answered" || r.cancelled.length !== new Set([...victims, ...old]).size) throw new Error("cancel between pages failed");
        victims.forEach((id) => cancelledUnseen.add(id));
        old.forEach((id) => cancelledSeen.add(id));
        for (let k = 0; k < 4; k++) {
          const p = await me.orders.place(await body());
          if (p.outcome !== "accepted") throw new Error("place between pages failed");
          placedDuring.add(p.orderId);
        }
      }
    };
    await w.drive(walk());

    // Count ids on the raw pages (before the iterator's de-duplication).
    const raw = new Map<string, number>();
    const createdAt = new Set<string>();
    const pages = w.transport.log.slice(walkStartLog).filter((e) => e.method === "GET" && e.path.startsWith("/api/orders/open"));
    for (const p of pages) {
      for (const o of (JSON.parse(p.response) as OrdersPage).orders) {
        raw.set(o.id, (raw.get(o.id) ?? 0) + 1);
        createdAt.add(o.createdAt);
      }
    }
    // many orders share a creation millisecond (one per window): the keyset must break ties by id
    expect(createdAt.size).toBeLessThan(20);

    const throughout = initial.filter((id) => !cancelledUnseen.has(id) && !cancelledSeen.has(id));
    expect(throughout.length).toBeGreaterThan(1_000);
    for (const id of throughout) expect(raw.get(id), id).toBe(1);
    expect([...raw.values()].every((n) => n === 1)).toBe(true);
    expect(seen).toHaveLength(new Set(seen).size);
    // Orders cancelled before their page was read are not returned; orders placed during the
    // walk are newer than the cursor and belong to no later (older) page.
    for (const id of cancelledUnseen) expect(raw.has(id)).toBe(false);
    for (const id of placedDuring) expect(raw.has(id)).toBe(false);
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(throughout.length / PAGE));
    expect(pages.every((p) => p.status === 200)).toBe(true);

    // ---- a quiet walk afterwards sees exactly the open set
    const after: string[] = [];
    await w.drive(
      (async () => {
        for await (const o of me.orders.open({ limit: 200 })) after.push(o.id);
      })(),
    );
    const expected = new Set([...throughout, ...placedDuring]);
    expect(new Set(after)).toEqual(expected);
    expect(after).toHaveLength(expected.size);
    expect(w.transport.log.filter((e) => e.status === 429)).toEqual([]);
  });
});
