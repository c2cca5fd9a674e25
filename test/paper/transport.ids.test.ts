// The paper transport numbers its answers' X-Request-Id per transport, so two runs in one process
// answer the same ids (reproducible reports and logs).
import { describe, expect, it } from "vitest";
import { constantLatency } from "../../src/backtest/models/latency.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros as m } from "../../src/core/money.js";
import { Rng } from "../../src/core/rng.js";
import { PaperAccount } from "../../src/paper/account.js";
import { PaperTransport } from "../../src/paper/transport.js";
import type { HttpResponse } from "../../src/wire/transport.js";

const W = "0x00000000000000000000000000000000000000aa";

async function ids(): Promise<string[]> {
  const clock = new VirtualClock();
  const account = new PaperAccount({ wallets: [W], startingCash: m("100"), queue: { kind: "risk-averse" }, now: () => clock.now() });
  const upstream = { request: (): Promise<HttpResponse> => Promise.reject(new Error("no public reads in this test")) };
  const t = new PaperTransport({ upstream, account, clock, latency: constantLatency(0, 0), rng: new Rng(1), vaultOf: () => W });
  const out: string[] = [];
  for (let i = 0; i < 3; i++) {
    const p = t.request({ method: "GET", path: "/api/me/balances", headers: { "x-user-wallet": W } });
    await clock.advance(1);
    const res = await p;
    out.push(res.headers["x-request-id"] ?? "");
  }
  return out;
}

describe("paper transport", () => {
  it("request ids count per transport: a second transport in the same process starts again at 1", async () => {
    const first = await ids();
    expect(first).toEqual(["paper-1", "paper-2", "paper-3"]);
    expect(await ids()).toEqual(first);
  });
});
