/**
 * The instrumented transport (src/metrics/http-instrument.ts): every request is timed on the clock
 * it is given and reported once with its method, raw path and status (undefined when no answer
 * came); the answer is handed back untouched and a failure is rethrown as it was.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { instrumentTransport } from "../../src/metrics/http-instrument.js";
import type { HttpRequestEvent } from "../../src/metrics/observer.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";

function setup(answer: (req: HttpRequest, clock: VirtualClock) => Promise<HttpResponse>) {
  const clock = new VirtualClock(1_000);
  const events: HttpRequestEvent[] = [];
  const seen: HttpRequest[] = [];
  const inner: Transport = {
    request: (req) => {
      seen.push(req);
      return answer(req, clock);
    },
  };
  const t = instrumentTransport(inner, { httpRequest: (e) => void events.push(e) }, clock);
  return { clock, events, seen, t };
}

describe("instrumentTransport", () => {
  it("reports method, raw path, status and the time the answer took; hands the answer and request through", async () => {
    const res: HttpResponse = { status: 201, headers: { "x-request-id": "r1" }, body: '{"ok":true}' };
    const { clock, events, seen, t } = setup(async (_req, c) => {
      await c.sleep(340);
      return res;
    });
    const req: HttpRequest = { method: "POST", path: "/api/orders/place?dry=1", headers: { "content-type": "application/json" }, body: "{}" };
    const p = t.request(req);
    expect(events).toEqual([]);
    await clock.advance(340);
    expect(await p).toBe(res);
    expect(seen).toEqual([req]);
    expect(events).toEqual([{ method: "POST", path: "/api/orders/place?dry=1", status: 201, durationMs: 340 }]);
  });

  it("an error answer is still an answer: its status is reported", async () => {
    const { events, t } = setup(() => Promise.resolve({ status: 429, headers: {}, body: "" }));
    expect((await t.request({ method: "GET", path: "/api/markets", headers: {} })).status).toBe(429);
    expect(events).toEqual([{ method: "GET", path: "/api/markets", status: 429, durationMs: 0 }]);
  });

  it("no answer: reported with status undefined after the time it took, and the same error rethrown", async () => {
    const boom = new Error("socket hang up");
    const { clock, events, t } = setup(async (_req, c) => {
      await c.sleep(10_000);
      throw boom;
    });
    const p = t.request({ method: "GET", path: "/api/me/balances", headers: {} }).catch((e: unknown) => e);
    await clock.advance(10_000);
    expect(await p).toBe(boom);
    expect(events).toEqual([{ method: "GET", path: "/api/me/balances", status: undefined, durationMs: 10_000 }]);
  });

  it("each request is one observation (a retry made by the caller is another)", async () => {
    let n = 0;
    const { events, t } = setup(() => Promise.resolve({ status: n++ === 0 ? 503 : 200, headers: {}, body: "" }));
    await t.request({ method: "GET", path: "/api/orders/open", headers: {} });
    await t.request({ method: "GET", path: "/api/orders/open", headers: {} });
    expect(events.map((e) => e.status)).toEqual([503, 200]);
  });
});
