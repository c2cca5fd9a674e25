/**
 * The client's side of the rate gate (src/api/gate.ts, spec 8): the default gate admits at once and
 * ignores answers; a gate given to the client is asked before every send (with method, path,
 * wallet) and told of every answer (status, the headers as the transport gave them, the admission
 * time it belongs to); src/ratelimit's RateGate fits the interface as it is.
 */
import { describe, expect, it } from "vitest";
import type { GateAnswer, GateRequest, RequestGate } from "../../src/api/gate.js";
import { NOOP_GATE } from "../../src/api/gate.js";
import { VirtualClock } from "../../src/core/clock.js";
import { RateGate } from "../../src/ratelimit/gate.js";
import { WALLET } from "../wire/fixtures.js";
import { json, rateLimited, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

/** A gate that admits at once and records what it was asked and told. */
function recordingGate(admittedAtMs?: number): RequestGate & { asked: GateRequest[]; told: GateAnswer[] } {
  const asked: GateRequest[] = [];
  const told: GateAnswer[] = [];
  return {
    asked,
    told,
    acquire: (req) => {
      asked.push(req);
      return Promise.resolve(admittedAtMs === undefined ? undefined : { admittedAtMs });
    },
    observe: (res) => void told.push(res),
  };
}

describe("NOOP_GATE", () => {
  it("admits at once with no admission time, and ignores answers", async () => {
    await expect(NOOP_GATE.acquire({ method: "GET", path: "/api/markets" })).resolves.toBeUndefined();
    expect(NOOP_GATE.observe({ method: "GET", path: "/api/markets", status: 429, headers: { "retry-after": "5" } })).toBeUndefined();
  });

  it("is the client's default: a request leaves at once", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { status: "ok" }));
    const start = clock.now();
    await settle(clock, client.health());
    expect(transport.requests.map((r) => r.at - start)).toEqual([0]);
  });
});

describe("a gate given to the client", () => {
  it("is asked before the send with method, path and wallet, and told of the answer with its admission time", async () => {
    const gate = recordingGate(1_234);
    const { clock, transport, client } = harness({ gate });
    transport.enqueue(json(200, { walletAddress: WALLET, vaultAddress: WALLET, deployed: true }, { "x-ratelimit-remaining": "9" }));
    await settle(clock, client.forWallet(WALLET).portfolio.vault());
    expect(gate.asked).toEqual([{ method: "GET", path: "/api/me/vault", wallet: WALLET }]);
    expect(gate.told).toHaveLength(1);
    expect(gate.told[0]).toMatchObject({ method: "GET", path: "/api/me/vault", wallet: WALLET, status: 200, sentAtMs: 1_234 });
    expect(gate.told[0]!.headers?.["x-ratelimit-remaining"]).toBe("9");
  });

  it("a public call names no wallet, and a gate without admission times sends no sentAtMs", async () => {
    const gate = recordingGate();
    const { clock, transport, client } = harness({ gate });
    transport.enqueue(json(200, { status: "ok" }));
    await settle(clock, client.health());
    expect(gate.asked).toEqual([{ method: "GET", path: "/health" }]);
    expect(gate.told).toEqual([{ method: "GET", path: "/health", status: 200, headers: expect.any(Object) as unknown }]);
  });

  it("is asked again for every resend, and told of the 429 that caused it", async () => {
    const gate = recordingGate();
    const { clock, transport, client } = harness({ gate });
    transport.enqueue(rateLimited(1), json(200, { status: "ok" }));
    await settle(clock, client.health());
    expect(gate.asked).toHaveLength(2);
    expect(gate.told.map((a) => a.status)).toEqual([429, 200]);
    expect(gate.told[0]!.headers?.["retry-after"]).toBe("1");
  });

  it("a gate that refuses (e.g. closed) fails the call before anything is sent", async () => {
    const gate: RequestGate = { acquire: () => Promise.reject(new Error("rate gate closed")), observe: () => undefined };
    const { clock, transport, client } = harness({ gate });
    await expect(settle(clock, client.health())).rejects.toThrow("rate gate closed");
    expect(transport.requests).toHaveLength(0);
  });

  it("src/ratelimit's RateGate fits the interface: its admission time comes back as sentAtMs", async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const rate = new RateGate({ clock, safetyMargin: 0 });
    const told: GateAnswer[] = [];
    const gate: RequestGate = { acquire: (r) => rate.acquire(r), observe: (a) => (told.push(a), rate.observe(a)) };
    const { transport, client } = harness({ gate, clock });
    transport.enqueue(json(200, { status: "ok" }));
    await settle(clock, client.health());
    expect(told[0]!.sentAtMs).toBe(Date.UTC(2026, 0, 1));
    rate.close();
  });
});
