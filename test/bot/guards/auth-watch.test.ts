/**
 * AuthWatch on its own: which scope a 401 halts, what clears it (only a success of a request sent
 * after the last refusal arrived), the probe's backoff, stream upgrades, and what it logs.
 */
import { describe, expect, it } from "vitest";
import type { HttpRequest, HttpResponse, SocketLike, Transport } from "../../../src/wire/transport.js";
import { AuthWatch, refusalCode } from "../../../src/bot/guards/auth-watch.js";
import type { HaltScope } from "../../../src/bot/risk/types.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { createLogger } from "../../../src/log/index.js";
import { UpgradeRefusedError } from "../../../src/stream/ws-connector.js";
import { errorEnvelope } from "../../../src/wire/errors.js";

const KEY = "pmk_sim_00000000000000aa_TopSecretPartOfTheKey0000000001";
const W0 = "0x00000000000000000000000000000000000000a0";
const W1 = "0x00000000000000000000000000000000000000a1";

function refusal(code: string): HttpResponse {
  return { status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify(errorEnvelope(401, code, "refused")) };
}
const OK: HttpResponse = { status: 200, headers: {}, body: "{}" };

/** A transport whose answers the test releases one by one, in any order. */
class HeldTransport implements Transport {
  readonly pending: { req: HttpRequest; answer(res: HttpResponse): void }[] = [];
  request(req: HttpRequest): Promise<HttpResponse> {
    return new Promise((resolve) => this.pending.push({ req, answer: resolve }));
  }
}

function keyed(wallet?: string): HttpRequest {
  return { method: "GET", path: "/api/me/balances", headers: { "X-Api-Key": KEY, ...(wallet === undefined ? {} : { "X-User-Wallet": wallet }) } };
}

function setup() {
  const clock = new VirtualClock(1_000_000);
  const lines: string[] = [];
  const log = createLogger({ level: "debug", clock }, { write: (l: string) => void lines.push(l) });
  const changes: { scope: HaltScope; detail: string | null }[] = [];
  const counted: { wallet: string | undefined; code: string }[] = [];
  const probes: { wallet: string; at: number }[] = [];
  let probeAnswer: () => Promise<unknown> = () => Promise.resolve();
  const watch = new AuthWatch({
    clock,
    rng: new Rng(5),
    log,
    wallets: [
      { name: "w0", address: W0.toUpperCase().replace("0X", "0x") },
      { name: "w1", address: W1 },
    ],
    condition: (scope, detail) => void changes.push({ scope, detail }),
    count: (wallet, code) => void counted.push({ wallet, code }),
    probe: (wallet) => {
      probes.push({ wallet, at: clock.now() });
      return probeAnswer();
    },
  });
  return { clock, lines, changes, counted, probes, watch, setProbe: (fn: () => Promise<unknown>) => (probeAnswer = fn) };
}

describe("AuthWatch", () => {
  it("halts globally on a refusal of the key, per wallet on a wallet-header refusal, and ignores public requests", async () => {
    const s = setup();
    const inner = new HeldTransport();
    const t = s.watch.wrapTransport(inner);
    const pub = t.request({ method: "GET", path: "/api/markets", headers: {} });
    inner.pending.shift()!.answer(refusal("api_key_revoked"));
    await pub;
    expect(s.changes).toEqual([]);

    const a = t.request(keyed(W1));
    inner.pending.shift()!.answer(refusal("api_key_user_wallet_invalid"));
    await a;
    expect(s.changes).toEqual([{ scope: { kind: "wallet", wallet: "w1" }, detail: "401 api_key_user_wallet_invalid" }]);

    const b = t.request(keyed(W0));
    inner.pending.shift()!.answer(refusal("api_key_bad_secret"));
    await b;
    expect(s.changes[1]).toEqual({ scope: { kind: "global" }, detail: "401 api_key_bad_secret" });
    // A wallet code for a wallet we do not know cannot name a wallet: the key's scope.
    const c = t.request(keyed("0x00000000000000000000000000000000000000ff"));
    inner.pending.shift()!.answer(refusal("api_key_user_wallet_required"));
    await c;
    expect(s.changes).toHaveLength(2);
    expect(s.counted).toEqual([
      { wallet: W1, code: "api_key_user_wallet_invalid" },
      { wallet: W0, code: "api_key_bad_secret" },
      { wallet: "0x00000000000000000000000000000000000000ff", code: "api_key_user_wallet_required" },
    ]);
    expect(s.watch.refusalFor("w1")).toMatchObject({ code: "api_key_user_wallet_invalid" });
    expect(s.watch.refusalFor(W0)).toMatchObject({ scope: { kind: "global" }, code: "api_key_user_wallet_required" });
  });

  it("clears only when a request sent after the last refusal succeeds", async () => {
    const s = setup();
    const inner = new HeldTransport();
    const t = s.watch.wrapTransport(inner);
    const early = t.request(keyed(W0)); // in flight before the key was refused
    const refused = t.request(keyed(W1));
    inner.pending[1]!.answer(refusal("api_key_revoked"));
    await refused;
    inner.pending[0]!.answer(OK);
    await early;
    expect(s.changes).toEqual([{ scope: { kind: "global" }, detail: "401 api_key_revoked" }]);

    const later = t.request(keyed(W1));
    // Another refusal arrives while `later` is under way: `later` was sent before it.
    const again = t.request(keyed(W0));
    inner.pending[3]!.answer(refusal("api_key_revoked"));
    await again;
    inner.pending[2]!.answer(OK);
    await later;
    expect(s.changes).toHaveLength(1);

    const fixed = t.request(keyed(W0));
    inner.pending[4]!.answer(OK);
    await fixed;
    expect(s.changes).toEqual([
      { scope: { kind: "global" }, detail: "401 api_key_revoked" },
      { scope: { kind: "global" }, detail: null },
    ]);
    expect(s.watch.current()).toEqual([]);
  });

  it("a wallet's halt clears on that wallet's success only; the key's on anyone's", async () => {
    const s = setup();
    const inner = new HeldTransport();
    const t = s.watch.wrapTransport(inner);
    const send = async (wallet: string, res: HttpResponse): Promise<void> => {
      const p = t.request(keyed(wallet));
      inner.pending.at(-1)!.answer(res);
      await p;
    };
    await send(W0, refusal("api_key_user_wallet_invalid"));
    await send(W1, refusal("api_key_expired"));
    await send(W1, OK);
    expect(s.watch.current()).toEqual([{ scope: { kind: "wallet", wallet: "w0" }, code: "api_key_user_wallet_invalid", sinceMs: 1_000_000 }]);
    await send(W0, OK);
    expect(s.watch.current()).toEqual([]);
    expect(s.changes.map((c) => [c.scope.kind, c.detail === null ? "clear" : "raise"])).toEqual([
      ["wallet", "raise"],
      ["global", "raise"],
      ["global", "clear"],
      ["wallet", "clear"],
    ]);
  });

  it("probes on a 1 s doubling backoff capped at 30 s while refused, and stops once cleared or stopped", async () => {
    const s = setup();
    const inner = new HeldTransport();
    const t = s.watch.wrapTransport(inner);
    // The probe is a keyed read through the same transport, refused while the key is bad.
    let keyOk = false;
    s.setProbe(async () => {
      const p = t.request(keyed(W1));
      inner.pending.at(-1)!.answer(keyOk ? OK : refusal("api_key_unknown_key"));
      return p;
    });
    const first = t.request(keyed(W1));
    inner.pending.at(-1)!.answer(refusal("api_key_unknown_key"));
    await first;
    await s.clock.advance(200_000);
    const gaps = s.probes.map((p, i) => p.at - (i === 0 ? 1_000_000 : s.probes[i - 1]!.at));
    expect(s.probes.every((p) => p.wallet === W1)).toBe(true);
    for (const [i, g] of gaps.entries()) {
      const d = Math.min(30_000, 1_000 * 2 ** i);
      expect(g).toBeGreaterThanOrEqual(d / 2);
      expect(g).toBeLessThanOrEqual(d);
    }
    expect(s.probes.length).toBeGreaterThanOrEqual(9);
    expect(s.probes.length).toBeLessThanOrEqual(16);

    keyOk = true;
    await s.clock.advance(30_000);
    expect(s.watch.current()).toEqual([]);
    const n = s.probes.length;
    await s.clock.advance(300_000);
    expect(s.probes.length).toBe(n);

    // Refused again, then stopped: no probe after stop().
    keyOk = false;
    const again = t.request(keyed(W0));
    inner.pending.at(-1)!.answer(refusal("api_key_revoked"));
    await again;
    s.watch.stop();
    await s.clock.advance(300_000);
    expect(s.probes.length).toBe(n);
  });

  it("watches user-stream upgrades: a 401 refusal halts, an opened socket clears", () => {
    const s = setup();
    type Listener = (...args: never[]) => void;
    const sockets: { listeners: Map<string, Listener[]> }[] = [];
    const connector = s.watch.wrapConnector({
      connect: (): SocketLike => {
        const listeners = new Map<string, Listener[]>();
        sockets.push({ listeners });
        const socket = {
          send: () => undefined,
          close: () => undefined,
          on: (event: string, l: Listener) => {
            listeners.set(event, [...(listeners.get(event) ?? []), l]);
            return socket;
          },
        };
        return socket;
      },
    });
    connector.connect("/ws/user", { "X-Api-Key": KEY, "X-User-Wallet": W0 });
    for (const l of sockets[0]!.listeners.get("error") ?? []) (l as (e: Error) => void)(new UpgradeRefusedError(401, "api_key_suspended", "suspended"));
    expect(s.changes).toEqual([{ scope: { kind: "global" }, detail: "401 api_key_suspended" }]);
    // A 403 or a dropped socket says nothing about the key.
    connector.connect("/ws/user", { "X-Api-Key": KEY, "X-User-Wallet": W0 });
    for (const l of sockets[1]!.listeners.get("error") ?? []) (l as (e: Error) => void)(new UpgradeRefusedError(403, "api_key_scope_missing", ""));
    expect(s.changes).toHaveLength(1);
    connector.connect("/ws/user", { "X-Api-Key": KEY, "X-User-Wallet": W0 });
    for (const l of sockets[2]!.listeners.get("open") ?? []) (l)();
    expect(s.changes).toEqual([
      { scope: { kind: "global" }, detail: "401 api_key_suspended" },
      { scope: { kind: "global" }, detail: null },
    ]);
    expect(s.counted).toEqual([{ wallet: W0, code: "api_key_suspended" }]);
  });

  it("logs each state change once, with the code and never the key", async () => {
    const s = setup();
    const inner = new HeldTransport();
    const t = s.watch.wrapTransport(inner);
    const send = async (res: HttpResponse): Promise<void> => {
      const p = t.request(keyed(W0));
      inner.pending.at(-1)!.answer(res);
      await p;
    };
    for (let i = 0; i < 5; i++) await send(refusal("api_key_bad_secret"));
    await send(refusal("api_key_revoked"));
    await send(refusal("api_key_revoked"));
    await send(OK);
    const msgs = s.lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(msgs).toEqual([
      "API key refused: auth_refused halt, probing with backoff until a request with the key succeeds",
      "API key refused with another code",
      "API key accepted again: auth_refused cleared",
    ]);
    expect(s.lines.join("\n")).not.toContain("TopSecretPartOfTheKey");
    expect(s.lines.join("\n")).toContain("api_key_revoked");
  });

  it("reads the code from any envelope shape, else http_401", () => {
    expect(refusalCode(refusal("api_key_expired"))).toBe("api_key_expired");
    expect(refusalCode({ status: 401, headers: {}, body: JSON.stringify({ code: "api_key_revoked", message: "flat" }) })).toBe("api_key_revoked");
    expect(refusalCode({ status: 401, headers: {}, body: "" })).toBe("http_401");
    expect(refusalCode({ status: 401, headers: {}, body: "<html>nope</html>" })).toBe("http_401");
  });
});
