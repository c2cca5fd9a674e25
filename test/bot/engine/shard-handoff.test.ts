/**
 * The shard hand-off rule (src/bot/engine/shard-handoff.ts) against a scripted platform on a
 * virtual clock: which orders are a predecessor's (another replica of the base id, or the base id
 * itself; never our own), one look at a wallet (open orders over every page, the newest history
 * page within quietMs by the server's clock), a wallet held until its predecessor's orders have
 * ended (looked at every pollMs; a failed look holds it; an abort ends the wait), the lease first
 * when leases are on (held while another replica holds it, taken once it expired, a failed lease
 * request holding the wallet), the way back of a lost lease (1 s doubling to 8 s), and shardHold.
 * The same rule with daemons and the simulator: test/shard/handoff.test.ts.
 */
import { describe, expect, it } from "vitest";
import { HANDOFF_POLL_MS, REJOIN_FIRST_MS, REJOIN_MAX_MS, ShardHandoff, isPredecessorOrder, lookAtWallet, shardBase, shardHold, type HandoffOptions } from "../../../src/bot/engine/shard-handoff.js";
import { WalletLeases } from "../../../src/bot/guards/wallet-lease.js";
import { notRecordedWindowMs } from "../../../src/bot/orders/order-tracker-types.js";
import { createLogger } from "../../../src/log/index.js";
import type { OrderRecord } from "../../../src/wire/index.js";
import { MemoryLeaseApi } from "../guards/memory-lease-api.js";
import { T0, WALLET, clientHarness, json, orderRecord, type ClientHarness } from "./fakes.js";

const BASE = "mm";
const OWN = "mm-s1";
const QUIET_MS = 20_000;

interface Line {
  level: string;
  msg: string;
  [k: string]: unknown;
}

function logged() {
  const lines: Line[] = [];
  const log = createLogger({ level: "debug", format: "json" }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { log, lines };
}

/** An order of `instance` (clientOrderId `<instance>-0-<session>-1`), created `agoMs` before now. */
function orderOf(instance: string | null, h: ClientHarness, agoMs = 60_000): OrderRecord {
  return orderRecord({ clientOrderId: instance === null ? null : `${instance}-0-abc123-1`, createdAt: new Date(h.clock.now() - agoMs).toISOString() });
}

/** A platform whose open orders (two per page) and history the test sets; answers stamped with the clock. */
function platform(h: ClientHarness) {
  const state = { open: [] as OrderRecord[], history: [] as OrderRecord[], failing: false };
  const page = (orders: OrderRecord[], cursor: string | null) => json(200, { walletAddress: WALLET, orders, nextCursor: cursor }, { "x-server-time": String(h.clock.now()) });
  h.transport.on("GET", /^\/api\/orders\/open/, (req) => {
    if (state.failing) return json(503, { status: 503, error: { code: "service_unavailable", message: "down" } });
    const from = Number(/cursor=(\d+)/.exec(req.path)?.[1] ?? 0);
    const next = from + 2 < state.open.length ? String(from + 2) : null;
    return page(state.open.slice(from, from + 2), next);
  });
  h.transport.on("GET", /^\/api\/orders\/history/, () => page(state.history, null));
  return state;
}

function handoff(h: ClientHarness, over: Partial<HandoffOptions> = {}) {
  const { log, lines } = logged();
  const o: HandoffOptions = { instanceId: OWN, base: BASE, quietMs: QUIET_MS, pollMs: 2_000, clock: h.clock, log, ...over };
  return { ho: new ShardHandoff(o), lines };
}

/** When `p` settles, in clock ms (undefined: not yet). */
function watch<T>(h: ClientHarness, p: Promise<T>) {
  const w: { at?: number; value?: T; error?: unknown } = {};
  p.then(
    (v) => ((w.at = h.clock.now()), (w.value = v)),
    (e: unknown) => ((w.at = h.clock.now()), (w.error = e)),
  );
  return w;
}

async function run(h: ClientHarness, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) await h.clock.advance(250);
}

describe("isPredecessorOrder", () => {
  it("another replica of the base id, or the base id itself (before sharding)", () => {
    expect(isPredecessorOrder("mm-s0-0-abc-1", BASE, OWN)).toBe(true);
    expect(isPredecessorOrder("mm-s12-3-abc-9", BASE, OWN)).toBe(true);
    expect(isPredecessorOrder("mm-0-abc-1", BASE, OWN)).toBe(true);
  });

  it("never our own orders, other instances, ids that only look alike, or no id", () => {
    expect(isPredecessorOrder("mm-s1-0-abc-1", BASE, OWN)).toBe(false);
    expect(isPredecessorOrder("other-s0-0-abc-1", BASE, OWN)).toBe(false);
    expect(isPredecessorOrder("mm-sx-0-abc-1", BASE, OWN)).toBe(false);
    expect(isPredecessorOrder("mm-s-0-abc-1", BASE, OWN)).toBe(false);
    expect(isPredecessorOrder("mmx-s0-0-abc-1", BASE, OWN)).toBe(false);
    expect(isPredecessorOrder("manual order", BASE, OWN)).toBe(false);
    expect(isPredecessorOrder(null, BASE, OWN)).toBe(false);
    expect(isPredecessorOrder(undefined, BASE, OWN)).toBe(false);
  });
});

describe("shardBase", () => {
  it("drops the replica's own -s<index> suffix only", () => {
    expect(shardBase("mm-prod-s3", 3)).toBe("mm-prod");
    expect(shardBase("mm-prod-s3", 1)).toBe("mm-prod-s3");
    expect(shardBase("mm-prod", 0)).toBe("mm-prod");
  });
});

describe("lookAtWallet", () => {
  it("counts a predecessor's open orders over every page, and its orders recorded within quietMs", async () => {
    const h = clientHarness();
    const p = platform(h);
    p.open = [orderOf("mm-s0", h), orderOf(OWN, h), orderOf(null, h), orderOf("mm", h), orderOf("mm-s2", h)];
    p.history = [
      orderOf("mm-s0", h, 5_000),
      orderOf("mm-s0", h, QUIET_MS), // exactly quietMs ago: still recent
      orderOf("mm-s0", h, QUIET_MS + 1),
      orderOf(OWN, h, 1_000),
    ];
    const o = { instanceId: OWN, base: BASE, quietMs: QUIET_MS, clock: h.clock };
    expect(await lookAtWallet(h.client.forWallet(WALLET), o)).toEqual({ open: 3, recent: 2 });
    // three pages of open orders, then the newest history page
    expect(h.transport.requests.map((r) => r.path.split("?")[0])).toEqual(["/api/orders/open", "/api/orders/open", "/api/orders/open", "/api/orders/history"]);
    expect(h.transport.requests[0]!.path).toContain("limit=500");
    expect(h.transport.requests[3]!.path).toContain("limit=200");
  });

  it("judges recency by the server's time, not the local clock", async () => {
    const h = clientHarness();
    h.transport.on("GET", /^\/api\/orders\/open/, json(200, { walletAddress: WALLET, orders: [], nextCursor: null }, { "x-server-time": String(T0 + 60_000) }));
    h.transport.on("GET", /^\/api\/orders\/history/, json(200, { walletAddress: WALLET, orders: [orderRecord({ clientOrderId: "mm-s0-0-abc-1", createdAt: new Date(T0 - 1_000).toISOString() })], nextCursor: null }));
    // 1 s old by the local clock, 61 s by the server's: not recent.
    expect(await lookAtWallet(h.client.forWallet(WALLET), { instanceId: OWN, base: BASE, quietMs: QUIET_MS, clock: h.clock })).toEqual({ open: 0, recent: 0 });
  });
});

describe("ShardHandoff.prepare (orders only)", () => {
  it("a wallet with no predecessor order open or recent is free: undefined, nothing held", async () => {
    const h = clientHarness();
    const p = platform(h);
    p.open = [orderOf(OWN, h)];
    p.history = [orderOf("mm-s0", h, QUIET_MS + 5_000)];
    const { ho } = handoff(h);
    expect(await ho.prepare(WALLET, h.client.forWallet(WALLET), new AbortController().signal)).toBeUndefined();
    expect(ho.held()).toEqual([]);
  });

  it("held while the predecessor's order is open, looked at every pollMs, free once it ended and the quiet window passed", async () => {
    const h = clientHarness();
    const p = platform(h);
    const old = orderOf("mm-s0", h, 1_000);
    p.open = [old];
    p.history = [old];
    const { ho, lines } = handoff(h);
    const held = await ho.prepare(WALLET, h.client.forWallet(WALLET), new AbortController().signal);
    expect(held).toBeDefined();
    expect(ho.held()).toEqual([WALLET]);
    expect(ho.isHolding(WALLET)).toBe(true);
    expect(lines.find((l) => l.msg.startsWith("shard hand-off: the wallet holds orders of its previous owner"))).toMatchObject({ level: "warn", predecessorOpen: 1, predecessorRecent: 1 });
    const w = watch(h, held!.until);
    await run(h, 4_000);
    p.open = []; // the old owner cancelled it at T0 + 4 s; created at T0 - 1 s, recent until T0 + 19 s
    await run(h, 14_000);
    expect(w.at).toBeUndefined();
    await run(h, 6_000);
    // looks at T0 + 20 s (created 21 s ago: out of the 20 s window)
    expect(w.at).toBe(T0 + 20_000);
    expect(ho.held()).toEqual([]);
    const looks = h.transport.requests.filter((r) => r.path.startsWith("/api/orders/history")).map((r) => r.at - T0);
    expect(looks).toEqual([0, 2_000, 4_000, 6_000, 8_000, 10_000, 12_000, 14_000, 16_000, 18_000, 20_000]);
    expect(lines.find((l) => l.msg === "shard hand-off: the previous owner's orders have ended; starting the wallet")).toMatchObject({ waitedMs: 20_000 });
  });

  it("a look that fails holds the wallet, and is tried again", async () => {
    const h = clientHarness();
    const p = platform(h);
    p.failing = true;
    const { ho, lines } = handoff(h);
    const held = await ho.prepare(WALLET, h.client.forWallet(WALLET), new AbortController().signal);
    expect(held).toBeDefined();
    expect(lines.find((l) => l.msg === "shard hand-off: look failed; the wallet stays held")).toMatchObject({ level: "warn" });
    const w = watch(h, held!.until);
    p.failing = false;
    await run(h, 2_000);
    expect(w.at).toBe(T0 + 2_000);
  });

  it("an abort ends the wait: until rejects and the wallet is no longer held", async () => {
    const h = clientHarness();
    const p = platform(h);
    p.open = [orderOf("mm", h)];
    const ctrl = new AbortController();
    const { ho } = handoff(h);
    const held = await ho.prepare(WALLET, h.client.forWallet(WALLET), ctrl.signal);
    const w = watch(h, held!.until);
    await run(h, 3_000);
    ctrl.abort(new Error("daemon stopping"));
    await run(h, 250);
    expect(w.error).toBeInstanceOf(Error);
    expect(ho.held()).toEqual([]);
  });
});

describe("ShardHandoff with leases", () => {
  function withLeases(h: ClientHarness) {
    const api = new MemoryLeaseApi(() => h.clock.now());
    const { log } = logged();
    const leases = new WalletLeases({ api, identity: OWN, prefix: BASE, durationSec: 15, renewSec: 5, skewMarginSec: 2, clock: h.clock, log, onLost: () => undefined });
    return { api, leases };
  }

  it("the lease first: held while another replica holds it, taken once it expired, then the order look", async () => {
    const h = clientHarness();
    platform(h);
    const { api, leases } = withLeases(h);
    api.takenBy(leases.nameOf(WALLET), "mm-s0"); // renewed at T0, 15 s: expired after T0 + 17 s
    const { ho, lines } = handoff(h, { leases });
    const held = await ho.prepare(WALLET, h.client.forWallet(WALLET), new AbortController().signal);
    expect(held).toBeDefined();
    expect(lines.find((l) => l.msg.startsWith("shard hand-off: the wallet's lease is held by another replica"))).toMatchObject({ leaseHolder: "mm-s0", lease: `mm-${WALLET}` });
    // No order look while the lease is another's.
    expect(h.transport.requests).toEqual([]);
    const w = watch(h, held!.until);
    await run(h, 16_000);
    expect(w.at).toBeUndefined();
    await run(h, 2_000);
    // looked at T0 + 18 s: expired, taken, and no order of the old owner
    expect(w.at).toBe(T0 + 18_000);
    expect(leases.holds(WALLET)).toBe(true);
    expect(api.leases.get(leases.nameOf(WALLET))!.holder).toBe(OWN);
    expect(lines.find((l) => l.msg === "shard hand-off: took over an expired lease")).toMatchObject({ from: "mm-s0" });
    expect(lines.find((l) => l.msg === "shard hand-off: the wallet's lease is ours; looking at its orders")).toBeDefined();
    leases.stop();
  });

  it("a lease request that fails holds the wallet until the API server answers", async () => {
    const h = clientHarness();
    platform(h);
    const { api, leases } = withLeases(h);
    api.down = true;
    const { ho, lines } = handoff(h, { leases });
    const held = await ho.prepare(WALLET, h.client.forWallet(WALLET), new AbortController().signal);
    expect(held).toBeDefined();
    expect(lines.find((l) => l.msg === "shard hand-off: lease request failed; the wallet stays held")).toMatchObject({ api: "memory namespace mm" });
    const w = watch(h, held!.until);
    await run(h, 4_000);
    expect(w.at).toBeUndefined();
    api.down = false;
    await run(h, 2_000);
    expect(w.at).toBe(T0 + 6_000);
    leases.stop();
  });

  it("a lease already ours: no lease request, straight to the order look", async () => {
    const h = clientHarness();
    platform(h);
    const { api, leases } = withLeases(h);
    await leases.acquire(WALLET);
    const asked = api.calls.length;
    const { ho } = handoff(h, { leases });
    expect(await ho.prepare(WALLET, h.client.forWallet(WALLET), new AbortController().signal)).toBeUndefined();
    expect(api.calls.length).toBe(asked);
    leases.stop();
  });

  it("rejoin: the lease asked again after 1 s, then 2, 4 and 8 s (capped) while refused; then looks every pollMs", async () => {
    expect([REJOIN_FIRST_MS, REJOIN_MAX_MS]).toEqual([1_000, 8_000]);
    const h = clientHarness();
    const p = platform(h);
    const { api, leases } = withLeases(h);
    const name = leases.nameOf(WALLET);
    const { ho, lines } = handoff(h, { leases });
    const w = watch(h, ho.rejoin(WALLET, h.client.forWallet(WALLET), new AbortController().signal));
    expect(ho.isHolding(WALLET)).toBe(true);
    // The other replica holds it and renews at T0, T0 + 5 s and T0 + 10 s; it expires 15 + 2 s after the last.
    for (let t = 0; t <= 10_000; t += 5_000) {
      await run(h, t === 0 ? 0 : 5_000);
      api.takenBy(name, "mm-s0", 15);
    }
    p.open = [orderOf("mm-s0", h, 30_000)];
    await run(h, 30_000);
    // Renewed last at T0 + 10 s: expired after T0 + 27 s. Asked at 1, 3, 7, 15 and 23 s, taken at 31 s.
    const gets = api.calls.flatMap((c, i) => (c.startsWith("get") ? [api.callTimes[i]! - T0] : []));
    expect(gets).toEqual([1_000, 3_000, 7_000, 15_000, 23_000, 31_000]);
    // One line per holder refusing, not per attempt.
    expect(lines.filter((l) => l.msg === "shard hand-off: the lost lease is not ours again yet; the wallet stays stopped")).toHaveLength(1);
    expect(leases.holds(WALLET)).toBe(true);
    // The old owner's order is still open: looked at every 2 s from 31 s on.
    expect(w.at).toBeUndefined();
    p.open = [];
    await run(h, 2_000);
    expect(w.at).toBe(T0 + 41_000);
    expect(lines.find((l) => l.msg.startsWith("shard hand-off: the lost lease is ours again"))).toMatchObject({ waitedMs: 41_000 });
    expect(ho.isHolding(WALLET)).toBe(false);
    expect(leases.holds(WALLET)).toBe(true);
    leases.stop();
  });
});

describe("shardHold", () => {
  const config = (shard: { index: number; count: number } | undefined) => ({
    shard,
    instance: { id: "mm-s1" },
    wallets: [{ address: "0xAbCd000000000000000000000000000000000001" }],
    platform: { requestTimeoutMs: 15_000 },
  });

  it("unsharded: no hold", () => {
    const h = clientHarness();
    expect(shardHold(config(undefined), () => h.client.forWallet(WALLET), h.clock, logged().log)).toBeUndefined();
  });

  it("sharded: the base id, the not-recorded window of the request timeout as quietMs, a 2 s poll, and the configured address for the client", async () => {
    const h = clientHarness();
    platform(h);
    const asked: string[] = [];
    const s = shardHold(config({ index: 1, count: 2 }), (a) => (asked.push(a), h.client.forWallet(WALLET)), h.clock, logged().log)!;
    expect(s.handoff.o).toMatchObject({ instanceId: "mm-s1", base: "mm", quietMs: notRecordedWindowMs(15_000), pollMs: HANDOFF_POLL_MS });
    expect(s.handoff.o.quietMs).toBe(25_000);
    expect(HANDOFF_POLL_MS).toBe(2_000);
    expect(await s.hold("0xabcd000000000000000000000000000000000001", new AbortController().signal)).toBeUndefined();
    expect(asked).toEqual(["0xAbCd000000000000000000000000000000000001"]);
  });
});
