/**
 * The order-entry round trips of a recording (data/latencies.ts): from the latency rows of a data
 * set, sealed or not, the answered (2xx) requests of the place and cancel classes only, in ms,
 * ascending; every latency row counted, other kinds not.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import type { NewEvent } from "../../src/data/events.js";
import { readOrderRoundTrips } from "../../src/data/latencies.js";
import { DataSetWriter } from "../../src/data/writer.js";
import { dataSetSandbox } from "./sandbox.js";

const T0 = Date.UTC(2026, 0, 1);

const latency = (routeClass: string | undefined, status: number, latencyMs: number): NewEvent => ({
  kind: "latency",
  ts: T0,
  method: "POST",
  route: "/api/orders/place",
  ...(routeClass === undefined ? {} : { routeClass }),
  status,
  latencyMs,
  serverTs: T0,
});

let dir: string;
const openWriter = dataSetSandbox("mm-latencies-", (d) => (dir = d));

describe("recorded order round trips", () => {
  it("are the answered place and cancel requests, ascending, over sealed and unsealed segments", async () => {
    const w = await openWriter({ dir, clock: new VirtualClock(T0) });
    for (const e of [latency("place", 201, 40), latency("cancel", 200, 12), latency("read", 200, 5), latency("place", 429, 1), latency("place", 500, 2), latency(undefined, 201, 3)]) w.append(e);
    w.append({ kind: "trade", ts: T0, id: "t", symbol: "M", outcome: 0, side: "BUY", price: 1n, quantity: 1n, tradeTs: T0 });
    w.rotate();
    for (const e of [latency("cancel", 299, 25), latency("place", 300, 7), latency("place", 200, 12)]) w.append(e);
    expect(await readOrderRoundTrips(dir)).toEqual({ roundTripsMs: [12, 12, 25, 40], rows: 9 });
  });

  it("are none in a data set without latency rows, or without a data set", async () => {
    expect(await readOrderRoundTrips(join(dir, "none"))).toEqual({ roundTripsMs: [], rows: 0 });
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    w.append({ kind: "gap", ts: T0, symbol: "M", fromTs: 0, toTs: 1, reason: "r" });
    w.close();
    expect(await readOrderRoundTrips(dir)).toEqual({ roundTripsMs: [], rows: 0 });
  });
});
