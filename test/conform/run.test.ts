/**
 * The `mm conform` runner (conform/run.ts) on a scripted transport and a virtual clock: every
 * request a GET with `accept: application/json`, the key and wallet only on authenticated probes,
 * requests paced on the clock (no wait when the last answer took longer), bodies parsed as JSON
 * when they are; a check that throws is unobservable with the error, the key never appears in a
 * detail; the counts; the key's prefix and environment; the text report.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { CHECKS, type Check, type Probe } from "../../src/conform/checks.js";
import { DEFAULT_PACE_MS, formatReport, keyPrefixEnv, runConform, type ConformReport } from "../../src/conform/run.js";

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const KEY = "pmk_sim_5e1d000000000001_Secret0001";
const WALLET = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e";

/** Answers `body` to every request after `delayMs` of the clock, recording each with its time. */
class Scripted implements Transport {
  readonly sent: { at: number; req: HttpRequest }[] = [];
  constructor(
    private readonly clock: VirtualClock,
    private readonly body: (path: string) => string = () => "{}",
    private readonly delayMs = 0,
  ) {}
  async request(req: HttpRequest): Promise<HttpResponse> {
    this.sent.push({ at: this.clock.now(), req });
    if (this.delayMs > 0) await this.clock.sleep(this.delayMs);
    return { status: 200, headers: { "x-test": "1" }, body: this.body(req.path) };
  }
}

/** A check that GETs each path in turn and keeps what it saw. */
function probing(id: string, paths: string[], seen: Probe[] = [], auth = false): Check {
  return {
    id,
    assumption: `assumption ${id}`,
    source: "spec 0",
    async run(ctx) {
      for (const p of paths) seen.push(await ctx.get(p, { auth }));
      return { verdict: "confirmed", detail: "" };
    },
  };
}

/** Run to the end, moving the virtual clock while the run waits on it. */
async function drive(clock: VirtualClock, run: Promise<ConformReport>): Promise<ConformReport> {
  let done = false;
  void run.finally(() => (done = true));
  for (let i = 0; i < 1_000 && !done; i++) await clock.advance(100);
  return run;
}

describe("the conform runner", () => {
  it("paces requests on the clock, 500 ms apart by default", async () => {
    expect(DEFAULT_PACE_MS).toBe(500);
    const clock = new VirtualClock(T0);
    const t = new Scripted(clock);
    const r = await drive(clock, runConform({ transport: t, clock, checks: [probing("a", ["/1", "/2"]), probing("b", ["/3"])] }));
    expect(t.sent.map((s) => s.at - T0)).toEqual([0, 500, 1_000]);
    expect(r.requests).toBe(3);
  });

  it("does not wait when the last answer took longer than the pace, nor at all with pace 0", async () => {
    const clock = new VirtualClock(T0);
    const slow = new Scripted(clock, () => "{}", 700);
    await drive(clock, runConform({ transport: slow, clock, paceMs: 500, checks: [probing("a", ["/1", "/2", "/3"])] }));
    expect(slow.sent.map((s) => s.at - T0)).toEqual([0, 700, 1_400]);
    const clock2 = new VirtualClock(T0);
    const fast = new Scripted(clock2);
    await runConform({ transport: fast, clock: clock2, paceMs: 0, checks: [probing("a", ["/1", "/2", "/3"])] });
    expect(fast.sent.map((s) => s.at - T0)).toEqual([0, 0, 0]);
  });

  it("sends only GETs, the key and wallet only with authenticated probes", async () => {
    const clock = new VirtualClock(T0);
    const t = new Scripted(clock);
    const withHeader: Check = { ...probing("h", []), run: async (ctx) => (await ctx.get("/x", { headers: { "x-api-key": "not-a-key", accept: "text/plain" } }), { verdict: "confirmed", detail: "" }) };
    await runConform({ transport: t, clock, paceMs: 0, apiKey: KEY, wallet: WALLET, checks: [probing("pub", ["/p"]), probing("auth", ["/a"], [], true), withHeader] });
    expect(t.sent.map((s) => s.req.method)).toEqual(["GET", "GET", "GET"]);
    expect(t.sent.map((s) => s.req.headers)).toEqual([
      { accept: "application/json" },
      { accept: "application/json", "x-api-key": KEY, "x-user-wallet": WALLET },
      { accept: "text/plain", "x-api-key": "not-a-key" },
    ]);
    // without a key an authenticated probe goes without one
    const t2 = new Scripted(clock);
    await runConform({ transport: t2, clock, paceMs: 0, wallet: WALLET, checks: [probing("auth", ["/a"], [], true)] });
    expect(t2.sent[0]!.req.headers).toEqual({ accept: "application/json" });
  });

  it("parses a JSON body, and leaves an empty or non-JSON one undefined", async () => {
    const clock = new VirtualClock(T0);
    const bodies: Record<string, string> = { "/json": '{"a":[1,"2"]}', "/empty": "", "/blank": " \n ", "/html": "<html>" };
    const seen: Probe[] = [];
    await runConform({ transport: new Scripted(clock, (p) => bodies[p]!), clock, paceMs: 0, checks: [probing("a", Object.keys(bodies), seen)] });
    expect(seen).toEqual([
      { status: 200, headers: { "x-test": "1" }, text: '{"a":[1,"2"]}', json: { a: [1, "2"] } },
      { status: 200, headers: { "x-test": "1" }, text: "", json: undefined },
      { status: 200, headers: { "x-test": "1" }, text: " \n ", json: undefined },
      { status: 200, headers: { "x-test": "1" }, text: "<html>", json: undefined },
    ]);
  });

  it("gives the checks the key's prefix, the wallet and one memo", async () => {
    const clock = new VirtualClock(T0);
    const ctxs: unknown[] = [];
    const record: Check = { ...probing("r", []), run: (ctx) => (ctxs.push({ hasKey: ctx.hasKey, keyPrefixEnv: ctx.keyPrefixEnv, wallet: ctx.wallet, memo: ctx.memo }), Promise.resolve({ verdict: "confirmed", detail: "" })) };
    await runConform({ transport: new Scripted(clock), clock, apiKey: KEY, wallet: WALLET, checks: [record, record] });
    expect(ctxs[0]).toMatchObject({ hasKey: true, keyPrefixEnv: "pmk_sim_", wallet: WALLET });
    expect((ctxs[0] as { memo: unknown }).memo).toBe((ctxs[1] as { memo: unknown }).memo);
    ctxs.length = 0;
    await runConform({ transport: new Scripted(clock), clock, checks: [record] });
    expect(ctxs[0]).toMatchObject({ hasKey: false, keyPrefixEnv: undefined, wallet: undefined });
  });

  it("makes a failing check unobservable, keeps the key out of every detail, and counts the verdicts", async () => {
    const clock = new VirtualClock(T0);
    const says = (id: string, verdict: "confirmed" | "contradicted" | "unobservable", detail: string): Check => ({ ...probing(id, []), run: () => Promise.resolve({ verdict, detail }) });
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a rejection that is not an Error is one of the cases
    const throws = (id: string, e: unknown): Check => ({ ...probing(id, []), run: () => Promise.reject(e) });
    const r = await runConform({
      transport: new Scripted(clock),
      clock,
      apiKey: KEY,
      checks: [says("ok", "confirmed", "fine"), says("leak", "contradicted", `sent ${KEY} and ${KEY}`), throws("err", new Error(`connect refused for ${KEY}`)), throws("str", "plain")],
    });
    expect(r.results).toEqual([
      { id: "ok", assumption: "assumption ok", source: "spec 0", verdict: "confirmed", detail: "fine" },
      { id: "leak", assumption: "assumption leak", source: "spec 0", verdict: "contradicted", detail: "sent [REDACTED] and [REDACTED]" },
      { id: "err", assumption: "assumption err", source: "spec 0", verdict: "unobservable", detail: "request failed: connect refused for [REDACTED]" },
      { id: "str", assumption: "assumption str", source: "spec 0", verdict: "unobservable", detail: "request failed: plain" },
    ]);
    expect(r.counts).toEqual({ confirmed: 1, contradicted: 1, unobservable: 2 });
    expect(r.requests).toBe(0);
  });

  it("runs every check, in order, by default", async () => {
    const clock = new VirtualClock(T0);
    const r = await runConform({ transport: new Scripted(clock, () => "not json"), clock, paceMs: 0 });
    expect(r.results.map((x) => x.id)).toEqual(CHECKS.map((c) => c.id));
  });
});

describe("a key's prefix and environment", () => {
  it("are its first two parts of four", () => {
    expect(keyPrefixEnv(KEY)).toBe("pmk_sim_");
    expect(keyPrefixEnv("pmk_live_0123456789abcdef_AbCd")).toBe("pmk_live_");
    for (const bad of ["not-a-key", "pmk_sim_abc", "pmk_sim_a_b_c", "pmk_sim__b", "pmk_s-m_a_b", ""]) expect(keyPrefixEnv(bad), bad).toBeUndefined();
  });
});

describe("the text report", () => {
  it("has one line per assumption, its detail indented beneath, and the counts", () => {
    const text = formatReport({
      results: [
        { id: "health", assumption: "GET /health answers 200", source: "spec 4.9", verdict: "confirmed", detail: "" },
        { id: "api-version-date", assumption: "X-API-Version is a date", source: "spec 9", verdict: "contradicted", detail: 'X-API-Version "latest"' },
        { id: "key-accepted", assumption: "the key works", source: "spec 5.2", verdict: "unobservable", detail: "no --api-key-file" },
      ],
      counts: { confirmed: 1, contradicted: 1, unobservable: 1 },
      requests: 7,
    });
    expect(text).toBe(
      [
        `confirmed     ${"health".padEnd(30)} GET /health answers 200 [spec 4.9]`,
        `CONTRADICTED  ${"api-version-date".padEnd(30)} X-API-Version is a date [spec 9]`,
        `${" ".repeat(14)}X-API-Version "latest"`,
        `unobservable  ${"key-accepted".padEnd(30)} the key works [spec 5.2]`,
        `${" ".repeat(14)}no --api-key-file`,
        "",
        "1 confirmed, 1 contradicted, 1 unobservable (7 GET requests)",
        "",
      ].join("\n"),
    );
  });
});
