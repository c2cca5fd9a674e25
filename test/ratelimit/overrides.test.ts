/**
 * A deployment's own numbers for 8.2 buckets (`platform.rateLimits`): the table with them applied,
 * unknown bucket ids refused by name in the daemon config and the scenario, the client's gate and
 * the simulator's limiter both on the overridden numbers.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { ConfigError, parseConfig } from "../../src/config/index.js";
import { BUCKET_IDS, DEFAULT_RATE_TABLE, platformGateOptions, rateTableWith, RateGate } from "../../src/ratelimit/index.js";
import { Pipeline } from "../../src/sim/http/pipeline.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { parseScenario } from "../../src/sim/platform/index.js";
import { Simulator } from "../../src/sim/simulator.js";
import { req, SCENARIO } from "../sim/http/helpers.js";

describe("rateTableWith", () => {
  it("no overrides: the default table itself", () => {
    expect(rateTableWith(undefined)).toBe(DEFAULT_RATE_TABLE);
    expect(rateTableWith({})).toBe(DEFAULT_RATE_TABLE);
  });

  it("applies limit and window to the named bucket only", () => {
    const t = rateTableWith({ "orders-post-ip": { limit: 300, windowSec: 10 }, "orders-place": { limit: 5 } });
    expect(t.rule("orders-post-ip")).toMatchObject({ limit: 300, windowSec: 10, scope: "ip" });
    expect(t.rule("orders-place")).toMatchObject({ limit: 5, windowSec: 1 });
    expect(t.rule("orders-cancel")).toEqual(DEFAULT_RATE_TABLE.rule("orders-cancel"));
    expect(t.bucketsFor("POST", "/api/orders/place").map((r) => `${r.id} ${r.limit}/${r.windowSec}`)).toEqual(["orders-post-ip 300/10", "orders-place 5/1"]);
  });

  it("refuses an unknown bucket id, naming the known ones", () => {
    expect(() => rateTableWith({ "orders-psot-ip": { limit: 1 } })).toThrow(/unknown rate bucket "orders-psot-ip" \(known: orders-post-ip, /);
  });

  it("the gate paces on the overridden numbers", () => {
    const clock = new VirtualClock(0);
    const gate = new RateGate({ clock, ...platformGateOptions({ rateLimitPerMin: 600, rateSafetyMargin: 0, rateLimits: { "orders-place": { limit: 2 } } }) });
    expect(gate.remainingFor("POST", "/api/orders/place", "0xw")).toBe(2);
  });
});

describe("platform.rateLimits in the daemon config", () => {
  const base = "mode: simulator\nstrategy:\n  name: ladder\nplatform:\n  rateLimits:\n";

  it("accepts known ids and keeps the numbers", () => {
    const c = parseConfig(base + "    orders-post-ip: { limit: 600, windowSec: 10 }\n", "c.yaml", {});
    expect(c.platform.rateLimits).toEqual({ "orders-post-ip": { limit: 600, windowSec: 10 } });
  });

  it("refuses an unknown id, a non-integer and an empty override, each with its line", () => {
    const text = base + "    orders-psot-ip: { limit: 600 }\n    orders-place: { limit: 2.5 }\n    orders-cancel: {}\n";
    let message = "";
    try {
      parseConfig(text, "c.yaml", {});
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as ConfigError).message;
    }
    expect(message).toMatch(/c\.yaml:6: platform\.rateLimits\.orders-psot-ip: unknown rate bucket "orders-psot-ip" \(known: orders-post-ip/);
    expect(message).toMatch(/c\.yaml:7: platform\.rateLimits\.orders-place\.limit: expected int/);
    expect(message).toMatch(/c\.yaml:8: platform\.rateLimits\.orders-cancel: give limit, windowSec or both/);
  });
});

describe("platform.rateLimits in a scenario", () => {
  const scenario = SCENARIO.replace('platform: { env: sim, keyPrefix: pmk, apiVersion: "2026-10-09" }', 'platform: { env: sim, keyPrefix: pmk, apiVersion: "2026-10-09", rateLimits: { markets-read-ip: { limit: 3, windowSec: 5 } } }');

  it("the simulator enforces the overridden ip bucket and its window", async () => {
    const id = DEFAULT_RATE_TABLE.bucketsFor("GET", "/api/markets").find((r) => r.scope === "ip")!.id;
    const clock = new VirtualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
    const sim = new Simulator(parseScenario(scenario.replace("markets-read-ip", id), "s.yaml"), { clock, pepper: new Uint8Array(32), flow: false });
    const pipeline = new Pipeline({ sim, routes: allRoutes() });
    for (let i = 0; i < 3; i++) expect((await pipeline.handle(req("GET", "/api/markets"))).status).toBe(200);
    const refused = await pipeline.handle(req("GET", "/api/markets"));
    expect(refused.status).toBe(429);
    expect(refused.headers["X-RateLimit-Limit"]).toBe("3");
    await clock.advance(5_000);
    expect((await pipeline.handle(req("GET", "/api/markets"))).status).toBe(200);
  });

  it("an unknown bucket id in a scenario is refused by name", () => {
    expect(() => parseScenario(scenario, "s.yaml")).toThrow(/unknown rate bucket "markets-read-ip"/);
  });

  it("every id the error lists is a bucket of the table", () => {
    expect(BUCKET_IDS.length).toBe(new Set(BUCKET_IDS).size);
  });
});
