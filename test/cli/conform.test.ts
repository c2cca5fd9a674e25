/**
 * `mm conform`'s command line (src/cli/conform.ts): --help; each usage error, exit 2, naming the
 * flag and what is wrong (the base URL, the key file's mode, readability, emptiness and shape, the
 * wallet, the pace); the key read from its file (trimmed) and the wallet sent on the authenticated
 * probes; --json with the base URL; an unreachable platform, exit 1. Through the command's transport
 * seam: the simulator in-process, or a transport that never answers. The checks themselves:
 * test/conform/conform.test.ts.
 */
import { chmodSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { USAGE, conformCommand } from "../../src/cli/conform.js";
import { VirtualClock } from "../../src/core/clock.js";
import { InProcessTransport } from "../../src/sim/http/in-process.js";
import { Pipeline } from "../../src/sim/http/pipeline.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { tempDir } from "../config/fixtures.js";

const T0 = Date.UTC(2026, 5, 1, 12);
/** The default scenario's multi_wallet key and first wallet (configs/scenarios/default.yaml). */
const KEY = "pmk_sim_5e1d000000000001_DemoMarketMakerSecret00000000001";
const WALLET = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function io() {
  let out = "";
  let err = "";
  return { io: { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t) }, out: () => out, err: () => err };
}

function keyFile(content: string, mode = 0o600): string {
  const d = tempDir({ key: content });
  cleanups.push(d.cleanup);
  chmodSync(d.path("key"), mode);
  return d.path("key");
}

/** The default scenario in-process; every request recorded. */
function simTransport() {
  const sim = new Simulator(loadScenario(defaultScenarioPath()), { clock: new VirtualClock(T0), flow: false, pepper: new Uint8Array(32) });
  sim.start();
  cleanups.push(() => sim.stop());
  const inner = new InProcessTransport(new Pipeline({ sim, routes: allRoutes() }));
  const seen: HttpRequest[] = [];
  const bases: string[] = [];
  const transport: Transport = {
    request: (req: HttpRequest): Promise<HttpResponse> => {
      seen.push(req);
      return inner.request(req);
    },
  };
  return { seen, bases, deps: { clock: new VirtualClock(T0), transport: (base: string) => (bases.push(base), transport) } };
}

async function usage(argv: string[]): Promise<string> {
  const a = io();
  expect(await conformCommand(argv, a.io), argv.join(" ")).toBe(2);
  expect(a.err()).toContain("Usage: mm conform");
  return a.err().split("\n")[0]!;
}

describe("mm conform --help", () => {
  it("prints the usage and exits 0", async () => {
    const a = io();
    expect(await conformCommand(["--help"], a.io)).toBe(0);
    expect(a.out()).toBe(USAGE);
  });
});

describe("mm conform usage errors (exit 2)", () => {
  it("the base URL: required, a URL, http or https", async () => {
    expect(await usage([])).toBe("mm conform: --base-url is required");
    expect(await usage(["--base-url", "not a url"])).toBe('mm conform: --base-url "not a url" is not a URL');
    expect(await usage(["--base-url", "ftp://host"])).toBe("mm conform: --base-url must be http or https, got ftp:");
  });

  it("the key file: readable by others, unreadable, empty, or not a key", async () => {
    const open = keyFile(`${KEY}\n`, 0o644);
    expect(await usage(["--base-url", "http://h", "--api-key-file", open])).toBe(`mm conform: --api-key-file ${open} is readable by others (mode 0644): chmod 600 it`);
    const missing = `${keyFile("x")}-none`;
    expect(await usage(["--base-url", "http://h", "--api-key-file", missing])).toBe(`mm conform: --api-key-file ${missing}: cannot read it (ENOENT)`);
    const empty = keyFile(" \n");
    expect(await usage(["--base-url", "http://h", "--api-key-file", empty])).toBe(`mm conform: --api-key-file ${empty} is empty`);
    const odd = keyFile("just-a-secret\n");
    expect(await usage(["--base-url", "http://h", "--api-key-file", odd])).toBe(`mm conform: --api-key-file ${odd}: the key is not <prefix>_<env>_<keyId>_<secret>`);
  });

  it("the wallet: 0x and 40 hex characters", async () => {
    expect(await usage(["--base-url", "http://h", "--wallet", "0x12"])).toBe('mm conform: --wallet "0x12" is not 0x followed by 40 hex characters');
    expect(await usage(["--base-url", "http://h", "--wallet", `0x${"g".repeat(40)}`])).toMatch(/--wallet "0xg+" is not 0x followed by 40 hex/);
  });

  it("the pace: a whole number of ms from 0 to 60000", async () => {
    for (const v of ["-5", "1.5", "60001", "soon"]) expect(await usage(["--base-url", "http://h", "--pace-ms", v])).toBe(`mm conform: --pace-ms must be an integer from 0 to 60000, got "${v}"`);
  });

  it("an unknown flag", async () => {
    expect(await usage(["--base-url", "http://h", "--write"])).toMatch(/--write/);
  });
});

describe("mm conform runs", () => {
  it("sends the key from its file, trimmed, and the wallet, on the authenticated probes only; the key is never printed", async () => {
    const s = simTransport();
    const a = io();
    const code = await conformCommand(["--base-url", "http://sim.test", "--api-key-file", keyFile(`${KEY}\n`), "--wallet", WALLET, "--pace-ms", "0"], a.io, s.deps);
    expect(code).toBe(0);
    expect(s.bases).toEqual(["http://sim.test"]);
    const keyed = s.seen.filter((r) => r.headers["x-api-key"] !== undefined);
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.length).toBeLessThan(s.seen.length);
    // the malformed-key probes send their own bad keys; every other keyed probe sends ours, with the wallet
    const ours = keyed.filter((r) => r.headers["x-api-key"] === KEY);
    expect(ours.length).toBeGreaterThan(0);
    for (const r of ours) expect(r.headers["x-user-wallet"]).toBe(WALLET);
    expect(new Set(s.seen.map((r) => r.method))).toEqual(new Set(["GET"]));
    expect(a.out()).toMatch(/\d+ confirmed, 0 contradicted/);
    expect(a.out()).not.toContain(KEY.split("_")[3]!);
  });

  it("--json: one document with the base URL and the report", async () => {
    const s = simTransport();
    const a = io();
    expect(await conformCommand(["--base-url", "http://sim.test", "--pace-ms", "0", "--json"], a.io, s.deps)).toBe(0);
    const doc = JSON.parse(a.out()) as { baseUrl: string; results: unknown[]; counts: { contradicted: number }; requests: number };
    expect(doc.baseUrl).toBe("http://sim.test");
    expect(doc.counts.contradicted).toBe(0);
    expect(doc.requests).toBe(s.seen.length);
  });

  it("a platform that never answers: exit 1, saying it could not be reached", async () => {
    const a = io();
    const refused: Transport = { request: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:9")) };
    expect(await conformCommand(["--base-url", "http://127.0.0.1:9", "--pace-ms", "0"], a.io, { clock: new VirtualClock(T0), transport: () => refused })).toBe(1);
    expect(a.err()).toMatch(/^mm conform: http:\/\/127\.0\.0\.1:9 could not be reached \(request failed.*ECONNREFUSED/);
    expect(a.out()).toBe("");
  });
});
