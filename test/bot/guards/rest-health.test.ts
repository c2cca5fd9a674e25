import { describe, expect, it } from "vitest";
import type { HttpRequest, HttpResponse, Transport } from "../../../src/wire/transport.js";
import { TransportError } from "../../../src/wire/transport.js";
import { RestHealth } from "../../../src/bot/guards/rest-health.js";
import { envelope, json } from "../engine/fakes.js";

const W1 = "0xAaAa000000000000000000000000000000000001";
const W2 = "0xbbbb000000000000000000000000000000000002";

/** A transport answering whatever `next` holds. */
function setup() {
  let now = 1_000;
  const health = new RestHealth(() => now);
  let next: HttpResponse | Error = json(200, {});
  const inner: Transport = { request: () => (next instanceof Error ? Promise.reject(next) : Promise.resolve(next)) };
  const t = health.wrap(inner);
  const send = async (wallet: string | undefined, answer: HttpResponse | Error): Promise<void> => {
    next = answer;
    const req: HttpRequest = { method: "GET", path: "/api/orders/open", headers: wallet === undefined ? {} : { "X-User-Wallet": wallet } };
    await t.request(req).catch(() => undefined);
  };
  return { health, send, at: (ms: number) => (now = ms) };
}

const refused = (): Error => new TransportError("connect ECONNREFUSED", false, "connect");

describe("RestHealth", () => {
  it("fails on transport errors and 5xx the breaker counts; any other answer is the platform there", async () => {
    const s = setup();
    await s.send(W1, refused());
    expect(s.health.failingSince(W1)).toBe(1_000);
    s.at(2_000);
    await s.send(W1, json(500, { status: 500, error: { code: "internal", message: "x" } }));
    expect(s.health.failingSince(W1)).toBe(1_000);
    // Busy / nothing recorded, a cancel recorded but unanswered, 501, 4xx, 429: answers.
    for (const answer of [envelope(503, "shard_owner_unavailable"), envelope(503, "cancel_unanswered"), envelope(501, "not_implemented"), envelope(401, "api_key_revoked"), envelope(429, "rate_limited")]) {
      await s.send(W1, refused());
      expect(s.health.failingSince(W1)).toBeDefined();
      await s.send(W1, answer);
      expect(s.health.failingSince(W1), String(answer.status)).toBeUndefined();
    }
    await s.send(W1, json(502, "<html>bad gateway</html>"));
    expect(s.health.failingSince(W1)).toBeDefined();
  });

  it("a wallet that sent nothing since its last answer follows the requests of no wallet; its own answer after that wins", async () => {
    const s = setup();
    await s.send(W1, json(200, {}));
    s.at(5_000);
    await s.send(undefined, refused());
    expect(s.health.failingSince(W1)).toBe(5_000);
    expect(s.health.failingSince(W2)).toBe(5_000);
    s.at(6_000);
    await s.send(W1.toLowerCase(), json(200, {}));
    expect(s.health.failingSince(W1)).toBeUndefined();
    expect(s.health.failingSince(W2)).toBe(5_000);
    expect(s.health.lastAnswerMs(W1)).toBe(6_000);
  });

  it("tells its listeners once when requests are answered again after failing", async () => {
    const s = setup();
    const seen: string[] = [];
    const off = s.health.onRecovered((w) => seen.push(w));
    await s.send(W1, json(200, {}));
    await s.send(W1, refused());
    await s.send(W1, refused());
    await s.send(W1, json(200, {}));
    await s.send(W1, json(200, {}));
    await s.send(undefined, refused());
    await s.send(undefined, json(200, {}));
    expect(seen).toEqual([W1.toLowerCase(), ""]);
    off();
    await s.send(W1, refused());
    await s.send(W1, json(200, {}));
    expect(seen).toHaveLength(2);
  });
});
