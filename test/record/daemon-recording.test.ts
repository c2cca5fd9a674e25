import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RECORD_KINDS, type RecordSettings } from "../../src/config/record-section.js";
import { listSegments, readDataSet, type DataEvent } from "../../src/data/index.js";
import { bucketsFor } from "../../src/ratelimit/index.js";
import { DaemonRecording } from "../../src/record/index.js";
import { API_KEY, daemonConfig, makeDaemon, run, settle, silent, simFills, startSim, walletAddress, walletKey } from "../integration/harness.js";

type Of<K extends DataEvent["kind"]> = Extract<DataEvent, { kind: K }>;
const of = <K extends DataEvent["kind"]>(events: readonly DataEvent[], kind: K): Of<K>[] => events.filter((e): e is Of<K> => e.kind === kind);

const settings = (dir: string, over: Partial<RecordSettings> = {}): RecordSettings => ({ dir, rotateMb: 64, rotateMinutes: 1, include: [...RECORD_KINDS], ...over });

/** A daemon quoting two busy markets for `ms` of virtual time with `record:` set; stopped cleanly unless `kill`. */
async function recordedRun(ms: number, opts: { kill?: boolean; settings?: Partial<RecordSettings> } = {}) {
  const h = startSim({
    wallets: 1,
    markets: [
      { symbol: "AAA", opensAt: "-1h", closesAt: "+3h", takerArrivalPerMin: 40 },
      { symbol: "BBB", opensAt: "-1h", closesAt: "+3h", takerArrivalPerMin: 20 },
    ],
  });
  const config = daemonConfig({ wallets: 1, slugs: ["AAA", "BBB"] });
  const dir = mkdtempSync(join(tmpdir(), "mm-drec-"));
  const rec = await DaemonRecording.open({ settings: settings(dir, opts.settings), config, clock: h.clock, log: silent() });
  const { daemon } = makeDaemon(h, config, rec.deps());
  await settle(h.clock, daemon.start());
  await settle(h.clock, rec.attach(daemon));
  await run(h.clock, ms);
  if (opts.kill === true) {
    daemon.abandon();
    rec.flush();
    return { h, daemon, rec, dir };
  }
  rec.stopMarketData();
  await settle(h.clock, daemon.stop());
  rec.close();
  return { h, daemon, rec, dir };
}

describe("recording from inside the daemon (record: in the daemon config)", () => {
  it("records the daemon's own orders, the acknowledgements and fills the simulator confirmed, and every request's latency", async () => {
    const { h, daemon, rec, dir } = await recordedRun(100_000);
    const { events, stats } = await readDataSet(dir);
    expect(stats.sealed).toBeGreaterThanOrEqual(2); // rotated every virtual minute
    const wallet = walletAddress(0);

    // Every placement that reached the platform, once per request, in order, with its body's fields.
    const sent = h.transport.places();
    const places = of(events, "order").filter((o) => o.action === "place");
    expect(sent.length).toBeGreaterThan(10);
    expect(places.map((o) => o.clientOrderId)).toEqual(sent.map((p) => p.body.clientOrderId));
    for (const o of places) {
      expect(o.wallet).toBe("w0");
      const desk = h.sim.desk.records.byClientOrderId(wallet, o.clientOrderId)!;
      expect(desk).toBeDefined();
      expect([o.symbol, o.outcome, o.side, o.price, o.quantity, o.postOnly]).toEqual([desk.marketId, desk.outcome, desk.side, desk.price, desk.quantity, desk.postOnly]);
    }

    // Acks: one per placement the simulator recorded, with its order id; every order of the wallet on the platform is there.
    const acks = of(events, "ack");
    const placedAcks = acks.filter((a) => a.action === "place" && a.code === "");
    const history = h.sim.desk.records.historyPage(wallet, {}, undefined, 100_000).orders;
    expect(placedAcks.length).toBe(history.length);
    expect(new Set(placedAcks.map((a) => a.orderId))).toEqual(new Set(history.map((o) => o.id)));
    for (const a of placedAcks) expect(h.sim.desk.records.get(a.orderId)!.clientOrderId).toBe(a.clientOrderId);

    // Cancels: each request a row with the order's client id; each answer an ack.
    const cancels = of(events, "order").filter((o) => o.action === "cancel");
    expect(cancels.length).toBeGreaterThan(0);
    for (const c of cancels.filter((x) => x.orderId !== "")) expect(c.clientOrderId).toBe(h.sim.desk.records.get(c.orderId ?? "")!.clientOrderId);
    expect(acks.filter((a) => a.action === "cancel" && a.status === "CANCELLED").length).toBeGreaterThan(0);

    // Fills: exactly the simulator's trades of the wallet, with role and fee.
    const fills = of(events, "fill");
    const sim = simFills(h.sim, wallet);
    expect(sim.length).toBeGreaterThan(0);
    expect(fills.map((f) => `${f.tradeId}/${f.orderId}`).sort()).toEqual(sim.map((f) => `${f.tradeId}/${f.orderId}`).sort());
    const byKey = new Map(sim.map((f) => [`${f.tradeId}/${f.orderId}`, f]));
    for (const f of fills) {
      const s = byKey.get(`${f.tradeId}/${f.orderId}`)!;
      expect([f.role, f.fee, f.price, f.quantity, f.side, f.symbol]).toEqual([s.role, s.fee, s.price, s.qty, s.side, s.marketId]);
    }

    // Latencies: one row per request the daemon (and the recorder in it) sent, by route and class.
    const lat = of(events, "latency");
    expect(lat.length).toBe(h.transport.log.length);
    expect(lat.filter((l) => l.route === "/api/orders/place" || l.route === "/api/orders/place-batch").every((l) => l.routeClass === "place")).toBe(true);
    expect(lat.some((l) => l.routeClass === "cancel")).toBe(true);
    expect(lat.every((l) => l.serverTs > 0 && l.latencyMs >= 0)).toBe(true);

    // Market data through the daemon's client: the recorder's books and trades are in the data set.
    expect(rec.recorder!.counters.books).toBeGreaterThan(20);
    expect(of(events, "book").length).toBe(rec.recorder!.counters.books);
    expect(of(events, "market").map((m) => m.symbol).sort()).toEqual(["AAA", "BBB"]);
    expect(rec.counters.writeErrors).toBe(0);
    expect(daemon.isRunning).toBe(false);
  }, 120_000);

  it("counts the recorder's reads in the daemon's rate gate, beside the daemon's own, and never runs a bucket dry", async () => {
    const { h, daemon, rec, dir } = await recordedRun(90_000, { settings: { include: ["books", "trades"] } });
    const bookReads = h.transport.log.filter((r) => r.path.includes("/orderbook"));
    const recorderBooks = rec.recorder!.counters.books + rec.recorder!.counters.errors;
    expect(rec.recorder!.counters.books).toBeGreaterThan(20);
    // The orderbook ip bucket admitted every read of it: the daemon's poller's, its market reads and the recorder's.
    const ipRule = bucketsFor("GET", "/api/markets/x/orderbook").find((r) => r.scope === "ip")!;
    const bucket = daemon.gate.stats().find((s) => s.bucket === ipRule.id);
    expect(bucket).toBeDefined();
    const inBucket = h.transport.log.filter((r) => bucketsFor(r.method, r.path).some((x) => x.id === ipRule.id));
    expect(bucket!.admitted).toBe(inBucket.length);
    expect(bookReads.length).toBeGreaterThan(recorderBooks);
    // Nothing waited on a spent window and the platform never answered 429.
    expect(bucket!.waited).toBe(0);
    expect(h.transport.log.filter((r) => r.status === 429)).toEqual([]);
    // include without orders/fills/latencies: none of them.
    const { events } = await readDataSet(dir);
    expect(events.some((e) => e.kind === "order" || e.kind === "ack" || e.kind === "fill" || e.kind === "latency")).toBe(false);
  }, 120_000);

  it("a daemon killed mid-write leaves a readable data set, and the next run seals it and continues", async () => {
    const { h, dir } = await recordedRun(30_000, { kill: true });
    const hot = listSegments(dir).find((s) => s.lines !== undefined)!;
    expect(hot).toBeDefined();
    appendFileSync(hot.lines!, '{"kind":"order","seq":999999,"ts":1,"wallet":"w0","sym'); // the write the kill cut short
    const { events, stats } = await readDataSet(dir);
    expect(stats.tornLines).toBe(1);
    expect(of(events, "order").length).toBeGreaterThan(0);
    const lastSeq = events[events.length - 1]!.seq;

    const config = daemonConfig({ wallets: 1, slugs: ["AAA", "BBB"] });
    const again = await DaemonRecording.open({ settings: settings(dir), config, clock: h.clock, log: silent() });
    expect(again.writer.sealed.map((s) => s.tornLines)).toEqual([1]);
    expect(again.writer.seq).toBe(lastSeq + 1);
    again.close();
    expect((await readDataSet(dir)).events.length).toBe(events.length);
  }, 120_000);

  it("never writes a secret: not the API key, not a wallet's private key, not a signature", async () => {
    const { dir } = await recordedRun(60_000);
    const key = walletKey(0).replace(/^0x/, "");
    const apiSecret = API_KEY.split("_").pop()!;
    for (const name of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, name));
      const text = bytes.toString("latin1");
      for (const secret of [API_KEY, apiSecret, key, key.toUpperCase(), "signature", "x-api-key"]) expect(text.includes(secret), `${name} holds ${secret}`).toBe(false);
    }
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  }, 120_000);
});
