/**
 * Start-up double count. A daemon restarts while the wallet holds a position: it anchors its
 * inventory on /api/me/positions (read at server time A), then subscribes to the user stream. A
 * fill frame that reaches the new subscription right away but reports a trade from BEFORE A (the
 * trade is already in the anchored figures) is stamped with its frame time, after A, so on its own
 * it looks new. The start-up trade pull then returns the same trade with its real time: the ledger
 * merges the record, and inventory must take the correction (the fill moves before the anchor and
 * drops out). Afterwards inventory equals /api/me/positions exactly.
 *
 * How the late frame is provoked: the simulator only sends a session the frames of events after
 * its subscription, so the test replays, on the new session just after its `subscribed` frame, the
 * exact user_fill frame the platform sent the killed daemon for its last fill (moments before the
 * restart), stamped with the delivery time as a late or re-delivered frame would be; the new
 * session's `subscribed` confirmation takes 300 ms to arrive (network time), so the subscription
 * completes after the positions read as over a real network. Everything else (the trade,
 * positions, the trades list, every other frame) is the simulator's own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SocketConnector, SocketLike } from "../../src/wire/transport.js";
import type { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import type { Position, Balances } from "../../src/wire/index.js";
import { daemonConfig, makeDaemon, platformGet, run, settle, simFills, startSim, walletAddress, type DaemonHarness, type SimHarness } from "./harness.js";

type Listener = (...args: never[]) => void;

/** Sees every stream message of the sockets it opens; can replay one right after `subscribed`. */
class TapConnector implements SocketConnector {
  readonly messages: string[] = [];
  /**
   * Once: the next `subscribed` frame reaches the client `delayMs` late (network time), followed at
   * once by `text` re-stamped with that delivery time.
   */
  replay: { text: string; clock: VirtualClock; delayMs: number } | undefined;
  replayedAt: number | undefined;

  constructor(private readonly inner: SocketConnector) {}

  connect(path: string, headers: Record<string, string>): SocketLike {
    const s = this.inner.connect(path, headers);
    const on = s.on.bind(s) as (event: string, listener: Listener) => unknown;
    const wrapped = {
      send: (data: string) => s.send(data),
      close: (code?: number, reason?: string) => s.close(code, reason),
      on: (event: string, listener: Listener): unknown => {
        if (event !== "message") return on(event, listener);
        const deliver = listener as unknown as (data: string) => void;
        return on("message", (data: string) => {
          this.messages.push(data);
          const r = this.replay;
          if (r === undefined || (JSON.parse(data) as { type?: string }).type !== "subscribed") return deliver(data);
          this.replay = undefined;
          r.clock.setTimeout(() => {
            deliver(data);
            this.replayedAt = r.clock.now();
            deliver(JSON.stringify({ ...(JSON.parse(r.text) as object), serverTs: this.replayedAt }));
          }, r.delayMs);
        });
      },
    };
    return wrapped;
  }
}

interface FillFrame {
  type: "user_fill";
  tradeId: string;
  orderId: string;
  serverTs: number;
  walletAddress: string;
  quantity: string;
}

describe("restart while holding a position: a pre-anchor trade arriving as a stream fill", () => {
  const w = walletAddress(0);
  let h: SimHarness;
  let second: DaemonHarness;
  let frame: FillFrame;
  let tap2: TapConnector;
  let correctedAtStart = 0;
  let anchorDrift: unknown[] = [];

  beforeAll(async () => {
    h = startSim({ wallets: 1, markets: [{ symbol: "DBL-A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 40 }] });
    const config = daemonConfig({ wallets: 1, slugs: ["DBL-A"], strategy: { levels: 2 } });
    const tap1 = new TapConnector(h.connector);
    const first = makeDaemon(h, config, { rng: new Rng(1), connector: tap1 });
    await settle(h.clock, first.daemon.start());
    // Run until the killed daemon has seen a fill on its stream, and a position is held.
    const fillFrames = (): FillFrame[] => tap1.messages.map((m) => JSON.parse(m) as FillFrame).filter((f) => f.type === "user_fill");
    for (let t = 0; t < 120_000 && fillFrames().length === 0; t += 250) await h.clock.advance(250);
    first.daemon.abandon();
    frame = fillFrames().at(-1)!;

    tap2 = new TapConnector(h.connector);
    tap2.replay = { text: JSON.stringify(frame), clock: h.clock, delayMs: 300 };
    second = makeDaemon(h, config, { rng: new Rng(2), connector: tap2 });
    await settle(h.clock, second.daemon.start());
    correctedAtStart = second.daemon.inventory.counters.corrected;
    anchorDrift = await drift(h, second, w);
  });

  afterAll(() => h.sim.stop());

  it("really replayed a fill of a trade that is in the start-up positions", () => {
    expect(frame).toBeDefined();
    expect(tap2.replayedAt).toBeDefined();
    const trade = simFills(h.sim, w).find((f) => f.tradeId === frame.tradeId && f.orderId === frame.orderId);
    expect(trade).toBeDefined();
    // The trade predates the restart (so the anchor), the replayed frame is stamped after it.
    expect(trade!.ts).toBeLessThan(second.daemon.sessionStartMs);
    expect(tap2.replayedAt!).toBeGreaterThan(second.daemon.sessionStartMs);
    const pos = second.daemon.inventory.positions(w);
    expect(pos.some((p) => p.qty !== 0n)).toBe(true);
  });

  it("takes the trades pull's correction: the fill moves before the anchor and drops out", () => {
    const f = second.daemon.ledger.fills(w).find((x) => x.tradeId === frame.tradeId && x.orderId === frame.orderId);
    expect(f?.source).toBe("trades_pull");
    expect(f!.ts).toBeLessThan(second.daemon.sessionStartMs);
    expect(correctedAtStart).toBeGreaterThanOrEqual(1);
  });

  it("ends start-up with inventory equal to /api/me/positions exactly", () => {
    expect(anchorDrift).toEqual([]);
  });

  it("stays equal while it keeps trading", async () => {
    await run(h.clock, 20_000);
    await settle(h.clock, second.daemon.runners[0]!.sync("final"));
    expect(await drift(h, second, w)).toEqual([]);
    await settle(h.clock, second.daemon.stop());
  });
});

async function drift(h: SimHarness, d: DaemonHarness, w: string): Promise<unknown[]> {
  const positions = (await platformGet<{ positions: Position[] }>(h, w, "/api/me/positions")).positions;
  const balances = await platformGet<Balances>(h, w, "/api/me/balances");
  const report = d.daemon.inventory.checkAgainst(w, positions.map((p) => ({ ...p, marketId: d.daemon.registry.symbolOf(p.marketId) ?? p.marketId })), balances);
  return report.positions.map((p) => ({ market: p.marketId, outcome: p.outcome, ours: p.ours.toString(), theirs: p.theirs.toString() }));
}
