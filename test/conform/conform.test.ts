/**
 * `mm conform` against `mm sim`'s server (loopback HTTP on an ephemeral port, the default
 * scenario): every assumption confirmed or, without a key, unobservable; then against a simulator
 * deliberately configured to differ (an X-API-Version that is not a date, and a fault making the
 * events list answer 503): those contradictions reported and the exit code 1. Only GETs are sent.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FetchTransport } from "../../src/api/fetch-transport.js";
import { conformCommand } from "../../src/cli/conform.js";
import { VirtualClock } from "../../src/core/clock.js";
import { runConform } from "../../src/conform/run.js";
import { startSimServer, type SimServer } from "../../src/sim/http/server.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario, type Scenario } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const KEY = "pmk_sim_5e1d000000000001_DemoMarketMakerSecret00000000001";
const WALLET = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";

const servers: { server: SimServer; sim: Simulator }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    await s.server.close();
    s.sim.stop();
  }
});

async function serve(edit?: (s: Scenario) => void, library?: { name: string; advanceMs: number }): Promise<string> {
  const scenario = loadScenario(library === undefined ? defaultScenarioPath() : join(defaultScenarioPath(), "..", `${library.name}.yaml`));
  edit?.(scenario);
  const clock = new VirtualClock(T0);
  const sim = new Simulator(scenario, { clock, flow: false, pepper: new Uint8Array(32) });
  sim.start();
  if (library !== undefined) await clock.advance(library.advanceMs);
  const server = await startSimServer({ sim, routes: allRoutes(), port: 0 });
  servers.push({ server, sim });
  return server.url;
}

/** Records every method sent, to prove the run is read-only. */
class Recording implements Transport {
  readonly methods: string[] = [];
  constructor(private readonly inner: Transport) {}
  request(req: HttpRequest): Promise<HttpResponse> {
    this.methods.push(req.method);
    return this.inner.request(req);
  }
}

function keyFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-conform-"));
  const f = join(dir, "key");
  writeFileSync(f, KEY + "\n");
  chmodSync(f, 0o600);
  return f;
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) } };
}

describe("mm conform against mm sim", () => {
  it("with a key and a wallet: every assumption confirmed, only GET requests, paced", async () => {
    const url = await serve();
    const clock = new VirtualClock(T0);
    const t = new Recording(new FetchTransport({ baseUrl: url }));
    const run = runConform({ transport: t, clock, apiKey: KEY, wallet: WALLET, paceMs: 500 });
    // pacing sleeps on the clock: move it until the run ends
    let done = false;
    void run.finally(() => (done = true));
    while (!done) {
      await new Promise((r) => setTimeout(r, 1));
      await clock.advance(500);
    }
    const report = await run;

    // the default scenario has no Up/Down series: the 2.8 all-VOIDED day is checked on crypto.yaml below
    const notConfirmed = report.results.filter((r) => r.verdict !== "confirmed");
    expect(notConfirmed.map((r) => `${r.id} ${r.verdict}`), JSON.stringify(notConfirmed, null, 2)).toEqual(["updown-all-voided-day unobservable"]);
    expect(report.results.length).toBeGreaterThanOrEqual(25);
    expect(new Set(t.methods)).toEqual(new Set(["GET"]));
    expect(report.requests).toBe(t.methods.length);
    expect(report.requests).toBeLessThan(60);
    expect(clock.now() - T0).toBeGreaterThanOrEqual((report.requests - 1) * 500);
  });

  it("the command: exit 0, the key never printed; without a key the authenticated probes are unobservable", async () => {
    const url = await serve();
    const a = io();
    expect(await conformCommand(["--base-url", url, "--api-key-file", keyFile(), "--wallet", WALLET, "--pace-ms", "0"], a.io)).toBe(0);
    const text = a.out.join("");
    expect(text).toMatch(/\d+ confirmed, 0 contradicted, 1 unobservable/);
    expect(text).not.toContain(KEY);

    const b = io();
    expect(await conformCommand(["--base-url", url, "--pace-ms", "0", "--json"], b.io)).toBe(0);
    const doc = JSON.parse(b.out.join("")) as { results: { id: string; verdict: string }[] };
    const unobs = doc.results.filter((r) => r.verdict === "unobservable").map((r) => r.id);
    expect(unobs).toEqual(["updown-all-voided-day", "auth-unknown-key", "key-accepted", "orders-open-undefined-param"]);
  });

  it("crypto.yaml after its all-VOIDED day: the 2.8 exception, upcoming and challenges confirmed; configured to differ, contradicted", async () => {
    const after = { name: "crypto", advanceMs: 61 * 3_600_000 }; // 2026-06-04T01:00Z: every window of 2026-06-03 voided
    const ids = ["updown-all-voided-day", "upcoming", "upcoming-window", "challenges-page", "market-challenges-not-found"];
    const a = io();
    expect(await conformCommand(["--base-url", await serve(undefined, after), "--pace-ms", "0", "--json"], a.io)).toBe(0);
    const good = JSON.parse(a.out.join("")) as { results: { id: string; verdict: string; detail: string }[] };
    for (const id of ids) expect(good.results.find((r) => r.id === id), id).toMatchObject({ verdict: "confirmed" });

    const differs = await serve((s) => {
      // the voided day's detail answered (a platform without the exception), upcoming and challenges failing
      s.faults.push({ route: "GET /api/events/btc-up-down-15m-day-2", kind: "exchange_unavailable" });
      s.faults.push({ route: "GET /api/upcoming", kind: "exchange_unavailable" });
      s.faults.push({ route: "GET /api/challenges", kind: "exchange_unavailable" });
    }, after);
    const b = io();
    expect(await conformCommand(["--base-url", differs, "--pace-ms", "0", "--json"], b.io)).toBe(1);
    const bad = JSON.parse(b.out.join("")) as { results: { id: string; verdict: string; detail: string }[] };
    const contradicted = bad.results.filter((r) => r.verdict === "contradicted").map((r) => r.id);
    expect(contradicted).toEqual(expect.arrayContaining(["updown-all-voided-day", "upcoming", "upcoming-window", "challenges-page"]));
    expect(bad.results.find((r) => r.id === "updown-all-voided-day")!.detail).toContain("expected HTTP 404 event_not_found");
    expect(contradicted).not.toContain("market-challenges-not-found");
  });

  it("a simulator configured to differ: the contradictions are reported and the exit code is 1", async () => {
    const url = await serve((s) => {
      s.platform.apiVersion = "latest";
      s.faults.push({ route: "GET /api/events", kind: "exchange_unavailable" });
    });
    const a = io();
    const code = await conformCommand(["--base-url", url, "--pace-ms", "0", "--json"], a.io);
    expect(code).toBe(1);
    const doc = JSON.parse(a.out.join("")) as { results: { id: string; verdict: string; detail: string }[] };
    const contradicted = doc.results.filter((r) => r.verdict === "contradicted").map((r) => r.id);
    expect(contradicted).toEqual(expect.arrayContaining(["api-version-date", "events-window-capped", "events-page"]));
    expect(doc.results.find((r) => r.id === "api-version-date")!.detail).toContain("latest");
    expect(contradicted).not.toContain("market-not-found");
  });

  it("usage errors exit 2 and name the flag", async () => {
    const a = io();
    expect(await conformCommand([], a.io)).toBe(2);
    expect(a.err.join("")).toContain("--base-url is required");
    const b = io();
    expect(await conformCommand(["--base-url", "ftp://x"], b.io)).toBe(2);
    expect(b.err.join("")).toContain("http or https");
    const c = io();
    expect(await conformCommand(["--base-url", "http://127.0.0.1:1", "--wallet", "0x12"], c.io)).toBe(2);
    expect(c.err.join("")).toContain("--wallet");
    const d = io();
    expect(await conformCommand(["--base-url", "http://127.0.0.1:1", "--pace-ms", "-5"], d.io)).toBe(2);
  });

  it("an unreachable platform: exit 1 with a message", async () => {
    const a = io();
    expect(await conformCommand(["--base-url", "http://127.0.0.1:1", "--pace-ms", "0"], a.io)).toBe(1);
    expect(a.err.join("")).toContain("could not be reached");
  });
});
