/**
 * Building a paper run (paper/run.ts) without starting it: one stand-in vault per wallet from the
 * documented hash, the config's queue model as the exchange model's spec, and the run's parts
 * wired as documented: the account over the config's wallets and starting cash, keyed requests
 * answered by it, public reads to the real platform with the configured key and never the
 * daemon's stand-in one, the report sampled every second until closed, the config's latency or an
 * override.
 */
import { keccak256, stringToBytes } from "viem/utils";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { createLogger } from "../../src/log/index.js";
import { parseConfig } from "../../src/config/index.js";
import type { PaperModeConfig } from "../../src/config/load.js";
import { constantLatency } from "../../src/backtest/models/latency.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { PAPER_STAND_IN_KEY, createPaperRun, paperVaultOf, queueSpecOf } from "../../src/paper/run.js";
import { paperYaml } from "./harness.js";

const T0 = Date.parse("2026-01-01T12:00:00Z");
const KEY = "pmk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz012345";

class Upstream implements Transport {
  readonly seen: HttpRequest[] = [];
  request(req: HttpRequest): Promise<HttpResponse> {
    this.seen.push(req);
    return Promise.resolve({ status: 200, headers: {}, body: '{"tags":[]}' });
  }
}

function build(opts: { apiKey?: boolean; latency?: boolean } = {}) {
  const text = opts.apiKey === true ? paperYaml().replace('platform: { baseUrl: "http://sim.invalid" }', 'platform: { baseUrl: "http://sim.invalid", apiKey: "${PAPER_KEY}" }') : paperYaml();
  const config = parseConfig(text, "paper.yaml", { PAPER_KEY: KEY }) as PaperModeConfig;
  const clock = new VirtualClock(T0);
  const upstream = new Upstream();
  const run = createPaperRun({ config, clock, upstream, logger: createLogger({ level: "silent" }), ...(opts.latency === true ? { latency: { model: constantLatency(0, 0), describe: "none" }, queue: { kind: "prob-log" } } : {}) });
  return { config, clock, upstream, run };
}

/** A request through the run's transport, the clock moved until it is answered. */
async function send(clock: VirtualClock, t: Transport, req: HttpRequest): Promise<HttpResponse> {
  let res: HttpResponse | undefined;
  void t.request(req).then((r) => (res = r));
  for (let i = 0; i < 100 && res === undefined; i++) await clock.advance(10);
  return res!;
}

describe("the stand-in vault", () => {
  it("is the last 20 bytes of keccak256 of mm-paper-vault:<wallet in lower case>", () => {
    const w = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";
    const v = paperVaultOf(w);
    expect(v).toBe(`0x${keccak256(stringToBytes(`mm-paper-vault:${w.toLowerCase()}`)).slice(-40)}`);
    expect(v).toMatch(/^0x[0-9a-f]{40}$/);
    expect(paperVaultOf(w.toLowerCase())).toBe(v);
    expect(paperVaultOf("0x00000000000000000000000000000000000000aa")).not.toBe(v);
  });
});

describe("the queue model", () => {
  it("is the config's, the power models' exponent 1 when not given", () => {
    expect(queueSpecOf({ model: "risk-averse" })).toEqual({ kind: "risk-averse" });
    expect(queueSpecOf({ model: "prob-log" })).toEqual({ kind: "prob-log" });
    expect(queueSpecOf({ model: "prob-power", n: 2.5 })).toEqual({ kind: "prob-power", n: 2.5 });
    expect(queueSpecOf({ model: "prob-power-fraction", n: 3 })).toEqual({ kind: "prob-power-fraction", n: 3 });
    expect(queueSpecOf({ model: "prob-power" })).toEqual({ kind: "prob-power", n: 1 });
  });
});

describe("a paper run", () => {
  it("keeps the config's wallets, lower-cased, in an account with the starting cash", async () => {
    const { config, clock, run } = build();
    const wallets = config.wallets.map((w) => w.address.toLowerCase());
    expect(run.account.wallets()).toEqual(wallets);
    expect(wallets.map((w) => run.account.cash(w))).toEqual([2_000_000_000n, 2_000_000_000n]);
    const res = await send(clock, run.transport, { method: "GET", path: "/api/me/vault", headers: { "x-user-wallet": config.wallets[1]!.address } });
    expect(JSON.parse(res.body)).toEqual({ walletAddress: wallets[1], vaultAddress: paperVaultOf(wallets[1]!), deployed: true });
    run.close();
  });

  it("sends public reads upstream with the configured key, never the daemon's stand-in or its wallet", async () => {
    const { clock, upstream, run } = build({ apiKey: true });
    await send(clock, run.transport, { method: "GET", path: "/api/tags", headers: { "x-api-key": PAPER_STAND_IN_KEY, "x-user-wallet": "0x00000000000000000000000000000000000000aa", accept: "application/json" } });
    expect(upstream.seen).toEqual([{ method: "GET", path: "/api/tags", headers: { accept: "application/json", "x-api-key": KEY } }]);
    const none = build();
    await send(none.clock, none.run.transport, { method: "GET", path: "/api/tags", headers: { "x-api-key": PAPER_STAND_IN_KEY } });
    expect(none.upstream.seen[0]!.headers).toEqual({});
    run.close();
    none.run.close();
  });

  it("takes the latency from the config, 20 ms each way here, or an override", async () => {
    const { config, clock, run } = build();
    const w = config.wallets[0]!.address;
    let answeredAt: number | undefined;
    void run.transport.request({ method: "GET", path: "/api/me/balances", headers: { "x-user-wallet": w } }).then(() => (answeredAt = clock.now()));
    await clock.advance(39);
    expect(answeredAt).toBeUndefined();
    await clock.advance(1);
    expect(answeredAt).toBe(T0 + 40);
    run.close();
    const fast = build({ latency: true });
    const r = fast.run.report();
    expect([r.latency, r.queueModel]).toEqual(["none", "prob-log"]);
    fast.run.close();
  });

  it("samples its report every second until closed, and describes the run", async () => {
    const { clock, run } = build();
    expect(run.daemon).toBeDefined();
    expect(run.connector.openSockets).toBe(0);
    await clock.advance(3_000);
    const timers = clock.pending();
    run.close();
    expect(clock.pending()).toBe(timers - 1);
    run.close();
    expect(clock.pending()).toBe(timers - 1);
    await clock.advance(5_000);
    const r = run.report();
    // first advanced by the sampler at 1 s; the report closes the series at now, on the 1 s grid
    expect(r).toMatchObject({ engine: "paper", source: "paper: http://sim.invalid", queueModel: "risk-averse", latency: "20,20 ms", startingCash: "2000", firstTs: T0 + 1_000, lastTs: T0 + 8_000 });
    expect(r.series!.samples.t).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((s) => T0 + s * 1_000));
  });
});
