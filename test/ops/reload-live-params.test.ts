/**
 * Live parameter reload against the simulator (issue 14 part 6): a reload from the config file
 * applies the risk limits and the strategy params at the next cycle, keeps the orders that still
 * fit (no cancel), and a bad file (YAML syntax, schema, a restart-only change) changes nothing:
 * same orders, same limits, same hash in mm_config_info and /status. POST /admin/reload over HTTP
 * and the SIGHUP path (onReloadSignal, what `mm run` calls) do the same.
 */
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createDaemon, type Daemon } from "../../src/bot/engine/daemon.js";
import { RecordingObserver } from "../../src/bot/observer.js";
import { RELOAD_SIGNAL, onReloadSignal } from "../../src/cli/run.js";
import { loadConfig } from "../../src/config/index.js";
import { parseMicros } from "../../src/core/money.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import { tempDir } from "../config/fixtures.js";
import { ADMIN_TOKEN, API_KEY, LogLines, Wire, run, sample, settle, settleIo, walletKey } from "./harness.js";
import { startSim, type SimHarness } from "../integration/harness.js";

const ENV = { MM_ADMIN_TOKEN: ADMIN_TOKEN, W0: walletKey(0) };

interface Knobs {
  size?: string;
  maxOrderSize?: string;
  maxOrderAgeSec?: number;
  extra?: string;
}

function yaml(k: Knobs = {}): string {
  return `mode: simulator
instance: { id: reload }
wallets:
  - { name: w0, privateKey: "\${W0}" }
markets: { slugs: ["A"], maxMarkets: 10, refreshSec: 30 }
strategy: { name: ladder, params: { size: "${k.size ?? "10"}", levels: 1 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 1, pullBeforeCloseSec: 30, maxOrderAgeSec: ${k.maxOrderAgeSec ?? 600} }
risk: { staleDataSec: 10, maxOrderSize: "${k.maxOrderSize ?? "100"}" }
metrics: { host: 127.0.0.1, port: 0, processMetrics: false }
admin: { token: "\${MM_ADMIN_TOKEN}" }
shutdown: { cancelDeadlineSec: 20 }
log: { level: info }
${k.extra ?? ""}`;
}

interface Rig {
  h: SimHarness;
  wire: Wire;
  logs: LogLines;
  observer: RecordingObserver;
  daemon: Daemon;
  write(text: string): void;
  live(): { id: string; size: bigint }[];
  cancelsSince(index: number): number;
}

let rig: Rig | undefined;
let cleanups: (() => void)[] = [];
afterEach(async () => {
  if (rig !== undefined) {
    await settle(rig.h.clock, rig.daemon.stop());
    rig.h.sim.stop();
    rig = undefined;
  }
  for (const c of cleanups) c();
  cleanups = [];
});

async function start(): Promise<Rig> {
  // A quiet market (no drift, no takers): the quotes move only when the parameters do.
  const h = startSim({ wallets: 1, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d", vol: 0, takerArrivalPerMin: 0 }] });
  const t = tempDir({ "mm.yaml": yaml() });
  cleanups.push(t.cleanup);
  const file = t.path("mm.yaml");
  const wire = new Wire(h.transport, h.clock);
  const logs = new LogLines();
  const observer = new RecordingObserver();
  const daemon = createDaemon(loadConfig(file, ENV), {
    clock: h.clock,
    rng: new Rng(7),
    transport: wire,
    connector: h.connector,
    apiKey: API_KEY,
    logger: createLogger({ level: "info", clock: h.clock }, logs),
    observer,
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
  });
  daemon.reloadFrom(file, ENV);
  await settle(h.clock, daemon.start());
  await run(h.clock, 8_000);
  const r: Rig = {
    h,
    wire,
    logs,
    observer,
    daemon,
    write: (text) => writeFileSync(file, text, { mode: 0o600 }),
    live: () => daemon.runners[0]!.tracker.liveOrders("A").map((o) => ({ id: o.clientOrderId, size: o.size })).sort((a, b) => a.id.localeCompare(b.id)),
    cancelsSince: (index) => wire.log.slice(index).filter((e) => e.method === "POST" && e.path.startsWith("/api/orders/cancel")).length,
  };
  rig = r;
  return r;
}

const cycles = (r: Rig): number => r.observer.of("cycle").length;

describe("live parameter reload", () => {
  it("applies limits, strategy params and quote controls at the next cycle, keeping the orders that still fit", async () => {
    const r = await start();
    const before = r.live();
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.every((o) => o.size === parseMicros("10"))).toBe(true);
    const hash0 = r.daemon.params.current.hash;
    expect(sample(await r.daemon.ops.metrics.scrape(), "mm_config_info", { hash: hash0 })).toBe(1);
    expect(r.logs.withMsg("daemon running")[0]).toMatchObject({ configHash: hash0 });

    // A looser limit and a longer order age: nothing to change on the book, nothing cancelled.
    r.write(yaml({ maxOrderSize: "50", maxOrderAgeSec: 900 }));
    let mark = r.wire.mark();
    let c0 = cycles(r);
    const loose = await settle(r.h.clock, r.daemon.reload("test"));
    expect(loose).toMatchObject({ ok: true, previousHash: hash0, changed: ["quoting.maxOrderAgeSec", "risk.maxOrderSize"], version: 1 });
    await run(r.h.clock, 2_000);
    expect(cycles(r)).toBeGreaterThan(c0);
    expect(r.cancelsSince(mark.index)).toBe(0);
    expect(r.live()).toEqual(before);
    expect(r.daemon.coreRisk.facade.limits.maxOrderSize).toBe(parseMicros("50"));

    // A tighter limit: the next cycle resizes the quotes to it.
    r.write(yaml({ maxOrderSize: "4", maxOrderAgeSec: 900 }));
    mark = r.wire.mark();
    const tight = await settle(r.h.clock, r.daemon.reload("test"));
    expect(tight).toMatchObject({ ok: true, changed: ["risk.maxOrderSize"], version: 2 });
    await run(r.h.clock, 3_000);
    expect(r.cancelsSince(mark.index)).toBeGreaterThan(0);
    expect(r.live().length).toBeGreaterThanOrEqual(2);
    expect(r.live().every((o) => o.size === parseMicros("4"))).toBe(true);

    // The strategy's own params: the next cycle quotes the new size.
    r.write(yaml({ size: "3", maxOrderSize: "50", maxOrderAgeSec: 900 }));
    c0 = cycles(r);
    const strat = await settle(r.h.clock, r.daemon.reload("test"));
    expect(strat).toMatchObject({ ok: true, changed: ["risk.maxOrderSize", "strategy.params.size"], version: 3 });
    await run(r.h.clock, 3_000);
    expect(cycles(r)).toBeGreaterThan(c0);
    expect(r.live().every((o) => o.size === parseMicros("3"))).toBe(true);

    // A quote control appears (order levels): rebuilt from the file, a second level each side.
    const sides = r.live().length;
    r.write(yaml({ size: "3", maxOrderSize: "50", maxOrderAgeSec: 900, extra: "controls: { levels: { count: 2, spacingTicks: 5 } }\n" }));
    const ctl = await settle(r.h.clock, r.daemon.reload("test"));
    expect(ctl).toMatchObject({ ok: true, changed: ["controls.levels"], version: 4 });
    await run(r.h.clock, 3_000);
    expect(r.live().length).toBe(2 * sides);

    // The hash follows: one series, the new one; /status names it.
    const text = await r.daemon.ops.metrics.scrape();
    const hash = r.daemon.params.current.hash;
    expect(ctl.ok && ctl.hash).toBe(hash);
    expect(sample(text, "mm_config_info", { hash })).toBe(1);
    expect(sample(text, "mm_config_info", { hash: hash0 })).toBeUndefined();
    expect(r.daemon.statusDocument().config).toMatchObject({ hash, reloads: 4 });
    expect(r.logs.withMsg("config reloaded: applied at the next cycle")).toHaveLength(4);
  });

  it("a bad file changes nothing: syntax, schema, restart-only; over HTTP and SIGHUP", async () => {
    const r = await start();
    const before = r.live();
    const hash0 = r.daemon.params.current.hash;
    const limits0 = r.daemon.coreRisk.facade.limits;
    const mark = r.wire.mark();
    const c0 = cycles(r);

    // YAML syntax error, through the signal path `mm run` uses.
    r.write(`${yaml({ maxOrderSize: "4" })}quoting: { refreshMs: 5\n`);
    const err: string[] = [];
    const bad = await settle(r.h.clock, onReloadSignal(r.daemon, RELOAD_SIGNAL, (t) => err.push(t)));
    expect(bad).toMatchObject({ ok: false, reason: "invalid", hash: hash0 });
    expect(err.join("")).toMatch(/^mm run: SIGHUP: config reload refused, nothing changed \(config hash [0-9a-f]{16}\):\n {2}\S*mm\.yaml:\d+: YAML syntax error/);

    // Schema errors, over HTTP with the admin token.
    r.write(yaml({ maxOrderSize: "-4", size: "abc" }));
    const addr = await settleIo(r.h, r.daemon.serve());
    const res = await settleIo(r.h, fetch(`http://127.0.0.1:${addr.port}/admin/reload`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }));
    expect(res.status).toBe(422);
    const body = (await settleIo(r.h, res.json())) as { ok: boolean; reason: string; errors: string[]; hash: string };
    expect(body).toMatchObject({ ok: false, reason: "invalid", hash: hash0 });
    expect(body.errors.join("\n")).toMatch(/mm\.yaml:\d+: strategy\.params\.size: /);
    expect(body.errors.join("\n")).toMatch(/mm\.yaml:\d+: risk\.maxOrderSize: must be > 0/);
    const unauth = await settleIo(r.h, fetch(`http://127.0.0.1:${addr.port}/admin/reload`, { method: "POST", headers: { authorization: "Bearer nope-nope-nope-nope" } }));
    expect(unauth.status).toBe(401);

    // A restart-only change beside a live one: refused whole.
    r.write(yaml({ maxOrderSize: "4", extra: "capacity: { maxLagMs: 500 }\n" }).replace('slugs: ["A"]', 'slugs: ["A", "B"]'));
    const restart = await settle(r.h.clock, onReloadSignal(r.daemon, RELOAD_SIGNAL, (t) => err.push(t)));
    expect(restart).toMatchObject({ ok: false, reason: "restart_needed", errors: ["restart needed for: capacity.maxLagMs, markets.slugs"] });

    await run(r.h.clock, 3_000);
    expect(cycles(r)).toBeGreaterThan(c0);
    expect(r.daemon.params.current).toMatchObject({ hash: hash0, version: 0 });
    expect(r.daemon.coreRisk.facade.limits).toBe(limits0);
    expect(r.cancelsSince(mark.index)).toBe(0);
    expect(r.live()).toEqual(before);
    const text = await r.daemon.ops.metrics.scrape();
    expect(sample(text, "mm_config_info", { hash: hash0 })).toBe(1);
    expect(r.logs.withMsg("config reload refused: nothing changed")).toHaveLength(3);
    expect(r.daemon.statusDocument().config).toMatchObject({ hash: hash0, reloads: 0 });
  });
});
